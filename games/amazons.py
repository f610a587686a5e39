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

TO_MOVE, SIDE, QUEENS = -10, -9, -8
ARROW = 3
PIECES = ".WB#"
_DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
_DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
_START_OFFSET = {8: 2, 10: 3}


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


@njit(inline="always")
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


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """No move is always played in this game's playouts (seed 000 Sect. 6.1): -1."""
    return -1


@njit(cache=True)
def policy_action(state, out, rng):
    """Uniformly random among all whole moves (MAST comes with the search). -1 at a terminal."""
    n = legal_actions(state, out)
    return out[randint(rng, n)] if n > 0 else -1


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
