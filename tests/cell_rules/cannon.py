"""Cannon's rules of 2439f44, kept as the oracle of ``games.cannon``
(``tests/test_games_differential.py``). Cannon (D. E. Whitcher, 2003), 10x10 points, compiled
rules (seed 000, Sect. 6.1; DESIGN §9).

Each player has 15 soldiers and a town. Player 0 (Dark, ``d``/``D``) moves first from ranks 2-4
on files b, d, f, h, j and moves up; player 1 (Light, ``l``/``L``) starts on ranks 7-9, files a,
c, e, g, i, and moves down. Each player's first move places their town on their back row (rank 1
for Dark, 10 for Light), not in a corner; towns never move. Afterwards a move is one of:
- step: a soldier moves one point forward or diagonally forward onto an empty point;
- capture: a soldier takes an enemy piece (soldier or town) one point forward, diagonally forward
  or sideways, moving onto its point;
- retreat: a soldier next to (any of its 8 neighbours) an enemy soldier moves two points straight
  or diagonally backward, if the point passed and the target point are empty;
- slide: a cannon (3 own soldiers in an orthogonal or diagonal line) moves one point along its
  line into an empty point: the soldier at the rear end moves to the point beyond the front end;
- shot: a cannon, without moving, removes an enemy piece 2 or 3 points beyond its front end, if
  the point just in front of it is empty.
Capturing or shooting the enemy town wins; a player who cannot move loses.

Choices where sources differ: the shot follows Whitcher's own description (Zillions of Games,
2004: "as long as the position immediately in front of the cannon is not occupied") and the
seed's framework (``tpepels/mcts_gameframe``), so a 3-point shot passes over whatever stands 2
points in front; iggamecenter/Ludii ask for "one or two empty points between". Retreats need an
enemy soldier on any neighbouring point (the common rule; the framework asks for a capturable
one). The framework also forbids moves that leave the own town capturable; we do not. Draw rule
(ours, so that every playout ends: cannons may slide back and forth forever): the game is drawn
after ``DRAW_AFTER`` consecutive plies without a capture or shot.

State: ``int8[107]``; cells ``row * 10 + col`` (row 0 at the top = rank 10, col 0 = file a) hold
0 (empty), 1/2 (soldier of player 0/1), 3/4 (town of player 0/1). Header: ``[100]`` player to
move, ``[101]`` result (-1 playing, 0/1 winner, 2 draw), ``[102]`` plies since the last capture,
``[103:105]`` soldier counts, ``[105:107]`` town cells (-1 before placement).
Action: ``from * 100 + to``. Town placement: from == to. Otherwise the Chebyshev distance
tells the kind: 1 step or capture, 2 retreat, 3 slide (the rear soldier ``from`` moves to
``to``), 4-5 shot (``from`` is the rear soldier of the cannon, ``to`` the target).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

SIZE = 10
CELLS = SIZE * SIZE
TO_MOVE, RESULT, QUIET, COUNT, TOWN = 100, 101, 102, 103, 105
STATE_SIZE = 107
DRAW = 2
DRAW_AFTER = 100
MAX_ACTIONS = 15 * (3 + 2 + 3 + 8 * 3)  # per soldier: steps, sideways, retreats, 8 cannons
NUM_ACTIONS = CELLS * CELLS
PIECES = ".dlDL"
_DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
_DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
_PROBE = 5  # most moves one soldier's steps, retreats or one cannon direction give


def initial_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    for row in (6, 7, 8):
        state[row * SIZE + 1: row * SIZE + SIZE: 2] = 1
    for row in (1, 2, 3):
        state[row * SIZE: row * SIZE + SIZE: 2] = 2
    state[RESULT] = -1
    state[COUNT: COUNT + 2] = 15
    state[TOWN: TOWN + 2] = -1
    return state


def from_board(rows: list[str], to_move: int = 0, quiet: int = 0) -> np.ndarray:
    """A position from 10 rows of ``.dlDL`` (top row = rank 10 first; ``D``/``L`` the towns, a
    missing town is still to be placed), ``to_move`` to play, ``quiet`` plies since a capture."""
    if len(rows) != SIZE or any(len(row) != SIZE or set(row) - set(PIECES) for row in rows):
        raise ValueError(f"a board is {SIZE} rows of {SIZE} characters from {PIECES!r}")
    state = initial_state()
    state[:CELLS] = [PIECES.index(ch) for row in rows for ch in row]
    state[TO_MOVE], state[QUIET] = to_move, quiet
    for player in (0, 1):
        state[COUNT + player] = np.count_nonzero(state[:CELLS] == player + 1)
        towns = np.flatnonzero(state[:CELLS] == player + 3)
        if towns.size > 1 or (towns.size and towns[0] // SIZE != (SIZE - 1) * (1 - player)):
            raise ValueError(f"player {player} has at most one town, on their back row")
        state[TOWN + player] = towns[0] if towns.size else -1
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
def _at(row, col):
    """The cell at (row, col), or -1 off the board."""
    if row < 0 or row >= SIZE or col < 0 or col >= SIZE:
        return -1
    return row * SIZE + col


@njit(cache=True)
def _is_enemy(piece, player):
    return piece != 0 and (piece - 1) % 2 != player


@njit(cache=True)
def _generate(state, player, out, first_only):
    """Write the legal moves of ``player`` into ``out`` and return their number; with
    ``first_only``, stop as soon as there is one (``out`` then needs only ``_PROBE`` slots)."""
    n = 0
    if state[TOWN + player] < 0:
        row = (SIZE - 1) * (1 - player)
        for col in range(1, SIZE - 1):
            cell = row * SIZE + col
            if state[cell] == 0:
                out[n] = cell * 101
                n += 1
                if first_only:
                    return n
        return n
    soldier = player + 1
    forward = -1 if player == 0 else 1
    for cell in range(CELLS):
        if state[cell] != soldier:
            continue
        row, col = cell // SIZE, cell % SIZE
        for dc in range(-1, 2):
            to = _at(row + forward, col + dc)
            if to >= 0 and (state[to] == 0 or _is_enemy(state[to], player)):
                out[n] = cell * CELLS + to
                n += 1
        for dc in (-1, 1):
            to = _at(row, col + dc)
            if to >= 0 and _is_enemy(state[to], player):
                out[n] = cell * CELLS + to
                n += 1
        if first_only and n > 0:
            return n
        threatened = False
        for d in range(8):
            near = _at(row + _DR[d], col + _DC[d])
            if near >= 0 and state[near] == 2 - player:
                threatened = True
        if threatened:
            for dc in range(-1, 2):
                mid = _at(row - forward, col + dc)
                to = _at(row - 2 * forward, col + 2 * dc)
                if to >= 0 and state[mid] == 0 and state[to] == 0:
                    out[n] = cell * CELLS + to
                    n += 1
        if first_only and n > 0:
            return n
        for d in range(8):
            dr, dc = _DR[d], _DC[d]
            second = _at(row + dr, col + dc)
            if second < 0 or state[second] != soldier:
                continue
            front = _at(row + 2 * dr, col + 2 * dc)
            if front < 0 or state[front] != soldier:
                continue
            ahead = _at(row + 3 * dr, col + 3 * dc)
            if ahead < 0 or state[ahead] != 0:
                continue
            out[n] = cell * CELLS + ahead
            n += 1
            for distance in (4, 5):
                target = _at(row + distance * dr, col + distance * dc)
                if target >= 0 and _is_enemy(state[target], player):
                    out[n] = cell * CELLS + target
                    n += 1
            if first_only and n > 0:
                return n
    return n


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` and return their number (0 iff terminal)."""
    if state[RESULT] >= 0:
        return 0
    return _generate(state, state[TO_MOVE], out, False)


