"""Running studies with the real engine: the same stored numbers whatever the workers, the
backend (local pool or a loopback Dask cluster), the order, or a kill -9 and a resume."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.curves.failure import failure_block
from experiments.studies.execution import run_study
from experiments.studies.shards import count_failures
from experiments.studies.store import (
    SHARD_FOLDER,
    claim_folder,
    read_shard,
    shard_path,
    write_shard,
)
from experiments.studies.study import load_results, open_study
from mcts import STREAM_VERSION

# About 200 small shards: enough that a run is still writing them a moment after it started.
# One policy only: the engine compiles per policy, a few seconds in every fresh process.
STUDY = """
[study]
name = "small"
seed = 11
block = 2

[defaults]
branching = 4
depth = 4
runs = 150
max_budget = 64

[[curves]]
tree = "constant(1,3)"
adjuster = ["plain", "maxfreq"]

[[curves]]
tree = "random(4,3)"
branching = 2
trees = 4
runs = 25
max_budget = 32
adjuster = "value"
"""


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "small.toml"
    path.write_text(STUDY)
    return path


@pytest.fixture(scope="module")
def reference(study_file, tmp_path_factory):
    """The study computed uninterrupted, in this process (one worker)."""
    folder = tmp_path_factory.mktemp("reference")
    summary = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert summary.computed == summary.shards == 75 + 75 + 4 * 13
    return folder


def _stored(folder) -> dict[str, list[int]]:
    """Failure counts per shard key, as stored in ``folder``."""
    return {shard.key: read_shard(folder, shard).tolist() for shard in open_study(folder).shards()}


def test_counts_equal_the_engine_on_whole_curves(study_file, reference):
    """Shards of 2 runs sum to what one block of all runs gives: the split does not matter."""
    frame = load_results(reference)
    study = read_study(study_file)
    for curve in study.curves:
        seed = next(s.seed for s in study.shards() if s.curve == curve)
        whole = sum(failure_block(curve, j, 0, curve.runs, seed, tree_seed=study.seed)
                    .sum(axis=0) for j in range(curve.trees))
        rows = frame[frame.curve_key == curve.key]
        assert rows.failures.tolist() == whole.tolist()
        assert (rows.runs == curve.total_runs).all()
    plain = frame[(frame.tree == "constant(1,3)") & (frame.adjuster == "plain")]
    assert 0.6 < plain.failure_rate.iloc[0] < 0.9  # a random one of 4 root moves: 3/4 fail


def test_order_does_not_matter(study_file, reference, tmp_path):
    study = read_study(study_file)
    folder = tmp_path / "shuffled"
    claim_folder(folder, study.to_dict())
    shards = study.shards()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # blocks of 2 runs: waking more threads costs more than it gains
    try:
        for index in np.random.default_rng(0).permutation(len(shards)):
            write_shard(folder, shards[index], count_failures(shards[index]))
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(load_results(folder), load_results(reference))


def test_progress_shows_shards_rate_and_eta(study_file, reference, tmp_path, capsys):
    folder = tmp_path / "progress"
    shutil.copytree(reference, folder)
    study = read_study(study_file)
    removed = study.shards()[::70]
    for shard in removed:
        shard_path(folder, shard).unlink()
    summary = run_study(study, folder, workers=1, progress=True)
    assert (summary.computed, summary.playouts) == (3, sum(s.playouts for s in removed))
    err = capsys.readouterr().err
    assert "202/202 shards" in err and "playouts/s" in err and "<00:00" in err


def test_dask_local_cluster_gives_the_same_rows(study_file, reference, tmp_path, capsys):
    argv = ["study", "run", str(study_file), "--out", str(tmp_path / "dask"),
            "--scheduler", "local", "--workers", "1", "--quiet"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert _stored(tmp_path / "dask") == _stored(reference)
    pd.testing.assert_frame_equal(load_results(tmp_path / "dask"), load_results(reference))


def test_damaged_shards_are_recomputed_and_finished_ones_kept(study_file, reference, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(reference, folder)
    shards = read_study(study_file).shards()
    partial, garbage, foreign, short = (shard_path(folder, s) for s in shards[3:7])
    partial.write_bytes(partial.read_bytes()[:100])
    garbage.write_bytes(b"\x00" * 64)
    shutil.copy(shard_path(folder, shards[0]), foreign)
    pq.write_table(pq.read_table(short).slice(1), short)
    kept = {p: p.stat().st_mtime_ns for p in (folder / SHARD_FOLDER).iterdir()
            if p not in (partial, garbage, foreign, short)}
    summary = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert (summary.computed, summary.reused) == (4, len(shards) - 4)
    assert all(p.stat().st_mtime_ns == mtime for p, mtime in kept.items())
    assert _stored(folder) == _stored(reference)
    again = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert (again.computed, again.playouts) == (0, 0)


def test_killed_study_resumes_to_the_same_rows(study_file, reference, tmp_path):
    """kill -9 a two-worker run once a third of its shards are stored, resume it with one
    worker: the same rows as the uninterrupted one-worker run."""
    folder = tmp_path / "killed"
    shards = folder / SHARD_FOLDER
    total = len(read_study(study_file).shards())
    command = [sys.executable, "-m", "experiments.cli", "study", "run", str(study_file),
               "--out", str(folder), "--workers", "2", "--quiet"]
    process = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not shards.is_dir() or len(list(shards.glob("*.parquet"))) < total // 3:
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "too few shards written within 120 s"
        time.sleep(0.002)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    process.stderr.close()
    (shards / ".left-by-a-killed-run.parquet.tmp").write_bytes(b"PAR1")
    done = len(list(shards.glob("*.parquet")))
    assert done < total, f"the run was not killed mid-way ({done}/{total} shards)"
    summary = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert (summary.reused, summary.computed) == (done, total - done)  # atomic writes
    assert not any(p.name.endswith(".tmp") for p in shards.iterdir())
    assert _stored(folder) == _stored(reference)
    pd.testing.assert_frame_equal(load_results(folder), load_results(reference))


def test_study_run_command_reports_and_resumes(study_file, reference, tmp_path, capsys):
    folder = tmp_path / "cli"
    shutil.copytree(reference, folder)
    next(Path(folder, SHARD_FOLDER).glob("*.parquet")).unlink()
    argv = ["study", "run", str(study_file), "--out", str(folder), "--workers", "1"]
    assert main(argv) == 0
    assert "(1 computed, 201 already stored)" in capsys.readouterr().out
    assert main(argv) == 0
    assert "all 202 shards already stored" in capsys.readouterr().out


def _restamp(path: Path, version: int | None) -> None:
    """Rewrite a stored shard as if another random-stream version (None: a file from before
    versions were recorded) had written it."""
    table = pq.read_table(path)
    metadata = json.loads(table.schema.metadata[b"mctslab"])
    metadata.pop("stream_version")
    if version is not None:
        metadata["stream_version"] = version
    pq.write_table(table.replace_schema_metadata({b"mctslab": json.dumps(metadata)}), path)


def test_shards_of_another_stream_version_are_recomputed(study_file, reference, tmp_path,
                                                         capsys):
    folder = tmp_path / "resumed"
    shutil.copytree(reference, folder)
    shards = open_study(folder).shards()
    _restamp(shard_path(folder, shards[0]), None)  # the first layout's: version 1
    _restamp(shard_path(folder, shards[1]), STREAM_VERSION + 1)
    _restamp(shard_path(folder, shards[2]), STREAM_VERSION)
    assert [read_shard(folder, shard) is None for shard in shards[:3]] == [True, True, False]
    assert len(load_results(folder)) == len(load_results(reference))  # runs of them left out
    assert load_results(folder).runs.sum() < load_results(reference).runs.sum()

    summary = run_study(read_study(study_file), folder, workers=1, progress=False)
    assert (summary.computed, summary.reused) == (2, summary.shards - 2)
    said = capsys.readouterr().err
    assert (f"recomputing 2 shard(s) stored by random-stream version(s) 1, {STREAM_VERSION + 1}"
            in said)
    assert _stored(folder) == _stored(reference)


def test_each_kernel_is_readied_once_before_the_shards(study_file, tmp_path, monkeypatch):
    """A run readies every kernel its shards need, each once, before the first shard
    (``execution.ready_kernels``): two workers meeting a kernel together each compiled it."""
    from experiments.curves.kernels import kernel_key
    from experiments.studies import execution

    calls = []
    ready, count = execution.ready_kernel, execution.count_failures

    def record_ready(curve):
        calls.append(("kernel", kernel_key(curve)))
        return ready(curve)

    def record_shard(shard):
        calls.append(("shard", kernel_key(shard.curve)))
        return count(shard)

    monkeypatch.setattr(execution, "ready_kernel", record_ready)
    monkeypatch.setattr(execution, "count_failures", record_shard)
    study = read_study(study_file)
    run_study(study, tmp_path / "ready", workers=1, progress=False)
    needed = list(dict.fromkeys(kernel_key(shard.curve) for shard in study.shards()))
    assert len(needed) == 2  # b = 4 and b = 2
    assert calls[:len(needed)] == [("kernel", key) for key in needed]
    assert sum(kind == "shard" for kind, _ in calls) == len(study.shards())
