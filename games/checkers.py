"""English checkers (draughts), 8x8, compiled bitboard rules (seed 000, Sect. 6; DESIGN §9).

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

State: ``int64[5]``: ``state[0]``, ``state[1]`` the pieces of players 0 and 1 and ``state[2]``
the kings of both as 64-bit masks (read as ``uint64``), bit ``row * 8 + col`` for a cell (row 0
at the top); ``state[3]`` the player to move, ``state[4]`` the moves since the last capture.
Player 0 (``o``) starts on rows 5-7, moves first and moves up.
Action (int64): bits 0-5 the start cell, bits 6-9 the number of steps, bit 10 set for a capture,
then two bits per step from bit 11: the direction 0..3 = up-left, up-right, down-left, down-right.
Moves are listed as by the cell-by-cell rules these replaced (``tests/cell_rules/checkers.py``):
jump sequences by start cell, each piece's depth-first in direction order; else steps by cell,
then direction; so both play the same games from the same seed. The pieces that can step or
jump in each direction are shifts of the masks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import lowest_bit, nth_move, popcount

SIZE = 8
KINGS, TO_MOVE, QUIET = 2, 3, 4
STATE_SIZE = 5
MAX_ACTIONS = 256
DRAW_AFTER = 40
PIECES = ".o+8*"
_CAPTURE = 1 << 10
_MAX_JUMPS = 12  # a piece jumps each of the 12 enemy pieces at most once
_DELTA = np.array([-9, -7, 7, 9], dtype=np.int64)  # cell steps of the directions 0..3
_ONE, _ZERO = np.uint64(1), np.uint64(0)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but the first
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but the last
_ROW0, _ROW7 = np.uint64(0xFF), np.uint64(0xFF) << np.uint64(56)
_S7, _S9 = np.uint64(7), np.uint64(9)


def initial_state() -> np.ndarray:
    board = np.zeros(SIZE * SIZE, dtype=np.int8)
    for cell in range(SIZE * SIZE):
        row, col = divmod(cell, SIZE)
        if (row + col) % 2 == 1 and row != 3 and row != 4:
            board[cell] = 2 if row < 3 else 1
    return _from_cells(board, 0, 0)


def _mask(cells) -> np.int64:
    return np.uint64(sum(1 << int(cell) for cell in cells)).view(np.int64)


def _from_cells(board: np.ndarray, to_move: int, quiet: int) -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    for player in (0, 1):
        state[player] = _mask(np.flatnonzero((board == player + 1) | (board == player + 3)))
    state[KINGS] = _mask(np.flatnonzero(board >= 3))
    state[TO_MOVE], state[QUIET] = to_move, quiet
    return state


def cells(state: np.ndarray) -> np.ndarray:
    """The board cell by cell: ``int8[64]`` of 0 (empty), 1/2 (man of player 0/1), 3/4 (king)."""
    board = np.zeros(SIZE * SIZE, dtype=np.int8)
    kings = int(np.int64(state[KINGS]).view(np.uint64))
    for player in (0, 1):
        mask = int(np.int64(state[player]).view(np.uint64))
        for cell in range(SIZE * SIZE):
            if mask >> cell & 1:
                board[cell] = player + 1 + 2 * (kings >> cell & 1)
    return board


def from_board(rows: list[str], to_move: int = 0, quiet: int = 0) -> np.ndarray:
    """A position from 8 rows of ``.o+8*`` (top row first; ``8``/``*`` kings of player 0/1),
    ``to_move`` to play, ``quiet`` moves since the last capture."""
    if len(rows) != SIZE or any(len(row) != SIZE or set(row) - set(PIECES) for row in rows):
        raise ValueError(f"a board is {SIZE} rows of {SIZE} characters from {PIECES!r}")
    board = np.array([PIECES.index(ch) for row in rows for ch in row], dtype=np.int8)
    return _from_cells(board, to_move, quiet)


@njit(cache=True)
def current_player(state):
    return np.int64(state[TO_MOVE])


@njit(inline="always")  # per direction of move generation, and per jump step
def _from(mask, d):
    """The cells whose neighbour in direction d is in ``mask``."""
    if d == 0:
        return (mask << _S9) & _NOT_A
    if d == 1:
        return (mask << _S7) & _NOT_H
    if d == 2:
        return (mask >> _S7) & _NOT_A
    return (mask >> _S9) & _NOT_H


@njit(inline="always")  # per direction of move generation, every playout move
def _movers(state, player, d):
    """The pieces of ``player`` that may move in direction d: kings, and men forward (player
    0's up, d 0 and 1; player 1's down, d 2 and 3)."""
    own = np.uint64(state[player])
    return own if (d < 2) == (player == 0) else own & np.uint64(state[KINGS])


@njit(inline="always")  # per direction of move generation, every playout move
def _steps_and_jumps(state, d):
    """(pieces that can step, pieces that can jump) in direction d, for the player to move."""
    player = state[TO_MOVE]
    movers = _movers(state, player, d)
    empty = ~(np.uint64(state[0]) | np.uint64(state[1]))
    return (movers & _from(empty, d),
            movers & _from(np.uint64(state[1 - player]) & _from(empty, d), d))


@njit(cache=True)
def _jumps(state, start, out, n):
    """Write every maximal jump sequence of the piece on ``start`` into ``out[n:]``; return the
    new count. Depth-first with an explicit stack (numba cannot cache recursive functions),
    directions in order; jumped pieces leave the board as they are jumped."""
    player = state[TO_MOVE]
    start_bit = _ONE << np.uint64(start)
    king = (np.uint64(state[KINGS]) & start_bit) != 0
    far = _ROW0 if player == 0 else _ROW7
    own = np.uint64(state[player]) & ~start_bit
    other = np.uint64(state[1 - player])
    cells = np.empty(_MAX_JUMPS + 1, dtype=np.int64)
    next_d = np.zeros(_MAX_JUMPS + 1, dtype=np.int64)
    taken = np.empty(_MAX_JUMPS, dtype=np.uint64)
    extended = np.zeros(_MAX_JUMPS + 1, dtype=np.bool_)
    cells[0], code, depth = start, np.int64(start), 0
    while depth >= 0:
        d = next_d[depth]
        if d == 4:
            if depth > 0:
                if not extended[depth]:
                    out[n] = _sequence(code, depth)
                    n += 1
                other |= taken[depth - 1]
            depth -= 1
            continue
        next_d[depth] = d + 1
        if not king and (d < 2) != (player == 0):
            continue
        bit = _ONE << np.uint64(cells[depth])
        if not bit & _from(other & _from(~(own | other), d), d):
            continue
        extended[depth] = True
        mid = cells[depth] + _DELTA[d]
        land = mid + _DELTA[d]
        code = (code & ~(np.int64(3) << (11 + 2 * depth))) | (d << (11 + 2 * depth))
        if not king and (_ONE << np.uint64(land)) & far:
            out[n] = _sequence(code, depth + 1)
            n += 1
            continue
        taken[depth] = _ONE << np.uint64(mid)
        other &= ~taken[depth]
        depth += 1
        cells[depth], next_d[depth], extended[depth] = land, 0, False
    return n


@njit(inline="always")  # per jump sequence listed by move generation
def _sequence(code, steps):
    """The action of a jump sequence: ``code``'s start and first ``steps`` directions."""
    return (code & ((np.int64(1) << (11 + 2 * steps)) - 1)) | (steps << 6) | _CAPTURE


