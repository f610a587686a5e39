"""Independent jobs run in completion order: in this process, on a pool of fresh local processes,
or on a Dask cluster (a scheduler's address, or "local" for a ``LocalCluster`` on the loopback
interface). Workers only compute and send their result back; the caller stores each result as it
arrives, so what is stored never depends on where a job ran, and a run killed at any moment
loses at most the jobs in flight.

Interruption: a Ctrl-C (SIGINT) to the main process is held while the caller handles a result
(so a result being stored is stored whole); then the local workers are killed, the results
that arrived but were not handed out yet are handed out, and ``KeyboardInterrupt`` is raised:
a caller that stores each result as it comes stores every finished job.
Local workers ignore SIGINT from their start (their parent decides) and die with their parent,
however it ends (Linux: ``PR_SET_PDEATHSIG``; elsewhere a thread watching the parent's pid).

Local workers are spawned, not forked (numba's threads do not survive a fork), so each imports
the caller's main script again: a script that calls the lab at its top level, outside an
``if __name__ == "__main__":`` block, would call it again in every worker, which Python's
multiprocessing refuses in tracebacks and a ``BrokenProcessPool``. The pool refuses such a call
in one line before it starts a process (``unguarded_script``).
"""

from __future__ import annotations

import ast
import ctypes
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit

LOCAL_CLUSTER = "local"
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_POLL_SECONDS = 0.2  # how often the waiting main process looks up


def default_workers() -> int:
    """The number of cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def check_options(workers: int | None, scheduler: str | None) -> None:
    """Refuse a worker count below 1, one given with a remote cluster (which has its own), and
    a scheduler address nothing listens on (before anything is written)."""
    if workers is not None and workers < 1:
        raise ValueError(f"--workers {workers} must be at least 1")
    if scheduler is not None and scheduler != LOCAL_CLUSTER and workers is not None:
        raise ValueError("--workers applies to the local pool and --scheduler local only: "
                         "a remote Dask cluster brings its own workers")
    if scheduler is not None and scheduler != LOCAL_CLUSTER:
        _check_reachable(scheduler)


def _unreachable(address: str, reason: object) -> ValueError:
    return ValueError(f"cannot reach the Dask scheduler at {address!r} ({reason}): check the "
                      f"address (e.g. tcp://host:8786) or use --scheduler {LOCAL_CLUSTER}")


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Open and close a TCP connection to a ``tcp://host:port`` (or ``host:port``) scheduler:
    a refused or unresolvable address fails in a moment, not after Dask's retries. Other
    protocols are left to Dask."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return
    try:
        port = parts.port or 8786
        if not parts.hostname:
            raise ValueError("no host")
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except (OSError, ValueError) as error:
        raise _unreachable(address, error) from None


def unguarded_script() -> str | None:
    """The main script whose top-level code, outside an ``if __name__ == "__main__":`` block,
    is making this call, or None. Spawned workers import the main module again (Python's
    multiprocessing docs, "Safe importing of main module") and would run that code again;
    a main module run as ``python -m package`` (a package's ``__main__``) or without a file (a
    notebook, ``python -c``) is not imported again."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    name = getattr(getattr(main, "__spec__", None), "name", None) or ""
    if path is None or name == "__main__" or name.endswith(".__main__"):
        return None
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main)
                                     and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:
        return None
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    guarded = any(isinstance(node, ast.If) and _is_main_test(node.test)
                  and node.lineno <= frame.f_lineno <= node.end_lineno for node in tree.body)
    return None if guarded else path


def _is_main_test(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = {ast.dump(side) for side in (test.left, test.comparators[0])}
    return sides == {ast.dump(ast.Name("__name__", ast.Load())),
                     ast.dump(ast.Constant("__main__"))}


def _check_spawnable() -> None:
    """Refuse to start local processes from a script's unguarded top level
    (``unguarded_script``), in one line naming the script and the fix."""
    script = unguarded_script()
    if script is not None:
        raise RuntimeError(
            f"{script} calls the lab with worker processes from its top level: each spawned "
            "worker imports the script again and would run it again; put the call under "
            "`if __name__ == \"__main__\":` (docs/usage.md), or use one worker (workers=1)")


class _HeldInterrupt:
    """Within the block, a Ctrl-C (SIGINT) only sets ``caught`` (on the main thread; elsewhere
    the block changes nothing): a result being stored is stored whole."""

    def __init__(self) -> None:
        self.caught = False
        self._installed = False
        self._previous = None

    def _catch(self, signum, frame) -> None:
        self.caught = True

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._catch)
            self._installed = True
        return self

    def __exit__(self, *exc) -> None:
        if self._installed:  # None: a handler not set from Python; the default stands in
            signal.signal(signal.SIGINT,
                          signal.SIG_DFL if self._previous is None else self._previous)


