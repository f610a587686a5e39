"""Playouts and MCTS simulations per second on Breakthrough from the start: ours vs OpenSpiel.

OpenSpiel runs its C++ rollouts only inside ``pyspiel.MCTSBot``; with a
``pyspiel.RandomRolloutEvaluator`` of R rollouts per evaluation, S simulations do S x R rollouts
from (nearly) the start, so the tree's cost is amortised over R. OpenSpiel's Python evaluator
(``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator``) is measured too, and whole UCT
searches of the same number of simulations (ours: ``mcts.games.search`` with uniformly random
playouts, and with Breakthrough's own policy; OpenSpiel: ``MCTSBot`` with random rollouts).
Each figure is the median of ``--repeats`` timed runs.

    python benchmarks/bench_games.py [--playouts N] [--repeats K] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from numba import njit

from bandits.rng import seed_state
from games import compiled, get_game

GAME = get_game("breakthrough")


@njit(cache=True)
def _playouts(gid, initial, max_actions, n, rng, uniform):
    """Run n playouts from ``initial``; return the total number of moves played."""
    out = np.empty(max_actions, dtype=np.int64)
    state = initial.copy()
    moves = 0
    for _ in range(n):
        state[:] = initial
        moves += compiled.playout(gid, state, out, rng, uniform)
    return moves


def ours(n: int, seed: int, uniform: bool = True) -> tuple[float, float]:
    """(playouts per second, mean playout length) of our compiled rules."""
    rng = seed_state(seed)
    start = time.perf_counter()
    moves = _playouts(GAME.game_id, GAME.initial_array(), GAME.max_actions, n, rng, uniform)
    return n / (time.perf_counter() - start), moves / n


def ours_mcts(n: int, seed: int, uniform: bool = True) -> float:
    """Simulations per second of our compiled UCT (mcts.games) from the start, with uniformly
    random playouts (as OpenSpiel's ``RandomRolloutEvaluator``) or the game's playout policy."""
    from mcts.games import GameSearchConfig, search
    from mcts.games.playouts import POLICY, UNIFORM

    config = GameSearchConfig(playout=UNIFORM if uniform else POLICY)
    start = time.perf_counter()
    search(GAME, GAME.new_initial_state(), n, config, seed=seed)
    return n / (time.perf_counter() - start)


def openspiel_cpp(n: int, seed: int, per_evaluation: int = 100) -> float:
    """C++ random rollouts per second inside ``pyspiel.MCTSBot``."""
    import pyspiel

    game = pyspiel.load_game("breakthrough")
    evaluator = pyspiel.RandomRolloutEvaluator(per_evaluation, seed)
    simulations = max(1, n // per_evaluation)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, False, seed, False)
    start = time.perf_counter()
    bot.step(game.new_initial_state())
    return simulations * per_evaluation / (time.perf_counter() - start)


def openspiel_mcts_cpp(n: int, seed: int) -> float:
    """C++ MCTS simulations per second (one random rollout each), for reference."""
    import pyspiel

    game = pyspiel.load_game("breakthrough")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, n, 1000, False,
                          seed, False)
    start = time.perf_counter()
    bot.step(game.new_initial_state())
    return n / (time.perf_counter() - start)


def openspiel_python(n: int, seed: int) -> float:
    """Rollouts per second of OpenSpiel's Python evaluator over the C++ game."""
    import pyspiel
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    state = pyspiel.load_game("breakthrough").new_initial_state()
    evaluator = RandomRolloutEvaluator(n_rollouts=n, random_state=np.random.RandomState(seed))
    start = time.perf_counter()
    evaluator.evaluate(state)
    return n / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=100_000, help="playouts per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs (median reported)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    n, k = args.playouts, args.repeats
    ours(100, 0)
    ours(100, 0, uniform=False)
    ours_mcts(100, 0)
    ours_mcts(100, 0, uniform=False)
    runs = [ours(n, seed) for seed in range(k)]
    result = {
        "ours_random": statistics.median(r[0] for r in runs),
        "ours_random_length": statistics.median(r[1] for r in runs),
        "ours_decisive": statistics.median(ours(n, seed, uniform=False)[0] for seed in range(k)),
        # the same number of simulations as OpenSpiel's search below (a tree's cost grows)
        "ours_mcts_simulations": statistics.median(ours_mcts(n // 20, seed) for seed in range(k)),
        "ours_mcts_simulations_game_policy": statistics.median(
            ours_mcts(n // 20, seed, uniform=False) for seed in range(k)),
    }
    try:
        result["openspiel_cpp_rollouts"] = statistics.median(
            openspiel_cpp(n // 4, seed) for seed in range(k))
        result["openspiel_cpp_mcts_simulations"] = statistics.median(
            openspiel_mcts_cpp(n // 20, seed) for seed in range(k))
        result["openspiel_python_rollouts"] = statistics.median(
            openspiel_python(max(n // 200, 10), seed) for seed in range(k))
        result["ratio_ours_to_openspiel_cpp"] = (result["ours_random"]
                                                 / result["openspiel_cpp_rollouts"])
        result["ratio_mcts_ours_to_openspiel_cpp"] = (
            result["ours_mcts_simulations"] / result["openspiel_cpp_mcts_simulations"])
    except ImportError:
        result["openspiel"] = "not installed (pip install open_spiel)"
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<32} {value:>14,.1f}" if isinstance(value, float)
                  else f"{key:<32} {value}")
    return result


if __name__ == "__main__":
    main()
