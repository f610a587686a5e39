"""Search speed on other tree models than seed 001's, against Random(4,3) with the same policy
(a P-game or a trap tree of b=4, d=8 at >= 0.7x its playouts/s).

Runs of ``--playouts`` playouts, b = 4, d = 8, tree seed 0, plain adjuster, single thread
(``NUMBA_NUM_THREADS=1``), trees and policies interleaved run by run so that load from other
processes hits all alike; each figure is the median ns per simulated playout over ``--repeats``
seeds, and the ratio is Random(4,3)'s median over the tree's (playouts/s relative to it).

    python benchmarks/bench_tree_models.py [--playouts N] [--repeats K] [--policies P...]
        [--trees SPEC...]
"""

from __future__ import annotations

import argparse
import statistics

from bench_policies import setup_run, time_run

BASE = "random(4,3)"
TREES = ["pgame(127)", "random(4,3)+trap(3,0.2)", "pgame(127)+trap(3,0.2)", "random(4,3)+end(0.1)"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=16384)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--policies", nargs="+", default=["ucb1", "klucb", "thompson"])
    parser.add_argument("--trees", nargs="+", default=TREES)
    args = parser.parse_args()
    cases = [(tree, policy) for tree in [BASE, *args.trees] for policy in args.policies]
    setups = {case: setup_run(case[1], args.playouts, "plain", case[0]) for case in cases}
    times = {case: [] for case in cases}
    for seed in range(args.repeats + 1):
        for case in cases:
            elapsed = time_run(setups[case], args.playouts, seed)
            if seed:  # seed 0 compiles
                times[case].append(1e9 * elapsed)
    for tree, policy in cases:
        ns, base = (statistics.median(times[key]) for key in ((tree, policy), (BASE, policy)))
        print(f"{tree:26s} {policy:9s} {ns:7.1f} ns/playout  {base / ns:5.2f}x {BASE}'s speed")


if __name__ == "__main__":
    main()