def _hand_out(index: int, result: Any) -> Iterator[tuple[int, Any]]:
    """Yield one result with Ctrl-C held while the caller stores it; raise
    ``KeyboardInterrupt`` after, if one came."""
    with _HeldInterrupt() as held:
        yield index, result
    if held.caught:
        raise KeyboardInterrupt


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored during the block (on the main thread): processes started in it inherit
    the ignored signal through exec, so a Ctrl-C to the process group (a terminal's) never
    interrupts a worker still importing, before its initializer. One that comes in the block
    (the workers' launch, well under a second) is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _die_with_parent(parent: int) -> None:
    """Initializer of local workers: ignore SIGINT, and end when the parent ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="mctslab-parent-watch", daemon=True).start()


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's processes now (Python 3.14: ``kill_workers``)."""
    if hasattr(pool, "kill_workers"):
        pool.kill_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)


class Pool:
    """Where jobs run: this process, local processes or a Dask cluster. As a context manager it
    connects to a remote scheduler first, so an unusable cluster fails before the caller
    writes anything; ``completed`` then runs jobs. Local processes (or a local cluster) start
    at the first ``completed`` that needs them and serve the later ones, so a caller with
    several rounds of jobs (a race's looks) starts them and loads their kernels once; they end
    with the block, or at once when a round is interrupted or fails."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None):
        check_options(workers, scheduler)
        self.workers, self.scheduler = workers, scheduler
        self._client = None
        self._cluster = None
        self._executor: ProcessPoolExecutor | None = None
        self._size = 0  # the local processes or cluster workers started

    def __enter__(self) -> Self:
        if self.scheduler is not None and self.scheduler != LOCAL_CLUSTER:
            self._client = _connect(self.scheduler)
        return self

    def __exit__(self, *exc) -> None:
        self._close_local()
        if self._client is not None:
            self._client.close()
            self._client = None

    def _close_local(self) -> None:
        """End the local processes or the local cluster, if started."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        if self._cluster is not None:
            self._client.close()
            self._cluster.close()
            self._client = self._cluster = None

    def completed(self, function: Callable, jobs: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
        """(index into ``jobs``, ``function(*jobs[index])``) for every job, in completion
        order (see ``completed``)."""
        if not jobs:
            return
        workers = min(self.workers or default_workers(), len(jobs))
        local = self.scheduler == LOCAL_CLUSTER or (self.scheduler is None and workers > 1)
        if local and workers > self._size:  # none started yet, or too few for these jobs
            _check_spawnable()
            self._close_local()
            if self.scheduler == LOCAL_CLUSTER:
                self._cluster, self._client = _local_cluster(workers)
            else:
                self._executor = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_die_with_parent, initargs=(os.getpid(),))
            self._size = workers
        if self._client is not None:
            yield from _dask(self._client, function, jobs)
        elif self._executor is None:
            for i, job in enumerate(jobs):
                yield from _hand_out(i, function(*job))
        else:
            try:
                yield from _processes(self._executor, function, jobs)
            except BaseException:  # its workers were killed: the next round starts others
                self._executor, self._size = None, 0
                raise


def completed(function: Callable, jobs: Sequence[tuple], workers: int | None = None,
              scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """(index into ``jobs``, ``function(*jobs[index])``) for every job, in completion order.

    ``workers``: local processes, at most one per job (default: all cores); with one, the jobs
    run in this process (no start-up cost, compiled code loaded once). ``scheduler``: run on
    that Dask cluster instead. ``function`` must be importable by the workers (module level).
    """
    with Pool(workers, scheduler) as pool:
        yield from pool.completed(function, jobs)


def _processes(pool: ProcessPoolExecutor, function: Callable,
               jobs: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
    """``jobs`` on ``pool``'s processes, in completion order; interrupted, failed or left by
    the caller, the processes are killed (the module's docstring)."""
    with _sigint_ignored():  # workers that start now ignore SIGINT from their first line
        futures = {pool.submit(function, *job): i for i, job in enumerate(jobs)}
    waiting, handed = set(futures), set()
    try:
        try:
            while waiting:
                done, waiting = wait(waiting, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    handed.add(future)
                    yield from _hand_out(futures[future], future.result())
        except KeyboardInterrupt:
            _kill_workers(pool)
            # before handing out: a caller may leave this generator suspended, and its pool's
            # thread, still closing, raced the interpreter's exit hook into a traceback
            pool.shutdown(wait=True, cancel_futures=True)
            with _HeldInterrupt():  # arrived before the interrupt: the caller stores them
                for future, index in futures.items():
                    if (future not in handed and future.done() and not future.cancelled()
                            and future.exception() is None):
                        yield index, future.result()
            raise
    except BaseException:  # interrupted, a job's error, or the caller stopped: do not wait
        _kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        raise


def _connect(address: str):
    from distributed import Client

    _check_reachable(address)
    try:
        return Client(address, timeout="10s")
    except (OSError, ValueError, TypeError) as error:
        raise _unreachable(address, error) from None


def _dask(client, function: Callable, jobs: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
    from distributed import as_completed as dask_completed

    futures = client.map(function, *zip(*jobs), pure=False)
    index = {future.key: i for i, future in enumerate(futures)}
    try:
        for future, result in dask_completed(futures, with_results=True):
            yield from _hand_out(index[future.key], result)
    finally:
        client.cancel(futures)


def _local_cluster(workers: int):
    """A ``LocalCluster`` of ``workers`` processes on the loopback interface, and its client."""
    import logging

    from distributed import Client, LocalCluster

    # Dask's warnings (a task cancelled, a worker killed on shutdown) are what a Ctrl-C or a
    # refused run makes it say: the command's one line says what happened
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None,
                           silence_logs=logging.ERROR)
    return cluster, Client(cluster)
