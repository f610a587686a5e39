"""What ``mctslab compare --preset atlas`` costs (the quick atlas in <= 10 minutes
on 2 cores, cold compile included, >= 200 runs per cell; the full one sized for a cluster).

Per policy x adjuster, on one thread: the first search (the kernel's compilation from a cold
``NUMBA_CACHE_DIR``, or its load from a warm one), then a sample of ``--sample`` runs of every
atlas tree at the scale's largest budget on instance 0, as ns per budgeted playout. Each cell
is extrapolated by its runs (instances x runs per instance); the projection adds the compile
times and divides by the workers (``--workers``, default 2). Run it from a fresh cache to
measure the compiles: ``NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/bench_atlas.py
[--scale quick|full] [--sample 4] [--policies ...] [--adjusters ...] [--json]``. The whole
command is timed with ``time mctslab compare --preset atlas --scale quick --out DIR``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict

import numba

from experiments.comparisons import ATLAS_ADJUSTERS, Grid, preset_lists
from experiments.curves.failure import simulate_block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="quick", choices=("quick", "full"))
    parser.add_argument("--sample", type=int, default=4, help="runs measured per cell")
    parser.add_argument("--workers", type=int, default=2, help="cores of the projection")
    parser.add_argument("--policies", nargs="+", help="default: every built-in policy")
    parser.add_argument("--adjusters", nargs="+", default=list(ATLAS_ADJUSTERS))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    lists = preset_lists("atlas")
    grid = Grid.from_scale(lists["trees"], args.policies or lists["policies"], args.adjusters,
                           args.scale, name="atlas")
    numba.set_num_threads(1)
    compile_s, cell_s, ns = {}, defaultdict(float), defaultdict(list)
    runs_per_cell = grid.runs * grid.trees_per_model
    for curve in grid.curves():  # policy x adjuster innermost: first use compiles
        kernel = (curve.policy, curve.adjuster)
        if kernel not in compile_s:
            begin = time.perf_counter()
            simulate_block(curve, 0, 0, 1, grid.seed, tree_seed=grid.seed)
            compile_s[kernel] = time.perf_counter() - begin
        begin = time.perf_counter()
        simulate_block(curve, 0, 0, args.sample, grid.seed, tree_seed=grid.seed)
        seconds = time.perf_counter() - begin
        ns[curve.policy].append(seconds / args.sample / grid.max_budget * 1e9)
        cell_s[kernel] += seconds * runs_per_cell / args.sample
    by_policy = {policy: sum(s for (p, _), s in cell_s.items() if p == policy)
                 for policy in ns}
    compiles, runs = sum(compile_s.values()), sum(cell_s.values())
    wall = (compiles + runs) / args.workers
    result = {
        "scale": args.scale, "cells": grid.cells, "runs_per_cell": runs_per_cell,
        "max_budget": grid.max_budget, "playouts": grid.playouts, "sample": args.sample,
        "ns_per_playout_median": {p: round(statistics.median(v)) for p, v in ns.items()},
        "compile_seconds": {f"{p} {a}": round(s, 1) for (p, a), s in compile_s.items()},
        "run_core_seconds_by_policy": {p: round(s, 1) for p, s in by_policy.items()},
        "compile_core_seconds": round(compiles, 1), "run_core_seconds": round(runs, 1),
        "projected_wall_seconds": round(wall, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"atlas, scale {args.scale}: {grid.cells} cells x {runs_per_cell} runs x "
          f"{grid.max_budget} playouts = {grid.playouts:.3g} playouts; sample of {args.sample} "
          f"runs per cell")
    print(f"{'policy':10s} {'ns/playout':>10s} {'compile s':>10s} {'run core-s':>11s}")
    for policy in ns:
        compiled = sum(s for (p, _), s in compile_s.items() if p == policy)
        print(f"{policy:10s} {result['ns_per_playout_median'][policy]:10d} {compiled:10.1f} "
              f"{by_policy[policy]:11.1f}")
    print(f"compiling {compiles:.0f} core-s, runs {runs:.0f} core-s ({runs / 3600:.2f} "
          f"core-hours); projected wall on {args.workers} cores: {wall / 60:.1f} min")


if __name__ == "__main__":
    main()
