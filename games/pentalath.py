"""Pentalath (C. Browne), compiled bitboard rules (seed 000, Sect. 6.1; DESIGN §9).

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
State: ``int64[4]``: ``state[0]``, ``state[1]`` the stones of players 0 and 1 as 61-bit masks
(bit = cell), ``state[2]`` the player to move, ``state[3]`` the result (-1 playing, 0/1 winner,
2 draw). Action: the cell played. The rows' lengths differ, so a cell's neighbours are a table
of masks (``NEIGHBOUR_MASKS``) rather than shifts: a placement is legal at once where the cell
has an empty neighbour, groups are grown a ring of neighbours at a time, and the legal cells
are listed in cell order, as by the cell-by-cell rules these replaced
(``tests/cell_rules/pentalath.py``), so both play the same games from the same seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import lowest_bit, nth_move, popcount

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
    masks = np.array([sum(1 << int(n) for n in row if n >= 0) for row in neighbours],
                     dtype=np.uint64)
    return np.array(coords, dtype=np.int64), neighbours, masks


COORDS, NEIGHBOURS, NEIGHBOUR_MASKS = _tables()
CELLS = len(COORDS)
TO_MOVE, RESULT = 2, 3
STATE_SIZE = 4
MAX_ACTIONS = NUM_ACTIONS = CELLS
PIECES = ".xo"
_ROW_STARTS = np.searchsorted(COORDS[:, 1], np.arange(-RADIUS, RADIUS + 2))
_ONE, _ZERO = np.uint64(1), np.uint64(0)
_BOARD = np.uint64((1 << CELLS) - 1)


def initial_state() -> np.ndarray:
    return np.array([0, 0, 0, -1], dtype=np.int64)


def cells(state: np.ndarray) -> np.ndarray:
    """The board cell by cell: ``int8[61]`` of 0 (empty) or owner + 1."""
    board = np.zeros(CELLS, dtype=np.int8)
    for player in (0, 1):
        mask = int(np.int64(state[player]).view(np.uint64))
        board[[cell for cell in range(CELLS) if mask >> cell & 1]] = player + 1
    return board


def from_board(rows: list[str], to_move: int = 0) -> np.ndarray:
    """A position from the 9 rows of ``.xo`` that ``render`` draws (spaces ignored), top row
    first, with ``to_move`` to play (no row of 5 on it)."""
    widths = np.diff(_ROW_STARTS).tolist()
    text = "".join(rows).replace(" ", "")
    if [len(row.replace(" ", "")) for row in rows] != widths or set(text) - set(PIECES):
        raise ValueError(f"a board is {len(widths)} rows of {widths} cells from {PIECES!r}")
    state = initial_state()
    for player in (0, 1):
        mask = sum(1 << cell for cell, ch in enumerate(text) if ch == PIECES[player + 1])
        state[player] = np.uint64(mask).view(np.int64)
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


@njit(inline="always")  # per move of a playout (legal placements, _settle)
def _empty(state):
    return _BOARD & ~(np.uint64(state[0]) | np.uint64(state[1]))


@njit(inline="always")  # per ring of a group's growth: the liberty tests of every move
def _ring(mask):
    """The cells next to a cell of ``mask`` (``mask`` itself included where adjacent)."""
    ring = _ZERO
    while mask:
        ring |= NEIGHBOUR_MASKS[lowest_bit(mask)]
        mask &= mask - _ONE
    return ring


@njit(cache=True)
def _group(stones, cell):
    """The group of ``stones`` (a mask) holding ``cell``, grown a ring at a time."""
    group = _ONE << np.uint64(cell)
    frontier = group
    while frontier:
        frontier = _ring(frontier) & stones & ~group
        group |= frontier
    return group


@njit(cache=True)
def _is_legal_by_groups(own, other, empty, cell):
    """A placement on empty ``cell`` without an empty neighbour is legal iff it joins an own
    group that keeps a liberty, or takes the last liberty of an enemy group."""
    bit = _ONE << np.uint64(cell)
    own |= bit
    empty &= ~bit
    near = NEIGHBOUR_MASKS[cell]
    while near:
        other_cell = lowest_bit(near)
        near &= near - _ONE
        if (own >> np.uint64(other_cell)) & _ONE:
            if _ring(_group(own, other_cell)) & empty:
                return True
        elif not _ring(_group(other, other_cell)) & empty:
            return True
    return False


@njit(cache=True)
def _legal(state):
    """The mask of the legal placements of the player to move (the game not over)."""
    player = state[TO_MOVE]
    own, other = np.uint64(state[player]), np.uint64(state[1 - player])
    empty = _empty(state)
    legal = _ZERO
    scan = empty
    while scan:
        cell = lowest_bit(scan)
        scan &= scan - _ONE
        if NEIGHBOUR_MASKS[cell] & empty or _is_legal_by_groups(own, other, empty, cell):
            legal |= _ONE << np.uint64(cell)
    return legal


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` (by cell) and return their number (0 iff
    terminal)."""
    if state[RESULT] >= 0:
        return 0
    legal = _legal(state)
    n = 0
    while legal:
        out[n] = lowest_bit(legal)
        legal &= legal - _ONE
        n += 1
    return n


