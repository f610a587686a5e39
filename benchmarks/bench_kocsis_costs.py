"""What an iteration of ``reproduce kocsis`` costs, per method and panel: single-thread CPU
nanoseconds per iteration at the paper's budget, the figures of
``experiments.papers.kocsis.reproduce.ITERATION_NS`` from which ``--scale paper`` projects its
core-hours.

Runs ``--runs`` runs of each method on tree instance 0 of each panel at ``--budget``
iterations, in this process on one thread, timed with ``time.process_time`` (CPU time, so other
jobs on the machine count little); a first small run loads or compiles the kernel, and readying
the tree for the engine is timed apart (``shard_seconds``).

    python benchmarks/bench_kocsis_costs.py [--budget 16384] [--runs 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

import numba

from experiments.curves.failure import simulate_block, tree_instance
from experiments.papers.kocsis.study import METHODS, PANELS, SCALES, method_curve


def measure(method: str, panel, budget: int, runs: int) -> dict:
    """CPU ns per iteration of ``runs`` runs, less a shard's readying: the least CPU seconds of
    three blocks of one run of b iterations (alpha-beta's least budget)."""
    curve = replace(method_curve(method, panel, "paper"), max_budget=budget, runs=runs, trees=1)
    tree_instance(curve.tree, panel.branching, panel.depth, 0, 0)  # drawn once, cached
    small = replace(curve, max_budget=panel.branching, runs=1)
    ready = []
    for _ in range(4):  # the first compiles or loads the kernel
        start = time.process_time()
        simulate_block(small, 0, 0, 1, seed=0)
        ready.append(time.process_time() - start)
    start = time.process_time()
    _, played = simulate_block(curve, 0, 0, runs, seed=0)
    seconds = time.process_time() - start - min(ready[1:])
    return {"method": method, "branching": panel.branching, "depth": panel.depth,
            "iterations": int(played.sum()), "ns_per_iteration": 1e9 * seconds / played.sum(),
            "shard_seconds": min(ready[1:])}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=SCALES["paper"][2].max_budget)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    rows = []
    for panel in PANELS:
        for method in args.methods:
            row = measure(method, panel, args.budget, args.runs)
            rows.append(row)
            print(json.dumps(row) if args.json else
                  f"{method:13s} B={panel.branching} D={panel.depth}: "
                  f"{row['ns_per_iteration']:8.0f} ns/iteration, shard "
                  f"{row['shard_seconds']:.2f} s")
    return rows


if __name__ == "__main__":
    main()
