"""Speed of the compiled synthetic-tree engine (issue: >= 10 M playouts/s for the whole
``mctslab failure-rate`` command on Constant(1,5), b=4, d=8, 2,000 runs x 16,384 playouts;
>= 150x a plain-Python UCT of the same search; KL-UCB and Thompson within 2x of UCB1).

Each figure is the median of ``--repeats`` runs of the whole command in a fresh process
(start-up, numba cache load and all), measured against the plain-Python reference UCT in the
same benchmark run. Run: ``python benchmarks/bench_engine.py [--runs 2000] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from python_uct_baseline import playouts_per_second as python_playouts_per_second


def command_rate(policy: str, runs: int, budget: int) -> tuple[float, float]:
    """(playouts per second over the whole command's wall time, the engine's own figure)."""
    argv = [sys.executable, "-m", "experiments.cli", "failure-rate", "--tree", "constant(1,5)",
            "--policy", policy, "--runs", str(runs), "--max-budget", str(budget), "--json",
            "--quiet"]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    out = json.loads(done.stdout)
    return out["playouts"] / wall, out["playouts_per_second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--budget", type=int, default=2**14)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", nargs="+", default=["ucb1", "klucb", "thompson"])
    args = parser.parse_args()
    for policy in args.policies:  # warm the compiled cache
        command_rate(policy, 4, 64)
    python = statistics.median(python_playouts_per_second(runs=1) for _ in range(args.repeats))
    print(f"plain-Python UCT: {python:,.0f} playouts/s (median of {args.repeats})")
    rates = {}
    for policy in args.policies:
        samples = [command_rate(policy, args.runs, args.budget) for _ in range(args.repeats)]
        whole = statistics.median(s[0] for s in samples)
        engine = statistics.median(s[1] for s in samples)
        rates[policy] = whole
        print(f"{policy:9s} whole command {whole / 1e6:6.2f} M playouts/s "
              f"(engine alone {engine / 1e6:.2f} M/s); {whole / python:,.0f}x plain Python")
    if "ucb1" in rates:
        for policy, rate in rates.items():
            print(f"{policy:9s} time relative to UCB1: {rates['ucb1'] / rate:.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
