"""Playouts per second of each game's rules against the cell-by-cell rules they replaced.

The rules of 2439f44 are kept in ``tests/cell_rules`` (the oracles of
``tests/test_games_differential.py``); both play from the start with the game's own playout
policy, in one process, old and new alternately for ``--rounds`` rounds (medians and their
ratio), so the machine's drift hits both alike. ``--cpu`` times the process's CPU time instead
of the wall clock (steadier on a loaded machine, where the wall clock counts time waiting for a
core).

    python benchmarks/bench_rules.py [--games breakthrough checkers ...] [--rounds 5] [--cpu]
        [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from bandits.rng import seed_state
from games import get_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

# registry name -> (rules module, playouts per timed run)
GAMES = {"breakthrough": ("breakthrough", 3000), "checkers": ("checkers", 1000),
         "pentalath": ("pentalath", 300), "chinesecheckers": ("chinese_checkers", 300),
         "amazons": ("amazons", 100), "cannon": ("cannon", 300)}


def _runner(rules):
    """A kernel ``(start, n, rng, buffer) -> moves`` playing n policy playouts of ``rules``."""

    @njit
    def run(start, n, rng, buffer):
        out = np.empty(buffer, np.int64)
        moves = 0
        for _ in range(n):
            state = start.copy()
            while True:
                action = rules.policy_action(state, out, rng)
                if action < 0:
                    break
                rules.apply_action(state, action)
                moves += 1
        return moves

    return run


def compare(name: str, rounds: int, cpu: bool = False) -> dict:
    """Median playouts/s of the new and the old rules of game ``name`` and their ratio (per CPU
    second with ``cpu``, else per wall-clock second)."""
    clock = time.process_time if cpu else time.perf_counter
    module, n = GAMES[name]
    buffer = get_game(name).max_actions
    rules = {"new": importlib.import_module(f"games.{module}"),
             "old": importlib.import_module(f"cell_rules.{module}")}
    runs = {key: _runner(module) for key, module in rules.items()}
    for key, run in runs.items():
        run(rules[key].initial_state(), 1, seed_state(0), buffer)  # compile
    rates = {key: [] for key in runs}
    for r in range(rounds):
        for key, run in runs.items():
            start = clock()
            run(rules[key].initial_state(), n, seed_state(r), buffer)
            rates[key].append(n / (clock() - start))
    new, old = statistics.median(rates["new"]), statistics.median(rates["old"])
    return {"game": name, "new": new, "old": old, "ratio": new / old}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians)")
    parser.add_argument("--cpu", action="store_true", help="CPU time instead of wall time")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    results = [compare(name, args.rounds, args.cpu) for name in args.games]
    if args.json:
        print(json.dumps(results))
    else:
        for row in results:
            print(f"{row['game']:<16} {row['new']:>12,.0f} /s  old {row['old']:>10,.0f} /s  "
                  f"{row['ratio']:.2f}x")
    return results


if __name__ == "__main__":
    main()
