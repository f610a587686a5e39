"""Chinese Checkers for two on the 73-cell star, compiled rules (seed 000, Sect. 6.1; DESIGN §9).

The board is a hexagon of side 4 (37 cells) with a triangle of 6 cells on each of its six sides.
Each player has 6 pieces in one triangle and must bring them all into the opposite one, the
target. Player 0 (``x``) starts in the bottom triangle and moves first; player 1 (``o``) starts
at the top. A move is either a step to an adjacent empty cell or a chain of one or more hops,
each over one adjacent piece (either player's; nothing is captured) onto the empty cell just
beyond; a chain may stop after any hop and never revisits a cell. A move is named by its start
and end cells only (chains to the same end are one move). A piece in its target triangle may
not leave it: neither its step nor any hop of its chain may land outside (a piece that enters
the target during a chain may leave it again in the same chain). The side triangles are open to
both players. A player wins once every cell of its target is occupied and at least one of them
by its own pieces: all 6 of its pieces home, or fewer with the rest of the target held by
opponent pieces that never left (the seed's framework ``tpepels/mcts_gameframe`` counts the
occupied cells of the target, whoever holds them). Without that rule a losing player spoils:
it keeps pieces in its starting triangle, the opponent can never complete its target, and games
between low-budget UCT players ran to the draw (``experiments.papers.pepels``). The game is drawn
after ``DRAW_AFTER`` plies (DESIGN §9: 1000 moves). A player to move without a move (all pieces
walled in; never seen in random play) loses, as in the seed's framework.

Coordinates: axial (q, r), s = -q - r; the star is the union of the triangles {q, r, s >= -3}
and {q, r, s <= 3}; r is the row (-6 at the top). Cells are numbered row by row, left to right.
State: ``int8[77]``; cells hold 0 (empty) or owner + 1. Header: ``[73]`` player to move,
``[74]`` result (-1 playing, 0/1 winner, 2 draw), ``[75]``, ``[76]`` plies played // 100 and
% 100. Action: ``from * 73 + to``.

OpenSpiel 2.0.2's ``chinese_checkers`` is the 121-cell star with 10 pieces each, plays a chain
as one action per hop and has no rule keeping pieces home; the move generator here takes its
board as tables (``board_tables``), so the tests check it against OpenSpiel on that board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .bits import lowest_bit, popcount

RADIUS = 3  # the hexagon has side RADIUS + 1, the triangles side RADIUS
PIECES_EACH = 6
DRAW_AFTER = 1000
DRAW = 2
_AXIAL = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def board_tables(radius: int):
    """The star of hexagon side ``radius + 1``: cell coordinates (q, r) int64 [cells, 2],
    neighbours and hop landings int64 [cells, 6] (-1 off the board), and the target masks
    bool [2, cells] (player 0's target is the top triangle, player 1's the bottom one)."""
    coords = sorted(((q, r) for r in range(-2 * radius, 2 * radius + 1)
                     for q in range(-2 * radius, 2 * radius + 1)
                     if min(q, r, -q - r) >= -radius or max(q, r, -q - r) <= radius),
                    key=lambda c: (c[1], c[0]))
    index = {c: i for i, c in enumerate(coords)}
    neighbours = np.array([[index.get((q + dq, r + dr), -1) for dq, dr in _AXIAL]
                           for q, r in coords], dtype=np.int64)
    hops = np.array([[index.get((q + 2 * dq, r + 2 * dr), -1) for dq, dr in _AXIAL]
                     for q, r in coords], dtype=np.int64)
    rows = np.array([r for _, r in coords])
    targets = np.stack([rows < -radius, rows > radius])
    return np.array(coords, dtype=np.int64), neighbours, hops, targets


COORDS, NEIGHBOURS, HOPS, TARGETS = board_tables(RADIUS)
CELLS = len(COORDS)
_TIPS = (0, CELLS - 1)  # the far corners of the targets of players 0 and 1
TIP_DISTANCE = np.array([[max(abs(q - COORDS[tip, 0]), abs(r - COORDS[tip, 1]),
                              abs(q + r - COORDS[tip].sum())) for q, r in COORDS]
                         for tip in _TIPS], dtype=np.int64)  # [2, cells] hex distance to the tip
TARGET_CELLS = np.stack([np.flatnonzero(TARGETS[0]), np.flatnonzero(TARGETS[1])])  # [2, 6]
TO_MOVE, RESULT, PLIES = CELLS, CELLS + 1, CELLS + 2
STATE_SIZE = CELLS + 4
MAX_ACTIONS = PIECES_EACH * (CELLS - 1)
NUM_ACTIONS = CELLS * CELLS
PIECES = ".xo"
_ROW_STARTS = np.searchsorted(COORDS[:, 1], np.arange(-2 * RADIUS, 2 * RADIUS + 2))


def _masks(rows: np.ndarray) -> np.ndarray:
    """Each row of cell flags as a 73-bit mask, ``uint64 [..., 2]`` (lo: cells 0-63, hi: 64-72)."""
    flat = rows.reshape(-1, CELLS)
    out = np.zeros((len(flat), 2), dtype=np.uint64)
    for i, flags in enumerate(flat):
        mask = sum(1 << int(c) for c in np.flatnonzero(flags))
        out[i] = mask & (2**64 - 1), mask >> 64
    return out.reshape(rows.shape[:-1] + (2,))


def _jump_table() -> np.ndarray:
    """``[cells, 64, 2]``: the cells a hop from a cell can land on when its neighbours in the
    directions of the set bits of the index hold pieces, as a mask (landings on the board)."""
    landings = np.zeros((CELLS, 64, CELLS), dtype=np.bool_)
    for cell in range(CELLS):
        for pattern in range(64):
            for d in range(6):
                if pattern >> d & 1 and HOPS[cell, d] >= 0:
                    landings[cell, pattern, HOPS[cell, d]] = True
    return _masks(landings)


# the playout policy's tables: the neighbours of each cell as a mask [cells, 2] and as bit
# indices [cells, 6] (127, never set, off the board); hop landings (``_jump_table``); each
# target [2, 2]; the cells nearer than each cell to each player's tip [2, cells, 2]
_NEIGHBOUR_MASK = _masks(np.array([[c in row for c in range(CELLS)] for row in NEIGHBOURS]))
_NEIGHBOUR_BIT = np.where(NEIGHBOURS >= 0, NEIGHBOURS, 127).astype(np.uint64)
_JUMPS = _jump_table()
_TARGET_MASK = _masks(TARGETS)
_NEARER_MASK = _masks(TIP_DISTANCE[:, None, :] < TIP_DISTANCE[:, :, None])
_HI_CELLS = np.uint64((1 << (CELLS - 64)) - 1)


def initial_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int8)
    state[:CELLS][TARGETS[1]] = 1
    state[:CELLS][TARGETS[0]] = 2
    state[RESULT] = -1
    return state


def from_board(rows: list[str], to_move: int = 0, plies: int = 0) -> np.ndarray:
    """A position from the 13 rows of ``.xo`` that ``render`` draws (spaces ignored), top row
    first, ``to_move`` to play after ``plies`` plies."""
    cells = "".join(rows).replace(" ", "")
    widths = np.diff(_ROW_STARTS)
    if [len(row.replace(" ", "")) for row in rows] != widths.tolist() or set(cells) - set(PIECES):
        raise ValueError(f"a board is {len(widths)} rows of {widths.tolist()} cells from "
                         f"{PIECES!r}")
    state = initial_state()
    state[:CELLS] = [PIECES.index(ch) for ch in cells]
    for player in (0, 1):
        if np.count_nonzero(state[:CELLS] == player + 1) != PIECES_EACH:
            raise ValueError(f"player {player} needs {PIECES_EACH} pieces")
    state[TO_MOVE], state[PLIES], state[PLIES + 1] = to_move, plies // 100, plies % 100
    _settle(state, 1 - to_move)
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
def generate(state, player, out, neighbours, hops, targets, first_only):
    """Write ``player``'s moves (``from * cells + to``) on the board given by the tables of
    ``board_tables`` into ``out``; return their number. With ``first_only``, stop at the first
    piece that has a move."""
    cells = neighbours.shape[0]
    seen = np.zeros(cells, dtype=np.bool_)
    stack = np.empty(cells, dtype=np.int64)
    n = 0
    for origin in range(cells):
        if state[origin] == player + 1:
            n = _piece_steps(state, player, origin, out, n, neighbours, targets)
            n = _piece_hops(state, player, origin, out, n, neighbours, hops, targets, seen, stack)
            if first_only and n > 0:
                return n
    return n


@njit(inline="always")  # per piece of move generation (legal_actions, the policy's draw)
def _piece_steps(state, player, origin, out, n, neighbours, targets):
    """Write the steps of the piece on ``origin`` into ``out`` from ``out[n]``, in direction
    order (the first of its moves in the list); return the new n."""
    cells = neighbours.shape[0]
    home = targets[player, origin]
    for d in range(6):
        to = neighbours[origin, d]
        if to >= 0 and state[to] == 0 and (targets[player, to] or not home):
            out[n] = origin * cells + to
            n += 1
    return n


@njit(inline="always")  # per piece of move generation (legal_actions, the policy's draw)
def _piece_hops(state, player, origin, out, n, neighbours, hops, targets, seen, stack):
    """Write the ends of the hop chains of the piece on ``origin`` into ``out`` from ``out[n]``,
    searched depth-first with an explicit stack (``seen``, ``stack``: scratch of one entry per
    cell, ``seen`` flags of any type), the piece lifted; return the new n."""
    cells = neighbours.shape[0]
    home = targets[player, origin]
    state[origin] = 0
    seen[:] = False
    seen[origin] = True
    stack[0], depth = origin, 1
    while depth > 0:
        depth -= 1
        cell = stack[depth]
        for d in range(6):
            to = hops[cell, d]
            if (to >= 0 and state[to] == 0 and not seen[to]
                    and state[neighbours[cell, d]] != 0 and (targets[player, to] or not home)):
                seen[to] = True
                out[n] = origin * cells + to
                n += 1
                stack[depth] = to
                depth += 1
    state[origin] = player + 1
    return n


@njit(cache=True)
def legal_actions(state, out):
    """Write the legal actions into ``out`` and return their number (0 iff terminal)."""
    if state[RESULT] >= 0:
        return 0
    return generate(state, state[TO_MOVE], out, NEIGHBOURS, HOPS, TARGETS, False)


@njit(cache=True)
def _home(state, player):
    """The number of ``player``'s pieces in their target triangle."""
    count = 0
    for cell in TARGET_CELLS[player]:
        if state[cell] == player + 1:
            count += 1
    return count


