"""``mctslab tune``: a policy's constants at their best, on a synthetic tree model by racing
(``experiments.tuning.synthetic``), or a player's in a real game from matches
(``experiments.tuning.games``)."""

from __future__ import annotations

import json
import sys

from experiments.cli.params import COUNT, PROBABILITY, SEED, Budgets, budgets_item, rule_options


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "tune", help="tune a policy's constant on a tree model (--tree) by racing, or a "
        "player's in a game (GAME --player 'uct(c=?)' --against SPEC) from matches; running "
        "again into --out resumes")
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="a two-player game of `mctslab games list` (with --player and "
                   "--against); leave out to tune on a synthetic --tree")
    p.add_argument("--tree", metavar="SPEC", help="tree model, e.g. constant(1,5)")
    p.add_argument("--policy", metavar="P",
                   help="policy entry, its fixed parameters included, e.g. ucbv(zeta=1.2) "
                   "(default ucb1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=LOW..HIGH[:log]",
                   help="a parameter and its range, e.g. c=0.05..5:log; once or twice (two "
                   "parameters at once); in a game, the range of the player's `?`")
    p.add_argument("--adjuster", metavar="A",
                   help="threshold adjuster entry (default plain)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=COUNT, metavar="T",
                        help="the failure rate at T playouts, a power of two (default 4096)")
    budget.add_argument("--budgets", type=budgets_item, nargs="+", action=Budgets,
                        metavar="T", help="the area under the failure curve over these "
                        "budgets (powers of two; LOW..HIGH: every power of two between, "
                        "e.g. 1..16384)")
    p.add_argument("--values", type=COUNT, metavar="N",
                   help="values per parameter (default 16 for one, 7 x 7 for two)")
    p.add_argument("--runs", type=COUNT, metavar="N",
                   help="runs per value at most, shared by every value (default 2048)")
    p.add_argument("--trees", type=COUNT, metavar="M",
                   help="tree instances the runs are spread over (default 16)")
    p.add_argument("--alpha", type=PROBABILITY,
                   help="level of the race's tests over all its looks (default 0.05)")
    p.add_argument("--branching", type=COUNT, help="branching factor (default 4)")
    p.add_argument("--depth", type=COUNT, help="even tree depth (default 8)")
    p.add_argument("--search-depth", type=COUNT,
                   help="stop expansion at this depth (1: a one-ply search)")
    rule_options(p, "the tree search's")
    p.add_argument("--player", metavar="SPEC",
                   help="in a game: the player, its tuned parameter marked ?, e.g. 'uct(c=?)'")
    p.add_argument("--against", metavar="SPEC",
                   help="in a game: the reference player, e.g. uct")
    p.add_argument("--playouts", type=COUNT, metavar="P",
                   help="in a game: playouts per move (default 1000)")
    p.add_argument("--games", type=COUNT, metavar="N",
                   help="in a game: games to play (default: the scale's)")
    p.add_argument("--scale", choices=("quick", "full"),
                   help="in a game: quick (default) or full")
    p.add_argument("--confirm", type=COUNT, metavar="N",
                   help="in a game: then N fresh games of the chosen value against the "
                   "reference, for a win rate and Elo not biased by the choice")
    p.add_argument("--seed", type=SEED, default=0, help="seed of trees, runs, games (default 0)")
    p.add_argument("--out", metavar="DIR",
                   help="results folder (default results/tune-...); running again resumes")
    p.add_argument("--workers", type=COUNT, metavar="N",
                   help="local worker processes (default: this process, on all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a Dask scheduler address, or 'local' for a loopback LocalCluster")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


# the options of one kind of tuning, refused by the other, and their defaults
TREE_OPTIONS = {"policy": "ucb1", "adjuster": "plain", "budget": None, "budgets": None,
                "values": None, "runs": 2048, "trees": 16, "alpha": 0.05, "branching": 4,
                "depth": 8, "search_depth": None, "reward": "outcome", "final_move": "visits",
                "failure": "outcome", "no_solver": False}
GAME_OPTIONS = {"player": None, "against": None, "playouts": 1000, "games": None,
                "scale": "quick", "confirm": 0}


def _options_of(args, own: dict, other: dict, where: str) -> None:
    """Refuse an option of the other kind of tuning in one line; fill in this kind's
    defaults."""
    for name in other:
        if getattr(args, name) is not None:
            raise ValueError(f"--{name.replace('_', '-')} applies to a tuning "
                             f"{'on a tree (--tree)' if where == 'game' else 'in a GAME'}, "
                             f"not {'in a game' if where == 'game' else 'on a tree'}: drop it")
    for name, default in own.items():
        if getattr(args, name) is None:
            setattr(args, name, default)


