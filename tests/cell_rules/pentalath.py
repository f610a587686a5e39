"""Pentalath's rules of 2439f44 (scratch arrays allocated at every ply), kept as the oracle of
``games.pentalath`` (``tests/test_games_differential.py``). Seed 000, Sect. 6.1; DESIGN §9.

A hexhex board of side 5 (61 cells), empty at the start. Player 0 (``x``) moves first; players
alternately place a stone of their colour on an empty cell (no swap rule). A group (stones of
one colour connected through neighbouring cells) without an empty neighbour (liberty) is
captured: after a placement the opponent's groups without liberties are removed first; then a
placement that leaves its own group without liberties is illegal (suicide), so it is legal only
if it captures. A player who makes a row of 5 or more own stones along one of the three axes
wins. The game is drawn when the player to move has no legal placement (the board is full, or
every empty cell is suicide for them: our choice for this rare case).

Coordinates: axial (q, r), s = -q - r, max(|q|, |r|, |s|) <= 4; r is the row (-4 at the top).
Cells are numbered row by row, left to right (rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells).
State: ``int8[63]``; cells hold 0 (empty) or owner + 1. Header: ``[61]`` player to move,
``[62]`` result (-1 playing, 0/1 winner, 2 draw). Action: the cell played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

RADIUS = 4
ROW = 5
DRAW = 2
_AXIAL = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))  # d and d + 3 are opposite


def _tables():
    coords = [(q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1)
              if abs(q + r) <= RADIUS]
    index = {c: i for i, c in enumerate(coords)}
    neighbours = np.array([[index.get((q + dq, r + dr), -1) for dq, dr in _AXIAL]
                           for q, r in coords], dtype=np.int64)
    return np.array(coords, dtype=np.int64), neighbours


COORDS, NEIGHBOURS = _tables()
CELLS = len(COORDS)
TO_MOVE, RESULT = CELLS, CELLS + 1
STATE_SIZE = CELLS + 2
MAX_ACTIONS = NUM_ACTIONS = CELLS
PIECES = ".xo"
_ROW_STARTS = np.searchsorted(COORDS[:, 1], np.arange(-RADIUS, RADIUS + 2))


def initial_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[RESULT] = -1
    return state


def from_board(rows: list[str], to_move: int = 0) -> np.ndarray:
    """A position from the 9 rows of ``.xo`` that ``render`` draws (spaces ignored), top row
    first, with ``to_move`` to play (no row of 5 on it)."""
    widths = np.diff(_ROW_STARTS).tolist()
    cells = "".join(rows).replace(" ", "")
    if [len(row.replace(" ", "")) for row in rows] != widths or set(cells) - set(PIECES):
        raise ValueError(f"a board is {len(widths)} rows of {widths} cells from {PIECES!r}")
    state = initial_state()
    state[:CELLS] = [PIECES.index(ch) for ch in cells]
    state[TO_MOVE] = to_move
    _settle(state)
    return state


@njit(cache=True)
def current_player(state):
    return np.int64(state[TO_MOVE])


@njit(cache=True)
def is_terminal(state):
    return state[RESULT] >= 0


@njit(cache=True)
def winner(state):
    """The winner (0 or 1) of a finished game, -1 for a draw or while playing."""
    return np.int64(state[RESULT]) if state[RESULT] != DRAW else np.int64(-1)


@njit(cache=True)
def _group(state, start, mark, stamp, stack, members):
    """Flood-fill the group on ``start``, marking it with ``stamp``; write its cells into
    ``members`` and return (size, liberties counted with repeats)."""
    colour = state[start]
    mark[start] = stamp
    stack[0], depth, size, liberties = start, 1, 0, 0
    while depth > 0:
        depth -= 1
        cell = stack[depth]
        members[size] = cell
        size += 1
        for d in range(6):
            near = NEIGHBOURS[cell, d]
            if near < 0:
                continue
            if state[near] == 0:
                liberties += 1
            elif state[near] == colour and mark[near] != stamp:
                mark[near] = stamp
                stack[depth] = near
                depth += 1
    return size, liberties


@njit(cache=True)
def _is_legal(state, cell, player, mark, stamp, stack, members):
    """A placement on empty ``cell`` is legal iff the cell has a liberty, or joins an own group
    that keeps a liberty, or takes the last liberty of an enemy group. Groups are flood-filled
    with mark ``stamp`` (disjoint groups share it)."""
    for d in range(6):
        near = NEIGHBOURS[cell, d]
        if near >= 0 and state[near] == 0:
            return True
    state[cell] = player + 1
    legal = False
    for d in range(6):
        near = NEIGHBOURS[cell, d]
        if near < 0 or mark[near] == stamp:
            continue
        liberties = _group(state, near, mark, stamp, stack, members)[1]
        if (liberties > 0) == (state[near] == player + 1):
            legal = True
            break
    state[cell] = 0
    return legal


@njit(cache=True)
def _generate(state, player, out, first_only):
    """Write ``player``'s legal placements into ``out``; return their number (with
    ``first_only``, stop at the first)."""
    mark = np.zeros(CELLS, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    members = np.empty(CELLS, dtype=np.int64)
    n = 0
    for cell in range(CELLS):
        if state[cell] == 0 and _is_legal(state, cell, player, mark, cell + 1, stack, members):
            out[n] = cell
            n += 1
            if first_only:
                return n
    return n


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` and return their number (0 iff terminal)."""
    if state[RESULT] >= 0:
        return 0
    return _generate(state, state[TO_MOVE], out, False)


