"""A results folder someone sent you is data, never a way to reach outside it: the lab writes
no file through a symbolic link the folder holds (its lock file, its reports, its figures, a
subfolder), and no function that reads a folder imports the plug-in modules it names unless
told to trust them."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.runtime.lock import LOCK_FILE, writing
from experiments.runtime.store import write_atomically
from experiments.studies import execution
from experiments.studies.execution import run_study

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
    with pytest.raises(ValueError, match="is not a lock file of the lab's"), writing(folder):
        pass
    (tmp_path / "study.toml").write_text(CURVES)
    assert main(["study", "run", str(tmp_path / "study.toml"), "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{lock} is not a lock file" in err, err
    assert _digest(victim) == before
    assert sorted(path.name for path in folder.iterdir()) == [LOCK_FILE]


STUDY = """
[study]
name = "tiny"
seed = 3
block = 5

[[curves]]
tree = "constant(1,3)"
branching = 2
depth = 4
runs = 10
max_budget = 8
"""
FIGURE = "constant(1,3)_b2_d4"  # plot's name for the study's one figure


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A finished study folder (the kernel of tests/test_bad_output.py's study)."""
    root = tmp_path_factory.mktemp("study")
    (root / "tiny.toml").write_text(STUDY)
    run_study(read_study(root / "tiny.toml"), root / "done", workers=1, progress=False)
    return root / "done"


def test_the_atomic_writer_replaces_a_link_never_its_target(tmp_path, victim):
    before = _digest(victim)
    link = tmp_path / "report.md"
    link.symlink_to(victim)
    assert write_atomically(link, b"the report\n") == link
    assert _digest(victim) == before
    assert not link.is_symlink() and link.read_bytes() == b"the report\n"


def test_plot_replaces_a_linked_figure_and_refuses_a_linked_figures_folder(
        study, tmp_path, victim, capsys):
    """``plot DIR`` writes ``DIR/figures``: a figure there that links to a file outside is
    replaced by the figure, the file keeps its bytes; ``DIR/figures`` itself a link is refused
    in one line and nothing is written where it points."""
    received = tmp_path / "received"
    shutil.copytree(study, received)
    (received / "figures").mkdir()
    figure = received / "figures" / f"{FIGURE}.pdf"
    figure.symlink_to(victim)
    before = _digest(victim)
    assert main(["plot", str(received), "--format", "pdf"]) == 0
    assert _digest(victim) == before
    assert not figure.is_symlink() and figure.read_bytes().startswith(b"%PDF")

    shutil.rmtree(received / "figures")
    (received / "figures").symlink_to(victim.parent, target_is_directory=True)
    capsys.readouterr()
    assert main(["plot", str(received), "--format", "pdf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{received / 'figures'} is a symbolic link inside the results folder" in err, err
    assert sorted(victim.parent.iterdir()) == [victim] and _digest(victim) == before


LINKED_OUTPUTS = [
    (["compare", "--trees", "constant(1,1)", "--depth", "2", "--policies", "ucb1",
      "--adjusters", "plain", "--runs", "2", "--trees-per-model", "1", "--max-budget", "8",
      "--quiet"], ["report.md", "report.html", "curves.csv", "failure_curves.png"]),
    (["bandit", "--arms", "bernoulli(0.9,0.8)", "--horizon", "10", "--runs", "2", "--policies",
      "ucb1", "--quiet"], ["bandit.csv", "report.md"]),
    (["tune", "--tree", "constant(1,1)", "--depth", "2", "--budget", "8", "--runs", "2",
      "--trees", "1", "--param", "c=0.1..2"], ["report.md", "tune.png", "tune.pdf"]),
]


@pytest.mark.parametrize(("argv", "outputs"), LINKED_OUTPUTS,
                         ids=[argv[0] for argv, _ in LINKED_OUTPUTS])
def test_reports_and_figures_replace_links_never_their_targets(argv, outputs, tmp_path,
                                                              capsys):
    """Each report, table and figure whose name in ``--out`` links to a file outside is
    written in place of the link; every file outside keeps its bytes."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    for name in outputs:
        (outside / name).write_text(f"the user's own {name}\n")
        (out / name).symlink_to(outside / name)
    before = {name: _digest(outside / name) for name in outputs}
    assert main([*argv, "--out", str(out)]) == 0, capsys.readouterr().err
    assert {name: _digest(outside / name) for name in outputs} == before
    assert not [name for name in outputs if (out / name).is_symlink()]
    assert all((out / name).stat().st_size > 0 for name in outputs)


def test_a_full_disk_while_a_pdf_is_written_is_one_line(study, tmp_path, capsys):
    """A file system that takes no more bytes (here a file size limit, which fails a write as a
    full disk does) in the middle of a PDF: one line naming the file, exit 2, no partial file.
    matplotlib writing into the file itself lost the error in its own clean-up."""
    out = tmp_path / "figures"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the limit kills the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, hard))
    try:
        code = main(["plot", str(study), "--format", "pdf", "--out", str(out)])
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1, err
    assert f"{out / FIGURE}.pdf: File too large" in err, err
    assert list(out.iterdir()) == []


def test_a_linked_shards_folder_is_refused_before_anything_is_computed(
        study, tmp_path, victim, capsys, monkeypatch):
    """``study run`` into a folder whose ``shards`` links outside: one line before the first
    run, and nothing is written (not even a probe) where the link points."""
    def never(*args, **kwargs):
        raise AssertionError("computed before the output was known writable")

    monkeypatch.setattr(execution, "on_one_thread", never)
    received = tmp_path / "received"
    shutil.copytree(study, received)
    shutil.rmtree(received / "shards")
    (received / "shards").symlink_to(victim.parent, target_is_directory=True)
    (tmp_path / "tiny.toml").write_text(STUDY)
    assert main(["study", "run", str(tmp_path / "tiny.toml"), "--out", str(received),
                 "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{received / 'shards'} is a symbolic link" in err, err
    assert sorted(victim.parent.iterdir()) == [victim]
