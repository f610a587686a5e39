"""Breakthrough: the rules that are easy to get wrong."""

import numpy as np
import pytest

from bandits.rng import seed_state
from games import compiled, get_game

GAME = get_game("breakthrough")
EMPTY = ["........"] * 8


def board(**cells):
    """An empty board with pieces at named cells, e.g. board(a2="w", a3="b")."""
    rows = [list(row) for row in EMPTY]
    for name, piece in cells.items():
        rows[8 - int(name[1])]["abcdefgh".index(name[0])] = piece
    return ["".join(row) for row in rows]


def moves(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_captures_only_diagonally():
    state = GAME.from_board(board(d4="w", d5="b", c5="b", h8="b", a1="w"))
    assert moves(state) == ["a1a2", "a1b2", "d4e5", "d4xc5"]


def test_reaching_the_far_row_wins():
    state = GAME.from_board(board(c7="w", h8="b", a5="b"))
    state.apply(state.string_to_action("c7c8"))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.quality() == pytest.approx((1 - 2) / 16)  # a win a pawn down: q < 0


def test_capturing_every_enemy_pawn_wins():
    state = GAME.from_board(board(d4="w", e5="b", a2="w"), to_move=0)
    state.apply(state.string_to_action("d4xe5"))
    assert state.is_terminal() and state.winner() == 0
    assert state.quality() == pytest.approx(2 / 16)


def test_black_moves_down_and_wins_on_row_1():
    state = GAME.from_board(board(b2="b", h6="w"), to_move=1)
    assert moves(state) == ["b2a1", "b2b1", "b2c1"]
    state.apply(state.legal_actions()[0])
    assert state.returns() == (-1.0, 1.0)


def test_policy_always_plays_a_decisive_move():
    state = GAME.from_board(board(a7="w", e2="w", f2="w", h5="b", g4="b"))
    out = np.empty(GAME.max_actions, dtype=np.int64)
    rng = seed_state(7)
    for _ in range(50):
        action = compiled.policy_action(GAME.game_id, state.array, out, rng)
        assert state.action_to_string(action) in ("a7a8", "a7b8")


def _policy_counts(state, draws, seed=0):
    """How often the compiled playout policy picks each move from ``state``."""
    out, rng = np.empty(GAME.max_actions, np.int64), seed_state(np.uint64(seed))
    counts = {}
    for _ in range(draws):
        action = compiled.policy_action(GAME.game_id, state.array.copy(), out, rng)
        name = state.action_to_string(action)
        counts[name] = counts.get(name, 0) + 1
    return counts


def test_playout_policy_weights_captures_as_the_framework():
    """Quiet moves weigh 1, a capture that can be taken back 2, a safe capture 5 (seed 000's
    framework, Board.getPlayoutMoves): here 1 + 2 + 5 + 1 + 1 = 10 in all."""
    state = GAME.from_board(board(d4="w", a1="w", c5="b", b6="b", e5="b"))
    draws = 20_000
    counts = _policy_counts(state, draws)
    expected = {"d4d5": 0.1, "d4xc5": 0.2, "d4xe5": 0.5, "a1a2": 0.1, "a1b2": 0.1}
    assert set(counts) == set(expected)
    for move, p in expected.items():
        assert abs(counts[move] / draws - p) < 4 * np.sqrt(p * (1 - p) / draws), (move, counts)


def test_playout_policy_always_stops_a_breakthrough():
    """A pawn one step from our home row is captured whenever it can be (anti-decisive)."""
    state = GAME.from_board(board(d1="w", a4="w", c2="b", h8="b"))
    assert _policy_counts(state, 300) == {"d1xc2": 300}
