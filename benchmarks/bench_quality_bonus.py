"""The headline check of seed 000 (Tables 1 and 3) in Breakthrough: at equal playouts per move,
uct+qb beats plain uct (the paper: 72-79% at 17k-85k playouts a move, with a = 0.25 and with
the online a'), while uct+rb stays close to 50%. Runs the tournaments (seats swapped every other
game) and prints A's win rate with its 95% Wilson interval. Measured with one worker, 200 games
at 1000 playouts, seed 0: uct+qb 130/200 = 0.650 (0.582-0.713, 11 minutes), uct+qb(a=online)
150/200 = 0.750 (0.686-0.805, 8 minutes), and 73/120 = 0.608 (0.519-0.691, 12 minutes) at 3000
playouts; uct+rb 92/200 = 0.460 (0.392-0.529; `mctslab tournament breakthrough --a uct+rb --b
uct --games 200 --playouts 1000 --workers 2`, 3 minutes, when the command seeded a match from
--seed alone: it now seeds each pairing from --seed and its specs, as this script does not).

    python benchmarks/bench_quality_bonus.py [--games N] [--playouts P] [--workers W] [--out DIR]
        [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from experiments.tournaments.tournament import Tournament, run_tournament, summarize

PAIRINGS = [("uct+qb", "uct"), ("uct+qb(a=online)", "uct"), ("uct+rb", "uct")]


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="breakthrough")
    parser.add_argument("--games", type=int, default=300, help="games per pairing")
    parser.add_argument("--playouts", type=int, default=1000, help="playouts per move")
    parser.add_argument("--workers", type=int, help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="folder for the tournaments' blocks (resumable)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    rows = []
    for a, b in PAIRINGS:
        tournament = Tournament(args.game, a, b, args.games, args.playouts, args.seed)
        folder = Path(args.out) / f"{a}-vs-{b}" if args.out else None
        start = time.perf_counter()
        results = run_tournament(tournament, folder, workers=args.workers)
        row = {"a": a, "b": b, "playouts": args.playouts, **summarize(results),
               "seconds": round(time.perf_counter() - start, 1)}
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            lo, hi = row["ci95"]
            print(f"{a:>16} vs {b:<4} {row['games']} games at {args.playouts} playouts: "
                  f"win rate of A {row['win_rate_a']:.3f} (95% Wilson {lo:.3f}-{hi:.3f}), "
                  f"{row['seconds']:.0f} s", flush=True)
    return rows


if __name__ == "__main__":
    main()
