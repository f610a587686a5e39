"""Concurrent and interrupted runs keep what was computed:
one writer per folder, Ctrl-C stores every finished shard and stops at once, workers die with
their parent, files are readable by others under the usual umask."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.runtime.lock import LOCK_FILE, FolderBusy, writing
from experiments.runtime.pool import Pool
from experiments.runtime.store import KeyedStore, write_atomically, write_table
from experiments.studies.execution import run_study
from experiments.studies.store import SHARD_FOLDER, read_shard
from experiments.studies.study import open_study

# A first shard of about 0.3 s on one core, then two of about 3 s: a run interrupted once the
# first is stored has both long ones in flight, and must not wait for them. One policy, adjuster
# and branching factor: one kernel, compiled once.
STUDY = """
[study]
name = "interrupted"
seed = 17
block = 1500

[defaults]
tree = "constant(1,3)"
branching = 2
depth = 16
max_budget = 16384

[[curves]]
runs = 150

[[curves]]
runs = 3000
"""


# Four shards of about 0.3 s: a run that is still writing when a second one starts.
SHORT = STUDY.replace("block = 1500", "block = 150").split("[[curves]]")[0] + """
[[curves]]
runs = 600
"""


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "interrupted.toml"
    path.write_text(STUDY)
    return path


@pytest.fixture(scope="module")
def short_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "short.toml"
    path.write_text(SHORT)
    return path


def _reference(path, folder):
    """The study computed uninterrupted, in this process."""
    run_study(read_study(path), folder, workers=1, progress=False)
    return folder


def _stored(folder) -> dict[str, list[int] | None]:
    """Failure counts per shard key as stored in ``folder`` (None: not stored)."""
    return {shard.key: (None if (counts := read_shard(folder, shard)) is None
                        else counts.tolist())
            for shard in open_study(folder).shards()}


def _command(study_file, folder, *options) -> list[str]:
    return [sys.executable, "-m", "experiments.cli", "study", "run", str(study_file), "--out",
            str(folder), "--quiet", *options]


def _wait_for(condition, process, seconds=120.0, what="") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, f"the run ended early: {process.stderr.read()}"
        assert time.monotonic() < deadline, f"not {what} within {seconds} s"
        time.sleep(0.01)


def _interrupt_when(command: list[str], ready, what: str) -> tuple[int, str]:
    """Start ``command``, send it SIGINT once ``ready(process)`` holds, and return its exit
    code and standard error."""
    run = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: ready(run), run, what=what)
        run.send_signal(signal.SIGINT)
        return run.wait(timeout=60), run.stderr.read()
    finally:
        run.kill()
        run.wait()
        run.stderr.close()


def _descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pids) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _shards(folder) -> list[Path]:
    return list((Path(folder) / SHARD_FOLDER).glob("*.parquet"))


def test_second_writer_refuses_or_waits_and_numbers_are_a_single_runs(
        short_file, tmp_path, capsys):
    """While a run writes a folder, a second `study run` on it refuses at once (exit 2, one
    line naming the first's pid); with --wait it waits, then finds every shard stored. The
    first run is not disturbed and the numbers are those of a single run."""
    folder = tmp_path / "shared"
    first = subprocess.Popen(_command(short_file, folder, "--workers", "1"),
                             stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: f'"pid": {first.pid}' in _read(folder / LOCK_FILE), first,
                  what="locked")
        argv = ["study", "run", str(short_file), "--out", str(folder), "--workers", "1"]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"is being written by pid {first.pid} on host" in err, err
        assert "--wait" in err and err.count("\n") == 1
        assert first.poll() is None, "the refused run ended the first"
        assert main([*argv, "--wait"]) == 0
        captured = capsys.readouterr()
        assert "waiting for it to finish" in captured.err
        assert "all 4 shards already stored" in captured.out
        assert first.wait(timeout=60) == 0, first.stderr.read()
    finally:
        first.kill()
        first.wait()
        first.stderr.close()
    assert _stored(folder) == _stored(_reference(short_file, tmp_path / "reference"))
    assert not list(folder.rglob("*.tmp"))


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def test_the_lock_is_one_per_folder_and_reentrant(tmp_path):
    with writing(tmp_path / "a"):
        with writing(tmp_path / "a"):  # the same process again: fine
            pass
        code = ("import sys; from experiments.runtime.lock import writing\n"
                f"with writing({str(tmp_path / 'a')!r}): pass")
        other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=False)
        assert other.returncode == 1 and FolderBusy.__name__ in other.stderr
        assert f"pid {os.getpid()}" in other.stderr
        with writing(tmp_path / "b"):  # another folder: free
            pass
    holder = json.loads((tmp_path / "a" / LOCK_FILE).read_text())
    assert holder["pid"] == os.getpid() and holder["host"] and holder["since"]
    subprocess.run([sys.executable, "-c", code], check=True)  # released


def test_a_busy_folder_names_wait_only_where_the_command_has_it(tmp_path, capsys):
    """`study repair` and `reproduce` have no --wait, so their refusal of a
    folder another process writes does not suggest one; `study run` has it, and does."""
    folder = tmp_path / "busy"
    code = ("import sys; from experiments.runtime.lock import writing\n"
            f"with writing({str(folder)!r}):\n    print('held', flush=True); sys.stdin.read()")
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        for argv, offers_wait in ((["study", "repair", str(folder)], False),
                                  (["reproduce", "imagawa", "--out", str(folder)], False),
                                  (["study", "run", str(tmp_path / "none.toml"), "--out",
                                    str(folder)], True)):
            if offers_wait:
                (tmp_path / "none.toml").write_text(TINY)
            assert main(argv) == 2
            err = capsys.readouterr().err
            assert f"is being written by pid {holder.pid}" in err and err.count("\n") == 1
            assert ("--wait" in err) == offers_wait, err
    finally:
        holder.kill()
        holder.wait()


def test_ctrl_c_stops_at_once_and_keeps_every_finished_shard(study_file, tmp_path):
    """SIGINT to the main pid of a two-worker run once its first shard is stored: it ends
    within 2 s (exit 130), every shard it finished is stored whole, no child process is left;
    a rerun computes only the rest, to the numbers of an uninterrupted run."""
    folder = tmp_path / "interrupted"
    run = subprocess.Popen(_command(study_file, folder, "--workers", "2"),
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for(lambda: len(_shards(folder)) >= 1, run, what="a shard stored")
        children = _descendants(run.pid)
        stored_before = len(_shards(folder))
        start = time.monotonic()
        run.send_signal(signal.SIGINT)
        code = run.wait(timeout=10)
        seconds = time.monotonic() - start
        err = run.stderr.read()
        assert code == 130 and seconds < 2.0, (code, seconds, err)
        assert "interrupted; results already written are kept" in err
        assert err.count("\n") == 1, err
        deadline = time.monotonic() + 5
        while _alive(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(children), "child processes left behind"
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.wait()
        run.stderr.close()
    stored = _stored(folder)
    done = [key for key, counts in stored.items() if counts is not None]
    assert stored_before <= len(done) < len(stored), "not interrupted mid-way"
    assert len(_shards(folder)) == len(done)  # every file there is a whole shard
    assert not list(folder.rglob("*.tmp"))
    reference_counts = _stored(_reference(study_file, tmp_path / "reference"))
    assert all(stored[key] == reference_counts[key] for key in done)
    summary = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert (summary.reused, summary.computed) == (len(done), len(stored) - len(done))
    assert _stored(folder) == reference_counts


INTERRUPTED = "mctslab study: interrupted; results already written are kept\n"


# 200 shards of about 40 ms: a Ctrl-C mostly comes while the kernel runs
MANY = """
[study]
seed = 5
block = 20

[[curves]]
tree = "constant(1,3)"
max_budget = 16384
runs = 4000
"""


def test_ctrl_c_of_a_one_worker_run_is_one_line(tmp_path):
    """With one worker the shards are computed in the main process, in numba's kernel, which
    turns a Ctrl-C that comes while it runs into a SystemError when it next calls back into
    Python: still the one line and exit code of a run on two workers, and
    the shards kept."""
    (tmp_path / "many.toml").write_text(MANY)
    folder = tmp_path / "one"
    code, err = _interrupt_when(_command(tmp_path / "many.toml", folder, "--workers", "1"),
                                lambda run: len(_shards(folder)) >= 1, "a shard stored")
    assert (code, err) == (130, INTERRUPTED)
    stored = _stored(folder)
    assert 1 <= sum(counts is not None for counts in stored.values()) < len(stored)


@pytest.mark.parametrize("library", ["numpy", "llvmlite", "numba"])
def test_ctrl_c_while_the_program_starts_is_one_line(library, study_file, tmp_path):
    """A Ctrl-C while the program still imports its modules (its first second), once it has
    loaded ``library``'s compiled code: one line, exit code 130, nothing written."""
    folder = tmp_path / "early"
    code, err = _interrupt_when(
        _command(study_file, folder, "--workers", "1"),
        lambda run: f"/{library}/" in _read(Path(f"/proc/{run.pid}/maps")), f"{library} loaded")
    assert code == 130 and err.count("\n") == 1 and "interrupted" in err, err
    assert not folder.exists()


def test_workers_die_with_their_parent_even_after_kill_9(study_file, tmp_path):
    """kill -9 of the main pid while two 3-second shards are in flight: the workers end within
    a second (a worker still starting up when its parent dies ends once it is up)."""
    folder = tmp_path / "killed"
    run = subprocess.Popen(_command(study_file, folder, "--workers", "2"),
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # the first shard stored: the workers are up, the next (long) shards in flight
        _wait_for(lambda: len(_shards(folder)) >= 1, run, what="a shard stored")
        children = _descendants(run.pid)
        assert run.poll() is None and len(_shards(folder)) < 3, "the run ended before the kill"
        run.kill()  # the main process only, not its group
        run.wait()
        deadline = time.monotonic() + 1  # much less than the shards in flight take
        while _alive(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(children), "workers outlived their parent"
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.stderr.close()


TINY = """
[study]
seed = 3
block = 5

[[curves]]
tree = "constant(1,3)"
branching = 2
depth = 4
runs = 10
max_budget = 8
"""


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_a_pool_serves_its_rounds_with_the_same_processes():
    """Local processes start at the first round of jobs that needs them and serve the next
    (a race's looks load the kernels once), and end with the block."""
    with Pool(workers=2) as pool:
        first = {pid for _, pid in pool.completed(_pid_after, [(0.3,)] * 4)}
        second = {pid for _, pid in pool.completed(_pid_after, [(0.3,)] * 4)}
        assert len(first) == 2 and second == first and os.getpid() not in first
    deadline = time.monotonic() + 10
    while _alive(first) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(first)


SCRIPT = """import os
from experiments.runtime.pool import completed
{guard}print(sorted(i for i, _ in completed(os.getpid, [(), ()], workers=2)))
"""


def test_a_script_calling_the_lab_unguarded_is_told_so_before_any_worker_starts(tmp_path):
    """Spawned workers import the main script again: a call at its top level is refused in
    one line naming the guard, before a process starts (else: spawn tracebacks and a
    BrokenProcessPool); under ``if __name__ == "__main__":`` the workers run."""
    unguarded, guarded = tmp_path / "unguarded.py", tmp_path / "guarded.py"
    unguarded.write_text(SCRIPT.format(guard=""))
    guarded.write_text(SCRIPT.format(guard='if __name__ == "__main__":\n    '))
    refused = subprocess.run([sys.executable, str(unguarded)], capture_output=True, text=True,
                             timeout=60, check=False)
    last = refused.stderr.strip().splitlines()[-1]
    assert refused.returncode == 1 and last == (
        f"RuntimeError: {unguarded} calls the lab with worker processes from its top level: "
        "each spawned worker imports the script again and would run it again; put the call "
        'under `if __name__ == "__main__":` (docs/usage.md), or use one worker (workers=1)')
    assert "BrokenProcessPool" not in refused.stderr and "bootstrapping" not in refused.stderr
    ran = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert ran.returncode == 0 and ran.stdout == "[0, 1]\n", ran.stderr


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_files_follow_the_umask(umask, mode, tmp_path):
    """Results are written with the user's umask (0644 under 0022), as other programs' files:
    study.json and shards (a study run), compare.json and instances.parquet
    (write_atomically, write_table), tournament blocks (KeyedStore)."""
    import pandas as pd

    (tmp_path / "tiny.toml").write_text(TINY)
    frame = pd.DataFrame({"game": [0, 1], "a_score": [1.0, 0.0]})
    previous = os.umask(umask)
    try:
        folder = tmp_path / "study"
        run_study(read_study(tmp_path / "tiny.toml"), folder, workers=1, progress=False)
        write_atomically(tmp_path / "compare.json", b"{}\n")
        write_table(frame, tmp_path / "instances.parquet")
        KeyedStore(tmp_path / "blocks").write("b000", frame, {"block": 0})
    finally:
        os.umask(previous)
    written = [folder / "study.json", *_shards(folder), tmp_path / "compare.json",
               tmp_path / "instances.parquet", tmp_path / "blocks" / "b000.parquet"]
    assert len(written) == 6
    assert {str(p): oct(p.stat().st_mode & 0o777) for p in written} == \
        {str(p): oct(mode) for p in written}
