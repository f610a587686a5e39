"""Pentalath: perft through captures, captures, the suicide rule, rows of 5 and the quality."""

import numpy as np
import pytest

from games import get_game, perft
from games import pentalath as pl

GAME = get_game("pentalath")
INDEX = {tuple(c): i for i, c in enumerate(pl.COORDS.tolist())}
WIDTHS = [5, 6, 7, 8, 9, 8, 7, 6, 5]


def position(x=(), o=(), to_move=0):
    """A state with player 0's stones on the axial cells ``x`` and player 1's on ``o``."""
    cells = ["."] * pl.CELLS
    for piece, where in (("x", x), ("o", o)):
        for q, r in where:
            cells[INDEX[q, r]] = piece
    rows = np.split(np.array(cells), np.cumsum(WIDTHS)[:-1])
    return GAME.from_board(["".join(row) for row in rows], to_move)


def ring(q, r):
    """The axial neighbours of (q, r)."""
    return [(q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r), (q, r - 1), (q + 1, r - 1)]


def play(state, q, r):
    state.apply(INDEX[q, r])


def stone(state, q, r):
    return ".xo"[pl.cells(state.array)[INDEX[q, r]]]


def test_perft_with_captures_and_suicide():
    """o on the corner (4, -4) has one liberty left, (3, -3); x may not play into the corner
    pocket (-4, 4) walled by o, so 61 - 9 stones - 1 suicide = 51 moves, and after x takes
    the corner stone every o reply but the emptied corner (now suicide) remains."""
    state = position(x=[(3, -4), (4, -3), (0, 0)], o=[(4, -4), (-4, 3), (-3, 3), (-3, 4), (1, 1),
                                                          (2, 2)])
    assert len(state.legal_actions()) == 51
    child = state.child(INDEX[3, -3])
    assert stone(child, 4, -4) == "."
    assert INDEX[4, -4] not in child.legal_actions()
    assert perft(GAME, 2, state) == sum(len(state.child(a).legal_actions())
                                        for a in state.legal_actions())


def test_a_placement_captures_every_enemy_group_without_liberties():
    # two o groups, {(1, 0)} and {(-1, 0), (-1, 1)}, both lose their last liberty at (0, 0)
    o = [(1, 0), (-1, 0), (-1, 1)]
    x = [c for c in set(ring(1, 0) + ring(-1, 0) + ring(-1, 1)) if c not in o + [(0, 0)]]
    state = position(x=x, o=o)
    play(state, 0, 0)
    assert [stone(state, *c) for c in o] == [".", ".", "."] and stone(state, 0, 0) == "x"
    assert not state.is_terminal()


def test_suicide_is_illegal_unless_it_captures():
    walled = position(x=[(-4, 0)], o=ring(0, 0))
    assert INDEX[0, 0] not in walled.legal_actions()
    # the o wall is itself enclosed by x: x at the centre takes its last liberty
    outer = [c for c in {n for w in ring(0, 0) for n in ring(*w)} if c != (0, 0)
             and c not in ring(0, 0)]
    taking = position(x=outer, o=ring(0, 0))
    assert INDEX[0, 0] in taking.legal_actions()
    play(taking, 0, 0)
    assert all(stone(taking, *c) == "." for c in ring(0, 0)) and stone(taking, 0, 0) == "x"


def test_own_group_joins_and_keeps_a_liberty():
    x = [(1, 0), (2, 0)]
    o = [(1, -1), (0, 1), (-1, 1), (-1, 0), (0, -1), (2, -1), (1, 1), (3, -1), (2, 1)]
    state = position(x=x, o=o)
    assert INDEX[0, 0] in state.legal_actions()  # joins the x pair, whose liberty (3, 0) is free
    state = position(x=x, o=o + [(3, 0)])
    assert INDEX[0, 0] not in state.legal_actions()


def test_five_in_a_row_wins_and_quality_reads_the_losers_open_row():
    x = [(-2, 0), (-1, 0), (0, 0), (1, 0)]
    o = [(-2, 2), (-1, 2), (0, 2), (-4, 4)]
    state = position(x=x, o=o)
    play(state, 3, -3)
    assert not state.is_terminal()
    play(state, 1, 2)
    assert not state.is_terminal()
    play(state, 2, 0)
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert pl.longest_open_row(state.array, 1) == 4 and state.quality() == pytest.approx(
        1 - 4 / 5)


def test_a_row_closed_on_both_sides_does_not_count():
    state = position(x=[(-4, 0), (-3, 0), (-2, 0), (1, 0)], o=[(-1, 0)])
    assert pl.longest_open_row(state.array, 0) == 1  # the three on the edge cannot reach 5
    assert pl.longest_open_row(state.array, 1) == 1


def test_no_legal_placement_is_a_draw():
    full = ["x" * w for w in WIDTHS]
    full[4] = "xxxx.xxxx"
    state = GAME.from_board(full, to_move=0)
    assert state.is_terminal() and state.winner() == -1 and state.quality() == 0.0
    assert not GAME.from_board(full, to_move=1).is_terminal()  # o captures everything
