"""English checkers' cell-by-cell rules of 2439f44, kept as the oracle of the bitboard rules
(``games.checkers``; ``tests/test_games_differential.py``). Seed 000, Sect. 6; DESIGN §9.

Twelve men each on the dark squares ((row + col) odd) of the three home rows. Men move one square
diagonally forward, kings one square diagonally either way. Capturing is mandatory: a jump over
an adjacent enemy piece onto the empty square beyond, and a piece that has jumped must keep
jumping while it can; the whole jump sequence is one move, and any capturing sequence may be
chosen (no majority rule). Captured pieces leave the board as they are jumped. A man reaching the
far row is crowned and its move ends there. A player who cannot move (no pieces, or all blocked)
loses.

Draw rule: the game is drawn once 40 consecutive moves (20 per player) pass without a capture.
This is OpenSpiel's rule (``checkers.h``: kMaxMovesWithoutCapture = 40, counted in moves, reset by
captures only), chosen so that our games and OpenSpiel's agree move for move, terminals included.
The official rule (40 moves each without a capture or a man's move, on a claim) and the seed's
framework (25 king moves) differ; the choice only moves the draw rate (uniform random playouts
from the start end in this draw about 12% of the time, after 65 moves on average).

State: ``int8[68]``; cells ``row * 8 + col`` (row 0 at the top) hold 0 (empty), 1/2 (man of
player 0/1), 3/4 (king of player 0/1). Player 0 (``o``) starts on rows 5-7, moves first and moves
up. Header: ``[64]`` player to move, ``[65]`` moves since the last capture, ``[66:68]`` piece
counts.
Action (int64): bits 0-5 the start cell, bits 6-9 the number of steps, bit 10 set for a capture,
then two bits per step from bit 11: the direction 0..3 = up-left, up-right, down-left, down-right.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

SIZE = 8
TO_MOVE, QUIET, COUNT = 64, 65, 66
STATE_SIZE = 68
MAX_ACTIONS = 256
DRAW_AFTER = 40
PIECES = ".o+8*"
_DR = np.array([-1, -1, 1, 1], dtype=np.int64)
_DC = np.array([-1, 1, -1, 1], dtype=np.int64)
_CAPTURE = 1 << 10
_MAX_JUMPS = 12  # a piece jumps each of the 12 enemy pieces at most once


def initial_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    for cell in range(SIZE * SIZE):
        row, col = divmod(cell, SIZE)
        if (row + col) % 2 == 1 and row != 3 and row != 4:
            state[cell] = 2 if row < 3 else 1
    state[COUNT: COUNT + 2] = 12
    return state


def from_board(rows: list[str], to_move: int = 0, quiet: int = 0) -> np.ndarray:
    """A position from 8 rows of ``.o+8*`` (top row first; ``8``/``*`` kings of player 0/1),
    ``to_move`` to play, ``quiet`` moves since the last capture."""
    if len(rows) != SIZE or any(len(row) != SIZE or set(row) - set(PIECES) for row in rows):
        raise ValueError(f"a board is {SIZE} rows of {SIZE} characters from {PIECES!r}")
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[: SIZE * SIZE] = [PIECES.index(ch) for row in rows for ch in row]
    state[TO_MOVE], state[QUIET] = to_move, quiet
    board = state[: SIZE * SIZE]
    for player in (0, 1):
        state[COUNT + player] = np.count_nonzero((board == player + 1) | (board == player + 3))
    return state


@njit(cache=True)
def current_player(state):
    return np.int64(state[TO_MOVE])


@njit(cache=True)
def _owner(piece):
    return (piece - 1) & 1


@njit(cache=True)
def _may_step(piece, d):
    """Men of player 0 step up (d 0, 1), men of player 1 down (d 2, 3), kings every way."""
    return piece >= 3 or (d < 2) == (piece == 1)


@njit(cache=True)
def _neighbour(cell, d, distance):
    """The cell ``distance`` diagonal steps away in direction d, or -1 off the board."""
    row = cell // SIZE + _DR[d] * distance
    col = cell % SIZE + _DC[d] * distance
    if row < 0 or row >= SIZE or col < 0 or col >= SIZE:
        return -1
    return row * SIZE + col


@njit(cache=True)
def _crowns(piece, cell):
    return (piece == 1 and cell < SIZE) or (piece == 2 and cell >= SIZE * (SIZE - 1))


@njit(cache=True)
def _can_jump(state, cell, piece, d):
    land = _neighbour(cell, d, 2)
    if land < 0 or state[land] != 0:
        return False
    mid = state[_neighbour(cell, d, 1)]
    return mid != 0 and _owner(mid) != _owner(piece)


@njit(cache=True)
def _first_jump(state, cell, piece):
    for d in range(4):
        if _may_step(piece, d) and _can_jump(state, cell, piece, d):
            return True
    return False


@njit(cache=True)
def _jumps(state, start, out, n):
    """Write every maximal jump sequence of the piece on ``start`` into ``out[n:]``; return the
    new count. Depth-first with an explicit stack (numba cannot cache recursive functions);
    jumped pieces are lifted while the search is below them."""
    piece = state[start]
    cells = np.empty(_MAX_JUMPS + 1, dtype=np.int64)
    next_d = np.zeros(_MAX_JUMPS + 1, dtype=np.int64)
    mids = np.empty(_MAX_JUMPS, dtype=np.int64)
    taken = np.empty(_MAX_JUMPS, dtype=np.int8)
    extended = np.zeros(_MAX_JUMPS + 1, dtype=np.bool_)
    state[start] = 0
    cells[0], code, depth = start, np.int64(start), 0
    while depth >= 0:
        d = next_d[depth]
        if d == 4:
            if depth > 0:
                if not extended[depth]:
                    out[n] = _sequence(code, depth)
                    n += 1
                state[mids[depth - 1]] = taken[depth - 1]
            depth -= 1
            continue
        next_d[depth] = d + 1
        cell = cells[depth]
        if not (_may_step(piece, d) and _can_jump(state, cell, piece, d)):
            continue
        extended[depth] = True
        mid, land = _neighbour(cell, d, 1), _neighbour(cell, d, 2)
        code = (code & ~(np.int64(3) << (11 + 2 * depth))) | (d << (11 + 2 * depth))
        if _crowns(piece, land):
            out[n] = _sequence(code, depth + 1)
            n += 1
            continue
        mids[depth], taken[depth] = mid, state[mid]
        state[mid] = 0
        depth += 1
        cells[depth], next_d[depth], extended[depth] = land, 0, False
    state[start] = piece
    return n


@njit(cache=True)
def _sequence(code, steps):
    """The action of a jump sequence: ``code``'s start and first ``steps`` directions."""
    return (code & ((np.int64(1) << (11 + 2 * steps)) - 1)) | (steps << 6) | _CAPTURE


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal moves into ``out`` and return their number (0 iff terminal); captures
    are mandatory, so simple moves are listed only when no capture exists."""
    if state[QUIET] >= DRAW_AFTER:
        return 0
    player = state[TO_MOVE]
    n = 0
    for cell in range(SIZE * SIZE):
        piece = state[cell]
        if piece != 0 and _owner(piece) == player and _first_jump(state, cell, piece):
            n = _jumps(state, cell, out, n)
    if n > 0:
        return n
    for cell in range(SIZE * SIZE):
        piece = state[cell]
        if piece == 0 or _owner(piece) != player:
            continue
        for d in range(4):
            to = _neighbour(cell, d, 1)
            if _may_step(piece, d) and to >= 0 and state[to] == 0:
                out[n] = cell | (1 << 6) | (d << 11)
                n += 1
    return n


@njit(cache=True)
def _has_move(state):
    player = state[TO_MOVE]
    for cell in range(SIZE * SIZE):
        piece = state[cell]
        if piece == 0 or _owner(piece) != player:
            continue
        for d in range(4):
            if not _may_step(piece, d):
                continue
            to = _neighbour(cell, d, 1)
            if to >= 0 and (state[to] == 0 or _can_jump(state, cell, piece, d)):
                return True
    return False


@njit(cache=True)
def is_terminal(state):
    return state[QUIET] >= DRAW_AFTER or not _has_move(state)


@njit(cache=True)
def winner(state):
    """At a terminal: -1 for a draw (40 moves without capture), else the player who moved last
    (the player to move cannot move). Call only at terminals."""
    if state[QUIET] >= DRAW_AFTER:
        return -1
    return np.int64(1 - state[TO_MOVE])


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place: every jump removes the jumped piece, and a man
    ending on the far row is crowned."""
    player = state[TO_MOVE]
    cell = action & 63
    piece = state[cell]
    state[cell] = 0
    steps = (action >> 6) & 15
    capture = (action & _CAPTURE) != 0
    distance = 2 if capture else 1
    for i in range(steps):
        d = (action >> (11 + 2 * i)) & 3
        if capture:
            state[_neighbour(cell, d, 1)] = 0
            state[COUNT + 1 - player] -= 1
        cell = _neighbour(cell, d, distance)
    state[cell] = piece + 2 if _crowns(piece, cell) else piece
    state[QUIET] = 0 if capture else state[QUIET] + 1
    state[TO_MOVE] = 1 - player


