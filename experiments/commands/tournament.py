"""``mctslab tournament GAME --a SPEC --b SPEC --games N --playouts P``: A against B, seats
swapped every other game; A's win rate with a 95% Wilson interval."""

from __future__ import annotations

import json
import sys
import time

from experiments.params import COUNT, SEED


def register(subparsers) -> None:
    p = subparsers.add_parser("tournament", help="player A against player B over many games")
    p.add_argument("game", help="a two-player game of `mctslab games list`, or openspiel:NAME")
    p.add_argument("--a", metavar="SPEC", required=True, help="player A, e.g. uct+qb")
    p.add_argument("--b", metavar="SPEC", required=True, help="player B, e.g. uct")
    p.add_argument("--games", type=COUNT, required=True, metavar="N", help="number of games")
    p.add_argument("--playouts", type=COUNT, required=True, metavar="P",
                   help="playouts per move, both players")
    p.add_argument("--seed", type=SEED, default=0, metavar="S", help="seed of the tournament")
    p.add_argument("--workers", type=COUNT, metavar="N",
                   help="local processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a Dask scheduler address, or 'local' for a LocalCluster")
    p.add_argument("--out", metavar="DIR",
                   help="folder of the results (Parquet per block); rerun to resume")
    p.add_argument("--block", type=COUNT, default=10, metavar="B",
                   help="games per stored block (default 10; part of the tournament's identity)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys games, wins_a, draws, win_rate_a, ci95, ...)")
    p.add_argument("--wait", action="store_true",
                   help="if another process writes --out, wait for it (default: refuse)")
    p.set_defaults(run=run)


def run(args) -> int:
    from experiments.tournament import Tournament, run_tournament, summarize

    tournament = Tournament(args.game, args.a, args.b, args.games, args.playouts, args.seed,
                            args.block)
    start = time.perf_counter()
    results = run_tournament(tournament, args.out, workers=args.workers,
                             scheduler=args.scheduler, progress=sys.stderr.isatty(),
                             wait=args.wait)
    summary = {**tournament.to_dict(), **summarize(results),
               "seconds": round(time.perf_counter() - start, 3)}
    if args.json:
        print(json.dumps(summary))
        return 0
    lo, hi = summary["ci95"]
    print(f"{args.a} (A) vs {args.b} (B) in {args.game}, {summary['games']} games at "
          f"{args.playouts} playouts per move, seed {args.seed}:")
    print(f"A wins {summary['wins_a']}, draws {summary['draws']}, loses {summary['losses_a']}; "
          f"win rate of A {summary['win_rate_a']:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f}; "
          f"draws count half)")
    print(f"A's win rate moving first {summary['win_rate_a_first']:.3f}, second "
          f"{summary['win_rate_a_second']:.3f}; {summary['mean_plies']:.1f} moves per game; "
          f"{summary['seconds']:.1f} s")
    return 0
