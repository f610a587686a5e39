"""Amazons: scripted positions (blocking, losing)."""

import pytest

from games import get_game

GAME = get_game("amazons")
SMALL = get_game("amazons8")
BOXED_WHITE = {"a1": "W", "a2": "#", "b1": "#", "b2": "#", "h1": "W", "h2": "#", "g1": "#",
               "g2": "#", "a8": "W", "a7": "#", "b8": "#", "b7": "#", "h8": "W", "h7": "#",
               "g8": "#", "g7": "#", "d4": "B", "d5": "B", "e4": "B", "e5": "B"}


def board(**cells):
    """An empty 8x8 board with W/B queens and # arrows at named cells."""
    rows = [["."] * 8 for _ in range(8)]
    for name, piece in cells.items():
        rows[8 - int(name[1])]["abcdefgh".index(name[0])] = piece
    return ["".join(row) for row in rows]


def test_arrows_and_queens_block_and_the_vacated_square_takes_an_arrow():
    state = SMALL.from_board(board(a1="W", c1="W", h1="W", h8="W", a3="#",
                                   a8="B", c8="B", e8="B", h4="B"))
    played = [state.action_to_string(a) for a in state.legal_actions()]
    assert {m.split("/")[0] for m in played if m.startswith("a1-")} == {
        "a1-a2", "a1-b1", "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"}
    assert "a1-a2/a1" in played and "a1-a2/a3" not in played and "a1-a2/a4" not in played


def test_the_player_who_cannot_move_loses():
    state = SMALL.from_board(board(**BOXED_WHITE), to_move=0)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == (-1.0, 1.0)
    assert state.quality() == pytest.approx(44 / 16)  # 11 queen moves per B queen
    assert not SMALL.from_board(board(**BOXED_WHITE), to_move=1).is_terminal()
