"""Can't Stop solitaire, compiled rules (seed 003 Sect. 4.1; DESIGN §9).

Columns 2..12 have heights 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3. A turn: roll 4 dice, split them
into two pairs and advance the neutral markers of the pair sums' columns (both sums when both
can be played, else one); at most 3 columns get a neutral marker per turn and a finished column
is closed. Then roll again or stop (stopping keeps the turn's progress). A roll with no legal
pairing loses the turn's progress and ends the turn. The game lasts a fixed number of turns;
the score is sum_c 100 progress_c / height_c (100 a finished column; the paper does not say
how it scores, so this is our choice).

State ``int64[28]``: turns left, phase (0 roll/stop, 1 dice to roll, 2 pairing to choose),
markers used this turn, a column finished by the last pairing, dice [4], progress [11]
(permanent), turn progress [11] (neutral markers; 0 = none). Actions: ``ROLL``, ``STOP`` and
2 + 3 p + v for pairing p (dice 01|23, 02|13, 03|12), v = 0 both sums, 1 first, 2 second.
Outcome o in 0..1295: die i = (o // 6^i) % 6 + 1. Control-variate feature: no legal pairing.
Antithetic ranking: outcomes by the number of their six pair sums that can be played (more is
luckier), ties by outcome number.
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
def _playable(state):
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
        return (_playable(state) >> a) & 1 == 1
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
    if _MASKS[outcome] & _playable(state) == 0:
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
    return _MASKS[outcome] & _playable(state) == 0


@njit(cache=True)
def feature_probability(state):
    return _BUST[_playable(state)]


@njit(cache=True)
def ranked_outcome(state, rank):
    """The outcome of ``rank`` when outcomes are sorted by playable pair sums (descending)."""
    playable = _playable(state)
    keys = np.empty(OUTCOMES, dtype=np.int64)
    for o in range(OUTCOMES):
        count = 0
        for j in range(6):
            count += (playable >> _SUMS[o, j]) & 1
        keys[o] = (6 - count) * OUTCOMES + o
    return np.argsort(keys)[rank]


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