def run(args) -> int:
    if args.game is not None:
        _options_of(args, GAME_OPTIONS, TREE_OPTIONS, "game")
        return _run_game(args)
    if args.player or args.against:
        raise ValueError("--player and --against tune in a game: name the game first, e.g. "
                         "mctslab tune breakthrough --player 'uct(c=?)' --against uct")
    _options_of(args, TREE_OPTIONS, GAME_OPTIONS, "tree")
    if not args.tree:
        raise ValueError("no --tree given: name a tree model, e.g. --tree 'constant(1,5)', or "
                         "a GAME with --player and --against")
    from experiments.cli.limits import check_curve, check_tuning
    from experiments.runtime.pool import check_options
    from experiments.tuning.report import summary_lines
    from experiments.tuning.space import parse_range
    from experiments.tuning.synthetic import DEFAULTS, Tuning, run_tuning

    check_options(args.workers, args.scheduler)
    ranges = tuple(map(parse_range, args.param))
    check_tuning(len(ranges), args.values or DEFAULTS["values"].get(len(ranges), 7), args.runs,
                 max(args.budgets or [args.budget or 4096]))
    tuning = Tuning(args.tree, args.policy, ranges,
                    adjuster=args.adjuster, budgets=tuple(args.budgets or [args.budget or 4096]),
                    branching=args.branching, depth=args.depth,
                    search_depth=args.search_depth, values=args.values,
                    runs=args.runs, trees=args.trees, alpha=args.alpha, seed=args.seed,
                    reward=args.reward, final_move=args.final_move, failure=args.failure,
                    solver=not args.no_solver)
    check_curve(tuning.curve(tuning.grid[0]), args.workers)
    out = args.out or _default_out(tuning)
    table = run_tuning(tuning, out, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet and sys.stderr.isatty())
    summary = table.attrs["summary"]
    if args.json:
        print(json.dumps({**summary, "out": out}, indent=1))
        return 0
    for line in summary_lines(summary):
        print(line)
    print(f"report: {out}/report.md, figure {out}/tune.png, table {out}/candidates.csv "
          f"({summary['seconds']:.1f} s)")
    return 0


def _default_out(tuning) -> str:
    name = "".join(ch if ch.isalnum() else "-" for ch in tuning.tree).strip("-")
    return f"results/tune-{name}-{tuning.policy.split('(')[0].replace(':', '-')}"


def _run_game(args) -> int:
    if args.tree:
        raise ValueError(f"--tree tunes on a synthetic tree, GAME {args.game} in a game: give "
                         "one of them")
    if not (args.player and args.against):
        raise ValueError("a game's tuning needs --player with a ? (e.g. 'uct(c=?)') and "
                         "--against SPEC (e.g. uct)")
    if len(args.param) > 1:
        raise ValueError("a game's tuning takes one --param, the range of the player's ?")
    from experiments.runtime.pool import check_options, default_workers
    from experiments.tuning.game_parameter import tuned_parameter
    from experiments.tuning.game_report import result_lines
    from experiments.tuning.games import SCALES, check_tuning, projected_seconds, tune_game
    from experiments.tuning.space import parse_range

    check_options(args.workers, args.scheduler)
    tuned = tuned_parameter(args.player, args.game)
    limits = parse_range(args.param[0]) if args.param else None
    if limits is not None and limits.name != tuned.name:
        raise ValueError(f"--param {limits.spec} names {limits.name}, the player's ? is "
                         f"{tuned.name}: write --param {tuned.name}=LOW..HIGH")
    low, high, log = (limits.low, limits.high, limits.log) if limits else (None, None, True)
    options = {"low": low, "high": high, "log": log, "playouts": args.playouts,
               "scale": args.scale, "games": args.games, "seed": args.seed,
               "confirm": args.confirm}
    check_tuning(args.game, args.player, args.against, **options)  # before any probe game
    out = args.out or f"results/tune-{args.game}"
    if not (args.quiet or args.json):
        games = (args.games or SCALES[args.scale].games) + args.confirm
        seconds = projected_seconds(args.game, args.player, args.against, args.playouts, games)
        workers = args.workers or default_workers()
        wall = seconds / workers
        where = (f"{seconds / 60:.0f} core-minutes on the cluster" if args.scheduler else
                 f"about {wall / 60:.1f} min" if wall >= 90 else f"about {wall:.0f} s")
        where += "" if args.scheduler else f" on {workers} worker(s)"
        print(f"{games:,} games of {args.game} at {args.playouts:,} playouts a move: projected "
              f"{where} (from two probe games; a game stored in {out} is not replayed)",
              flush=True)
    tuning = tune_game(args.game, args.player, args.against, **options, out=out,
                       workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet and sys.stderr.isatty())
    tuning.write_report(out)
    if args.json:
        print(json.dumps({**tuning.summary(), "out": out}, indent=1))
        return 0
    for line in result_lines(tuning):
        print(line)
    print(f"report: {out}/report.md, figure {out}/game_tuning.png")
    return 0
