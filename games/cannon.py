"""Cannon (D. E. Whitcher, 2003), 10x10 points, bitboard rules (seed 000, Sect. 6.1; DESIGN §9).

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

State: ``int64[11]``, a 100-bit mask per piece kind as two words (read as ``uint64``): bit
``row * 10 + col`` (row 0 at the top = rank 10, col 0 = file a) of ``lo`` for cells 0-63, bit
``cell - 64`` of ``hi`` for cells 64-99. ``[0:2]``, ``[2:4]`` the soldiers of players 0 and 1
(lo, hi), ``[4:6]``, ``[6:8]`` their towns (empty before placement and after capture); ``[8]``
the player to move, ``[9]`` the result (-1 playing, 0/1 winner, 2 draw), ``[10]`` the plies
since the last capture.
Action: ``from * 100 + to``. Town placement: from == to. Otherwise the Chebyshev distance
tells the kind: 1 step or capture, 2 retreat, 3 slide (the rear soldier ``from`` moves to
``to``), 4-5 shot (``from`` is the rear soldier of the cannon, ``to`` the target).
Moves are listed by ascending cell, then by kind ``k`` (``_OFFSET``): forward steps or
captures to columns -1, 0, +1; sideways captures to -1, +1; retreats to -2, 0, +2; then for
each of the 8 directions of ``_DR``/``_DC`` a slide and the shots 4 and 5 points on: the order
of the cell-by-cell rules these replaced (``tests/cell_rules/cannon.py``), so both play the same
games from the same seed. The origins of each kind are one mask: the cells whose target (and
the points passed) hold the right pieces, found by shifting masks by the kind's cell offset.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import lowest_bit, popcount

SIZE = 10
CELLS = SIZE * SIZE
SOLDIERS, TOWNS, TO_MOVE, RESULT, QUIET = 0, 4, 8, 9, 10
STATE_SIZE = 11
DRAW = 2
DRAW_AFTER = 100
KINDS = 3 + 2 + 3 + 8 * 3
MAX_ACTIONS = 15 * KINDS  # per soldier: steps, sideways, retreats, 8 cannons x (slide, 2 shots)
NUM_ACTIONS = CELLS * CELLS
PIECES = ".dlDL"
_DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
_DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)

_ONE = np.uint64(1)
_HI_BITS = np.uint64((1 << (CELLS - 64)) - 1)
_W = np.uint64(64)


def _kind_table() -> tuple[np.ndarray, np.ndarray]:
    """(offset, column shift) of each kind's target from its origin, per player: ``[2, KINDS]``."""
    offset = np.zeros((2, KINDS), dtype=np.int64)
    column = np.zeros((2, KINDS), dtype=np.int64)
    for player, forward in ((0, -1), (1, 1)):
        moves = [(forward, dc) for dc in (-1, 0, 1)] + [(0, -1), (0, 1)]
        moves += [(-2 * forward, 2 * dc) for dc in (-1, 0, 1)]
        moves += [(j * dr, j * dc) for dr, dc in zip(_DR, _DC) for j in (3, 4, 5)]
        for k, (dr, dc) in enumerate(moves):
            offset[player, k], column[player, k] = dr * SIZE + dc, dc
    return offset, column


