"""``mctslab tournament GAME --players A B C ... --games N --playouts P``: a round robin, every
pairing over N games with seats swapped, pairwise win rates with Wilson intervals and
Bradley-Terry ratings with bootstrap intervals; ``--a A --b B`` is the two-player case, which
``--sprt ELO0,ELO1`` may stop early."""

from __future__ import annotations

import json
import sys
import time

from experiments.cli.params import COUNT, SEED, option_type, parse_sprt
from specs import Domain

RATE = option_type(Domain(low=0, high=0.5, low_open=True, high_open=True))


def register(subparsers) -> None:
    p = subparsers.add_parser("tournament", help="a round robin of players over many games")
    p.add_argument("game", help="a two-player game of `mctslab games list`, or openspiel:NAME")
    p.add_argument("--players", metavar="SPEC", nargs="+",
                   help="two or more players, e.g. uct uct+qb thompson: every pair meets")
    p.add_argument("--a", metavar="SPEC", help="player A of a two-player match, e.g. uct+qb")
    p.add_argument("--b", metavar="SPEC", help="player B of a two-player match, e.g. uct")
    p.add_argument("--games", type=COUNT, required=True, metavar="N",
                   help="games per pairing (with --sprt, at most)")
    p.add_argument("--playouts", type=COUNT, required=True, metavar="P",
                   help="playouts per move, every player")
    p.add_argument("--sprt", type=parse_sprt, metavar="ELO0,ELO1",
                   help="two players: stop when the SPRT of A's Elo over B's, H0 elo0 against "
                        "H1 elo1, decides (checked after each block)")
    p.add_argument("--alpha", type=RATE, metavar="A",
                   help="--sprt's error rate of accepting H1 at elo0 (default 0.05)")
    p.add_argument("--beta", type=RATE, metavar="B",
                   help="--sprt's error rate of accepting H0 at elo1 (default 0.05)")
    p.add_argument("--bootstrap", type=COUNT, default=1000, metavar="R",
                   help="bootstrap replicates of the ratings' intervals (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, metavar="S",
                   help="seed of the tournament (and of the bootstrap)")
    p.add_argument("--workers", type=COUNT, metavar="N",
                   help="local processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a Dask scheduler address, or 'local' for a LocalCluster")
    p.add_argument("--out", metavar="DIR",
                   help="folder of the games (Parquet per block) and the crosstable, ratings "
                        "and figure; rerun to resume, or to grow with more games or players")
    p.add_argument("--block", type=COUNT, default=10, metavar="B",
                   help="games per stored block (default 10; part of the tournament's identity)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys ratings, pairings; two players also games, wins_a, "
                        "draws, win_rate_a, ci95, ...)")
    p.add_argument("--wait", action="store_true",
                   help="if another process writes --out, wait for it (default: refuse)")
    p.set_defaults(run=run)


def _players(args) -> list[str]:
    if args.players is not None:
        if args.a is not None or args.b is not None:
            raise ValueError("give either --players A B ... or --a A --b B, not both")
        return args.players
    if args.a is None or args.b is None:
        raise ValueError("a tournament needs at least 2 players: give --players A B ... "
                         "(or --a A --b B)")
    return [args.a, args.b]


def run(args) -> int:
    import numpy as np

    from experiments.cli.limits import check_tournament
    from experiments.tournaments.ratings import pairwise, ratings
    from experiments.tournaments.round_robin import RoundRobin, run_round_robin
    from experiments.tournaments.sprt import Sprt

    players = _players(args)
    if args.sprt is None and (args.alpha is not None or args.beta is not None):
        raise ValueError("--alpha and --beta are the error rates of --sprt: give --sprt too")
    if args.sprt is not None and len(players) != 2:
        raise ValueError(f"--sprt tests two players, not {len(players)}: give --a and --b")
    round_robin = RoundRobin(args.game, tuple(players), args.games, args.playouts, args.seed,
                             args.block)
    sprt = None if args.sprt is None else Sprt(*args.sprt, args.alpha or 0.05,
                                               args.beta or 0.05)
    check_tournament(len(round_robin.pairings()), args.games, args.block, args.playouts,
                     args.workers, args.scheduler)
    start = time.perf_counter()
    games = run_round_robin(round_robin, args.out, workers=args.workers,
                            scheduler=args.scheduler, progress=sys.stderr.isatty(),
                            wait=args.wait, stop=None if sprt is None else sprt.stops)
    pairs = pairwise(games)
    table = (ratings(games, round_robin.players, bootstrap=args.bootstrap,
                     rng=np.random.default_rng(args.seed)) if round_robin.rated else None)
    seconds = round(time.perf_counter() - start, 3)
    sequential = None if sprt is None else sprt.report(games)
    if args.out is not None:
        from experiments.tournaments.report import write_report

        write_report(args.out, round_robin, pairs, table, sequential)
    if args.json:
        print(json.dumps(_summary(round_robin, games, pairs, table, sequential, seconds)))
        return 0
    from experiments.tournaments.report import report_lines

    print("\n".join(report_lines(round_robin, games, pairs, table, sequential, seconds)))
    return 0


def _summary(round_robin, games, pairs, table, sequential, seconds) -> dict:
    from experiments.tournaments.tournament import summarize

    summary = {"game": round_robin.game, "players": list(round_robin.players),
               "playouts": round_robin.playouts, "seed": round_robin.seed,
               "block": round_robin.block, "games_per_pairing": round_robin.games,
               "ratings": [] if table is None else table.to_dict("records"),
               "pairings": pairs.to_dict("records")}
    if len(round_robin.players) == 2:
        summary |= {"a": round_robin.players[0], "b": round_robin.players[1],
                    **summarize(games)}
    if sequential is not None:
        summary["sprt"] = sequential
    return summary | {"seconds": seconds}
