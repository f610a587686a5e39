"""``mctslab games list``, ``mctslab games perft GAME --depth N`` and ``mctslab games solve pig
--turns T``: the real games' rules."""

from __future__ import annotations

import json
import time

from experiments.cli.params import COUNT, PLIES


def register(subparsers) -> None:
    p = subparsers.add_parser("games", help="list the real games, count their moves (perft)")
    sub = p.add_subparsers(dest="games_command", required=True)
    listing = sub.add_parser("list", help="the games and their rules")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(run=run_list)
    counting = sub.add_parser("perft", help="number of whole-move sequences of a given length")
    counting.add_argument("game", help="a game of `mctslab games list`")
    counting.add_argument("--depth", type=PLIES, required=True, help="plies (whole moves)")
    counting.add_argument("--json", action="store_true", help="print JSON (key nodes)")
    counting.set_defaults(run=run_perft)
    solving = sub.add_parser("solve", help="exact solution by expectimax (Pig solitaire)")
    solving.add_argument("game", help="pig (the only game small enough to solve)")
    solving.add_argument("--turns", type=COUNT, required=True, help="turns in the game")
    solving.add_argument("--json", action="store_true",
                         help="print JSON (keys value, q_roll, q_stop, action)")
    solving.set_defaults(run=run_solve)


def run_list(args) -> int:
    from games import GAMES  # the compiled rules load on use: the CLI starts faster

    if args.json:
        print(json.dumps([{"name": g.name, "title": g.title} for g in GAMES.values()]))
    else:
        width = max(map(len, GAMES))
        for game in GAMES.values():
            print(f"{game.name:<{width}}  {game.title}")
    return 0


def run_perft(args) -> int:
    from experiments.cli.limits import check_perft
    from games import get_game, perft

    game = get_game(args.game)
    check_perft(game, args.depth)
    start = time.perf_counter()
    nodes = perft(game, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"game": game.name, "depth": args.depth, "nodes": nodes,
                          "seconds": round(seconds, 4)}))
    else:
        print(f"perft({game.name}, {args.depth}) = {nodes}  ({seconds:.2f} s)")
    return 0


def run_solve(args) -> int:
    from games import pig
    from games.pig_solver import solve_pig

    if args.game != "pig":
        raise ValueError(f"only pig can be solved exactly, not {args.game!r}: "
                         f"use `mctslab games solve pig --turns T`")
    from experiments.cli.limits import check_pig

    check_pig(args.turns)
    start = pig.initial_state(args.turns)
    solution = solve_pig(args.turns)
    q_roll, q_stop = solution.q_values(start)
    action = pig.action_to_string(start, solution.optimal_action(start))
    if args.json:
        print(json.dumps({"game": "pig", "turns": args.turns, "value": solution.value(start),
                          "q_roll": q_roll, "q_stop": q_stop, "action": action,
                          "stop_from": solution.stop_from}))
    else:
        print(f"Pig solitaire, {args.turns} turns: optimal expected score"
              f" {solution.value(start):.4f}"
              f" (roll {q_roll:.4f}, stop {q_stop:.4f}: {action}); stopping is optimal at every"
              f" turn total >= {solution.stop_from}")
    return 0