@njit(cache=True)
def _occupied(state, player):
    """The number of occupied cells of ``player``'s target triangle (either player's pieces)."""
    count = 0
    for cell in TARGET_CELLS[player]:
        if state[cell] != 0:
            count += 1
    return count


@njit(inline="always")  # per move of a playout (apply_action's _settle, the policy)
def _board_masks(state, player):
    """(``player``'s pieces, all pieces) as masks (lo, hi); a branch-free pass that LLVM
    vectorises."""
    own_lo, own_hi, occupied_lo, occupied_hi = (np.uint64(0), np.uint64(0), np.uint64(0),
                                                np.uint64(0))
    for cell in range(64):
        own_lo |= np.uint64(state[cell] == player + 1) << np.uint64(cell)
        occupied_lo |= np.uint64(state[cell] != 0) << np.uint64(cell)
    for cell in range(64, CELLS):
        own_hi |= np.uint64(state[cell] == player + 1) << np.uint64(cell - 64)
        occupied_hi |= np.uint64(state[cell] != 0) << np.uint64(cell - 64)
    return own_lo, own_hi, occupied_lo, occupied_hi


@njit(cache=True)
def _can_step(player, own_lo, own_hi, occupied_lo, occupied_hi):
    """Whether some piece of ``player`` (masks of its pieces and of all) has a step (to an
    empty neighbour, not leaving its target): enough to know that ``player`` can move, without
    a search of the hops."""
    free_lo, free_hi = ~occupied_lo, ~occupied_hi & _HI_CELLS
    while own_lo | own_hi:
        if own_lo:
            origin = lowest_bit(own_lo)
            own_lo &= own_lo - np.uint64(1)
        else:
            origin = 64 + lowest_bit(own_hi)
            own_hi &= own_hi - np.uint64(1)
        lo, hi = _NEIGHBOUR_MASK[origin, 0] & free_lo, _NEIGHBOUR_MASK[origin, 1] & free_hi
        if TARGETS[player, origin]:
            lo, hi = lo & _TARGET_MASK[player, 0], hi & _TARGET_MASK[player, 1]
        if lo | hi:
            return True
    return False


