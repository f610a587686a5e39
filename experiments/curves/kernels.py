"""The search kernels a set of curves needs: which they are (``kernel_key``), and compiling
them ahead, each once, spread over processes (``prepare_kernels``), so that a command's
workers never compile the same kernel twice at once and its progress says what it waits for.

A kernel is compiled per policy, branching factor and integer type of the tree's scores, and
per plug-in adjuster, backup rule or reward rule, and per root policy (``mcts.core.root_policies``)
(docs/performance.md); compiled once, it is loaded from numba's cache in about 0.3 s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator

from mcts.core.root_specs import parse_root, root_name

from ..runtime.pool import completed
from .curve import Curve
from .failure import tree_instance, warm_up
from .plugin_check import plugin_errors, plugin_specs


def kernel_key(curve: Curve) -> tuple:
    """What selects ``curve``'s kernel: the policy, b, the scores' integer type, the
    plug-in adjuster, backup rule and reward rule if any, and the root policy choosing at the
    root (``mcts.core.root_policies``) if any."""
    dtype = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0).path_score.dtype
    plugin = curve.adjuster if ":" in curve.adjuster else ""
    reward = curve.reward if ":" in curve.reward else ""
    return (curve.policy, curve.branching, str(dtype), plugin, curve.backup, reward,
            root_name(parse_root(curve.root)))


def kernel_name(curve: Curve) -> str:
    """The kernel of ``curve``, in words."""
    extra = f", {curve.adjuster}" if ":" in curve.adjuster else ""
    extra += f", {curve.backup}" if curve.backup else ""
    extra += f", {curve.reward}" if ":" in curve.reward else ""
    extra += f", root={root_name(parse_root(curve.root))}" if curve.root else ""
    return f"the {curve.policy} search kernel (b={curve.branching}{extra})"


_READY: set[tuple] = set()  # the kernels this process has compiled or loaded


def ready_kernel(curve: Curve) -> float:
    """Make ``curve``'s kernel ready in this process (``prepare_kernel``) unless it is; the wall
    seconds that took: compiling or loading on a worker's first shard of a kernel, else 0."""
    key = kernel_key(curve)
    if key in _READY:
        return 0.0
    wall, _ = prepare_kernel(curve)
    _READY.add(key)
    return wall


class KernelProgress:
    """What a progress bar says while kernels are first used: the kernels of the pending work
    that no finished unit has used yet, which are being compiled (or loaded from the cache)."""

    def __init__(self, curves: list[Curve]):
        self._keys = [kernel_key(curve) for curve in curves]
        self._waiting = {key: kernel_name(curve) for key, curve in zip(self._keys, curves)}
        self.seconds = 0.0  # summed over workers: compiling or loading kernels

    def announce(self) -> str:
        """One line for the start of a run."""
        return (f"{len(self._waiting)} search kernel(s): each is compiled on first use (10-20 "
                "CPU-seconds), once, then loaded from the cache in about 0.3 s")

    def readied(self, curve: Curve, kernel_seconds: float) -> None:
        """``curve``'s kernel is ready, after ``kernel_seconds`` compiling or loading it."""
        self._waiting.pop(kernel_key(curve), None)
        self.seconds += kernel_seconds

    def finished(self, i: int, kernel_seconds: float) -> None:
        """Unit ``i`` (of the curves given) is done, having spent ``kernel_seconds`` readying
        its kernel."""
        self._waiting.pop(self._keys[i], None)
        self.seconds += kernel_seconds

    def note(self) -> str:
        """The bar's note: the kernels still being readied, if any."""
        if not self._waiting:
            return ""
        names = list(self._waiting.values())
        more = f" and {len(names) - 1} more" if len(names) > 1 else ""
        return f"compiling or loading {names[0]}{more} (once, then cached)"


def prepare_kernel(curve: Curve, seed: int = 0) -> tuple[float, float]:
    """Compile ``curve``'s kernel, or load it from the cache, by a search of one playout;
    the wall and CPU seconds it took. A plug-in numba cannot compile is a one-line
    ValueError (``plugin_check.plugin_errors``)."""
    wall, cpu = time.perf_counter(), time.process_time()
    with plugin_errors(curve):
        warm_up(curve, seed)
    return time.perf_counter() - wall, time.process_time() - cpu


def distinct_kernels(curves: Iterable[Curve]) -> list[Curve]:
    """One curve per kernel among ``curves``, in their order."""
    chosen: dict[tuple, Curve] = {}
    for curve in curves:
        chosen.setdefault(kernel_key(curve), curve)
    return list(chosen.values())


def prepare_kernels(curves: Iterable[Curve], workers: int,
                    progress: bool = False) -> Iterator[tuple[Curve, float, float]]:
    """Compile (or load) every kernel ``curves`` need on ``workers`` fresh processes
    (``runtime.pool.completed``: one worker runs them here), each kernel once; yields (curve,
    wall seconds, CPU seconds) as each is ready. A plug-in that does not compile, or a Ctrl-C,
    stops the others at once."""
    kernels = distinct_kernels(curves)
    if progress:
        print(f"preparing {len(kernels)} search kernel(s): compiled on first use (10-15 "
              "CPU-seconds each), then loaded from the cache", file=sys.stderr, flush=True)
    for i, (wall, cpu) in completed(prepare_kernel, [(curve,) for curve in kernels], workers):
        yield kernels[i], wall, cpu


def check_plugins(curves) -> float:
    """Compile (or load) here the kernel of every curve with a plug-in, each kernel once
    (``prepare_kernel``), so that a plug-in numba cannot compile is one line before
    any folder is made or worker started; the workers then load the kernels from numba's
    cache. Returns the wall seconds it took, which a run's summary reports apart."""
    start = time.perf_counter()
    for curve in distinct_kernels(curve for curve in curves if plugin_specs(curve)):
        prepare_kernel(curve)
    return time.perf_counter() - start
