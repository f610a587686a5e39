"""Cannon: the rules that are easy to get wrong."""

import numpy as np
import pytest

from bandits.rng import seed_state
from games import cannon, compiled, get_game

GAME = get_game("cannon")
TOWNS = {"e1": "D", "e10": "L"}


def board(**cells):
    """A board with pieces at named points, e.g. board(b2="d", c5="l"); towns on e1 and e10
    unless given."""
    rows = [["."] * 10 for _ in range(10)]
    for name, piece in {**TOWNS, **cells}.items():
        rows[10 - int(name[1:])]["abcdefghij".index(name[0])] = piece
    return ["".join(row) for row in rows]


def moves(state, origin=None):
    names = (state.action_to_string(a) for a in state.legal_actions())
    return sorted(m for m in names if origin is None or m.startswith(origin))


def play(state, move):
    state.apply(state.string_to_action(move))


def test_towns_are_placed_first_on_the_back_row_not_in_corners():
    state = GAME.new_initial_state()
    assert moves(state) == [f"T{f}1" for f in "bcdefghi"]
    play(state, "Tc1")
    assert moves(state) == [f"T{f}10" for f in "bcdefghi"]
    play(state, "Th10")
    towns = np.flatnonzero(cannon.cells(state.array) > 2)
    assert "b4-b5" in moves(state) and cannon.cells(state.array)[towns].tolist() == [4, 3]
    assert towns.tolist() == [7, 92]


def test_soldiers_step_forward_and_capture_forward_or_sideways():
    state = GAME.from_board(board(e5="d", d5="l", e6="l", f4="l"))
    assert moves(state, "e5") == ["e5-c3", "e5-d6", "e5-e3", "e5-f6", "e5xd5", "e5xe6"]


def test_retreat_needs_an_adjacent_enemy_soldier_and_a_free_path():
    quiet = GAME.from_board(board(e5="d", h8="l"))
    assert moves(quiet, "e5") == ["e5-d6", "e5-e6", "e5-f6"]
    threatened = GAME.from_board(board(e5="d", f4="l", d4="d"))
    assert moves(threatened, "e5") == ["e5-d6", "e5-e3", "e5-e6", "e5-f6"]
    play(threatened, "e5-e3")
    assert cannon.cells(threatened.array)[[7 * 10 + 4, 5 * 10 + 4]].tolist() == [1, 0]
    town_only = GAME.from_board(board(e9="d"), to_move=0)
    assert moves(town_only, "e9") == ["e9-d10", "e9-f10", "e9xe10"]


def test_cannon_slides_and_shoots_two_or_three_points():
    state = GAME.from_board(board(b2="d", b3="d", b4="d", b6="l", b7="l", h8="l"))
    cannon_moves = [m for m in moves(state) if "*" in m or m in ("b2-b5", "b4-b1")]
    assert cannon_moves == ["b2*b6", "b2*b7", "b2-b5", "b4-b1"]
    play(state, "b2*b7")
    pieces = cannon.cells(state.array)
    assert pieces[3 * 10 + 1] == 0 and pieces[8 * 10 + 1] == 1  # the cannon stays
    assert np.count_nonzero(pieces == 2) == 2 and state.array[cannon.QUIET] == 0
    slide = GAME.from_board(board(b2="d", b3="d", b4="d", h8="l"))
    play(slide, "b2-b5")
    assert cannon.cells(slide.array)[[r * 10 + 1 for r in (5, 6, 7, 8)]].tolist() == [1, 1, 1, 0]
    play(slide, "h8-h7")
    assert "b5-b2" in moves(slide)  # the other way along the line


def test_shot_needs_the_point_in_front_empty_but_flies_over_the_next():
    blocked = GAME.from_board(board(c3="d", d4="d", e5="d", f6="l", g7="l"))
    assert not [m for m in moves(blocked) if "*" in m]
    over = GAME.from_board(board(c3="d", d4="d", e5="d", g7="d", h8="l"))
    assert [m for m in moves(over) if "*" in m] == ["c3*h8"]


def test_capturing_or_shooting_the_town_wins():
    state = GAME.from_board(board(e9="d", a5="d", b5="l", c5="l"))
    play(state, "e9xe10")
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.quality() == pytest.approx((2 - 2) / 15)
    shot = GAME.from_board(board(e5="d", e6="d", e7="d", a4="l", j5="l"))
    play(shot, "e5*e10")
    assert shot.winner() == 0 and shot.quality() == pytest.approx(1 / 15)


def test_a_player_without_moves_loses():
    state = GAME.from_board(board(e5="d", e6="l"), to_move=0)
    play(state, "e5xe6")
    assert state.is_terminal() and state.winner() == 0
    assert state.quality() == pytest.approx(1 / 15)


def test_draw_after_100_plies_without_capture():
    state = GAME.from_board(board(b2="d", h8="l"), quiet=cannon.DRAW_AFTER - 1)
    play(state, "b2-b3")
    assert state.is_terminal() and state.winner() == -1 and state.quality() == 0.0


def test_policy_always_takes_the_town():
    state = GAME.from_board(board(e9="d", a2="d", a3="d", b7="l"))
    out = np.empty(GAME.max_actions, dtype=np.int64)
    rng = seed_state(3)
    for _ in range(30):
        action = compiled.policy_action(GAME.game_id, state.array, out, rng)
        assert state.action_to_string(action) == "e9xe10"
