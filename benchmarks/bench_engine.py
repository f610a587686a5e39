"""Speed of the compiled synthetic-tree engine (target: >= 10 M playouts/s for the whole
``mctslab failure-rate`` command on Constant(1,5), b=4, d=8, 2,000 runs x 16,384 playouts;
>= 150x a plain-Python UCT of the same search; KL-UCB and Thompson within 2x of UCB1).

Each figure is the median of ``--repeats`` rounds; a round times the plain-Python reference UCT
and then the whole command of each policy in a fresh process (start-up, numba cache load and
all; the policies' order rotates), and each ratio (to plain Python, to UCB1) is the median of
the rounds' ratios.
Run from the repository's root: ``python -m benchmarks.bench_engine [--runs 2000] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from benchmarks.python_uct_baseline import playouts_per_second as python_playouts_per_second


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
    # Rounds interleave the baseline and the policies (their order rotated from round to round),
    # so that a slow spell of this shared machine hits them alike; each ratio is the median of
    # the rounds' ratios.
    python, whole, engine = [], {p: [] for p in args.policies}, {p: [] for p in args.policies}
    for round_ in range(args.repeats):
        python.append(python_playouts_per_second(runs=1))
        shift = round_ % len(args.policies)
        for policy in args.policies[shift:] + args.policies[:shift]:
            rate, own = command_rate(policy, args.runs, args.budget)
            whole[policy].append(rate)
            engine[policy].append(own)
    print(f"plain-Python UCT: {statistics.median(python):,.0f} playouts/s "
          f"(median of {args.repeats} rounds)")
    for policy in args.policies:
        speedup = statistics.median(w / p for w, p in zip(whole[policy], python))
        print(f"{policy:9s} whole command {statistics.median(whole[policy]) / 1e6:6.2f} M "
              f"playouts/s (engine alone {statistics.median(engine[policy]) / 1e6:.2f} M/s); "
              f"{speedup:,.0f}x plain Python")
    if "ucb1" in whole:
        for policy in args.policies:
            ratio = statistics.median(u / r for u, r in zip(whole["ucb1"], whole[policy]))
            print(f"{policy:9s} time relative to UCB1: {ratio:.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
