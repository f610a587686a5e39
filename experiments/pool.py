"""Independent jobs run in completion order: in this process, on a pool of fresh local processes,
or on a Dask cluster (a scheduler's address, or "local" for a ``LocalCluster`` on the loopback
interface). Workers only compute and send their result back; the caller stores each result as it
arrives, so what is stored never depends on where a job ran, and a run killed at any moment
loses at most the jobs in flight.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

LOCAL_CLUSTER = "local"


def default_workers() -> int:
    """The number of cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def check_options(workers: int | None, scheduler: str | None) -> None:
    """Refuse a worker count below 1, and one given with a remote cluster (which has its own)."""
    if workers is not None and workers < 1:
        raise ValueError(f"--workers {workers} must be at least 1")
    if scheduler is not None and scheduler != LOCAL_CLUSTER and workers is not None:
        raise ValueError("--workers applies to the local pool and --scheduler local only: "
                         "a remote Dask cluster brings its own workers")


def completed(function: Callable, jobs: Sequence[tuple], workers: int | None = None,
              scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """(index into ``jobs``, ``function(*jobs[index])``) for every job, in completion order.

    ``workers``: local processes, at most one per job (default: all cores); with one, the jobs
    run in this process (no start-up cost, compiled code loaded once). ``scheduler``: run on
    that Dask cluster instead. ``function`` must be importable by the workers (module level).
    """
    check_options(workers, scheduler)
    if not jobs:
        return
    workers = min(workers or default_workers(), len(jobs))
    if scheduler is not None:
        yield from _dask(function, jobs, scheduler, workers)
    elif workers == 1:
        for i, job in enumerate(jobs):
            yield i, function(*job)
    else:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            futures = {pool.submit(function, *job): i for i, job in enumerate(jobs)}
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _dask(function: Callable, jobs: Sequence[tuple], address: str,
          workers: int) -> Iterator[tuple[int, Any]]:
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
        futures = client.map(function, *zip(*jobs), pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        for future, result in dask_completed(futures, with_results=True):
            yield index[future.key], result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
