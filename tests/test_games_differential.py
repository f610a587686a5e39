"""The rules of ``games/`` (bitboards, or faster cell rules) against the cell-by-cell rules of
2439f44 they replaced (``tests/cell_rules``): per game 1,000 games, half uniformly random and
half by the playout policy, each rule set drawing from its own generator of the same seed: the
legal moves equal in the same order at every ply, the same moves drawn, the same winner,
quality and random numbers used."""

import numpy as np
import pytest
from cell_rules import amazons as cell_amazons
from cell_rules import breakthrough as cell_breakthrough
from cell_rules import cannon as cell_cannon
from cell_rules import checkers as cell_checkers
from cell_rules import chinese_checkers as cell_chinese_checkers
from cell_rules import pentalath as cell_pentalath
from numba import njit

from bandits.rng import randint, seed_state
from games import (
    amazons,
    breakthrough,
    cannon,
    checkers,
    chinese_checkers,
    get_game,
    pentalath,
)

GAMES = 1000
CELL_RULES = {"breakthrough": cell_breakthrough, "checkers": cell_checkers,
              "pentalath": cell_pentalath, "chinesecheckers": cell_chinese_checkers,
              "amazons": cell_amazons, "amazons8": cell_amazons, "cannon": cell_cannon}
NEW_RULES = {"breakthrough": breakthrough, "checkers": checkers, "pentalath": pentalath,
             "chinesecheckers": chinese_checkers, "amazons": amazons, "amazons8": amazons,
             "cannon": cannon}
BOARD = {"amazons8": (8,)}  # initial_state's arguments where the default board is another


def _listed_draw(rules):
    """The default uniform draw of ``games.compiled`` over ``rules``' move list."""

    @njit
    def draw(state, out, rng):
        n = rules.legal_actions(state, out)
        return out[randint(rng, n)] if n > 0 else -1

    return draw


def _first_difference(old, new):
    """A kernel ``(old_start, new_start, games, seed, max_actions) -> (game, ply)`` playing
    ``games`` games through the rule modules ``old`` and ``new``, each drawing from its own
    ``seed_state(seed + g)`` for game g: the first ply where the legal moves (in order), the
    player to move, the terminal flag or the move drawn differ, or where the winner, quality or
    random stream differ at the end; (-1, -1) if none. Even games are uniformly random (the
    cell rules' ``out[randint(rng, n)]`` against the new ``random_action``, or the same draw from
    the new list where the module has none), odd ones
    the playout policy of each rule set."""
    draw = getattr(new, "random_action", None) or _listed_draw(new)

    @njit
    def difference(old_start, new_start, games, seed, max_actions):
        out_old = np.empty(max_actions, dtype=np.int64)
        out_new = np.empty(max_actions, dtype=np.int64)
        for game in range(games):
            a, b = old_start.copy(), new_start.copy()
            rng_old, rng_new = seed_state(seed + game), seed_state(seed + game)
            ply = 0
            while True:
                n = old.legal_actions(a, out_old)
                if new.legal_actions(b, out_new) != n:
                    return game, ply
                for i in range(n):
                    if out_old[i] != out_new[i]:
                        return game, ply
                if old.is_terminal(a) != new.is_terminal(b) or (
                        old.current_player(a) != new.current_player(b)):
                    return game, ply
                if n == 0:
                    break
                if game % 2 == 0:
                    action = out_old[randint(rng_old, n)]
                    if draw(b, out_new, rng_new) != action:
                        return game, ply
                else:
                    action = old.policy_action(a, out_old, rng_old)
                    if new.policy_action(b, out_new, rng_new) != action:
                        return game, ply
                old.apply_action(a, action)
                new.apply_action(b, action)
                ply += 1
            if (old.winner(a) != new.winner(b) or old.quality(a) != new.quality(b)
                    or rng_old[0] != rng_new[0]):
                return game, ply
        return -1, -1

    return difference


@pytest.mark.parametrize("name", list(NEW_RULES))
def test_rules_play_the_cell_rules_games(name):
    old, new = CELL_RULES[name], NEW_RULES[name]
    difference = _first_difference(old, new)
    board = BOARD.get(name, ())
    assert difference(old.initial_state(*board), new.initial_state(*board), GAMES, 1000,
                      get_game(name).max_actions) == (-1, -1)


@pytest.mark.parametrize("seed", [1, 2])
def test_breakthrough_decisive_tests_agree_on_random_positions(seed):
    """``decisive_action`` draws the same move from the same seed in mid-game positions where
    decisive and anti-decisive moves are common (both sides' pawns pushed forward)."""
    rng = np.random.default_rng(seed)
    for _ in range(300):
        board = rng.choice([0, 0, 0, 1, 2], size=64).astype(np.int8)
        board[:8][board[:8] == 1] = 0  # no finished game
        board[56:][board[56:] == 2] = 0
        if not (np.any(board == 1) and np.any(board == 2)):
            continue
        rows = ["".join(".wb"[v] for v in board[r * 8:(r + 1) * 8]) for r in range(8)]
        to_move = int(rng.integers(2))
        old = cell_breakthrough.from_board(rows, to_move)
        new = breakthrough.from_board(rows, to_move)
        out = np.empty(48, dtype=np.int64)
        n = breakthrough.legal_actions(new, out)
        for draw in range(3):
            a = cell_breakthrough.decisive_action(old, out, n, seed_state(draw))
            b = breakthrough.decisive_action(new, out, n, seed_state(draw))
            assert a == b, rows
            a = cell_breakthrough.policy_action(old, out.copy(), seed_state(draw))
            b = breakthrough.policy_action(new, out.copy(), seed_state(draw))
            assert a == b, rows
