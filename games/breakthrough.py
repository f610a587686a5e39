"""Breakthrough, 8x8, compiled bitboard rules (seed 000, Sect. 6; DESIGN §9).

Each player starts with 16 pawns on their two home rows. A pawn moves one square straight or
diagonally forward onto an empty square, and captures only diagonally forward. A player wins by
reaching the far row or by capturing every enemy pawn. A draw is impossible and a player always
has a move (the most advanced pawn can always step diagonally), so the game ends only by a win.

State: ``int64[4]``: ``state[0]``, ``state[1]`` the pawns of players 0 and 1 as 64-bit masks
(read as ``uint64``), bit ``row * 8 + col`` for a cell (row 0 at the top, as rendered);
``state[2]`` the player to move, ``state[3]`` the winner (-1 while playing). Player 0 (White,
``w``) starts on rows 6-7, moves first and moves up (row - 1).
Action: ``from_cell * 3 + k``, k = 0, 1, 2 for the steps to column - 1, straight, column + 1.
Moves are listed by ascending cell, then k, the order of the cell-by-cell rules these replaced
(``tests/cell_rules/breakthrough.py``), so both play the same games from the same seed.
Move generation, the playout policy's decisive and anti-decisive tests and its capture weights
are computed on masks: a pawn's three steps are shifts of its side's mask by 7, 8 and 9 bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import lowest_bit, nth_move, popcount

SIZE = 8
TO_MOVE, WINNER = 2, 3
STATE_SIZE = 4
MAX_ACTIONS = 48
NUM_ACTIONS = 3 * SIZE * SIZE
PIECES = ".wb"

_ONE = np.uint64(1)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but the first (a pawn may step to col - 1)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but the last
_ROW0, _ROW1 = np.uint64(0xFF), np.uint64(0xFF00)
_ROW6, _ROW7 = np.uint64(0xFF) << np.uint64(48), np.uint64(0xFF) << np.uint64(56)
_S7, _S8, _S9 = np.uint64(7), np.uint64(8), np.uint64(9)


def initial_state() -> np.ndarray:
    return _from_cells(np.array([2] * 16 + [0] * 32 + [1] * 16, dtype=np.int8), 0)


def _from_cells(cells: np.ndarray, to_move: int) -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    for player in (0, 1):
        mask = sum(1 << int(cell) for cell in np.flatnonzero(cells == player + 1))
        state[player] = np.uint64(mask).view(np.int64)
    state[TO_MOVE], state[WINNER] = to_move, -1
    return state


def cells(state: np.ndarray) -> np.ndarray:
    """The board cell by cell: ``int8[64]`` of 0 (empty) or owner + 1."""
    board = np.zeros(SIZE * SIZE, dtype=np.int8)
    for player in (0, 1):
        mask = int(np.int64(state[player]).view(np.uint64))
        board[[cell for cell in range(SIZE * SIZE) if mask >> cell & 1]] = player + 1
    return board


def from_board(rows: list[str], to_move: int = 0) -> np.ndarray:
    """A position from 8 rows of ``.wb`` (top row first), with ``to_move`` to play."""
    board = _cells(rows, PIECES, SIZE)
    state = _from_cells(board, to_move)
    home_run = [np.any(board[:SIZE] == 1), np.any(board[SIZE * (SIZE - 1):] == 2)]
    for player in (0, 1):
        if home_run[player] or not np.any(board == 2 - player):
            state[WINNER] = player
    return state


def _cells(rows: list[str], pieces: str, side: int) -> np.ndarray:
    if len(rows) != side or any(len(row) != side or set(row) - set(pieces) for row in rows):
        raise ValueError(f"a board is {side} rows of {side} characters from {pieces!r}")
    return np.array([pieces.index(ch) for row in rows for ch in row], dtype=np.int8)


@njit(cache=True)
def current_player(state):
    return np.int64(state[TO_MOVE])


@njit(cache=True)
def is_terminal(state):
    return state[WINNER] >= 0


@njit(cache=True)
def winner(state):
    """The winner (0 or 1) of a finished game; -1 while playing."""
    return np.int64(state[WINNER])


@njit(inline="always")  # per move of a playout: every rule reads the sides through it
def _sides(state):
    """(the mover, its pawns, the other side's pawns)."""
    player = state[TO_MOVE]
    return player, np.uint64(state[player]), np.uint64(state[1 - player])


@njit(inline="always")  # per move of a playout: move generation on masks
def _origins(player, own, other):
    """The pawns that can step to column - 1, straight and to column + 1 (masks o0, o1, o2)."""
    empty = ~(own | other)
    if player == 0:  # up: cell - 9, - 8, - 7
        return own & _NOT_A & (~own << _S9), own & (empty << _S8), own & _NOT_H & (~own << _S7)
    return own & _NOT_A & (~own >> _S7), own & (empty >> _S8), own & _NOT_H & (~own >> _S9)


@njit(inline="always")  # per move of a policy playout: its capture masks
def _captures(player, own, other):
    """The pawns that can capture to column - 1 and to column + 1 (masks c0, c2)."""
    if player == 0:
        return own & _NOT_A & (other << _S9), own & _NOT_H & (other << _S7)
    return own & _NOT_A & (other >> _S7), own & _NOT_H & (other >> _S9)


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` (by cell, then k) and return their number (0 iff
    terminal)."""
    if state[WINNER] >= 0:
        return 0
    player, own, other = _sides(state)
    o0, o1, o2 = _origins(player, own, other)
    pawns = o0 | o1 | o2
    n = 0
    while pawns:
        cell = lowest_bit(pawns)
        pawns &= pawns - _ONE
        bit = _ONE << np.uint64(cell)
        if o0 & bit:
            out[n] = 3 * cell
            n += 1
        if o1 & bit:
            out[n] = 3 * cell + 1
            n += 1
        if o2 & bit:
            out[n] = 3 * cell + 2
            n += 1
    return n


@njit(inline="always")  # per move played, and per legal move in decisive_action
def _target(player, action):
    return action // 3 + (-SIZE if player == 0 else SIZE) + action % 3 - 1


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place: the game is won on the far row or when the last
    enemy pawn is taken."""
    player, own, other = _sides(state)
    to = _target(player, action)
    bit = _ONE << np.uint64(to)
    own = (own & ~(_ONE << np.uint64(action // 3))) | bit
    other &= ~bit
    state[player], state[1 - player] = np.int64(own), np.int64(other)
    if other == 0 or bit & (_ROW0 if player == 0 else _ROW7):
        state[WINNER] = player
    state[TO_MOVE] = 1 - player


@njit(cache=True)
def quality(state):
    """q = (winner's pawns - loser's pawns) / 16, in [-15/16, 1]: the piece difference of seed 000
    Sect. 6.1 with the normaliser of its framework (``breakthrough.game.Board.getQuality``), 0 for
    equal material. lambda_q (Eq. 7) would not see an affine map of q, but the online weight a'
    (Eq. 10) does: with q shifted into (0, 1) it grows past 1.5 in the middle game where the
    framework's q gives 0.35-0.5."""
    w = state[WINNER]
    return (popcount(np.uint64(state[w])) - popcount(np.uint64(state[1 - w]))) / 16.0


CAPTURE_WEIGHT, SAFE_CAPTURE_WEIGHT = 2, 5  # playout weights of captures (a quiet move: 1)


@njit(inline="always")  # per move of a policy playout: its decisive/anti-decisive test
def _urgent(player, own, other):
    """(decisive, anti-decisive) origin masks: pawns one step from the far row (every such pawn
    has a step there) and, with one enemy pawn left, every capturer; capturers standing on
    their home row (they take a pawn that would win next move)."""
    o0, o1, o2 = _origins(player, own, other)
    c0, c2 = _captures(player, own, other)
    decisive = (o0 | o1 | o2) & (_ROW1 if player == 0 else _ROW6)
    if popcount(other) == 1:
        decisive |= c0 | c2
    return decisive, (c0 | c2) & (_ROW7 if player == 0 else _ROW0)


@njit(inline="always")  # per legal move in decisive_action (the playout policy)
def _is_decisive(player, other, to):
    bit = _ONE << np.uint64(to)
    return (to < SIZE if player == 0 else to >= SIZE * (SIZE - 1)) or (
        (other & bit) != 0 and popcount(other) == 1)


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """A move among ``out[:n]`` (the legal moves) that the playout policy always plays, drawn
    uniformly at random (reservoir sampling, in list order): a decisive move (reaching the far
    row or taking the last pawn), else an anti-decisive one (taking a pawn that threatens to
    win next move, i.e. a capture from our home row); -1 when there is none, found on masks
    without drawing a number."""
    player, own, other = _sides(state)
    decisive, saving_pawns = _urgent(player, own, other)
    if decisive == 0 and saving_pawns == 0:
        return -1
    home = _ROW7 if player == 0 else _ROW0
    chosen, seen, saving, saves = -1, 0, -1, 0
    for i in range(n):
        to = _target(player, out[i])
        if _is_decisive(player, other, to):
            seen += 1
            if randint(rng, seen) == 0:
                chosen = out[i]
        elif seen == 0 and (other & (_ONE << np.uint64(to))) != 0 and (
                home & (_ONE << np.uint64(out[i] // 3))) != 0:
            saves += 1
            if randint(rng, saves) == 0:
                saving = out[i]
    return chosen if seen > 0 else saving


@njit(inline="always")  # per step of _pick's binary search, every policy playout move
def _below(cell):
    """The cells under ``cell`` (1 <= cell <= 63)."""
    return (_ONE << np.uint64(cell)) - _ONE


@njit(inline="always")  # per step of _pick's binary search, every policy playout move
def _weight_below(mask, o0, o1, o2, c0, c2, safe0, safe2):
    """The total playout weight of the moves of the pawns in ``mask`` (see ``policy_action``)."""
    return (popcount(o0 & mask) + popcount(o1 & mask) + popcount(o2 & mask)
            + (CAPTURE_WEIGHT - 1) * (popcount(c0 & mask) + popcount(c2 & mask))
            + (SAFE_CAPTURE_WEIGHT - CAPTURE_WEIGHT) * (popcount(safe0 & mask)
                                                         + popcount(safe2 & mask)))


@njit(inline="always")  # per move of a policy playout: its weighted draw
def _pick(pick, o0, o1, o2, c0, c2, safe0, safe2):
    """The move at ``pick`` (0 <= pick < total weight) in the weighted list of moves (by cell,
    then k, each taking as many places as its weight): the cell by a binary search on the
    weight of the pawns under it, then the step within the cell."""
    cell, step = 0, 32
    while step:
        if _weight_below(_below(cell + step), o0, o1, o2, c0, c2, safe0, safe2) <= pick:
            cell += step
        step >>= 1
    if cell:
        pick -= _weight_below(_below(cell), o0, o1, o2, c0, c2, safe0, safe2)
    bit = _ONE << np.uint64(cell)
    if o0 & bit:
        pick -= 1 if not c0 & bit else (SAFE_CAPTURE_WEIGHT if safe0 & bit else CAPTURE_WEIGHT)
        if pick < 0:
            return 3 * cell
    if o1 & bit:
        pick -= 1
        if pick < 0:
            return 3 * cell + 1
    return 3 * cell + 2


@njit(cache=True)
def random_action(state, out, rng):
    """A uniformly random legal action: ``out[randint(rng, n)]`` of ``legal_actions``' list,
    found on the masks without writing the list; -1 at a terminal."""
    if state[WINNER] >= 0:
        return -1
    player, own, other = _sides(state)
    o0, o1, o2 = _origins(player, own, other)
    cell, k = nth_move(randint(rng, popcount(o0) + popcount(o1) + popcount(o2)), o0, o1, o2,
                       np.uint64(0))
    return 3 * cell + k


@njit(cache=True)
def policy_action(state, out, rng):
    """The playout policy of seed 000 Sect. 6.1 as its framework plays it: a move of
    ``decisive_action`` whenever one exists, else a move drawn with probability proportional
    to its weight (``breakthrough.game.Board.getPlayoutMoves``): 5 for a capture that cannot be
    recaptured at once, 2 for another capture, 1 for a quiet move, the same move from the same
    random number as a walk down the list of ``legal_actions``. Returns -1 at a terminal."""
    if state[WINNER] >= 0:
        return -1
    player, own, other = _sides(state)
    decisive, saving_pawns = _urgent(player, own, other)
    if decisive != 0 or saving_pawns != 0:
        return decisive_action(state, out, legal_actions(state, out), rng)
    o0, o1, o2 = _origins(player, own, other)
    c0, c2 = _captures(player, own, other)
    if player == 0:  # squares the other side could take back on: its pawns' diagonal steps
        attacked = ((other & _NOT_A) << _S7) | ((other & _NOT_H) << _S9)
        safe0, safe2 = c0 & ~(attacked << _S9), c2 & ~(attacked << _S7)
    else:
        attacked = ((other & _NOT_A) >> _S9) | ((other & _NOT_H) >> _S7)
        safe0, safe2 = c0 & ~(attacked >> _S7), c2 & ~(attacked >> _S9)
    total = _weight_below(~np.uint64(0), o0, o1, o2, c0, c2, safe0, safe2)
    return _pick(randint(rng, total), o0, o1, o2, c0, c2, safe0, safe2)


def cell_name(cell: int) -> str:
    return "abcdefgh"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_to_string(state: np.ndarray, action: int) -> str:
    """Algebraic, e.g. ``a2a3``, with ``x`` for a capture (``b5xc6``)."""
    to = int(_target(int(state[TO_MOVE]), action))
    return cell_name(action // 3) + ("x" if cells(state)[to] else "") + cell_name(to)


def render(state: np.ndarray) -> str:
    board = cells(state)
    rows = [f"{SIZE - r} " + "".join(PIECES[v] for v in board[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["  abcdefgh"])
