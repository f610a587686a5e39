"""``mctslab play GAME --player1 SPEC --player2 SPEC``: one game between two MCTS players, shown
move by move."""

from __future__ import annotations

import numpy as np

from experiments.cli.params import COUNT, SEED


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play one game between two MCTS players, move by move")
    p.add_argument("game", help="a two-player game of `mctslab games list`, or openspiel:NAME")
    p.add_argument("--player1", metavar="SPEC", required=True,
                   help="the first player, e.g. uct, uct+qb, uct(c=0.8)+rb(k=8)+qb(k=2,a=online)")
    p.add_argument("--player2", metavar="SPEC", required=True, help="the second player")
    p.add_argument("--playouts", type=COUNT, default=1000, metavar="P",
                   help="playouts per move (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, metavar="S", help="seed of the game")
    p.add_argument("--trace", metavar="FILE",
                   help="keep every move's root children: visits, values, proven values "
                   "(.csv or .parquet, a row per move and child)")
    p.set_defaults(run=run)


def run(args) -> int:
    from experiments.cli.limits import check_search
    from experiments.tournaments.match import load_game, play_game
    from mcts.players import parse_player

    game = load_game(args.game)
    specs = (args.player1, args.player2)
    players = tuple(parse_player(spec, args.game) for spec in specs)
    if args.playouts < 1:
        raise ValueError(f"--playouts {args.playouts} must be at least 1")
    if args.seed < 0:
        raise ValueError(f"--seed {args.seed} must be 0 or more")
    check_search(args.playouts)
    for player in players:
        player.check_playouts(game, args.playouts)
    if args.trace is not None:
        from experiments.runtime.store import check_writable_file

        if not args.trace.strip():
            raise ValueError("--trace is empty: name a file, e.g. --trace game.csv")
        if not args.trace.endswith((".csv", ".parquet")):
            raise ValueError(f"--trace {args.trace}: use a .csv or .parquet file name")
        check_writable_file(args.trace)  # before the game: a game played is never lost
    print(f"{game.title}: player1 = {specs[0]}, player2 = {specs[1]}, "
          f"{args.playouts} playouts per move, seed {args.seed}\n")
    print(game.new_initial_state().render())
    ply, rows = 0, []

    def show(state, seat, result):
        nonlocal ply
        ply += 1
        rows.extend(move_rows(ply, seat, state, result))
        print(f"\n{ply}. player{seat + 1} ({specs[seat]}): {state.action_to_string(result.action)}"
              f"  ({search_summary(result)})")
        print(state.child(result.action).render())

    record = play_game(game, players, args.playouts,
                       np.random.default_rng(np.random.SeedSequence(args.seed)), on_move=show)
    if record.winner < 0:
        print(f"\ndraw after {record.plies} moves")
    else:
        print(f"\nplayer{record.winner + 1} ({specs[record.winner]}) wins after "
              f"{record.plies} moves")
    if args.trace is not None:
        import pandas as pd

        from experiments.runtime.store import write_table

        write_table(pd.DataFrame(rows, columns=TRACE_COLUMNS), args.trace)
        print(f"wrote the root of every move to {args.trace}")
    return 0


def search_summary(result) -> str:
    """What one move's search found of the move played: its visits and value, or that the
    solver proved it won before any playout (a move that wins at once, found on expanding the
    root)."""
    from mcts.core.solver import WIN

    chosen = int(np.flatnonzero(result.actions == result.action)[0])
    if result.playouts == 0:
        return ("proven won before any playout" if result.proven[chosen] == WIN
                else "no playout")
    return (f"visits {result.visits[chosen]:.0f}/{result.playouts}, "
            f"value {result.values[chosen]:+.3f}")


TRACE_COLUMNS = ("ply", "player", "action", "move", "visits", "value", "proven", "chosen",
                 "playouts")
def move_rows(ply: int, seat: int, state, result) -> list[tuple]:
    """A row per root child of one move's search (``TRACE_COLUMNS``): its action and its name,
    visits, the mover's mean value, proven value (won, draw, lost for the mover, else ""),
    whether it was played, and the search's playouts."""
    from mcts.core.solver import DRAW, LOSS, UNPROVEN, WIN

    named = {UNPROVEN: "", WIN: "won", DRAW: "draw", LOSS: "lost"}
    return [(ply, seat + 1, int(action), state.action_to_string(int(action)),
             float(visits), float(value), named[int(proven)], bool(action == result.action),
             int(result.playouts))
            for action, visits, value, proven in zip(result.actions, result.visits,
                                                     result.values, result.proven)]