@njit(cache=True)
def _settle(state):
    """End the game if the player to move cannot move (they lose) or the quiet limit is hit."""
    player = state[TO_MOVE]
    if state[RESULT] < 0 and _generate(state, player, np.empty(_PROBE, dtype=np.int64), True) == 0:
        state[RESULT] = 1 - player
    elif state[RESULT] < 0 and state[QUIET] >= DRAW_AFTER:
        state[RESULT] = DRAW


@njit(cache=True)
def _distance(origin, to):
    return max(abs(origin // SIZE - to // SIZE), abs(origin % SIZE - to % SIZE))


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place."""
    player = state[TO_MOVE]
    origin, to = action // CELLS, action % CELLS
    state[QUIET] += 1
    if origin == to:
        state[to] = player + 3
        state[TOWN + player] = to
    else:
        taken = state[to]
        if taken != 0:
            state[QUIET] = 0
            if taken == 2 - player:
                state[COUNT + 1 - player] -= 1
            else:
                state[RESULT] = player
        state[to] = 0
        if _distance(origin, to) <= 3:
            state[to] = player + 1
            state[origin] = 0
    state[TO_MOVE] = 1 - player
    _settle(state)


@njit(cache=True)
def quality(state):
    """q = (winner's soldiers - loser's soldiers) / 15, in [-1, 1]: seed 000 Sect. 6.1's soldier
    difference over the framework's normaliser (DESIGN §9), 0 for equal material — not shifted,
    since the online weight a' (Eq. 10) depends on where q is 0; 0 for a draw (no bonus)."""
    w = state[RESULT]
    if w == DRAW:
        return 0.0
    return (state[COUNT + w] - state[COUNT + 1 - w]) / 15.0


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """A move among ``out[:n]`` that captures or shoots the enemy town, drawn uniformly at random
    (reservoir sampling); -1 when there is none."""
    town = state[TOWN + 1 - state[TO_MOVE]]
    chosen, seen = -1, 0
    for i in range(n):
        if out[i] % CELLS == town:
            seen += 1
            if randint(rng, seen) == 0:
                chosen = out[i]
    return chosen


@njit(cache=True)
def policy_action(state, out, rng):
    """The playout policy of seed 000: a decisive move (taking the town) whenever one exists,
    else a uniformly random move. Returns -1 at a terminal."""
    n = legal_actions(state, out)
    if n == 0:
        return -1
    chosen = decisive_action(state, out, n, rng)
    return chosen if chosen >= 0 else out[randint(rng, n)]


def cell_name(cell: int) -> str:
    return "abcdefghij"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_to_string(state: np.ndarray, action: int) -> str:
    """``Tc1`` places a town, ``b2-b3`` steps, retreats or slides, ``b4xc5`` captures and
    ``b2*b6`` shoots (from the cannon's rear soldier)."""
    origin, to = divmod(int(action), CELLS)
    if origin == to:
        return "T" + cell_name(to)
    distance = int(_distance(origin, to))
    sign = "*" if distance > 3 else ("x" if state[to] else "-")
    return cell_name(origin) + sign + cell_name(to)


def render(state: np.ndarray) -> str:
    rows = [f"{SIZE - r:>2} " + "".join(PIECES[v] for v in state[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["   abcdefghij"])
