"""``mctslab games list`` and ``mctslab games perft GAME --depth N``: the real games' rules."""

from __future__ import annotations

import json
import time

from games import GAMES, get_game, perft


def register(subparsers) -> None:
    p = subparsers.add_parser("games", help="list the real games, count their moves (perft)")
    sub = p.add_subparsers(dest="games_command", required=True)
    listing = sub.add_parser("list", help="the games and their rules")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(run=run_list)
    counting = sub.add_parser("perft", help="number of whole-move sequences of a given length")
    counting.add_argument("game", help=f"one of {', '.join(GAMES)}")
    counting.add_argument("--depth", type=int, required=True, help="plies (whole moves)")
    counting.add_argument("--json", action="store_true", help="print JSON (key nodes)")
    counting.set_defaults(run=run_perft)


def run_list(args) -> int:
    if args.json:
        print(json.dumps([{"name": g.name, "title": g.title} for g in GAMES.values()]))
    else:
        width = max(map(len, GAMES))
        for game in GAMES.values():
            print(f"{game.name:<{width}}  {game.title}")
    return 0


def run_perft(args) -> int:
    game = get_game(args.game)
    start = time.perf_counter()
    nodes = perft(game, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"game": game.name, "depth": args.depth, "nodes": nodes,
                          "seconds": round(seconds, 4)}))
    else:
        print(f"perft({game.name}, {args.depth}) = {nodes}  ({seconds:.2f} s)")
    return 0
