"""Breakthrough's cell-by-cell rules of 2439f44, kept as the oracle of the bitboard rules
(``games.breakthrough``; ``tests/test_games_differential.py``). Seed 000, Sect. 6; DESIGN §9.

Each player starts with 16 pawns on their two home rows. A pawn moves one square straight or
diagonally forward onto an empty square, and captures only diagonally forward. A player wins by
reaching the far row or by capturing every enemy pawn. A draw is impossible and a player always
has a move (the most advanced pawn can always step diagonally), so the game ends only by a win.

State: ``int8[68]``; cells ``row * 8 + col`` (row 0 at the top, as rendered) hold 0 (empty) or
owner + 1; player 0 (White, ``w``) starts on rows 6-7, moves first and moves up (row - 1).
Header: ``state[64]`` player to move, ``[65]`` winner (-1 while playing), ``[66:68]`` pawn counts.
Action: ``from_cell * 3 + k``, k = 0, 1, 2 for the steps to column - 1, straight, column + 1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

SIZE = 8
TO_MOVE, WINNER, COUNT = 64, 65, 66
STATE_SIZE = 68
MAX_ACTIONS = 48
NUM_ACTIONS = 3 * SIZE * SIZE
PIECES = ".wb"


def initial_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[: 2 * SIZE] = 2
    state[6 * SIZE: 8 * SIZE] = 1
    state[WINNER] = -1
    state[COUNT: COUNT + 2] = 2 * SIZE
    return state


def from_board(rows: list[str], to_move: int = 0) -> np.ndarray:
    """A position from 8 rows of ``.wb`` (top row first), with ``to_move`` to play."""
    state = initial_state()
    state[: SIZE * SIZE] = _cells(rows, PIECES, SIZE)
    state[TO_MOVE] = to_move
    for player in (0, 1):
        state[COUNT + player] = np.count_nonzero(state[: SIZE * SIZE] == player + 1)
    home_run = [np.any(state[:SIZE] == 1), np.any(state[SIZE * (SIZE - 1): SIZE * SIZE] == 2)]
    for player in (0, 1):
        if home_run[player] or state[COUNT + 1 - player] == 0:
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


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` and return their number (0 iff terminal)."""
    if state[WINNER] >= 0:
        return 0
    player = state[TO_MOVE]
    step = -SIZE if player == 0 else SIZE
    n = 0
    for cell in range(SIZE * SIZE):
        if state[cell] != player + 1:
            continue
        col = cell % SIZE
        for k in range(3):
            dc = k - 1
            if col + dc < 0 or col + dc >= SIZE:
                continue
            target = state[cell + step + dc]
            if target == 0 or (dc != 0 and target == 2 - player):
                out[n] = cell * 3 + k
                n += 1
    return n


@njit(cache=True)
def _target(player, action):
    return action // 3 + (-SIZE if player == 0 else SIZE) + action % 3 - 1


@njit(cache=True)
def _is_decisive(state, player, action):
    to = _target(player, action)
    far = to < SIZE if player == 0 else to >= SIZE * (SIZE - 1)
    return far or (state[to] != 0 and state[COUNT + 1 - player] == 1)


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place."""
    player = state[TO_MOVE]
    to = _target(player, action)
    decisive = _is_decisive(state, player, action)
    if state[to] != 0:
        state[COUNT + 1 - player] -= 1
    state[to] = player + 1
    state[action // 3] = 0
    if decisive:
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
    return (state[COUNT + w] - state[COUNT + 1 - w]) / 16.0


CAPTURE_WEIGHT, SAFE_CAPTURE_WEIGHT = 2, 5  # playout weights of captures (a quiet move: 1)


@njit(cache=True)
def _is_anti_decisive(state, player, action):
    """A capture of an enemy pawn one step from our home row (it would win next move)."""
    to = _target(player, action)
    row = to // SIZE
    return state[to] != 0 and (row == SIZE - 2 if player == 0 else row == 1)


@njit(cache=True)
def _weight(state, player, action):
    """Playout weight: 5 for a capture that cannot be recaptured at once, 2 for another capture,
    1 for a quiet move (the seed's framework, ``breakthrough.game.Board.getPlayoutMoves``)."""
    to = _target(player, action)
    if state[to] == 0:
        return 1
    ahead = to + (-SIZE if player == 0 else SIZE)
    if 0 <= ahead < SIZE * SIZE:
        col = to % SIZE
        for dc in (-1, 1):
            if 0 <= col + dc < SIZE and state[ahead + dc] == 2 - player:
                return CAPTURE_WEIGHT
    return SAFE_CAPTURE_WEIGHT


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """A move among ``out[:n]`` that the playout policy always plays, drawn uniformly at random
    (reservoir sampling): a decisive move (reaching the far row or taking the last pawn), else
    an anti-decisive one (taking a pawn that threatens to win next move); -1 when there is
    none."""
    player = state[TO_MOVE]
    chosen, seen, saving, saves = -1, 0, -1, 0
    for i in range(n):
        if _is_decisive(state, player, out[i]):
            seen += 1
            if randint(rng, seen) == 0:
                chosen = out[i]
        elif seen == 0 and _is_anti_decisive(state, player, out[i]):
            saves += 1
            if randint(rng, saves) == 0:
                saving = out[i]
    return chosen if seen > 0 else saving


@njit(cache=True)
def policy_action(state, out, rng):
    """The playout policy of seed 000 Sect. 6.1 as its framework plays it: a move of
    ``decisive_action`` whenever one exists, else a move drawn with probability proportional
    to ``_weight`` (captures preferred). Returns -1 at a terminal."""
    n = legal_actions(state, out)
    if n == 0:
        return -1
    chosen = decisive_action(state, out, n, rng)
    if chosen >= 0:
        return chosen
    player = state[TO_MOVE]
    total = 0
    for i in range(n):
        total += _weight(state, player, out[i])
    pick = randint(rng, total)
    for i in range(n):
        pick -= _weight(state, player, out[i])
        if pick < 0:
            return out[i]
    return out[n - 1]


def cell_name(cell: int) -> str:
    return "abcdefgh"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_to_string(state: np.ndarray, action: int) -> str:
    """Algebraic, e.g. ``a2a3``, with ``x`` for a capture (``b5xc6``)."""
    to = int(_target(int(state[TO_MOVE]), action))
    return cell_name(action // 3) + ("x" if state[to] else "") + cell_name(to)


def render(state: np.ndarray) -> str:
    rows = [f"{SIZE - r} " + "".join(PIECES[v] for v in state[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["  abcdefgh"])