def _column_masks() -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of the cells whose column + m is on the board, at index m + 5 (|m| <= 5)."""
    lo, hi = np.zeros(11, dtype=np.uint64), np.zeros(11, dtype=np.uint64)
    for m in range(-5, 6):
        mask = sum(1 << c for c in range(CELLS) if 0 <= c % SIZE + m < SIZE)
        lo[m + 5], hi[m + 5] = mask & (2**64 - 1), mask >> 64
    return lo, hi


_OFFSET, _COLUMN = _kind_table()
_COL_LO, _COL_HI = _column_masks()


def initial_state() -> np.ndarray:
    board = np.zeros(CELLS, dtype=np.int8)
    for row in (6, 7, 8):
        board[row * SIZE + 1: row * SIZE + SIZE: 2] = 1
    for row in (1, 2, 3):
        board[row * SIZE: row * SIZE + SIZE: 2] = 2
    return _from_cells(board, 0, 0)


def _from_cells(board: np.ndarray, to_move: int, quiet: int) -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    for piece in range(1, 5):
        mask = sum(1 << int(cell) for cell in np.flatnonzero(board == piece))
        word = SOLDIERS + 2 * (piece - 1) if piece < 3 else TOWNS + 2 * (piece - 3)
        state[word] = np.uint64(mask & (2**64 - 1)).view(np.int64)
        state[word + 1] = mask >> 64
    state[TO_MOVE], state[RESULT], state[QUIET] = to_move, -1, quiet
    return state


def cells(state: np.ndarray) -> np.ndarray:
    """The board cell by cell: ``int8[100]`` of 0 (empty), 1/2 (soldier of player 0/1) or 3/4
    (town of player 0/1)."""
    board = np.zeros(CELLS, dtype=np.int8)
    for piece in range(1, 5):
        word = SOLDIERS + 2 * (piece - 1) if piece < 3 else TOWNS + 2 * (piece - 3)
        mask = int(np.int64(state[word]).view(np.uint64)) | int(state[word + 1]) << 64
        board[[cell for cell in range(CELLS) if mask >> cell & 1]] = piece
    return board


def from_board(rows: list[str], to_move: int = 0, quiet: int = 0) -> np.ndarray:
    """A position from 10 rows of ``.dlDL`` (top row = rank 10 first; ``D``/``L`` the towns, a
    missing town is still to be placed), ``to_move`` to play, ``quiet`` plies since a capture."""
    if len(rows) != SIZE or any(len(row) != SIZE or set(row) - set(PIECES) for row in rows):
        raise ValueError(f"a board is {SIZE} rows of {SIZE} characters from {PIECES!r}")
    board = np.array([PIECES.index(ch) for row in rows for ch in row], dtype=np.int8)
    for player in (0, 1):
        towns = np.flatnonzero(board == player + 3)
        if towns.size > 1 or (towns.size and towns[0] // SIZE != (SIZE - 1) * (1 - player)):
            raise ValueError(f"player {player} has at most one town, on their back row")
    state = _from_cells(board, to_move, quiet)
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


@njit(inline="always")  # per move of a playout: the masks move generation reads
def _mask(state, word):
    return np.uint64(state[word]), np.uint64(state[word + 1])


@njit(inline="always")  # per mask shift of move generation, dozens per playout move
def _ahead(lo, hi, offset, m):
    """The cells c whose cell c + ``offset`` is in the mask (lo, hi) and lies ``m`` columns
    over from c on the same board (no wrap-around a row's end)."""
    if offset > 0:
        s = np.uint64(offset)
        lo, hi = (lo >> s) | (hi << (_W - s)), hi >> s
    else:
        s = np.uint64(-offset)
        lo, hi = lo << s, ((hi << s) | (lo >> (_W - s))) & _HI_BITS
    return lo & _COL_LO[m + 5], hi & _COL_HI[m + 5]


@njit(inline="always")  # per back-row cell of town placement (a game's first plies only)
def _has_bit(lo, hi, cell):
    if cell < 64:
        return (lo >> np.uint64(cell)) & _ONE != 0
    return (hi >> np.uint64(cell - 64)) & _ONE != 0


@njit(inline="always")  # per move kind of move generation, every playout move
def _store(buf, m, k, lo, hi):
    """Append kind ``k``'s origins (lo, hi) to the ``m`` kinds in ``buf`` if there are any;
    return the new number of kinds."""
    if lo | hi:
        buf[m], buf[KINDS + m], buf[2 * KINDS + m] = np.int64(lo), np.int64(hi), k
        return m + 1
    return m


@njit(cache=True)
def _kinds(state, player, buf):
    """Write the origin masks of ``player``'s moves (their town placed), one per kind that has
    any, in kind order: ``buf[j]`` lo, ``buf[KINDS + j]`` hi, ``buf[2 * KINDS + j]`` the kind,
    for ``j < m``. Return the number of moves, m and the union of the origins (lo, hi)."""
    own_lo, own_hi = _mask(state, SOLDIERS + 2 * player)
    sol_lo, sol_hi = _mask(state, SOLDIERS + 2 - 2 * player)
    town_lo, town_hi = _mask(state, TOWNS + 2 - 2 * player)
    home_lo, home_hi = _mask(state, TOWNS + 2 * player)
    enemy_lo, enemy_hi = sol_lo | town_lo, sol_hi | town_hi
    empty_lo = ~(own_lo | enemy_lo | home_lo)
    empty_hi = ~(own_hi | enemy_hi | home_hi) & _HI_BITS
    forward = -SIZE if player == 0 else SIZE
    n, m, union_lo, union_hi = 0, 0, np.uint64(0), np.uint64(0)
    for k in range(3):  # steps or captures, forward
        lo, hi = _ahead(empty_lo | enemy_lo, empty_hi | enemy_hi, forward + k - 1, k - 1)
        lo, hi = own_lo & lo, own_hi & hi
        m = _store(buf, m, k, lo, hi)
        n += popcount(lo) + popcount(hi)
        union_lo, union_hi = union_lo | lo, union_hi | hi
    for k in (3, 4):  # captures sideways
        lo, hi = _ahead(enemy_lo, enemy_hi, 2 * k - 7, 2 * k - 7)
        lo, hi = own_lo & lo, own_hi & hi
        m = _store(buf, m, k, lo, hi)
        n += popcount(lo) + popcount(hi)
        union_lo, union_hi = union_lo | lo, union_hi | hi
    # retreats: soldiers next to an enemy soldier (the 8 neighbours: a row, then a column, dilation)
    left_lo, left_hi = _ahead(sol_lo, sol_hi, -1, -1)
    right_lo, right_hi = _ahead(sol_lo, sol_hi, 1, 1)
    row_lo, row_hi = sol_lo | left_lo | right_lo, sol_hi | left_hi | right_hi
    up_lo, up_hi = _ahead(row_lo, row_hi, -SIZE, 0)
    down_lo, down_hi = _ahead(row_lo, row_hi, SIZE, 0)
    near_lo, near_hi = own_lo & (row_lo | up_lo | down_lo), own_hi & (row_hi | up_hi | down_hi)
    for k in (5, 6, 7):
        lo, hi = np.uint64(0), np.uint64(0)
        if near_lo | near_hi:
            pass_lo, pass_hi = _ahead(empty_lo, empty_hi, -forward + k - 6, k - 6)
            to_lo, to_hi = _ahead(empty_lo, empty_hi, -2 * forward + 2 * (k - 6), 2 * (k - 6))
            lo, hi = near_lo & pass_lo & to_lo, near_hi & pass_hi & to_hi
        m = _store(buf, m, k, lo, hi)
        n += popcount(lo) + popcount(hi)
        union_lo, union_hi = union_lo | lo, union_hi | hi
    for d in range(8):  # cannons: rear soldier, two more in line, the point beyond empty
        step, dc = _DR[d] * SIZE + _DC[d], _DC[d]
        lo, hi = _ahead(own_lo, own_hi, step, dc)
        lo, hi = own_lo & lo, own_hi & hi
        if lo | hi:
            second_lo, second_hi = _ahead(own_lo, own_hi, 2 * step, 2 * dc)
            free_lo, free_hi = _ahead(empty_lo, empty_hi, 3 * step, 3 * dc)
            lo, hi = lo & second_lo & free_lo, hi & second_hi & free_hi
        k = 8 + 3 * d
        m = _store(buf, m, k, lo, hi)
        shot4_lo, shot4_hi, shot5_lo, shot5_hi = lo, hi, lo, hi
        if lo | hi:
            target_lo, target_hi = _ahead(enemy_lo, enemy_hi, 4 * step, 4 * dc)
            shot4_lo, shot4_hi = lo & target_lo, hi & target_hi
            target_lo, target_hi = _ahead(enemy_lo, enemy_hi, 5 * step, 5 * dc)
            shot5_lo, shot5_hi = lo & target_lo, hi & target_hi
        m = _store(buf, m, k + 1, shot4_lo, shot4_hi)
        m = _store(buf, m, k + 2, shot5_lo, shot5_hi)
        n += (popcount(lo) + popcount(hi) + popcount(shot4_lo) + popcount(shot4_hi)
              + popcount(shot5_lo) + popcount(shot5_hi))
        union_lo, union_hi = union_lo | lo, union_hi | hi
    return n, m, union_lo, union_hi


@njit(inline="always")  # per move of a playout: tested before move generation
def _town_unplaced(state, player):
    return state[TOWNS + 2 * player] == 0 and state[TOWNS + 2 * player + 1] == 0


@njit(cache=True)
def _place_town(state, player, out):
    """Write the town placements (the empty points of the back row but its corners) into
    ``out``; return their number."""
    occupied_lo, occupied_hi = np.uint64(0), np.uint64(0)
    for word in range(SOLDIERS, TOWNS + 4, 2):
        occupied_lo |= np.uint64(state[word])
        occupied_hi |= np.uint64(state[word + 1])
    row = (SIZE - 1) * (1 - player)
    n = 0
    for col in range(1, SIZE - 1):
        cell = row * SIZE + col
        if not _has_bit(occupied_lo, occupied_hi, cell):
            out[n] = cell * (CELLS + 1)
            n += 1
    return n


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` (by cell, then kind) and return their number (0 iff
    terminal)."""
    if state[RESULT] >= 0:
        return 0
    player = state[TO_MOVE]
    if _town_unplaced(state, player):
        return _place_town(state, player, out)
    buf = np.empty(3 * KINDS, dtype=np.int64)
    _, m, union_lo, union_hi = _kinds(state, player, buf)
    n = 0
    for word in range(2):
        mask = union_lo if word == 0 else union_hi
        while mask:
            index = lowest_bit(mask)
            mask &= mask - _ONE
            cell = 64 * word + index
            for j in range(m):
                if (np.uint64(buf[KINDS * word + j]) >> np.uint64(index)) & _ONE:
                    out[n] = cell * CELLS + cell + _OFFSET[player, buf[2 * KINDS + j]]
                    n += 1
    return n


@njit(cache=True)
def _pick(buf, m, player, r, union_lo, union_hi):
    """The move at place ``r`` of the list ``legal_actions`` writes, from the kinds' masks in
    ``buf`` (``_kinds``): skip the lo word if its moves are fewer than r, then walk the
    origins by cell, counting each one's moves without a branch per kind."""
    below = 0
    for j in range(m):
        below += popcount(np.uint64(buf[j]))
    word, mask = 0, union_lo
    if r >= below:
        word, mask, r = 1, union_hi, r - below
    while True:
        index = np.uint64(lowest_bit(mask))
        mask &= mask - _ONE
        count = 0
        for j in range(m):
            count += np.int64((np.uint64(buf[KINDS * word + j]) >> index) & _ONE)
        if r < count:
            break
        r -= count
    cell = 64 * word + np.int64(index)
    for j in range(m):
        if (np.uint64(buf[KINDS * word + j]) >> index) & _ONE:
            if r == 0:
                return cell * CELLS + cell + _OFFSET[player, buf[2 * KINDS + j]]
            r -= 1
    return -1


@njit(cache=True)
def _has_move(state, player):
    """Whether ``player`` has a legal move: a forward step or capture settles it on three
    masks, as in nearly every position."""
    if _town_unplaced(state, player):
        return _place_town(state, player, np.empty(SIZE, dtype=np.int64)) > 0
    own_lo, own_hi = _mask(state, SOLDIERS + 2 * player)
    home_lo, home_hi = _mask(state, TOWNS + 2 * player)
    free_lo, free_hi = ~(own_lo | home_lo), ~(own_hi | home_hi) & _HI_BITS
    forward = -SIZE if player == 0 else SIZE
    for dc in range(-1, 2):
        lo, hi = _ahead(free_lo, free_hi, forward + dc, dc)
        if (own_lo & lo) | (own_hi & hi):
            return True
    return _kinds(state, player, np.empty(3 * KINDS, dtype=np.int64))[0] > 0


@njit(cache=True)
def _settle(state):
    """End the game if the player to move cannot move (they lose) or the quiet limit is hit."""
    player = state[TO_MOVE]
    if state[RESULT] < 0 and not _has_move(state, player):
        state[RESULT] = 1 - player
    elif state[RESULT] < 0 and state[QUIET] >= DRAW_AFTER:
        state[RESULT] = DRAW


@njit(inline="always")  # per move played (apply_action)
def _distance(origin, to):
    return max(abs(origin // SIZE - to // SIZE), abs(origin % SIZE - to % SIZE))


@njit(inline="always")  # per move played (apply_action)
def _word_bit(cell):
    """(word, bit) of ``cell``: 0 for lo, 1 for hi."""
    if cell < 64:
        return 0, _ONE << np.uint64(cell)
    return 1, _ONE << np.uint64(cell - 64)


@njit(inline="always")  # per move played, up to three times (apply_action)
def _toggle(state, word, bit):
    state[word] = np.int64(np.uint64(state[word]) ^ bit)


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place."""
    player = state[TO_MOVE]
    origin, to = action // CELLS, action % CELLS
    state[QUIET] += 1
    word, bit = _word_bit(to)
    if origin == to:
        _toggle(state, TOWNS + 2 * player + word, bit)
    else:
        soldiers, town = SOLDIERS + 2 - 2 * player + word, TOWNS + 2 - 2 * player + word
        if np.uint64(state[soldiers]) & bit:
            _toggle(state, soldiers, bit)
            state[QUIET] = 0
        elif np.uint64(state[town]) & bit:
            _toggle(state, town, bit)
            state[QUIET] = 0
            state[RESULT] = player
        if _distance(origin, to) <= 3:
            _toggle(state, SOLDIERS + 2 * player + word, bit)
            word, bit = _word_bit(origin)
            _toggle(state, SOLDIERS + 2 * player + word, bit)
    state[TO_MOVE] = 1 - player
    _settle(state)


@njit(inline="always")  # twice per playout, at its terminal (quality)
def _soldiers(state, player):
    return (popcount(np.uint64(state[SOLDIERS + 2 * player]))
            + popcount(np.uint64(state[SOLDIERS + 2 * player + 1])))


@njit(cache=True)
def quality(state):
    """q = (winner's soldiers - loser's soldiers) / 15, in [-1, 1]: seed 000 Sect. 6.1's soldier
    difference over the framework's normaliser (DESIGN §9), 0 for equal material — not shifted,
    since the online weight a' (Eq. 10) depends on where q is 0; 0 for a draw (no bonus)."""
    w = state[RESULT]
    if w == DRAW:
        return 0.0
    return (_soldiers(state, w) - _soldiers(state, 1 - w)) / 15.0


@njit(inline="always")  # per move of a policy playout: its town-capture test
def _town(state, player):
    """The cell of ``player``'s town, -1 if it is not on the board."""
    lo, hi = _mask(state, TOWNS + 2 * player)
    if lo:
        return lowest_bit(lo)
    return 64 + lowest_bit(hi) if hi else -1


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """A move among ``out[:n]`` that captures or shoots the enemy town, drawn uniformly at random
    (reservoir sampling); -1 when there is none."""
    town = _town(state, 1 - state[TO_MOVE])
    chosen, seen = -1, 0
    if town < 0:
        return chosen
    for i in range(n):
        if out[i] % CELLS == town:
            seen += 1
            if randint(rng, seen) == 0:
                chosen = out[i]
    return chosen


@njit(cache=True)
def _town_attacked(state, player, buf, m):
    """Whether one of ``player``'s moves (``m`` kinds' masks in ``buf``) takes the enemy town:
    for each kind, the one origin that would reach it (only a capture or shot can: the other
    kinds go to empty points)."""
    town = _town(state, 1 - player)
    for j in range(m):
        k = buf[2 * KINDS + j]
        origin, col = town - _OFFSET[player, k], town % SIZE - _COLUMN[player, k]
        if 0 <= origin < CELLS and 0 <= col < SIZE:
            word, index = (0, origin) if origin < 64 else (1, origin - 64)
            if (np.uint64(buf[KINDS * word + j]) >> np.uint64(index)) & _ONE:
                return True
    return False


@njit(cache=True)
def random_action(state, out, rng):
    """A uniformly random legal action: ``out[randint(rng, n)]`` of ``legal_actions``' list,
    found on the masks without writing the list (``out`` is scratch); -1 at a terminal."""
    if state[RESULT] >= 0:
        return -1
    player = state[TO_MOVE]
    if _town_unplaced(state, player):
        return out[randint(rng, _place_town(state, player, out))]
    n, m, union_lo, union_hi = _kinds(state, player, out)
    return _pick(out, m, player, randint(rng, n), union_lo, union_hi)


@njit(cache=True)
def policy_action(state, out, rng):
    """The playout policy of seed 000: a decisive move (taking the town) whenever one exists,
    else a uniformly random move, the same move from the same random numbers as a draw from
    ``legal_actions``' list (the list is written only when the town can be taken). Returns -1
    at a terminal."""
    if state[RESULT] >= 0:
        return -1
    player = state[TO_MOVE]
    if _town_unplaced(state, player):
        return out[randint(rng, _place_town(state, player, out))]
    n, m, union_lo, union_hi = _kinds(state, player, out)
    if _town_attacked(state, player, out, m):
        return decisive_action(state, out, legal_actions(state, out), rng)
    return _pick(out, m, player, randint(rng, n), union_lo, union_hi)


def cell_name(cell: int) -> str:
    return "abcdefghij"[cell % SIZE] + str(SIZE - cell // SIZE)


def action_to_string(state: np.ndarray, action: int) -> str:
    """``Tc1`` places a town, ``b2-b3`` steps, retreats or slides, ``b4xc5`` captures and
    ``b2*b6`` shoots (from the cannon's rear soldier)."""
    origin, to = divmod(int(action), CELLS)
    if origin == to:
        return "T" + cell_name(to)
    distance = int(_distance(origin, to))
    sign = "*" if distance > 3 else ("x" if cells(state)[to] else "-")
    return cell_name(origin) + sign + cell_name(to)


def render(state: np.ndarray) -> str:
    board = cells(state)
    rows = [f"{SIZE - r:>2} " + "".join(PIECES[v] for v in board[r * SIZE: (r + 1) * SIZE])
            for r in range(SIZE)]
    return "\n".join(rows + ["   abcdefghij"])
