"""English checkers: scripted positions for the tricky rules."""

import pytest

from games import checkers, get_game

GAME = get_game("checkers")


def board(**cells):
    """An empty board with pieces at named cells: o/+ men, 8/* kings of player 0/1."""
    rows = [["."] * 8 for _ in range(8)]
    for name, piece in cells.items():
        rows[8 - int(name[1])]["abcdefgh".index(name[0])] = piece
    return ["".join(row) for row in rows]


def moves(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_multi_jump_is_one_mandatory_move():
    state = GAME.from_board(board(c3="o", a1="o", d4="+", f6="+", d6="+", h8="+"))
    assert moves(state) == ["c3xe5xc7", "c3xe5xg7"]
    state.apply(state.string_to_action("c3xe5xg7"))
    pieces = checkers.cells(state.array)
    assert [sum(pieces % 2 == 1), sum((pieces > 0) & (pieces % 2 == 0))] == [2, 2]
    assert state.current_player() == 1
    assert moves(state) == ["h8xf6"]  # captures are mandatory for player 1 too


def test_crowning_ends_the_move():
    state = GAME.from_board(board(b6="o", c7="+", e7="+", a1="+"))
    assert moves(state) == ["b6xd8"]
    state.apply(state.legal_actions()[0])
    assert state.render().splitlines()[0] == "8 ...8...." and state.current_player() == 1


def test_kings_move_and_capture_backwards_men_do_not():
    man = GAME.from_board(board(d4="o", c3="+", h8="+"))
    assert moves(man) == ["d4c5", "d4e5"]
    king = GAME.from_board(board(d4="8", c3="+", h8="+"))
    assert moves(king) == ["d4xb2"]


def test_draw_after_40_moves_without_capture():
    state = GAME.from_board(board(d4="8", h8="*"), quiet=39)
    state.apply(state.string_to_action("d4c5"))
    assert state.is_terminal() and state.returns() == (0.0, 0.0) and state.quality() == 0.0
    capture = GAME.from_board(board(d4="8", e5="+", h8="*"), quiet=39)
    capture.apply(capture.legal_actions()[0])
    assert not capture.is_terminal()


def test_blocked_player_loses():
    state = GAME.from_board(board(b6="o", a7="+", c7="+", d8="+"))
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == (-1.0, 1.0) and state.quality() == pytest.approx(3 / 12)
