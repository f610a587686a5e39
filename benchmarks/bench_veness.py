"""Seed 003 Fig. 2: UCT against UCT+CV+CRN at equal simulations on one game of its panels,
with 95% intervals and the engine's speed.

    python benchmarks/bench_veness.py [--game pig|cantstop] [--budgets 64 256] [--games 3000]
                                      [--turns 10]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import pandas as pd

from experiments.papers.veness import PANELS, game_scores, score_summary


def compare(panel, budgets, games, methods=("uct", "uct+cv+crn"), seed=2011):
    """Rows (method, budget, games, mean, ci95_low, ci95_high, seconds)."""
    rows = []
    for budget in budgets:
        for method in methods:
            start = time.perf_counter()
            summary = score_summary(game_scores(panel, method, budget, games, seed))
            rows.append(summary.assign(seconds=time.perf_counter() - start))
    return pd.concat(rows, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PANELS), default="pig")
    parser.add_argument("--budgets", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--turns", type=int, help="default: the panel's")
    args = parser.parse_args()
    panel = PANELS[args.game]
    if args.turns:
        panel = dataclasses.replace(panel, turns=args.turns)
    table = compare(panel, args.budgets, args.games)
    print(table[["method", "budget", "games", "mean", "ci95_low", "ci95_high", "seconds"]]
          .to_string(index=False, float_format="%.2f"))
    for budget, rows in table.groupby("budget"):
        base, best = rows.set_index("method").loc[["uct", "uct+cv+crn"]].itertuples()
        apart = best.ci95_low > base.ci95_high
        print(f"budget {budget}: UCT+CV+CRN - UCT = {best.mean - base.mean:+.2f}; 95% intervals "
              f"{'do not overlap' if apart else 'overlap'}")


if __name__ == "__main__":
    main()
