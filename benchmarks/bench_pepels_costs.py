"""What a game of ``reproduce pepels`` costs, per game and budget: CPU-seconds per game, plies
per game and simulations per CPU-second (``plies x playouts / seconds``), the figures of
``experiments.papers.pepels.study.COSTS`` from which the scales are chosen and ``--scale
paper`` projects its core-hours.

Plays ``--games`` games (seats swapped) of each of ``--specs`` (default: the cheapest and the
dearest enhanced player, ``uct+rb(a=online)`` and ``uct+rb(a=online)+qb(a=online)``) against
``uct``, per game and budget, in this process, timed with ``time.process_time`` (CPU time, so
other jobs on the machine count little); one untimed game per game and spec first loads or
compiles the kernels. A few games are a small sample: game lengths vary by a factor of 2-3, so
expect +-30% on a game's figure.

    nice python benchmarks/bench_pepels_costs.py [--budgets 100 500] [--games 2]
        [--game-list amazons breakthrough ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from experiments.papers.pepels.study import BASELINE, GAMES
from experiments.tournaments.match import load_game, play_game
from mcts.players import parse_player

SPECS = ("uct+rb(a=online)", "uct+rb(a=online)+qb(a=online)")


def measure(game_name: str, playouts: int, specs, games: int, seed: int = 0) -> dict:
    """CPU-seconds and plies of ``games`` games per spec against the baseline."""
    game = load_game(game_name)
    baseline = parse_player(BASELINE, game_name)
    seconds, plies = 0.0, 0
    for s, spec in enumerate(specs):
        player = parse_player(spec, game_name)
        for g in range(games):
            rng = np.random.default_rng([seed, s, g, playouts])
            seats = (player, baseline) if g % 2 == 0 else (baseline, player)
            start = time.process_time()
            record = play_game(game, seats, playouts, rng)
            seconds += time.process_time() - start
            plies += record.plies
    n = games * len(specs)
    return {"game": game_name, "playouts": playouts, "games": n,
            "cpu_seconds_per_game": seconds / n, "plies_per_game": plies / n,
            "simulations_per_second": plies * playouts / seconds}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--games", type=int, default=2, help="games per spec, game and budget")
    parser.add_argument("--game-list", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--specs", nargs="+", default=list(SPECS))
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    rows = []
    for name in args.game_list:
        start = time.perf_counter()
        measure(name, 5, args.specs, 1)  # load or compile the kernels, untimed
        warm = time.perf_counter() - start
        for playouts in args.budgets:
            row = measure(name, playouts, args.specs, args.games)
            row["warm_up_seconds"] = round(warm, 1)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{name:16s} {playouts:6d} playouts: {row['cpu_seconds_per_game']:7.3f} "
                      f"CPU-s a game, {row['plies_per_game']:6.1f} plies, "
                      f"{row['simulations_per_second']:9,.0f} simulations/s "
                      f"({row['games']} games; warm-up {warm:.1f} s)", flush=True)
    return rows


if __name__ == "__main__":
    main()
