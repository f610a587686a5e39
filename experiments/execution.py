"""Running a study: its unfinished shards on a local process pool or a Dask cluster
(``experiments.pool``).

Workers only compute (``count_failures``) and send back a few integers per shard; this process
writes every shard's file as soon as its result arrives, so the files never depend on where a
shard ran, and a run killed at any moment loses at most the shards in flight (Ctrl-C stores
every shard finished before it: ``experiments.pool``). Shards already stored are skipped;
damaged files (see ``study_store.read_shard``) are recomputed, and so are files of another
random-stream version of the engine (with a line saying so). One process writes a folder at a
time (``experiments.lock``); the scheduler, the folder and its permissions are checked before
anything is computed.
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from mcts import STREAM_VERSION

from .kernels import kernel_key
from .lock import writing
from .pool import Pool
from .shards import Shard, count_failures
from .study import Study
from .study_store import (
    check_shard_paths,
    claim_folder,
    read_shard,
    remove_temporary_files,
    stored_stream_version,
    write_shard,
)


@dataclass(frozen=True)
class RunSummary:
    """What one ``run_study`` call did."""

    shards: int  # shards of the whole study
    reused: int  # found finished on disk, not recomputed
    computed: int  # computed and stored by this call
    playouts: int  # playouts spent by this call
    seconds: float


def _count_on_one_thread(shard: Shard) -> np.ndarray:
    """``count_failures`` with the compiled engine on one thread: workers bring parallelism."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return count_failures(shard)
    finally:
        numba.set_num_threads(threads)


def kernel_order(shards: list[Shard]) -> list[Shard]:
    """``shards`` round-robin over the kernels they run on (``kernels.kernel_key``): the first
    shard of every kernel, then the second..., so that workers starting together compile
    different kernels rather than the same one twice."""
    groups: dict[tuple, list[Shard]] = {}
    for shard in shards:
        groups.setdefault(kernel_key(shard.curve), []).append(shard)
    rounds = itertools.zip_longest(*groups.values())
    return [shard for round_ in rounds for shard in round_ if shard is not None]


def _say_stale(folder: Path, pending: list[Shard]) -> None:
    """One line on stderr when stored shards of another random-stream version are recomputed."""
    versions = [stored_stream_version(folder, shard) for shard in pending]
    stale = sorted({v for v in versions if v is not None and v != STREAM_VERSION})
    if stale:
        count = sum(v in stale for v in versions)
        print(f"{folder}: recomputing {count} shard(s) stored by random-stream version(s) "
              f"{', '.join(map(str, stale))} of the engine (this one is version "
              f"{STREAM_VERSION}); results of two versions are never mixed", file=sys.stderr)


def run_study(
    study: Study,
    folder: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    interleave: bool = False,
    wait: bool = False,
) -> RunSummary:
    """Compute and store every unfinished shard of ``study`` in ``folder``.

    ``workers``: local processes (default: all cores); ``scheduler``: a Dask scheduler address,
    or "local" for a loopback ``LocalCluster``. ``progress``: a tqdm bar on stderr with shards
    done, playouts/s and ETA (default: when stderr is a terminal). A folder that holds another
    study is refused, and so is one that another process writes (``lock.FolderBusy``) unless
    ``wait``: then the run waits for it. The stored results are the same whatever the workers
    or backend.
    """
    with Pool(workers, scheduler) as pool, writing(folder, wait=wait):
        folder = claim_folder(folder, study.to_dict())
        remove_temporary_files(folder)
        shards = study.shards()
        check_shard_paths(folder, shards)
        pending = [shard for shard in shards if read_shard(folder, shard) is None]
        if interleave:
            pending = kernel_order(pending)
        _say_stale(folder, pending)
        total = sum(shard.playouts for shard in shards)
        start = time.perf_counter()
        bar = tqdm(
            total=total,
            initial=total - sum(shard.playouts for shard in pending),
            unit=" playouts", unit_scale=True, desc=study.name, file=sys.stderr,
            dynamic_ncols=True,
            disable=not (sys.stderr.isatty() if progress is None else progress),
        )
        done, playouts = len(shards) - len(pending), 0
        with bar:
            bar.set_postfix_str(f"{done}/{len(shards)} shards")
            for i, failures in pool.completed(_count_on_one_thread,
                                              [(shard,) for shard in pending]):
                shard = pending[i]
                write_shard(folder, shard, failures)
                done += 1
                playouts += shard.playouts
                bar.update(shard.playouts)
                bar.set_postfix_str(f"{done}/{len(shards)} shards")
    return RunSummary(len(shards), len(shards) - len(pending), len(pending), playouts,
                      time.perf_counter() - start)
