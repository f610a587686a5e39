"""A results folder someone sent you is data, never a way to reach outside it: the lab writes
no file through a symbolic link the folder holds (its lock file, its reports, its figures, a
subfolder), and no function that reads a folder imports the plug-in modules it names unless
told to trust them."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.runtime.lock import LOCK_FILE, writing

CURVES = """
[study]
seed = 1
[[curves]]
tree = "constant(1,1)"
depth = 2
max_budget = 8
runs = 2
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def victim(tmp_path):
    """A file outside every results folder, which no command may change."""
    path = tmp_path / "outside" / "victim.txt"
    path.parent.mkdir()
    path.write_text("the user's own file\n")
    return path


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "folder"])
def test_a_lock_file_that_is_no_file_of_its_own_is_refused(kind, tmp_path, victim, capsys):
    """A ``.lock`` that is a link to another file (or a folder) is neither followed nor
    truncated: ``study run`` refuses in one line, and the linked file keeps its bytes."""
    folder = tmp_path / "received"
    folder.mkdir()
    lock = folder / LOCK_FILE
    {"symlink": lambda: lock.symlink_to(victim), "hardlink": lambda: os.link(victim, lock),
     "folder": lock.mkdir}[kind]()
    before = _digest(victim)
    with pytest.raises(ValueError, match="is not a lock file of the lab's"):
        with writing(folder):
            pass
    (tmp_path / "study.toml").write_text(CURVES)
    assert main(["study", "run", str(tmp_path / "study.toml"), "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{lock} is not a lock file" in err, err
    assert _digest(victim) == before
    assert sorted(path.name for path in folder.iterdir()) == [LOCK_FILE]
