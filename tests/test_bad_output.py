"""Errors on the output side, one row per case: the command, its exit code, a fragment of the one
line it prints on stderr, and the files that must not change.

Every row runs the CLI's entry function in this process, with the engine replaced by a function
that fails the test if called: an output that cannot be written must be refused before anything
is computed. A read-only folder is read-only for root too: as root those rows run in a forked
child that drops to the user ``nobody``.
"""

import errno
import hashlib
import io
import os
import shutil
import socket
import sys
import tempfile
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.cli.commands import failure_rate
from experiments.comparisons.study_files import read_study
from experiments.runtime.lock import LOCK_FILE
from experiments.studies import execution
from experiments.studies.execution import run_study

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
NOBODY = 65534
AS_ROOT = os.geteuid() == 0


def _free_port() -> int:
    """A port nothing listens on (bound then closed at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def space():
    """A workspace every user can enter: a study file, a computed study and copies of it
    (read-only, damaged, a shard missing, a shard's path taken by a folder), a regular file, a
    folder named like a table and a read-only folder."""
    root = Path(tempfile.mkdtemp(prefix="mctslab-bad-output-"))
    root.chmod(0o755)
    (root / "tiny.toml").write_text(STUDY)
    run_study(read_study(root / "tiny.toml"), root / "done", workers=1, progress=False)
    (root / "a-file").write_text("not a folder\n")
    (root / "read-only").mkdir()
    shutil.copytree(root / "done", root / "read-only-study")
    shutil.copytree(root / "done", root / "damaged")
    (root / "damaged" / "study.json").write_text('{"name": "tiny", "seed": ')
    shutil.copytree(root / "done", root / "shard-folder")
    shard = next((root / "shard-folder" / "shards").glob("*.parquet"))
    shard.unlink()
    shard.mkdir()
    (root / "a-folder.csv").mkdir()
    shutil.copytree(root / "done", root / "incomplete")
    next((root / "incomplete" / "shards").glob("*.parquet")).unlink()
    for folder in (root / "read-only", root / "read-only-study",
                   root / "read-only-study" / "shards"):
        folder.chmod(0o555)
    yield root
    for folder in root.rglob("*"):
        if folder.is_dir():
            folder.chmod(0o755)
    shutil.rmtree(root)


def _snapshot(path: Path) -> dict:
    """Every file under ``path`` (or ``path`` itself): its bytes' digest and mode; the lock
    file aside (it names its last holder)."""
    if not path.exists():
        return {}
    files = [path] if not path.is_dir() else sorted(p for p in path.rglob("*")
                                                    if p.name != LOCK_FILE)
    return {str(p): (p.is_dir() or hashlib.sha256(p.read_bytes()).hexdigest(),
                     p.stat().st_mode) for p in files}


def _run_as(argv: list[str], user: int | None) -> tuple[int, str]:
    """``main(argv)``'s exit code and stderr, in this process, or in a forked child that runs
    as ``user``."""
    if user is None:
        err, saved = io.StringIO(), sys.stderr
        sys.stderr = err
        try:
            return main(argv), err.getvalue()
        finally:
            sys.stderr = saved
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 3
        try:
            os.close(read)
            os.setgid(user)
            os.setuid(user)
            sys.stderr = io.StringIO()
            code = main(argv)
            os.write(write, sys.stderr.getvalue().encode())
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        err = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), err


def _never(*args, **kwargs):
    raise AssertionError("computed before the output was known writable")


def _out_of_memory(*args, **kwargs):
    raise MemoryError


def _bug(*args, **kwargs):
    raise RuntimeError("a bug of the lab")


def _worker_killed(*args, **kwargs):
    raise BrokenProcessPool("A process in the process pool was terminated abruptly")


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "results/curve.csv")


FAILURE_RATE = ["failure-rate", "--tree", "constant(1,3)", "--branching", "2", "--depth", "4",
                "--runs", "4", "--max-budget", "8", "--quiet"]
STUDY_RUN = ["study", "run", "{root}/tiny.toml", "--workers", "1", "--quiet"]
TOURNAMENT = ["tournament", "breakthrough", "--a", "uct", "--b", "uct", "--games", "2",
              "--playouts", "5", "--block", "1", "--workers", "1"]
UNREACHABLE = "tcp://127.0.0.1:{port}"

# (id, argv, exit code, fragment of the line, paths that must not change, engine, run as nobody)
ROWS = [
    ("failure-rate --out under a file", [*FAILURE_RATE, "--out", "{root}/a-file/curve.csv"],
     2, "a-file: a file is in the way", ["a-file"], _never, False),
    ("failure-rate --plot under a file", [*FAILURE_RATE, "--plot", "{root}/a-file/x/c.png"],
     2, "a file is in the way", ["a-file"], _never, False),
    ("failure-rate --out is a folder", [*FAILURE_RATE, "--out", "{root}/a-folder.csv"],
     2, "a-folder.csv: a folder is in the way", ["a-folder.csv"], _never, False),
    ("failure-rate --out in a read-only folder",
     [*FAILURE_RATE, "--out", "{root}/read-only/curve.parquet"],
     2, "read-only: Permission denied", ["read-only"], _never, AS_ROOT),
    ("failure-rate --out below a read-only folder",
     [*FAILURE_RATE, "--out", "{root}/read-only/new/curve.csv"],
     2, "Permission denied", ["read-only"], _never, AS_ROOT),
    ("failure-rate out of memory", [*FAILURE_RATE], 2, "out of memory: ", [], _out_of_memory,
     False),
    ("a full disk", [*FAILURE_RATE], 2, "curve.csv: No space left on device: the disk is full",
     [], _disk_full, False),
    ("a worker killed by the system", [*STUDY_RUN, "--out", "{root}/incomplete"],
     2, "a worker process ended abruptly", ["incomplete"], _worker_killed, False),
    ("study run --out a file", [*STUDY_RUN, "--out", "{root}/a-file"],
     2, "is a file, not a folder", ["a-file"], _never, False),
    ("study run --out under a file", [*STUDY_RUN, "--out", "{root}/a-file/out"],
     2, "a-file/out: Not a directory", ["a-file"], _never, False),
    ("study run into a read-only folder", [*STUDY_RUN, "--out", "{root}/read-only/out"],
     2, "read-only/out: Permission denied", ["read-only"], _never, AS_ROOT),
    ("study resumed in a read-only folder", [*STUDY_RUN, "--out", "{root}/read-only-study"],
     2, "Permission denied: check its permissions", ["read-only-study"], _never, AS_ROOT),
    ("a shard path is a folder", [*STUDY_RUN, "--out", "{root}/shard-folder"],
     2, "is a folder, not a shard file: move it away", ["shard-folder"], _never, False),
    ("damaged study.json: run", [*STUDY_RUN, "--out", "{root}/damaged"],
     2, "mctslab study repair {root}/damaged --study STUDY.toml", ["damaged"], _never, False),
    ("damaged study.json: status", ["study", "status", "{root}/damaged"],
     2, "every stored shard is kept", ["damaged"], _never, False),
    ("damaged study.json: plot", ["plot", "{root}/damaged"],
     2, "`mctslab study repair", ["damaged"], _never, False),
    ("repair a sound study", ["study", "repair", "{root}/done"],
     2, "sound: nothing to repair", ["done"], _never, False),
    ("repair by another study's file",
     ["study", "repair", "{root}/damaged", "--study", "{root}/other.toml"],
     2, "are not shards of other", ["damaged"], _never, False),
    ("repair a file", ["study", "repair", "{root}/a-file"],
     2, "is not a folder", ["a-file"], _never, False),
    ("study run, unreachable scheduler",
     [*STUDY_RUN[:-3], "--quiet", "--scheduler", UNREACHABLE, "--out", "{root}/never"],
     2, "cannot reach the Dask scheduler", ["never"], _never, False),
    ("compare, unreachable scheduler",
     ["compare", "--trees", "constant(1,3)", "--policies", "ucb1", "--adjusters", "plain",
      "--runs", "2", "--max-budget", "4", "--scheduler", UNREACHABLE, "--out",
      "{root}/never"], 2, "cannot reach the Dask scheduler", ["never"], _never, False),
    ("tournament, unreachable scheduler",
     [*TOURNAMENT[:-2], "--scheduler", UNREACHABLE, "--out", "{root}/never"],
     2, "cannot reach the Dask scheduler", ["never"], _never, False),
    ("reproduce, unreachable scheduler",
     ["reproduce", "imagawa", "--scheduler", UNREACHABLE, "--out", "{root}/never"],
     2, "cannot reach the Dask scheduler", ["never"], _never, False),
    ("tournament --out a file", [*TOURNAMENT, "--out", "{root}/a-file"],
     2, "is a file, not a folder", ["a-file"], _never, False),
    ("tournament into a read-only folder", [*TOURNAMENT, "--out", "{root}/read-only/t"],
     2, "Permission denied", ["read-only"], _never, AS_ROOT),
    ("a bug of the lab", [*FAILURE_RATE], 1, "this is a bug in mctslab", [], _bug, False),
]


@pytest.mark.parametrize("argv, code, fragment, unchanged, engine, as_nobody",
                         [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_bad_output(argv, code, fragment, unchanged, engine, as_nobody, space, monkeypatch):
    (space / "other.toml").write_text(STUDY.replace('"tiny"', '"other"').replace("3\n", "4\n"))
    values = {"root": space, "port": _free_port()}
    argv = [part.format(**values) for part in argv]
    monkeypatch.setattr(failure_rate, "failure_counts", engine)
    monkeypatch.setattr(execution, "on_one_thread", engine)
    monkeypatch.setattr("experiments.tournaments.tournament.play_block", engine)
    before = {name: _snapshot(space / name) for name in unchanged}
    exit_code, err = _run_as(argv, NOBODY if as_nobody else None)
    assert exit_code == code, err
    assert fragment.format(**values) in err, err
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, err
    else:
        assert "Traceback" in err and "RuntimeError: a bug of the lab" in err
    assert {name: _snapshot(space / name) for name in unchanged} == before
