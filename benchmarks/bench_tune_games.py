"""The projected against the measured time of a game tuning (``experiments.tuning.games``):
by default the quick preset, ``uct(c=?)`` against ``uct`` in Breakthrough at 1,000 playouts
a move, which should take at most 10 minutes on 2 cores with a warm kernel cache.

Prints the projection (``projected_seconds``: single-core seconds from two probe games,
divided by the workers), the measured wall time of the whole tuning (pool start at each round
included) and their ratio, with the tuning's results. A multi-minute run: never part of the
test suite. Without ``--out`` the games go to a fresh temporary folder (a used folder would
resume and measure nothing).

    python benchmarks/bench_tune_games.py [--game breakthrough] [--player "uct(c=?)"]
        [--against uct] [--playouts 1000] [--scale quick] [--games N] [--workers N]
        [--seed 0] [--out DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time

from experiments.runtime.pool import default_workers
from experiments.tuning.game_report import result_lines
from experiments.tuning.games import SCALES, projected_seconds, tune_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="breakthrough")
    parser.add_argument("--player", default="uct(c=?)", help="the tuned player's spec")
    parser.add_argument("--against", default="uct", help="the reference player's spec")
    parser.add_argument("--playouts", type=int, default=1000, help="playouts per move")
    parser.add_argument("--scale", default="quick", choices=sorted(SCALES))
    parser.add_argument("--games", type=int, help="games in all (default: the scale's)")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="folder for the games (default: a fresh temporary one)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    games = SCALES[args.scale].games if args.games is None else args.games

    start = time.perf_counter()
    core_seconds = projected_seconds(args.game, args.player, args.against, args.playouts, games)
    probe = time.perf_counter() - start
    with tempfile.TemporaryDirectory(prefix="tune-") as scratch:
        start = time.perf_counter()
        tuning = tune_game(args.game, args.player, args.against, playouts=args.playouts,
                           scale=args.scale, games=args.games, seed=args.seed,
                           out=args.out or scratch, workers=args.workers)
        seconds = time.perf_counter() - start
    projected = core_seconds / args.workers
    row = {**tuning.summary(), "workers": args.workers, "probe_seconds": round(probe, 1),
           "projected_core_seconds": round(core_seconds, 1),
           "projected_seconds": round(projected, 1), "seconds": round(seconds, 1),
           "measured_over_projected": round(seconds / projected, 2)}
    if args.json:
        print(json.dumps(row))
        return 0
    print(f"{args.player} against {args.against} in {args.game}, {tuning.games:,} games at "
          f"{args.playouts:,} playouts a move, {args.workers} workers, seed {args.seed}:")
    print(f"projected {projected / 60:.1f} min ({core_seconds:.0f} core-s from a {probe:.1f} s "
          f"probe), measured {seconds / 60:.1f} min: {seconds / projected:.2f}x the projection")
    for line in result_lines(tuning):
        print(line)
    print("regions " + ", ".join(f"{a:.3g}-{b:.3g}" for a, b in row["regions"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
