"""The Game of the Amazons, compiled rules (seed 000, Sect. 6; DESIGN §9), on 10x10 or 8x8.

Each player has four queens (10x10: White a4 d1 g1 j4, Black a7 d10 g10 j7; 8x8, as in the seed's
framework and OpenSpiel: a3 c1 f1 h3 and a6 c8 f8 h6). A move is a queen move (any distance along
a row, column or diagonal, over empty squares only) followed by an arrow shot from the landing
square, the same way, onto an empty square (the square just left counts as empty); the arrow
stays for good. The player who cannot move loses, i.e. the last player to move wins; no draws.

State: ``int8[side * side + 10]``; cells ``row * side + col`` (row 0 at the top) hold 0 (empty),
1/2 (queen of player 0/1) or 3 (arrow). Player 0 (White, ``W``) starts at the bottom and moves
first. Header at the end: ``[-10]`` player to move, ``[-9]`` the side, ``[-8:-4]`` and ``[-4:]``
the queen cells of players 0 and 1. Action: ``(from * side**2 + to) * side**2 + arrow``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import leading_zeros, trailing_zeros

TO_MOVE, SIDE, QUEENS = -10, -9, -8
ARROW = 3
PIECES = ".WB#"
_DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
_DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
_START_OFFSET = {8: 2, 10: 3}
_SIDES = (8, 10)  # the boards of the ray tables, by index


def _ray_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per board (index in ``_SIDES``), direction d and cell: the cells a ray from the cell
    crosses to the edge, as a 100-bit mask (lo, hi: cells 0-63, 64-99) ``[2, 8, 100]``, and
    their number at ``[2, 8, cell + 1]`` of a table ``[2, 8, 130]`` whose first and last
    entries are -1 (no blocker: ``_free_run``)."""
    lo = np.zeros((2, 8, 100), dtype=np.uint64)
    hi = np.zeros((2, 8, 100), dtype=np.uint64)
    length = np.full((2, 8, 130), -1, dtype=np.int64)
    for board, side in enumerate(_SIDES):
        for d in range(8):
            dr, dc = int(_DR[d]), int(_DC[d])
            for cell in range(side * side):
                row, col = cell // side + dr, cell % side + dc
                mask, k = 0, 0
                while 0 <= row < side and 0 <= col < side:
                    mask, k = mask | 1 << (row * side + col), k + 1
                    row, col = row + dr, col + dc
                lo[board, d, cell], hi[board, d, cell] = mask & (2**64 - 1), mask >> 64
                length[board, d, cell + 1] = k
    return lo, hi, length


_RAY_LO, _RAY_HI, _RAY_LEN = _ray_tables()


def initial_state(side: int = 10) -> np.ndarray:
    """The standard start on a ``side`` x ``side`` board (side 8 or 10)."""
    if side not in _START_OFFSET:
        raise ValueError(f"Amazons board side {side} is not supported; use 8 or 10")
    k, last = _START_OFFSET[side], side - 1
    state = np.zeros(side * side + 10, dtype=np.int8)
    state[SIDE] = side
    homes = [[(last - k, 0), (last, k), (last, last - k), (last - k, last)],
             [(k, 0), (0, k), (0, last - k), (k, last)]]
    for player, home in enumerate(homes):
        for i, (row, col) in enumerate(home):
            state[row * side + col] = player + 1
            state[QUEENS + 4 * player + i] = row * side + col
    return state


def from_board(rows: list[str], to_move: int = 0) -> np.ndarray:
    """A position from ``side`` rows of ``.WB#`` (top row first; ``#`` an arrow), 4 queens each."""
    side = len(rows)
    if side not in _START_OFFSET or any(len(r) != side or set(r) - set(PIECES) for r in rows):
        raise ValueError(f"a board is 8 or 10 rows of as many characters from {PIECES!r}")
    cells = np.array([PIECES.index(ch) for row in rows for ch in row], dtype=np.int8)
    state = np.zeros(side * side + 10, dtype=np.int8)
    state[: side * side] = cells
    state[TO_MOVE], state[SIDE] = to_move, side
    for player in (0, 1):
        queens = np.flatnonzero(cells == player + 1)
        if queens.size != 4:
            raise ValueError(f"player {player} has {queens.size} queens; give each player 4")
        first = state.size + QUEENS + 4 * player
        state[first: first + 4] = queens
    return state


def max_actions(side: int) -> int:
    """An upper bound on the number of moves: 4 queens x (4 side - 5)^2 (queen reach squared)."""
    return 4 * (4 * side - 5) ** 2