@njit(cache=True)
def _run(state, cell, d):
    """The number of stones of ``cell``'s colour in a line from ``cell`` in direction d (not
    counting ``cell``)."""
    count = 0
    near = NEIGHBOURS[cell, d]
    while near >= 0 and state[near] == state[cell]:
        count += 1
        near = NEIGHBOURS[near, d]
    return count


@njit(cache=True)
def _settle(state):
    """Draw if the player to move has no legal placement."""
    if state[RESULT] < 0 and _generate(state, state[TO_MOVE], np.empty(1, dtype=np.int64),
                                       True) == 0:
        state[RESULT] = DRAW


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place: place, capture, then look for a row of 5."""
    player = state[TO_MOVE]
    state[action] = player + 1
    mark = np.zeros(CELLS, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    members = np.empty(CELLS, dtype=np.int64)
    for d in range(6):
        near = NEIGHBOURS[action, d]
        if near >= 0 and state[near] == 2 - player and mark[near] == 0:
            size, liberties = _group(state, near, mark, 1, stack, members)
            if liberties == 0:
                for i in range(size):
                    state[members[i]] = 0
    for d in range(3):
        if 1 + _run(state, action, d) + _run(state, action, d + 3) >= ROW:
            state[RESULT] = player
    state[TO_MOVE] = 1 - player
    _settle(state)


@njit(cache=True)
def _open(state, cell, d, player):
    """The number of cells beyond ``cell`` in direction d before the edge or an enemy stone."""
    count = 0
    near = NEIGHBOURS[cell, d]
    while near >= 0 and state[near] != 2 - player:
        count += 1
        near = NEIGHBOURS[near, d]
    return count


@njit(cache=True)
def longest_open_row(state, player):
    """The longest line of ``player``'s stones whose stretch along its axis, up to the edges or
    enemy stones, spans at least ROW cells (a row that can still become 5)."""
    best = 0
    for cell in range(CELLS):
        if state[cell] != player + 1:
            continue
        for d in range(3):
            back = NEIGHBOURS[cell, d + 3]
            if back >= 0 and state[back] == player + 1:
                continue
            length = 1 + _run(state, cell, d)
            end = cell
            for _ in range(length - 1):
                end = NEIGHBOURS[end, d]
            if length + _open(state, end, d, player) + _open(state, cell, d + 3, player) >= ROW:
                best = max(best, length)
    return best


@njit(cache=True)
def quality(state):
    """q = 1 - L / 5, L = the loser's longest open row (0..4, ``longest_open_row``): seed 000
    Sect. 6.1's measure with the framework's normaliser (DESIGN §9; the online weight a' of Eq.
    10 depends on where q is 0, so it is not shifted); 0 for a draw (no bonus)."""
    w = state[RESULT]
    if w == DRAW:
        return 0.0
    return 1.0 - longest_open_row(state, 1 - w) / 5.0


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """No move is always played in this game's playouts (seed 000 Sect. 6.1): -1."""
    return -1


@njit(cache=True)
def policy_action(state, out, rng):
    """Uniformly random among the legal placements (MAST comes with the search). -1 at a
    terminal."""
    n = legal_actions(state, out)
    return out[randint(rng, n)] if n > 0 else -1


def cell_name(cell: int) -> str:
    """Row letter (``a`` at the top) and place in the row from the left (1-based): ``e9``."""
    row = int(np.searchsorted(_ROW_STARTS, cell, side="right")) - 1
    return "abcdefghi"[row] + str(cell - int(_ROW_STARTS[row]) + 1)


def action_to_string(state: np.ndarray, action: int) -> str:
    return cell_name(action)


def render(state: np.ndarray) -> str:
    lines = []
    for row in range(len(_ROW_STARTS) - 1):
        start, stop = int(_ROW_STARTS[row]), int(_ROW_STARTS[row + 1])
        pad = " " * (2 * RADIUS + 1 - (stop - start))
        lines.append("abcdefghi"[row] + " " + pad + " ".join(PIECES[v] for v in state[start:stop]))
    return "\n".join(lines)
