"""Running a study: its unfinished shards on a local process pool or a Dask cluster.

Workers only compute (``count_failures``) and send back a few integers per shard; this process
writes every shard's file as soon as its result arrives, so the files never depend on where a
shard ran, and a run killed at any moment loses at most the shards in flight. Shards already
stored are skipped; damaged files (see ``storage.read_shard``) are recomputed.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from .shards import Shard, count_failures
from .storage import claim_folder, read_shard, remove_temporary_files, write_shard
from .study import Study

LOCAL_CLUSTER = "local"


@dataclass(frozen=True)
class RunSummary:
    """What one ``run_study`` call did."""

    shards: int  # shards of the whole study
    reused: int  # found finished on disk, not recomputed
    computed: int  # computed and stored by this call
    playouts: int  # playouts spent by this call
    seconds: float


def default_workers() -> int:
    """The number of cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _count_on_one_thread(shard: Shard) -> np.ndarray:
    """``count_failures`` with the compiled engine on one thread: workers bring parallelism."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return count_failures(shard)
    finally:
        numba.set_num_threads(threads)


def _local_pool(shards: list[Shard], workers: int) -> Iterator[tuple[Shard, np.ndarray]]:
    """Results in completion order from a pool of ``workers`` fresh processes; one worker
    computes in this process (no start-up cost, the compiled engine is loaded once)."""
    if workers == 1:
        for shard in shards:
            yield shard, _count_on_one_thread(shard)
        return
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = {pool.submit(_count_on_one_thread, shard): shard for shard in shards}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(shards: list[Shard], address: str, workers: int) -> Iterator[tuple[Shard, np.ndarray]]:
    """Results in completion order from the Dask scheduler at ``address``, or from a
    ``LocalCluster`` of ``workers`` processes on the loopback interface when it is "local"."""
    from distributed import Client, LocalCluster
    from distributed import as_completed as dask_completed

    if address == LOCAL_CLUSTER:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(address, timeout="10s")
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(
                f"cannot reach the Dask scheduler at {address!r} ({error}): check the address "
                f"(e.g. tcp://host:8786) or use --scheduler {LOCAL_CLUSTER}"
            ) from None
    try:
        futures = client.map(_count_on_one_thread, shards, pure=False)
        by_key = {future.key: shard for future, shard in zip(futures, shards)}
        for future, result in dask_completed(futures, with_results=True):
            yield by_key[future.key], result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _check_options(workers: int | None, scheduler: str | None) -> None:
    if workers is not None and workers < 1:
        raise ValueError(f"--workers {workers} must be at least 1")
    if scheduler is not None and scheduler != LOCAL_CLUSTER and workers is not None:
        raise ValueError("--workers applies to the local pool and --scheduler local only: "
                         "a remote Dask cluster brings its own workers")


def _results(
    shards: list[Shard], workers: int | None, scheduler: str | None
) -> Iterable[tuple[Shard, np.ndarray]]:
    if not shards:
        return []
    workers = min(workers or default_workers(), len(shards))
    if scheduler is None:
        return _local_pool(shards, workers)
    return _dask(shards, scheduler, workers)


def run_study(
    study: Study,
    folder: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> RunSummary:
    """Compute and store every unfinished shard of ``study`` in ``folder``.

    ``workers``: local processes (default: all cores); ``scheduler``: a Dask scheduler address,
    or "local" for a loopback ``LocalCluster``. ``progress``: a tqdm bar on stderr with shards
    done, playouts/s and ETA (default: when stderr is a terminal). A folder that holds another
    study is refused. The stored results are the same whatever the workers or backend.
    """
    _check_options(workers, scheduler)
    folder = claim_folder(folder, study.to_dict())
    remove_temporary_files(folder)
    shards = study.shards()
    pending = [shard for shard in shards if read_shard(folder, shard) is None]
    total = sum(shard.playouts for shard in shards)
    start = time.perf_counter()
    bar = tqdm(
        total=total,
        initial=total - sum(shard.playouts for shard in pending),
        unit=" playouts", unit_scale=True, desc=study.name, file=sys.stderr, dynamic_ncols=True,
        disable=not (sys.stderr.isatty() if progress is None else progress),
    )
    done, playouts = len(shards) - len(pending), 0
    with bar:
        bar.set_postfix_str(f"{done}/{len(shards)} shards")
        for shard, failures in _results(pending, workers, scheduler):
            write_shard(folder, shard, failures)
            done += 1
            playouts += shard.playouts
            bar.update(shard.playouts)
            bar.set_postfix_str(f"{done}/{len(shards)} shards")
    return RunSummary(len(shards), len(shards) - len(pending), len(pending), playouts,
                      time.perf_counter() - start)