@njit(cache=True)
def current_player(state):
    return np.int64(state[TO_MOVE])


@njit(inline="always")  # per queen direction of is_terminal (each tree step and new child)
def _run(state, side, row, col, d):
    """The number of empty cells in a line from (row, col) in direction d, up to the edge or
    the first occupied cell (stepping rows and columns: no division per cell)."""
    m = 0
    row, col = row + _DR[d], col + _DC[d]
    while 0 <= row < side and 0 <= col < side and state[row * side + col] == 0:
        m += 1
        row, col = row + _DR[d], col + _DC[d]
    return m


@njit(cache=True)
def _reach(state, side, cell):
    """The number of empty cells a queen on ``cell`` reaches."""
    row, col = cell // side, cell % side
    m = 0
    for d in range(8):
        m += _run(state, side, row, col, d)
    return m


@njit(cache=True)
def legal_actions(state, out):
    """Write every (queen move, arrow) pair into ``out`` and return their number (0 iff
    terminal): by queen, queen direction, distance, arrow direction, arrow distance."""
    side = np.int64(state[SIDE])
    cells = side * side
    player = state[TO_MOVE]
    n = 0
    for i in range(4):
        origin = np.int64(state[QUEENS + 4 * player + i])
        state[origin] = 0
        for d in range(8):
            row, col = origin // side + _DR[d], origin % side + _DC[d]
            while 0 <= row < side and 0 <= col < side and state[row * side + col] == 0:
                base = (origin * cells + row * side + col) * cells
                for d2 in range(8):
                    arrow_row, arrow_col = row + _DR[d2], col + _DC[d2]
                    while (0 <= arrow_row < side and 0 <= arrow_col < side
                           and state[arrow_row * side + arrow_col] == 0):
                        out[n] = base + arrow_row * side + arrow_col
                        n += 1
                        arrow_row, arrow_col = arrow_row + _DR[d2], arrow_col + _DC[d2]
                row, col = row + _DR[d], col + _DC[d]
        state[origin] = player + 1
    return n


@njit(cache=True)
def _can_move(state, player):
    side = np.int64(state[SIDE])
    for i in range(4):
        origin = np.int64(state[QUEENS + 4 * player + i])
        row, col = origin // side, origin % side
        for d in range(8):
            if _run(state, side, row, col, d) > 0:
                return True
    return False


@njit(cache=True)
def is_terminal(state):
    """A player can move iff some queen has an empty neighbour (it steps there and shoots back)."""
    return not _can_move(state, state[TO_MOVE])


@njit(cache=True)
def winner(state):
    """The player who moved last (call only at terminals)."""
    return np.int64(1 - state[TO_MOVE])


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place."""
    side = np.int64(state[SIDE])
    cells = side * side
    player = state[TO_MOVE]
    origin, to, arrow = action // (cells * cells), (action // cells) % cells, action % cells
    state[origin] = 0
    state[to] = player + 1
    state[arrow] = ARROW
    for i in range(4):
        if state[QUEENS + 4 * player + i] == origin:
            state[QUEENS + 4 * player + i] = to
    state[TO_MOVE] = 1 - player


@njit(cache=True)
def quality(state):
    """q = m / 16, m = the winner's mobility (queen moves available, arrows not counted) at the
    terminal: seed 000 Sect. 6.1's measure with the framework's normaliser (DESIGN §9), not
    mapped into (0, 1) — lambda_q (Eq. 7) changes under a nonlinear map of q and the online
    weight a' (Eq. 10) under a shift — so q exceeds 1 when the winner has more than 16 moves."""
    w = winner(state)
    side = np.int64(state[SIDE])
    m = 0
    for i in range(4):
        m += _reach(state, side, np.int64(state[QUEENS + 4 * w + i]))
    return m / 16.0


@njit(inline="always")  # per ray of the move count and draw, every playout move
def _free_run(board, d, cell, occ_lo, occ_hi):
    """The number of empty cells from ``cell`` in direction d to the edge or the first cell of
    the mask (occ_lo, occ_hi): the ray's length less the length of the ray from that first
    blocker, less 1. The blocker is the highest set bit of the ray's occupied cells for the
    directions 0-3 (towards lower cells), the lowest for 4-7, found without a branch: with no
    blocker the index is -1 or 128, where the length table holds -1."""
    lo, hi = occ_lo & _RAY_LO[board, d, cell], occ_hi & _RAY_HI[board, d, cell]
    if d < 4:
        blocker = 127 - leading_zeros(hi) if hi else 63 - leading_zeros(lo)
    else:
        blocker = trailing_zeros(lo) if lo else 64 + trailing_zeros(hi)
    return _RAY_LEN[board, d, cell + 1] - _RAY_LEN[board, d, blocker + 1] - 1


