"""Seed 000's headline check: ``uct+qb(a=online)`` against ``uct`` in Breakthrough at
1,000 playouts a move over 200 games (seats swapped every game) wins at least 70%.

The paper (seed 000, Table 3, Breakthrough, a') reports 74.8% and 76.3% at 1 s and 5 s of
search (17k-85k playouts a move); the check asks for 70% at a budget 17x smaller. Prints A's
wins, draws and games, its mean score with the 95% Wilson interval, and the verdict: ``holds``
(score >= 70%), ``fails``; the interval says how sure that is. Exit code 0 when it holds, 1
when it fails. A multi-minute study: never part of the test suite.

    nice python benchmarks/bench_pepels_headline.py [--games 200] [--playouts 1000]
        [--workers 1] [--seed 0] [--threshold 0.7] [--out DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from experiments.tournaments.tournament import Tournament, run_tournament, summarize

GAME, A, B = "breakthrough", "uct+qb(a=online)", "uct"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=1000, help="playouts per move")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--threshold", type=float, default=0.7, help="win rate to reach")
    parser.add_argument("--out", help="folder for the tournament's blocks (resumable)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    tournament = Tournament(GAME, A, B, args.games, args.playouts, args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    results = run_tournament(tournament, Path(args.out) if args.out else None,
                             workers=args.workers)
    summary = summarize(results)
    lo, hi = summary["ci95"]
    holds = summary["win_rate_a"] >= args.threshold
    row = {"a": A, "b": B, "game": GAME, "playouts": args.playouts, "seed": args.seed,
           **summary, "threshold": args.threshold, "holds": holds,
           "seconds": round(time.perf_counter() - start, 1),
           "main_cpu_seconds": round(time.process_time() - cpu, 1)}
    if args.json:
        print(json.dumps(row))
    else:
        verdict = "holds" if holds else "fails"
        print(f"{A} vs {B}, {GAME}, {args.playouts} playouts a move, seed {args.seed}: "
              f"{summary['wins_a']} wins, {summary['draws']} draws in {summary['games']} games; "
              f"score {summary['win_rate_a']:.3f} (95% Wilson {lo:.3f}-{hi:.3f}; first seat "
              f"{summary['win_rate_a_first']:.3f}, second {summary['win_rate_a_second']:.3f}), "
              f"{summary['mean_plies']:.1f} plies a game, {row['seconds']:.0f} s")
        print(f"headline check (score >= {args.threshold:.0%}): {verdict}"
              + ("" if lo >= args.threshold or hi < args.threshold
                 else f" (the interval straddles {args.threshold:.0%})"))
    return 0 if holds else 1


if __name__ == "__main__":
    sys.exit(main())
