"""``mctslab compile``: compile the search kernels a command will need ahead of it, spread
over the cores, into the kernel cache (after an install, or on each worker of a cluster).

The default covers every built-in policy on the trees of ``reproduce imagawa`` and the atlas
(b = 4; their int16 scores: one kernel per policy); ``experiments.curves.kernels`` says what selects
a kernel.
"""

from __future__ import annotations

import os
import time

DEFAULT_TREES = ("constant(1,5)", "pgame(127)")


def register(subparsers) -> None:
    p = subparsers.add_parser("compile", help="compile the search kernels ahead of a command")
    p.add_argument("--policies", nargs="+", metavar="P",
                   help="policy entries as compare takes them, ucb1(c=0.5) or ucb1(root=sh), "
                        "or baseline players such as alphabeta (default: every built-in "
                        "policy)")
    p.add_argument("--trees", nargs="+", default=list(DEFAULT_TREES), metavar="SPEC",
                   help="tree specs whose score types to cover (default: constant(1,5) "
                        "pgame(127))")
    p.add_argument("--adjusters", nargs="+", default=["plain"], metavar="A",
                   help="adjusters (only a plug-in's adds kernels; default plain)")
    p.add_argument("--branching", type=int, nargs="+", default=[4], metavar="B",
                   help="branching factors (default 4)")
    p.add_argument("--depth", type=int, default=8, help="tree depth (default 8)")
    p.add_argument("--bandit", action="store_true",
                   help="also the plain-bandit loops of `mctslab bandit` (one per policy, and "
                        "the baselines')")
    p.add_argument("--workers", type=int, default=os.cpu_count(),
                   help="processes compiling at once (default: all cores)")
    p.set_defaults(run=run)


def run(args) -> int:
    from bandits import POLICIES
    from bandits.kernel_cache import cache_root
    from experiments.curves.curve import Curve
    from experiments.curves.entries import method_fields, swept
    from experiments.curves.kernels import distinct_kernels, kernel_name, prepare_kernels
    from experiments.plain_bandits.study import prepare_flat_kernel
    from experiments.runtime.pool import completed

    if args.workers < 1:
        raise ValueError(f"--workers {args.workers} must be at least 1")
    policies = [one for entry in (args.policies or list(POLICIES))
                for one in swept(entry, "policy")]  # entries as compare spells them
    adjusters = [one for entry in args.adjusters for one in swept(entry, "adjuster")]
    curves = distinct_kernels(
        Curve(tree, branching=b, depth=args.depth, runs=1,
              max_budget=1 << b.bit_length(),  # > b: what alpha-beta needs (mcts.baselines)
              **method_fields(policy, adjuster))
        for policy in policies for adjuster in adjusters
        for b in args.branching for tree in args.trees)
    print(f"compiling {len(curves)} kernel{'s' * (len(curves) != 1)} on {args.workers} "
          f"process{'es' * (args.workers != 1)} (cached under "
          f"{cache_root() if cache_root().is_absolute() else 'numba default cache'})", flush=True)
    start = time.perf_counter()
    for curve, wall, cpu in prepare_kernels(curves, args.workers):
        print(f"  {kernel_name(curve)} on {curve.tree}: {wall:.1f} s ({cpu:.1f} CPU-s)",
              flush=True)
    if args.bandit:
        entries = [*(args.policies or list(POLICIES)), None]
        for i, (wall, cpu) in completed(prepare_flat_kernel, [(e,) for e in entries],
                                        args.workers):
            name = "the baselines'" if entries[i] is None else f"the {entries[i]}"
            print(f"  {name} plain-bandit loop: {wall:.1f} s ({cpu:.1f} CPU-s)", flush=True)
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0