@njit(inline="always")  # twice per playout move: the board as masks
def _occupancy(state, cells):
    """The occupied cells as a mask (lo, hi)."""
    lo, hi = np.uint64(0), np.uint64(0)
    for cell in range(min(cells, 64)):
        lo |= np.uint64(state[cell] != 0) << np.uint64(cell)
    for cell in range(64, cells):
        hi |= np.uint64(state[cell] != 0) << np.uint64(cell - 64)
    return lo, hi


@njit(inline="always")  # per queen at every playout move
def _vacate(lo, hi, cell):
    """The mask (lo, hi) without ``cell``."""
    if cell < 64:
        return lo & ~(np.uint64(1) << np.uint64(cell)), hi
    return lo, hi & ~(np.uint64(1) << np.uint64(cell - 64))


@njit(cache=True)
def _arrow_counts(state, out):
    """Write the number of arrows of each queen move into ``out``, in the order of
    ``legal_actions`` (queen, direction, distance); return the number of whole moves."""
    side = np.int64(state[SIDE])
    board = 0 if side == _SIDES[0] else 1
    player = state[TO_MOVE]
    occ_lo, occ_hi = _occupancy(state, side * side)
    n, slot = 0, 0
    for i in range(4):
        origin = np.int64(state[QUEENS + 4 * player + i])
        lo, hi = _vacate(occ_lo, occ_hi, origin)
        for d in range(8):
            to = origin
            for _ in range(_free_run(board, d, origin, lo, hi)):
                to += side * _DR[d] + _DC[d]
                arrows = 0
                for d2 in range(8):
                    arrows += _free_run(board, d2, to, lo, hi)
                out[slot] = arrows
                slot += 1
                n += arrows
    return n


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """No move is always played in this game's playouts (seed 000 Sect. 6.1): -1."""
    return -1


@njit(cache=True)
def policy_action(state, out, rng):
    """Uniformly random among all whole moves (MAST comes with the search): the move
    ``out[randint(rng, n)]`` of ``legal_actions``' list, found without writing it: the arrows
    of each queen move are counted on masks (``_arrow_counts``), then the drawn place is found
    queen move by queen move and its arrow ray by ray. -1 at a terminal."""
    n = _arrow_counts(state, out)
    if n == 0:
        return -1
    r = randint(rng, n)
    side = np.int64(state[SIDE])
    cells = side * side
    board = 0 if side == _SIDES[0] else 1
    player = state[TO_MOVE]
    occ_lo, occ_hi = _occupancy(state, cells)
    slot = 0
    for i in range(4):
        origin = np.int64(state[QUEENS + 4 * player + i])
        lo, hi = _vacate(occ_lo, occ_hi, origin)
        for d in range(8):
            to = origin
            for _ in range(_free_run(board, d, origin, lo, hi)):
                to += side * _DR[d] + _DC[d]
                if r < out[slot]:
                    for d2 in range(8):
                        run = _free_run(board, d2, to, lo, hi)
                        if r < run:
                            arrow = to + (r + 1) * (side * _DR[d2] + _DC[d2])
                            return (origin * cells + to) * cells + arrow
                        r -= run
                r -= out[slot]
                slot += 1
    return -1


@njit(cache=True)
def random_action(state, out, rng):
    """The uniform policy, which is this game's playout policy: ``policy_action``."""
    return policy_action(state, out, rng)


def cell_name(side: int, cell: int) -> str:
    return "abcdefghij"[cell % side] + str(side - cell // side)


def action_to_string(state: np.ndarray, action: int) -> str:
    """``d1-d7/g7``: queen from d1 to d7, arrow to g7."""
    side = int(state[SIDE])
    cells = side * side
    origin, to, arrow = action // (cells * cells), (action // cells) % cells, action % cells
    return f"{cell_name(side, origin)}-{cell_name(side, to)}/{cell_name(side, arrow)}"


def render(state: np.ndarray) -> str:
    side = int(state[SIDE])
    rows = [f"{side - r:>2} " + "".join(PIECES[v] for v in state[r * side: (r + 1) * side])
            for r in range(side)]
    return "\n".join(rows + ["   " + "abcdefghij"[:side]])