@njit(inline="always")  # twice per move played (apply_action's _settle)
def _completes(player, own_lo, own_hi, occupied_lo, occupied_hi):
    """Whether ``player``'s target is full and holds at least one of its pieces (a win)."""
    target_lo, target_hi = _TARGET_MASK[player, 0], _TARGET_MASK[player, 1]
    return (popcount(occupied_lo & target_lo) + popcount(occupied_hi & target_hi) == PIECES_EACH
            and (own_lo & target_lo) | (own_hi & target_hi) != 0)


@njit(cache=True)
def _settle(state, mover):
    """Decide the game after a move of ``mover``: a completed target wins (the mover's; the
    opponent's only if the mover filled it by stepping back into its own start), the ply limit
    draws, and an opponent left without a move loses. One move fills at most one target cell,
    so at most one player completes."""
    own_lo, own_hi, occupied_lo, occupied_hi = _board_masks(state, mover)
    other_lo, other_hi = occupied_lo & ~own_lo, occupied_hi & ~own_hi
    if _completes(mover, own_lo, own_hi, occupied_lo, occupied_hi):
        state[RESULT] = mover
    elif _completes(1 - mover, other_lo, other_hi, occupied_lo, occupied_hi):
        state[RESULT] = 1 - mover
    elif np.int64(state[PLIES]) * 100 + state[PLIES + 1] >= DRAW_AFTER:
        state[RESULT] = DRAW
    elif not _can_step(1 - mover, other_lo, other_hi, occupied_lo, occupied_hi):
        probe = np.empty(CELLS, dtype=np.int64)  # room for one piece's moves
        if generate(state, 1 - mover, probe, NEIGHBOURS, HOPS, TARGETS, True) == 0:
            state[RESULT] = mover


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (a legal one) in place."""
    player = state[TO_MOVE]
    state[action % CELLS] = player + 1
    state[action // CELLS] = 0
    state[PLIES + 1] += 1
    if state[PLIES + 1] == 100:
        state[PLIES] += 1
        state[PLIES + 1] = 0
    state[TO_MOVE] = 1 - player
    _settle(state, player)


@njit(cache=True)
def quality(state):
    """q = 1 - L / 6, L = the loser's pieces in their target (0..5): seed 000 Sect. 6.1's measure
    with the framework's normaliser (DESIGN §9; the online weight a' of Eq. 10 depends on where
    q is 0, so it is not shifted); 0 for a draw (no bonus)."""
    w = state[RESULT]
    if w == DRAW:
        return 0.0
    return 1.0 - _home(state, 1 - w) / 6.0


@njit(cache=True)
def decisive_action(state, out, n, rng):
    """A winning move among ``out[:n]`` (a piece entering the last empty cell of the target),
    drawn uniformly at random (reservoir sampling); -1 when there is none."""
    player = state[TO_MOVE]
    if _occupied(state, player) != PIECES_EACH - 1:
        return -1
    chosen, seen = -1, 0
    for i in range(n):
        if TARGETS[player, out[i] % CELLS] and not TARGETS[player, out[i] // CELLS]:
            seen += 1
            if randint(rng, seen) == 0:
                chosen = out[i]
    return chosen


@njit(inline="always")  # per piece, policy playout moves with one target cell left
def _has(lo, hi, cell):
    if cell < 64:
        return (lo >> np.uint64(cell)) & np.uint64(1) != 0
    return (hi >> np.uint64(cell - 64)) & np.uint64(1) != 0


@njit(inline="always")  # per piece at every policy playout move (_reach)
def _with(lo, hi, cell):
    if cell < 64:
        return lo | np.uint64(1) << np.uint64(cell), hi
    return lo, hi | np.uint64(1) << np.uint64(cell - 64)


@njit(inline="always")  # per cell of a piece's hop closure, every policy playout move
def _landings(cell, over_lo, over_hi):
    """The cells a hop from ``cell`` over a piece of (over_lo, over_hi) lands on, free or not:
    one look-up by the pattern of its occupied neighbours, without a branch."""
    pattern = 0
    for d in range(6):
        bit = _NEIGHBOUR_BIT[cell, d]
        word = over_lo if bit < 64 else over_hi
        pattern |= np.int64((word >> (bit & np.uint64(63))) & np.uint64(1)) << d
    return _JUMPS[cell, pattern, 0], _JUMPS[cell, pattern, 1]


@njit(inline="always")  # per piece at every policy playout move
def _reach(player, origin, occupied_lo, occupied_hi):
    """The cells the piece on ``origin`` can move to, as a mask (lo, hi): its steps, and the
    closure of its hops over occupied cells (the piece lifted), within its target if it
    stands there: the ends ``_piece_steps`` and ``_piece_hops`` list, without their order."""
    free_lo, free_hi = ~occupied_lo, ~occupied_hi & _HI_CELLS
    if TARGETS[player, origin]:
        free_lo, free_hi = free_lo & _TARGET_MASK[player, 0], free_hi & _TARGET_MASK[player, 1]
    start_lo, start_hi = _with(np.uint64(0), np.uint64(0), origin)
    over_lo, over_hi = occupied_lo & ~start_lo, occupied_hi & ~start_hi
    found_lo, found_hi = _landings(origin, over_lo, over_hi)
    found_lo, found_hi = found_lo & free_lo, found_hi & free_hi
    frontier_lo, frontier_hi = found_lo, found_hi
    while frontier_lo | frontier_hi:
        if frontier_lo:
            cell = lowest_bit(frontier_lo)
            frontier_lo &= frontier_lo - np.uint64(1)
        else:
            cell = 64 + lowest_bit(frontier_hi)
            frontier_hi &= frontier_hi - np.uint64(1)
        land_lo, land_hi = _landings(cell, over_lo, over_hi)
        land_lo &= free_lo & ~found_lo
        land_hi &= free_hi & ~found_hi
        frontier_lo, frontier_hi = frontier_lo | land_lo, frontier_hi | land_hi
        found_lo, found_hi = found_lo | land_lo, found_hi | land_hi
    steps_lo = _NEIGHBOUR_MASK[origin, 0] & free_lo
    steps_hi = _NEIGHBOUR_MASK[origin, 1] & free_hi
    return steps_lo | found_lo, steps_hi | found_hi


@njit(inline="always")  # per move of a policy playout: the drawn piece's listed moves
def _nth_listed(player, origin, out, start, n, r, nearer):
    """(the move at place ``r`` among ``out[start:n]``, or -1, and what is left of r), counting
    only the moves towards the tip if ``nearer``."""
    for i in range(start, n):
        if not nearer or TIP_DISTANCE[player, out[i] % CELLS] < TIP_DISTANCE[player, origin]:
            if r == 0:
                return out[i], r
            r -= 1
    return -1, r


@njit(inline="always")  # per move of a policy playout: a piece's single step or hop
def _only(lo, hi):
    """The cell of a mask (lo, hi) of one cell."""
    return lowest_bit(lo) if lo else 64 + lowest_bit(hi)


@njit(inline="always")  # per move of a policy playout: the drawn piece's move
def _nth_piece_move(state, player, out, i, r, nearer):
    """The move at place ``r`` of piece i's moves (cell ``out[i]``, move set ``out[6 + i]``,
    ``out[12 + i]``) as ``generate`` lists them (steps, then hop chains' ends), counting only
    the moves towards the tip if ``nearer``. Its steps or hop ends that count are listed only
    if r falls among them and more than one of them counts (one is the move). ``out``
    (3 * cells slots) then holds the list, the search's stack and seen flags."""
    origin = out[i]
    lo, hi = np.uint64(out[6 + i]), np.uint64(out[12 + i])
    if nearer:
        lo, hi = lo & _NEARER_MASK[player, origin, 0], hi & _NEARER_MASK[player, origin, 1]
    steps_lo, steps_hi = lo & _NEIGHBOUR_MASK[origin, 0], hi & _NEIGHBOUR_MASK[origin, 1]
    steps = popcount(steps_lo) + popcount(steps_hi)
    if r < steps:
        if steps == 1:
            return origin * CELLS + _only(steps_lo, steps_hi)
        n = _piece_steps(state, player, origin, out, 0, NEIGHBOURS, TARGETS)
        return _nth_listed(player, origin, out, 0, n, r, nearer)[0]
    hops_lo, hops_hi = lo & ~steps_lo, hi & ~steps_hi
    if popcount(hops_lo) + popcount(hops_hi) == 1:
        return origin * CELLS + _only(hops_lo, hops_hi)
    n = _piece_hops(state, player, origin, out, 0, NEIGHBOURS, HOPS, TARGETS,
                    out[2 * CELLS: 3 * CELLS], out[CELLS: 2 * CELLS])
    return _nth_listed(player, origin, out, 0, n, r - steps, nearer)[0]


@njit(inline="always")  # per piece, up to three passes, every policy playout move
def _piece_count(out, i, player, nearer):
    """The number of moves of piece i (cell ``out[i]``, move set ``out[6 + i]``, ``out[12 + i]``),
    only those towards the tip if ``nearer``."""
    lo, hi = np.uint64(out[6 + i]), np.uint64(out[12 + i])
    if nearer:
        lo, hi = lo & _NEARER_MASK[player, out[i], 0], hi & _NEARER_MASK[player, out[i], 1]
    return popcount(lo) + popcount(hi)


@njit(cache=True)
def policy_action(state, out, rng):
    """The playout policy: a winning move whenever one exists (seed 000 Sect. 6.1), else a
    uniformly random forward move (one that brings its piece closer to the tip of its target, as
    the seed's framework prefers moves that get closer to the target), else a uniformly random
    move. Returns -1 at a terminal.

    The same move from the same random numbers as reservoir sampling down ``legal_actions``'
    list (``decisive_action``, then the forward moves) and ``out[randint(rng, n)]``, found
    without the list: each piece's move set is a mask (``_reach``), so the moves of each kind
    are counted per piece; the place drawn depends only on the count (a reservoir draws
    randint(1), ..., randint(k) whatever the moves), and only the piece holding it lists its
    moves, in order. Moves are listed by piece, so a piece's place in the list is its cell's
    order; each piece has at most one move onto the target's last empty cell."""
    if state[RESULT] >= 0:
        return -1
    player = state[TO_MOVE]
    own_lo, own_hi, occupied_lo, occupied_hi = _board_masks(state, player)
    pieces = 0  # out[i], out[6 + i], out[12 + i]: piece i's cell and its move set (lo, hi)
    while own_lo | own_hi:
        if own_lo:
            cell = lowest_bit(own_lo)
            own_lo &= own_lo - np.uint64(1)
        else:
            cell = 64 + lowest_bit(own_hi)
            own_hi &= own_hi - np.uint64(1)
        lo, hi = _reach(player, cell, occupied_lo, occupied_hi)
        out[pieces], out[6 + pieces], out[12 + pieces] = cell, np.int64(lo), np.int64(hi)
        pieces += 1
    if _occupied(state, player) == PIECES_EACH - 1:
        last = -1
        for cell in TARGET_CELLS[player]:
            if state[cell] == 0:
                last = cell
        chosen, seen = -1, 0
        for i in range(pieces):
            if not TARGETS[player, out[i]] and _has(np.uint64(out[6 + i]), np.uint64(out[12 + i]),
                                                    last):
                seen += 1
                if randint(rng, seen) == 0:
                    chosen = out[i] * CELLS + last
        if chosen >= 0:
            return chosen
    forward = 0
    for i in range(pieces):
        forward += _piece_count(out, i, player, True)
    if forward > 0:
        r = 0
        for k in range(1, forward + 1):
            if randint(rng, k) == 0:
                r = k - 1
    else:
        total = 0
        for i in range(pieces):
            total += _piece_count(out, i, player, False)
        r = randint(rng, total)
    for i in range(pieces):
        count = _piece_count(out, i, player, forward > 0)
        if r < count:
            return _nth_piece_move(state, player, out, i, r, forward > 0)
        r -= count
    return -1


def cell_name(cell: int) -> str:
    """Row letter (``a`` at the top) and place in the row from the left (1-based): ``a1``,
    ``m1``, ``d10``."""
    row = int(np.searchsorted(_ROW_STARTS, cell, side="right")) - 1
    return "abcdefghijklm"[row] + str(cell - int(_ROW_STARTS[row]) + 1)


def action_to_string(state: np.ndarray, action: int) -> str:
    """``l2-i4``: from and to."""
    return cell_name(action // CELLS) + "-" + cell_name(action % CELLS)


def render(state: np.ndarray) -> str:
    lines = []
    for row in range(len(_ROW_STARTS) - 1):
        line = [" "] * (6 * RADIUS + 1)
        for cell in range(_ROW_STARTS[row], _ROW_STARTS[row + 1]):
            q, r = COORDS[cell]
            line[2 * q + r + 3 * RADIUS] = PIECES[state[cell]]
        lines.append("abcdefghijklm"[row] + " " + "".join(line).rstrip())
    return "\n".join(lines)