@njit(inline="always")  # per move of a playout: move generation (random_action, is_terminal)
def _all_moves(state):
    """The masks of the pieces that can step in directions 0..3, then of those that can jump."""
    s0, j0 = _steps_and_jumps(state, 0)
    s1, j1 = _steps_and_jumps(state, 1)
    s2, j2 = _steps_and_jumps(state, 2)
    s3, j3 = _steps_and_jumps(state, 3)
    return s0, s1, s2, s3, j0 | j1 | j2 | j3


@njit(cache=True)
def _list_jumps(state, jumpers, out):
    n = 0
    while jumpers:
        cell = lowest_bit(jumpers)
        jumpers &= jumpers - _ONE
        n = _jumps(state, cell, out, n)
    return n


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal moves into ``out`` and return their number (0 iff terminal); captures
    are mandatory, so simple moves are listed only when no capture exists."""
    if state[QUIET] >= DRAW_AFTER:
        return 0
    s0, s1, s2, s3, jumpers = _all_moves(state)
    if jumpers:
        return _list_jumps(state, jumpers, out)
    n = 0
    pieces = s0 | s1 | s2 | s3
    while pieces:
        cell = lowest_bit(pieces)
        pieces &= pieces - _ONE
        bit = _ONE << np.uint64(cell)
        for d, steps in enumerate((s0, s1, s2, s3)):
            if steps & bit:
                out[n] = cell | (1 << 6) | (d << 11)
                n += 1
    return n


@njit(cache=True)
def is_terminal(state):
    if state[QUIET] >= DRAW_AFTER:
        return True
    s0, s1, s2, s3, jumpers = _all_moves(state)
    return (s0 | s1 | s2 | s3 | jumpers) == _ZERO


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
    own, other, kings = (np.uint64(state[player]), np.uint64(state[1 - player]),
                         np.uint64(state[KINGS]))
    cell = action & 63
    start = _ONE << np.uint64(cell)
    king = kings & start
    steps = (action >> 6) & 15
    capture = (action & _CAPTURE) != 0
    for i in range(steps):
        delta = _DELTA[(action >> (11 + 2 * i)) & 3]
        if capture:
            taken = ~(_ONE << np.uint64(cell + delta))
            other &= taken
            kings &= taken
            cell += delta
        cell += delta
    end = _ONE << np.uint64(cell)
    own = (own & ~start) | end
    kings &= ~start
    if king or end & (_ROW0 if player == 0 else _ROW7):
        kings |= end
    state[player], state[1 - player], state[KINGS] = np.int64(own), np.int64(other), np.int64(kings)
    state[QUIET] = 0 if capture else state[QUIET] + 1
    state[TO_MOVE] = 1 - player


@njit(cache=True)
def quality(state):
    """q = winner's pieces / 12, in (0, 1] (seed 000 Sect. 6.1: the winner's pieces in play, over
    the framework's normaliser, DESIGN §9); 0 for a draw (no bonus)."""
    w = winner(state)
    return 0.0 if w < 0 else popcount(np.uint64(state[w])) / 12.0


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """No move is always played in this game's playouts (seed 000 Sect. 6.1): -1."""
    return -1


