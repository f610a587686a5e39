"""Can't Stop solitaire, compiled rules (seed 003 Sect. 4.1; DESIGN §9).

Columns 2..12 have heights 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3. A turn: roll 4 dice, split them
into two pairs and advance the neutral markers of the pair sums' columns (both sums when both
can be played, else one); at most 3 columns get a neutral marker per turn and a finished column
is closed. Then roll again or stop (stopping keeps the turn's progress). A roll with no legal
pairing loses the turn's progress and ends the turn. The game lasts a fixed number of turns.

Score: sum_c 100 progress_c / height_c, so a finished column is worth 100 and the board 1100
(the paper does not say how it scores; this is our choice). Seed 003's constants do not fit
one score scale: its UCB constant 5500 would be about 100 standard deviations of a 5-turn
final score on ours (sd about 55), so UCT explores nearly uniformly, while its control-variate
constant 6.0 would be less than a tenth of what a bust costs here. Both are therefore set by
measurement on our scale (``experiments.papers.veness``, 5 turns): UCT scores the same for c
from 100 to 5500 at 16 and 64 simulations, and at 256 simulations 283, 290, 286 and 279 (+-5,
600 games each) for c = 100, 300, 1100 and 5500, against 236 for c = 30; so the registry's c is
300 (about 6 standard deviations, as Pig's 100 is about 4). The offline control-variate constant
-Cov[X, Y] / Var[Y] of default-policy playouts is 77 (a bust costs about 77 points; the bust
count explains 73% of a playout's variance). It matters: UCT+CV scores 260 and 288 at 16 and
64 simulations with 77, but 228 and 261, base UCT's 225 and 261, with seed 003's 6.0 (500
games each; from T = 50 on the online estimate takes over either way).

State ``int64[30]``: turns left, phase (0 roll/stop, 1 dice to roll, 2 pairing to choose),
markers used this turn, a column finished by the last pairing, dice [4], progress [11]
(permanent), turn progress [11] (neutral markers' heights; 0 = none). Actions: ``ROLL``,
``STOP`` and 2 + 3 p + v for pairing p (dice 01|23, 02|13, 03|12), v = 0 both sums, 1 first,
2 second. Outcome o in 0..1295: die i = (o // 6^i) % 6 + 1. Control-variate feature (seed 003
Sect. 4.2): the roll has no legal pairing.

Antithetic ranking (seed 003 Sect. 4.2: favourable events get low indexes): an outcome's luck
is the value of its best pairing, max over the three pairings of the points per step,
100 / height, summed over the pairing's sums that the columns still playable could take (0 for
a bust). Outcomes are ranked by decreasing luck, ties by their dice multiset (numbered by its
smallest outcome) and then by outcome. Luck depends on the state only through the set of
playable columns and is the same for the permutations of one multiset of dice, so two tables
(2048 playable sets x 126 multisets: ``_ORDER`` the multisets in rank order, ``_ENDS`` their
last rank + 1) hold every ranking; ``ranked_outcome`` bisects one row (about 20 ns) instead of
sorting the 1296 outcomes at every chance event (about 11 us). Antithetic pairs of
default-policy playouts (200 from each of 300 sampled states) correlate by -0.15 under this
ranking, -0.10 under the former one (the number of playable pair sums), 0.00 under a random one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint, uniform

TURNS, PHASE, USED, FINISHED, DICE, PROGRESS, TEMP = 0, 1, 2, 3, 4, 8, 19
STATE_SIZE = 30
HEIGHTS = np.array([3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3], dtype=np.int64)
ROLL, STOP = 0, 1
OUTCOMES = 1296
MAX_ACTIONS = OUTCOMES
DEFAULT_TURNS = 20
REROLL_PROBABILITY = 0.85
_PAIRS = np.array([[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]], dtype=np.int64)


def _outcome_sums() -> np.ndarray:
    """int64 [1296, 6]: the pair sums of every outcome, pairing by pairing (columns 0..10)."""
    o = np.arange(OUTCOMES)
    dice = np.stack([(o // 6**i) % 6 + 1 for i in range(4)], axis=1)
    return np.concatenate([dice[:, p[:2]].sum(1, keepdims=True) for p in _PAIRS]
                          + [dice[:, p[2:]].sum(1, keepdims=True) for p in _PAIRS], axis=1) - 2


_SUMS = _outcome_sums()
_MASKS = np.bitwise_or.reduce(1 << _SUMS, axis=1)  # int64 [1296]: columns an outcome touches
_BUST = np.array([np.mean((_MASKS & s) == 0) for s in range(2048)])  # P[no pairing | playable s]
_STEP_POINTS = 45045 // HEIGHTS  # 100 / height in units of 100 / 45045 (exact integers)


def _dice_classes() -> tuple[np.ndarray, np.ndarray]:
    """The 126 multisets of four dice, numbered by their smallest outcome: int64 [1296] the
    outcomes grouped by multiset (ascending within one), int64 [127] where each group starts."""
    o = np.arange(OUTCOMES)
    dice = np.sort(np.stack([(o // 6**i) % 6 for i in range(4)], axis=1), axis=1)
    code = dice @ 6 ** np.arange(4)
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    number = np.argsort(np.argsort(first))[inverse]  # multiset number of every outcome
    members = np.argsort(number, kind="stable")
    return members, np.searchsorted(number[members], np.arange(first.size + 1))


def _luck(playable: np.ndarray, outcomes: np.ndarray) -> np.ndarray:
    """int64 [masks, outcomes]: the points of the best pairing when the columns in ``playable``
    (bit sets) can take a step, 0 for a bust (the ranking key, larger is luckier)."""
    open_ = (playable[:, None, None] >> _SUMS[outcomes][None]) & 1  # [masks, outcomes, 6]
    points = open_ * _STEP_POINTS[_SUMS[outcomes]][None]
    return (points[..., :3] + points[..., 3:]).max(axis=2)


_MEMBERS, _STARTS = _dice_classes()
_ORDER = np.argsort(-_luck(np.arange(2048), _MEMBERS[_STARTS[:-1]]), axis=1,
                    kind="stable").astype(np.uint8)  # [2048, 126]: multisets, luckiest first
_ENDS = np.cumsum(np.diff(_STARTS)[_ORDER], axis=1).astype(np.int16)  # [2048, 126]
# (each table stays below numba's 1 MB limit for constant arrays in cached functions)


def initial_state(turns: int = DEFAULT_TURNS) -> np.ndarray:
    if turns < 1:
        raise ValueError(f"Can't Stop needs at least one turn, not {turns}")
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[TURNS] = turns
    return state


@njit(cache=True)
def _height(state, c):
    return state[TEMP + c] if state[TEMP + c] > 0 else state[PROGRESS + c]


@njit(cache=True)
def playable(state):
    """Bit set of the columns a single sum could advance now."""
    mask = 0
    for c in range(11):
        if _height(state, c) >= HEIGHTS[c]:
            continue
        if state[TEMP + c] > 0 or state[USED] < 3:
            mask |= 1 << c
    return mask


@njit(cache=True)
def _can_play(state, a, b):
    """Can the columns a and b (b = -1: a alone) both advance by one?"""
    if b < 0:
        return (playable(state) >> a) & 1 == 1
    new = 0
    if state[TEMP + a] == 0:
        new += 1
    if state[TEMP + b] == 0 and b != a:
        new += 1
    if state[USED] + new > 3:
        return False
    room = 2 if a == b else 1
    return _height(state, a) + room <= HEIGHTS[a] and _height(state, b) + 1 <= HEIGHTS[b]


@njit(cache=True)
def _pair_columns(state, action):
    p, v = (action - 2) // 3, (action - 2) % 3
    a = state[DICE + _PAIRS[p, 0]] + state[DICE + _PAIRS[p, 1]] - 2
    b = state[DICE + _PAIRS[p, 2]] + state[DICE + _PAIRS[p, 3]] - 2
    if v == 0:
        return a, b
    return (a, -1) if v == 1 else (b, -1)


@njit(cache=True)
def legal_actions(state, out):
    if state[TURNS] == 0:
        return 0
    if state[PHASE] == 1:
        for o in range(OUTCOMES):
            out[o] = o
        return OUTCOMES
    if state[PHASE] == 0:
        out[0] = ROLL
        if state[USED] == 0:
            return 1
        out[1] = STOP
        return 2
    n = 0
    for p in range(3):
        a, b = _pair_columns(state, 2 + 3 * p)
        both = _can_play(state, a, b)
        for v in range(3):
            action = 2 + 3 * p + v
            a, b = _pair_columns(state, action)
            if (v == 0) != both or not _can_play(state, a, b):
                continue
            lo, hi = (a, b) if a <= b else (b, a)
            seen = False
            for i in range(n):
                a2, b2 = _pair_columns(state, out[i])
                lo2, hi2 = (a2, b2) if a2 <= b2 else (b2, a2)
                seen = seen or (lo2 == lo and hi2 == hi)
            if not seen:
                out[n] = action
                n += 1
    return n


@njit(cache=True)
def n_outcomes(state):
    return OUTCOMES if state[PHASE] == 1 else 0


@njit(cache=True)
def _end_turn(state, keep):
    for c in range(11):
        if keep and state[TEMP + c] > 0:
            state[PROGRESS + c] = state[TEMP + c]
        state[TEMP + c] = 0
    state[USED] = state[FINISHED] = state[PHASE] = 0
    state[TURNS] -= 1


@njit(cache=True)
def apply_action(state, action):
    if action == ROLL:
        state[PHASE] = 1
    elif action == STOP:
        _end_turn(state, True)
    else:
        a, b = _pair_columns(state, action)
        state[FINISHED] = 0
        for c in (a, b):
            if c < 0:
                continue
            if state[TEMP + c] == 0:
                state[TEMP + c] = state[PROGRESS + c]
                state[USED] += 1
            state[TEMP + c] += 1
            if state[TEMP + c] == HEIGHTS[c]:
                state[FINISHED] = 1
        state[PHASE] = 0


@njit(cache=True)
def apply_outcome(state, outcome):
    """Show the dice; a roll with no legal pairing ends the turn and loses its progress."""
    for i in range(4):
        state[DICE + i] = (outcome // 6**i) % 6 + 1
    if _MASKS[outcome] & playable(state) == 0:
        _end_turn(state, False)
    else:
        state[PHASE] = 2


@njit(cache=True)
def is_terminal(state):
    return state[TURNS] == 0


@njit(cache=True)
def score(state):
    total = 0.0
    for c in range(11):
        total += 100.0 * state[PROGRESS + c] / HEIGHTS[c]
    return total


@njit(cache=True)
def policy_action(state, out, rng):
    """Seed 003 Sect. 4.3: stop when a column was just finished, else re-roll with p 0.85;
    pairings uniformly at random; -1 at a terminal."""
    if state[TURNS] == 0:
        return -1
    if state[PHASE] == 2:
        n = legal_actions(state, out)
        return out[randint(rng, n)]
    if state[USED] == 0:
        return ROLL
    if state[FINISHED] == 1:
        return STOP
    return ROLL if uniform(rng) < REROLL_PROBABILITY else STOP


@njit(cache=True)
def feature(state, outcome):
    """b of seed 003 Sect. 4.2: the roll has no legal pairing."""
    return _MASKS[outcome] & playable(state) == 0


@njit(cache=True)
def feature_probability(state):
    return _BUST[playable(state)]


@njit(cache=True)
def ranked_outcome(state, rank):
    """The outcome of ``rank`` in the luck ranking of the module docstring: the multisets of
    dice in their order for the playable columns, each spanning as many ranks as it has
    outcomes (found by bisection on their end ranks)."""
    columns = playable(state)
    i = np.searchsorted(_ENDS[columns], rank, side="right")
    group = _ORDER[columns, i]
    return _MEMBERS[_STARTS[group + 1] - (_ENDS[columns, i] - rank)]


def action_to_string(state: np.ndarray, action: int) -> str:
    if state[PHASE] == 1:
        return "".join(str((action // 6**i) % 6 + 1) for i in range(4))
    if action in (ROLL, STOP):
        return "roll" if action == ROLL else "stop"
    a, b = _pair_columns(state, action)
    return f"{a + 2}" if b < 0 else f"{a + 2}+{b + 2}"


def render(state: np.ndarray) -> str:
    columns = " ".join(f"{c + 2}:{state[PROGRESS + c]}/{HEIGHTS[c]}"
                       + (f"(+{state[TEMP + c] - state[PROGRESS + c]})" if state[TEMP + c] else "")
                       for c in range(11))
    phase = ("roll or stop", "dice to roll", f"dice {state[DICE:DICE + 4].tolist()}")
    return f"turns left {state[TURNS]}, {phase[int(state[PHASE])]}: {columns}"
