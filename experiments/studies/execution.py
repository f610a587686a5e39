"""Running a study: its unfinished shards on a local process pool or a Dask cluster
(``experiments.runtime.pool``).

Workers first ready the kernels the shards need, each kernel on one worker (compiled once, then
loaded from numba's cache by the others), then only compute (``count_failures``) and send back a
few integers per shard; this process writes every shard's file as soon as its result arrives, so
the files never depend on where a shard ran, and a run killed at any moment loses at most the
shards in flight (Ctrl-C stores every shard finished before it: ``experiments.runtime.pool``).
Shards already stored are skipped; damaged files (see ``store.read_shard``) are recomputed, and
so are files of another random-stream version of the engine (with a line saying so). One process
writes a folder at a time (``experiments.runtime.lock``); the scheduler, the folder and its
permissions are checked before anything is computed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
from tqdm import tqdm

from mcts import STREAM_VERSION

from ..curves.curve import Curve
from ..curves.kernels import KernelProgress, distinct_kernels, ready_kernel
from ..runtime.lock import writing
from ..runtime.pool import Pool
from .shards import Shard, count_failures
from .store import (
    check_shard_paths,
    claim_folder,
    read_shard,
    remove_temporary_files,
    stored_stream_version,
    write_shard,
)
from .study import Study


@dataclass(frozen=True)
class RunSummary:
    """What one ``run_study`` call did."""

    shards: int  # shards of the whole study
    reused: int  # found finished on disk, not recomputed
    computed: int  # computed and stored by this call
    playouts: int  # playouts spent by this call
    seconds: float  # wall
    search_seconds: float = 0.0  # summed over workers: searching
    kernel_seconds: float = 0.0  # summed over workers: compiling or loading kernels

    def speed(self, first_seconds: float = 0.0) -> str:
        """The call's time in words: wall seconds, the search speed per worker, and the time
        kernels took to compile or load apart from it, in the workers and, ``first_seconds``,
        in this process before they started (a plug-in's, ``kernels.check_plugins``)."""
        rate = self.playouts / self.search_seconds if self.search_seconds > 0 else float("nan")
        first = (f"; plug-in kernels compiled or loaded first, in this process, in "
                 f"{first_seconds:.1f} s" if first_seconds >= 0.05 else "")
        return (f"{self.playouts:,} playouts in {self.seconds:.1f} s ({rate:,.0f} playouts/s "
                f"per worker searching; kernels compiled or loaded in {self.kernel_seconds:.1f} "
                f"worker-s, once, then cached{first})")


def ready_kernels(pool: Pool, curves: Iterable[Curve], kernels: KernelProgress) -> Iterator[None]:
    """Ready each kernel ``curves`` need once, on one of ``pool``'s workers (compiled, or
    loaded from numba's cache), noted in ``kernels``; yields as each is ready. Run before the
    work: workers that first met a kernel together each compiled it (the main job compiled
    its three kernels twice)."""
    first = distinct_kernels(curves)
    for i, seconds in pool.completed(ready_kernel, [(curve,) for curve in first]):
        kernels.readied(first[i], seconds)
        yield


def on_one_thread(compute, curve: Curve, *args) -> tuple[Any, float, float]:
    """``compute(*args)`` with the compiled engine on one thread (workers bring parallelism),
    ``curve``'s kernel readied first (``kernels.ready_kernel``); returns its value, the seconds
    spent readying the kernel and the seconds computing, so that the speed a run reports
    counts search time only."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        kernel_seconds = ready_kernel(curve)
        start = time.perf_counter()
        value = compute(*args)
        return value, kernel_seconds, time.perf_counter() - start
    finally:
        numba.set_num_threads(threads)


def instance_order(shards: list[Shard]) -> list[Shard]:
    """``shards`` grouped by the tree instance they search (tree spec, shape and index), the
    instances in the order they first appear, each group in its shards' order: consecutive
    shards then find their instance among those a worker keeps (``failure.tree_instance``),
    where a study's curves one after another drew every large tree again for each curve."""
    groups: dict[tuple, list[Shard]] = {}
    for shard in shards:
        curve = shard.curve
        key = (curve.tree, curve.branching, curve.depth, shard.tree_index)
        groups.setdefault(key, []).append(shard)
    return [shard for group in groups.values() for shard in group]


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
    wait: bool = False,
) -> RunSummary:
    """Compute and store every unfinished shard of ``study`` in ``folder``.

    ``workers``: local processes (default: all cores); ``scheduler``: a Dask scheduler address,
    or "local" for a loopback ``LocalCluster``. ``progress``: a tqdm bar on stderr with shards
    done, playouts/s and ETA (default: when stderr is a terminal). A folder that holds another
    study is refused, and so is one that another process writes
    (``runtime.lock.FolderBusy``) unless ``wait``: then the run waits for it. The stored results
    are the same whatever the workers or backend.
    """
    with Pool(workers, scheduler) as pool, writing(folder, wait=wait):
        folder = claim_folder(folder, study.to_dict())
        remove_temporary_files(folder)
        shards = study.shards()
        check_shard_paths(folder, shards)
        pending = instance_order([shard for shard in shards
                                  if read_shard(folder, shard) is None])
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
        done, playouts, searching = len(shards) - len(pending), 0, 0.0
        kernels = KernelProgress([shard.curve for shard in pending])
        if pending and not bar.disable:
            bar.write(kernels.announce(), file=sys.stderr)
        with bar:
            bar.set_postfix_str(_note(done, len(shards), kernels))
            for _ in ready_kernels(pool, (shard.curve for shard in pending), kernels):
                bar.set_postfix_str(_note(done, len(shards), kernels))
            jobs = [(count_failures, shard.curve, shard) for shard in pending]
            for i, (failures, kernel_seconds, seconds) in pool.completed(on_one_thread, jobs):
                shard = pending[i]
                write_shard(folder, shard, failures)
                kernels.finished(i, kernel_seconds)
                done += 1
                playouts += shard.playouts
                searching += seconds
                bar.set_postfix_str(_note(done, len(shards), kernels), refresh=False)
                bar.update(shard.playouts)
    return RunSummary(len(shards), len(shards) - len(pending), len(pending), playouts,
                      time.perf_counter() - start, searching, kernels.seconds)


def _note(done: int, total: int, kernels: KernelProgress) -> str:
    """The bar's note: shards done, and the kernels being compiled if any."""
    note = kernels.note()
    return f"{done}/{total} shards" + (f"; {note}" if note else "")