@njit(cache=True)
def random_action(state, out, rng):
    """A uniformly random legal action, ``out[randint(rng, n)]`` of ``legal_actions``' list
    (a step found on the masks without writing the list); -1 at a terminal."""
    if state[QUIET] >= DRAW_AFTER:
        return -1
    s0, s1, s2, s3, jumpers = _all_moves(state)
    if jumpers:
        return out[randint(rng, _list_jumps(state, jumpers, out))]
    n = popcount(s0) + popcount(s1) + popcount(s2) + popcount(s3)
    if n == 0:
        return -1
    cell, d = nth_move(randint(rng, n), s0, s1, s2, s3)
    return cell | (1 << 6) | (d << 11)


@njit(cache=True)
def policy_action(state, out, rng):
    """Uniformly random playouts, as in seed 000 for Checkers. Returns -1 at a terminal."""
    return random_action(state, out, rng)


def cell_name(cell: int) -> str:
    return "abcdefgh"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_cells(action: int) -> list[int]:
    """The cells a move visits: its start, then every landing square."""
    cells = [action & 63]
    distance = 2 if action & _CAPTURE else 1
    for i in range((action >> 6) & 15):
        cells.append(cells[-1] + distance * int(_DELTA[(action >> (11 + 2 * i)) & 3]))
    return cells


def action_to_string(state: np.ndarray, action: int) -> str:
    """``a3b4`` for a step, ``c3xe5xg7`` for a jump sequence."""
    return ("x" if action & _CAPTURE else "").join(cell_name(c) for c in action_cells(action))


def render(state: np.ndarray) -> str:
    board = cells(state)
    rows = [f"{SIZE - r} " + "".join(PIECES[v] for v in board[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["  abcdefgh"])