@njit(cache=True)
def random_action(state, out, rng):
    """A uniformly random legal placement, ``out[randint(rng, n)]`` of ``legal_actions``' list,
    found on the mask; -1 at a terminal."""
    if state[RESULT] >= 0:
        return -1
    legal = _legal(state)
    n = popcount(legal)
    if n == 0:
        return -1
    return nth_move(randint(rng, n), legal, _ZERO, _ZERO, _ZERO)[0]


@njit(cache=True)
def _settle(state):
    """Draw if the player to move has no legal placement."""
    if state[RESULT] >= 0:
        return
    player = state[TO_MOVE]
    own, other = np.uint64(state[player]), np.uint64(state[1 - player])
    empty = _empty(state)
    scan = empty
    while scan:
        cell = lowest_bit(scan)
        scan &= scan - _ONE
        if NEIGHBOUR_MASKS[cell] & empty or _is_legal_by_groups(own, other, empty, cell):
            return
    state[RESULT] = DRAW


@njit(inline="always")  # per cell of a line scan: the row-of-5 test of every move played
def _colour(state, cell):
    """0 for an empty cell, else its owner + 1."""
    bit = _ONE << np.uint64(cell)
    return 1 if np.uint64(state[0]) & bit else (2 if np.uint64(state[1]) & bit else 0)


@njit(cache=True)
def _run(state, cell, d):
    """The number of stones of ``cell``'s colour in a line from ``cell`` in direction d (not
    counting ``cell``)."""
    colour = _colour(state, cell)
    count = 0
    near = NEIGHBOURS[cell, d]
    while near >= 0 and _colour(state, near) == colour:
        count += 1
        near = NEIGHBOURS[near, d]
    return count


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place: place, capture, then look for a row of 5."""
    player = state[TO_MOVE]
    own = np.uint64(state[player]) | (_ONE << np.uint64(action))
    other = np.uint64(state[1 - player])
    empty = _BOARD & ~(own | other)
    near = NEIGHBOUR_MASKS[action] & other
    while near:  # a group without liberties has no stone with an empty neighbour
        cell = lowest_bit(near)
        near &= near - _ONE
        if (other >> np.uint64(cell)) & _ONE and not NEIGHBOUR_MASKS[cell] & empty:
            group = _group(other, cell)
            if not _ring(group) & empty:
                other &= ~group
    state[player], state[1 - player] = np.int64(own), np.int64(other)
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
    while near >= 0 and _colour(state, near) != 2 - player:
        count += 1
        near = NEIGHBOURS[near, d]
    return count


@njit(cache=True)
def longest_open_row(state, player):
    """The longest line of ``player``'s stones whose stretch along its axis, up to the edges or
    enemy stones, spans at least ROW cells (a row that can still become 5)."""
    best = 0
    stones = np.uint64(state[player])
    while stones:
        cell = lowest_bit(stones)
        stones &= stones - _ONE
        for d in range(3):
            back = NEIGHBOURS[cell, d + 3]
            if back >= 0 and _colour(state, back) == player + 1:
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
    return random_action(state, out, rng)


def cell_name(cell: int) -> str:
    """Row letter (``a`` at the top) and place in the row from the left (1-based): ``e9``."""
    row = int(np.searchsorted(_ROW_STARTS, cell, side="right")) - 1
    return "abcdefghi"[row] + str(cell - int(_ROW_STARTS[row]) + 1)


def action_to_string(state: np.ndarray, action: int) -> str:
    return cell_name(action)


def render(state: np.ndarray) -> str:
    board = cells(state)
    lines = []
    for row in range(len(_ROW_STARTS) - 1):
        start, stop = int(_ROW_STARTS[row]), int(_ROW_STARTS[row + 1])
        pad = " " * (2 * RADIUS + 1 - (stop - start))
        lines.append("abcdefghi"[row] + " " + pad + " ".join(PIECES[v] for v in board[start:stop]))
    return "\n".join(lines)
