"""``mctslab inspect``: one run of a failure-rate curve seen from inside: the root's
children against playouts, the threshold, the search tree as a picture, and with ``--anatomy``
which wrong moves the curve's failing runs chose and what they are worth; ``mctslab inspect
GAME``: one position of a real game searched the same way (``experiments.inspect.position``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from experiments.cli.commands.failure_rate import curve_from_args, curve_options
from experiments.cli.limits import check_curve
from experiments.cli.params import COUNT, PLIES, SEED, check_figure_path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "inspect", help="one run of a curve seen from inside: the root against playouts, the "
        "threshold, the tree, the failures; or one position of a game (inspect GAME)",
        description="Either --tree TREE (one run of that curve) or GAME (one position of a "
        "real game: the searches of budgets 1 .. --max-budget on a log grid, with --player, "
        "--moves, --random-plies, --seed, --per-octave, --width).")
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="a two-player game of `mctslab games list`, or openspiel:NAME, instead "
                   "of --tree: one position of it searched on a grid of playouts")
    curve_options(p, runs=1, tree_required=False)
    p.add_argument("--player", metavar="SPEC", default=None,
                   help="GAME: the searching player, as `mctslab play` writes it, e.g. uct, "
                   "uct+qb (default uct)")
    p.add_argument("--moves", default=None, metavar="'M1 M2 ...'",
                   help="GAME: the position after these moves from the start, each as `mctslab "
                   "play` prints it or an action id (default: none)")
    p.add_argument("--random-plies", type=PLIES, default=None, metavar="N",
                   help="GAME: then N plies played uniformly at random, seeded by --seed "
                   "(default 0)")
    p.add_argument("--run", dest="run_index", type=PLIES, default=0, metavar="R",
                   help="the run to watch: run R of the curve on its tree (default 0)")
    p.add_argument("--tree-index", type=PLIES, default=0, metavar="J",
                   help="the curve's tree instance J (default 0)")
    p.add_argument("--tree-seed", type=SEED, metavar="S",
                   help="seed of the tree instances when not --seed's: a comparison cell's is "
                   "its grid's seed, --seed its runs' (the comparison's report writes the "
                   "command of each cell)")
    p.add_argument("--at", type=COUNT, metavar="T",
                   help="draw the tree after T playouts of the run (default: its budget)")
    p.add_argument("--plies", type=COUNT, default=3, help="plies of the tree drawn (default 3)")
    p.add_argument("--width", type=COUNT, default=4,
                   help="children drawn per node, the rest folded into '+k more'; GAME: root "
                   "moves drawn, the rest summed (default 4)")
    p.add_argument("--per-octave", type=COUNT, default=4,
                   help="grid points per doubling of the playouts (default 4)")
    p.add_argument("--anatomy", action="store_true",
                   help="also the anatomy of the curve's failures over its --runs runs")
    p.add_argument("--out", metavar="DIR", required=True,
                   help="the folder to write into, as every command's --out: trace.csv, "
                   "trace.png, tree.svg (or .dot), anatomy.csv/.png and the page index.html; "
                   "GAME: search.csv, search.png and index.html")
    p.add_argument("--plot", metavar="FILE",
                   help="the trace figure also here, its format by the suffix (.png, .pdf, .svg)")
    defaults = vars(p.parse_args(["--tree", "-", "--out", "-"]))  # the parser's, as it stands
    p.set_defaults(run=run, tree_options={key: value for key, value in defaults.items()
                                          if key not in _BOTH + _GAME_ONLY})


_GAME_ONLY = ("player", "moves", "random_plies")  # options of GAME alone, their default None
_BOTH = ("game", "tree", "seed", "max_budget", "per_octave", "width", "out", "plot")
_NAMES = {"run_index": "--run", "restart": "--restart"}  # options named other than their dest


def _option(dest: str) -> str:
    return _NAMES.get(dest, "--" + dest.replace("_", "-"))


def run(args) -> int:
    if (args.game is None) == (args.tree is None):
        raise ValueError("give either --tree TREE (a curve's run) or GAME (a game's position), "
                         "not both" if args.game else "give --tree TREE (a curve's run) or GAME "
                         "(a game's position)")
    if args.game is not None:
        changed = [key for key, default in args.tree_options.items()
                   if getattr(args, key) != default]
        if changed:
            raise ValueError(f"{_option(changed[0])} is an option of --tree, not of GAME "
                             f"{args.game}")
        return _run_position(args)
    given = [key for key in _GAME_ONLY if getattr(args, key) is not None]
    if given:
        raise ValueError(f"{_option(given[0])} is an option of GAME, not of --tree")
    curve = curve_from_args(args)  # the run and the tree watched are the curve's
    if curve.root:  # its move is the root schedule's, which the watch does not record
        raise ValueError(f"mctslab inspect does not watch a root policy ({curve.root}): use "
                         "failure-rate or compare")
    curve = replace(curve, runs=max(curve.runs, args.run_index + 1),
                    trees=max(curve.trees, args.tree_index + 1))
    check_figure_path(args.plot)
    check_curve(curve, 1)
    at = curve.max_budget if args.at is None else args.at
    if at > curve.max_budget:
        raise ValueError(f"--at {at} is beyond the run: it has {curve.max_budget} playouts "
                         "(raise --max-budget)")
    from experiments.inspect.picture import tree_dot
    from experiments.inspect.traced import trace_run

    traced = trace_run(curve, args.run_index, seed=args.seed, tree_index=args.tree_index,
                       per_octave=args.per_octave, tree_seed=args.tree_seed)
    drawn = traced if at == curve.max_budget else trace_run(
        curve, args.run_index, seed=args.seed, tree_index=args.tree_index, stop=at,
        tree_seed=args.tree_seed)
    dot = tree_dot(drawn, args.plies, args.width)  # a picture too large: refused before writing
    return _write(args, curve, traced, dot)


def _write(args, curve, traced, dot: str) -> int:
    from experiments.inspect.anatomy import failure_anatomy, failure_reason, page_table
    from experiments.inspect.page import write_page
    from experiments.inspect.picture import write_picture
    from experiments.inspect.traced import log_frame, trace_frame
    from experiments.runtime.store import write_figure, write_table
    from plots.inspect import plot_anatomy, plot_trace

    folder = _folder(args.out)
    frame, log = trace_frame(traced), log_frame(traced)
    title = (f"{curve.label}  b={curve.branching} d={curve.depth}: tree {traced.tree_index}, "
             f"run {traced.run}, seed {traced.seed}"
             + (f" (trees of seed {args.tree_seed})" if args.tree_seed is not None else ""))
    write_table(frame, folder / "trace.csv")
    trace_png = folder / "trace.png"
    write_figure(plot_trace(frame, log, title=title)[0].figure, trace_png)
    if args.plot:
        write_figure(plot_trace(frame, log, title=title)[0].figure, args.plot)
    picture, note = write_picture(dot, folder / "tree.svg")
    caption = ("The root's children against playouts: visit shares, then mean rewards on an "
               "axis fitted to them; the effective threshold beneath; grey where the run would "
               "fail")
    reason, analyze_line = failure_reason(traced), analyze_command(curve, traced, args)
    blocks = [("p", _summary(frame)), ("p", reason),
              ("p", f"The tree instance's exact analysis: {analyze_line}"),
              ("figure", (trace_png, caption)), ("h2", "The search tree")]
    blocks.append(("figure", (picture, "The top plies of the search tree")) if not note
                  else ("p", note))
    if args.anatomy:
        table = failure_anatomy(curve, args.seed, args.tree_seed)
        write_table(table, folder / "anatomy.csv")
        anatomy_png = folder / "anatomy.png"
        write_figure(plot_anatomy(table, curve.total_runs, title=curve.label).figure, anatomy_png)
        blocks += [("h2", f"Failure anatomy over {curve.total_runs} runs"),
                   ("figure", (anatomy_png, "The failing runs by the wrong move they chose")),
                   ("table", page_table(table))]
    blocks += [("h2", "The trace at the curve's budgets"),
               ("table", frame[frame["playouts"].isin(curve.budgets)])]
    page = write_page(folder / "index.html", title, blocks)
    print(title)
    print(_summary(frame))
    print(reason)
    print(f"the instance's exact analysis: {analyze_line}")
    if note:
        print(note)
    print(f"wrote trace.csv, trace.png, {Path(picture).name}"
          + (", anatomy.csv, anatomy.png" if args.anatomy else "")
          + f" and the page {page}")
    return 0


def analyze_command(curve, traced, args) -> str:
    """The ``mctslab analyze`` command of the very instance the run searched: tree J of a
    curve is the instance of seed ``instance_seed(S, J)`` (S its trees' seed), which
    ``analyze --tree-seed`` takes as it is, so both number the root moves alike."""
    import shlex

    from experiments.curves.failure import instance_seed

    seed = instance_seed(traced.seed if args.tree_seed is None else args.tree_seed,
                         traced.tree_index)
    return shlex.join(["mctslab", "analyze", curve.tree, "--branching", str(curve.branching),
                       "--depth", str(curve.depth), "--tree-seed", str(seed)])


def _folder(out: str) -> Path:
    """The folder ``--out`` names, made if need be; a file there is one line."""
    from experiments.runtime.store import make_folder

    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {out} is a file: name a folder (inspect writes its files and "
                         "index.html into it)")
    return make_folder(folder)


def _summary(frame) -> str:
    """One line: the run's move and failure at its last grid point."""
    last = frame[frame["playouts"] == frame["playouts"].max()]
    chosen = last[last["chosen"]].iloc[0]
    optimal = ", ".join(str(m) for m in last.loc[last["optimal"], "move"])
    return (f"after {int(chosen['played'])} playouts the run plays move {int(chosen['move'])} "
            f"({'fails' if chosen['failed'] else 'optimal'}; optimal: {optimal}), "
            f"visit share {chosen['share']:.2f}, threshold {chosen['threshold']:g}")


def _run_position(args) -> int:
    """``mctslab inspect GAME``: the position's searches on the grid, their table (CSV), the
    figure and the page."""
    from experiments.cli.limits import check_search
    from experiments.inspect.page import write_page
    from experiments.inspect.position import game_position, one_search, search_position
    from experiments.runtime.store import write_figure, write_table
    from experiments.tournaments.match import load_game
    from mcts.players import parse_player
    from plots.inspect import plot_position

    check_figure_path(args.plot)
    game = load_game(args.game)
    spec = args.player or "uct"
    player = parse_player(spec, args.game)
    check_search(args.max_budget)
    state = game_position(game, args.moves or "", args.random_plies or 0, args.seed)
    frame = search_position(game, state, player, args.max_budget, args.seed, args.per_octave)
    folder = _folder(args.out)
    where = f"after {args.moves!r}" if args.moves else "from the start"
    if args.random_plies:
        where += f" and {args.random_plies} random plies"
    title = (f"{game.title}, {where}: {player.spec}, seed {args.seed}"
             + ("" if one_search(player) else " (each point its own search)"))
    write_table(frame, folder / "search.csv")
    png = folder / "search.png"
    write_figure(plot_position(frame, args.width, title=title)[0].figure, png)
    if args.plot:
        write_figure(plot_position(frame, args.width, title=title)[0].figure, args.plot)
    how = ("the first t playouts of one search (its random stream does not depend on the "
           "budget)" if one_search(player) else "its own search of budget t (a root policy's "
           "schedule, or the bonuses' warm-up, reads the budget, so the searches differ)")
    summary = _position_summary(frame)
    caption = ("The root's moves against playouts: visit shares, and beneath their mean "
               "values for the player to move")
    last = frame[frame["playouts"] == frame["playouts"].max()]
    blocks = [("p", summary), ("p", f"Each grid point t is {how}, seed {args.seed}."),
              ("h2", "The position"), ("pre", state.render()), ("figure", (png, caption)),
              ("h2", "The root at the largest budget"),
              ("table", last.sort_values("visits", ascending=False))]
    page = write_page(folder / "index.html", title, blocks)
    print(title)
    print(summary)
    print(f"wrote search.csv, search.png and the page {page}")
    return 0


def _position_summary(frame) -> str:
    """One line: the move the largest search plays, its visits and value."""
    last = frame[frame["playouts"] == frame["playouts"].max()]
    chosen = last[last["chosen"]].iloc[0]
    proven = f", proven {chosen['proven']}" if chosen["proven"] else ""
    return (f"after {int(chosen['played'])} playouts the search plays {chosen['move']} "
            f"(visit share {chosen['share']:.2f}, value {chosen['value']:+.3f}{proven}) "
            f"of {len(last)} moves")
