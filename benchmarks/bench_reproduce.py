"""Projected wall time of ``mctslab reproduce imagawa --scale paper`` (target: under 45 minutes
on 2 cores for about 2.2e10 playouts).

Runs a fixed sample of ``--sample`` runs of every curve of the paper-scale study on all cores
(the engine's own threads, as one worker per core would; a random-tree curve's sample spread
over its first 4 tree instances, whose costs differ), and extrapolates each curve by its full
run count. Each curve's CPU seconds are extrapolated alike: divided by the cores, they give
the projection of an idle machine, steadier than the wall clock when other jobs load it.
Run: ``python benchmarks/bench_reproduce.py [--sample 64] [--scale paper]``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

from experiments.curves.failure import simulate_block
from experiments.papers.imagawa import imagawa_study

SAMPLE_TREES = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=64, help="runs per curve measured")
    parser.add_argument("--scale", default="paper", choices=("quick", "paper"))
    args = parser.parse_args()
    study = imagawa_study(args.scale)
    for curve in {c.policy: c for c in study.curves}.values():  # compile / load the cache
        simulate_block(curve, 0, 0, 2, 0)
    projected, cpu, playouts = defaultdict(float), defaultdict(float), defaultdict(int)
    start = time.perf_counter()
    for curve in study.curves:
        runs = min(args.sample, curve.total_runs)
        trees = min(curve.trees, SAMPLE_TREES, runs)  # random trees: spread over instances
        begin, begin_cpu = time.perf_counter(), time.process_time()
        for tree_index in range(trees):
            simulate_block(curve, tree_index, 0, runs // trees, study.seed)
        scale = curve.total_runs / (runs // trees * trees)
        projected[curve.policy] += (time.perf_counter() - begin) * scale
        cpu[curve.policy] += (time.process_time() - begin_cpu) * scale
        playouts[curve.policy] += curve.total_runs * curve.max_budget
    measured = time.perf_counter() - start
    total = sum(projected.values())
    print(f"{args.scale} scale: {len(study.curves)} curves, "
          f"{sum(playouts.values()):.3g} playouts budgeted; sample of {args.sample} runs per "
          f"curve took {measured:.1f} s")
    for policy, seconds in projected.items():
        print(f"  {policy:9s} {playouts[policy]:.3g} playouts, projected {seconds / 60:6.1f} min "
              f"({playouts[policy] / seconds / 1e6:.2f} M playouts/s)")
    cores = os.cpu_count()
    print(f"projected total: {total / 60:.1f} min wall; {sum(cpu.values()) / 3600:.2f} CPU-hours, "
          f"{sum(cpu.values()) / cores / 60:.1f} min on {cores} idle cores")


if __name__ == "__main__":
    main()
