"""``mctslab compile``: compile the search kernels a command will need ahead of it, spread
over the cores, into the kernel cache (after an install, or on each worker of a cluster).

A kernel is compiled per selection policy, branching factor and integer type of the trees'
scores (and per plug-in adjuster or backup rule); every other option is a value it reads at
run time (docs/performance.md). The default covers every built-in policy on the trees of
``reproduce imagawa`` and the atlas (b = 4; int8 and int16 scores).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

DEFAULT_TREES = ("constant(1,5)", "pgame(127)")


def register(subparsers) -> None:
    p = subparsers.add_parser("compile", help="compile the search kernels ahead of a command")
    p.add_argument("--policies", nargs="+", metavar="P",
                   help="policies (default: every built-in one)")
    p.add_argument("--trees", nargs="+", default=list(DEFAULT_TREES), metavar="SPEC",
                   help="tree specs whose score types to cover (default: constant(1,5) "
                        "pgame(127))")
    p.add_argument("--adjusters", nargs="+", default=["plain"], metavar="A",
                   help="adjusters (only a plug-in's adds kernels; default plain)")
    p.add_argument("--branching", type=int, nargs="+", default=[4], metavar="B",
                   help="branching factors (default 4)")
    p.add_argument("--depth", type=int, default=8, help="tree depth (default 8)")
    p.add_argument("--workers", type=int, default=os.cpu_count(),
                   help="processes compiling at once (default: all cores)")
    p.set_defaults(run=run)


def _compile(curve) -> tuple[str, float, float]:
    """Compile (or load) one curve's kernel in this process: its name, wall and CPU seconds."""
    from experiments.failure import kernel_name, prepare_kernel

    cpu = time.process_time()
    wall = prepare_kernel(curve)
    return kernel_name(curve), wall, time.process_time() - cpu


def run(args) -> int:
    from bandits import POLICIES
    from experiments.curve import Curve

    if args.workers < 1:
        raise ValueError(f"--workers {args.workers} must be at least 1")
    curves = {}  # one curve per kernel
    for policy in args.policies or list(POLICIES):
        for adjuster in args.adjusters:
            for b in args.branching:
                for tree in args.trees:
                    curve = Curve(tree, policy, adjuster, branching=b, depth=args.depth, runs=1,
                                  max_budget=1)
                    curves.setdefault(_kernel_key(curve), curve)
    curves = list(curves.values())
    print(f"compiling {len(curves)} kernels on {args.workers} processes (cached under "
          f"{_cache_dir()})", flush=True)
    start = time.perf_counter()
    spawn = multiprocessing.get_context("spawn")  # fresh processes: no forked numba state
    with ProcessPoolExecutor(args.workers, mp_context=spawn) as pool:
        for curve, (name, wall, cpu) in zip(curves, pool.map(_compile, curves)):
            print(f"  {name} on {curve.tree}: {wall:.1f} s ({cpu:.1f} CPU-s)", flush=True)
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0


def _kernel_key(curve) -> tuple:
    """What selects a kernel: the policy, b, the scores' integer type and the plug-ins."""
    from experiments.failure import tree_instance

    dtype = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0).path_score.dtype
    plugin = curve.adjuster if ":" in curve.adjuster else ""
    return curve.policy, curve.branching, str(dtype), plugin, curve.backup


def _cache_dir() -> str:
    from bandits.kernel_cache import version_dir

    return str(version_dir() or "numba's default cache")