@njit(cache=True)
def quality(state):
    """q = winner's pieces / 12, in (0, 1] (seed 000 Sect. 6.1: the winner's pieces in play, over
    the framework's normaliser, DESIGN §9); 0 for a draw (no bonus)."""
    w = winner(state)
    return 0.0 if w < 0 else state[COUNT + w] / 12.0


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """No move is always played in this game's playouts (seed 000 Sect. 6.1): -1."""
    return -1


@njit(cache=True)
def policy_action(state, out, rng):
    """Uniformly random playouts, as in seed 000 for Checkers. Returns -1 at a terminal."""
    n = legal_actions(state, out)
    return out[randint(rng, n)] if n > 0 else -1


def cell_name(cell: int) -> str:
    return "abcdefgh"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_cells(action: int) -> list[int]:
    """The cells a move visits: its start, then every landing square."""
    cells = [action & 63]
    distance = 2 if action & _CAPTURE else 1
    for i in range((action >> 6) & 15):
        cells.append(int(_neighbour(cells[-1], (action >> (11 + 2 * i)) & 3, distance)))
    return cells


def action_to_string(state: np.ndarray, action: int) -> str:
    """``a3b4`` for a step, ``c3xe5xg7`` for a jump sequence."""
    return ("x" if action & _CAPTURE else "").join(cell_name(c) for c in action_cells(action))


def render(state: np.ndarray) -> str:
    rows = [f"{SIZE - r} " + "".join(PIECES[v] for v in state[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["  abcdefgh"])
