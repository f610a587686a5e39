"""Pig solitaire with two dice, compiled rules (seed 003 Sect. 4.1; DESIGN §9).

A game lasts a fixed number of turns T; the aim is the largest banked score at the end. Each
decision is ``ROLL`` or ``STOP``. Stopping banks the turn total and ends the turn. Rolling throws
two dice: no 1 adds d1 + d2 to the turn total; a single 1 loses the turn total and ends the turn;
two 1s also reset the banked score to 0 and end the turn.

State: ``int64[4]`` = (turns left, banked score, turn total, pending), pending = 1 at the chance
node between ``ROLL`` and its dice. Chance outcome o = 6 (d1 - 1) + (d2 - 1), 36 equiprobable
outcomes; 35 - o is the outcome of the dice 7 - d1, 7 - d2 (the antithetic pairing of seed 003,
Sect. 4.2), so the rank of an outcome is the outcome itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import uniform

TURNS, BANKED, TOTAL, PENDING = 0, 1, 2, 3
STATE_SIZE = 4
ROLL, STOP = 0, 1
OUTCOMES = 36
MAX_ACTIONS = OUTCOMES  # buffer size: the outcomes of a chance node are its legal "actions"
DEFAULT_TURNS = 10
ROLL_PROBABILITY = 0.8  # the default playout policy (seed 003 Sect. 4.3)
ONE_PROBABILITY = 11.0 / 36.0  # P[at least one 1], the control variate's feature


def initial_state(turns: int = DEFAULT_TURNS) -> np.ndarray:
    if turns < 1:
        raise ValueError(f"Pig needs at least one turn, not {turns}; use --turns 1 or more")
    return np.array([turns, 0, 0, 0], dtype=np.int64)


def from_values(turns: int, banked: int, total: int) -> np.ndarray:
    """The decision state with ``turns`` left (counting this one), ``banked`` and ``total``."""
    if turns < 0 or banked < 0 or total < 0 or (turns == 0 and total > 0):
        raise ValueError(f"no Pig state has turns {turns}, banked {banked}, turn total {total}")
    return np.array([turns, banked, total, 0], dtype=np.int64)


@njit(cache=True)
def dice(outcome):
    return outcome // 6 + 1, outcome % 6 + 1


@njit(cache=True)
def is_terminal(state):
    return state[TURNS] == 0


@njit(cache=True)
def n_outcomes(state):
    """36 at the chance node after ``ROLL``, else 0."""
    return OUTCOMES if state[PENDING] == 1 else 0


@njit(cache=True)
def legal_actions(state, out):
    """``ROLL, STOP`` at a decision node, the outcomes 0..35 at a chance node, none at the end."""
    if state[TURNS] == 0:
        return 0
    if state[PENDING] == 1:
        for o in range(OUTCOMES):
            out[o] = o
        return OUTCOMES
    out[0], out[1] = ROLL, STOP
    return 2


@njit(cache=True)
def apply_action(state, action):
    """``ROLL`` moves to the chance node; ``STOP`` banks the turn total and ends the turn."""
    if action == ROLL:
        state[PENDING] = 1
    else:
        state[BANKED] += state[TOTAL]
        state[TOTAL] = 0
        state[TURNS] -= 1


@njit(cache=True)
def apply_outcome(state, outcome):
    """The dice of ``outcome`` at the chance node."""
    d1, d2 = dice(outcome)
    state[PENDING] = 0
    if d1 == 1 or d2 == 1:
        if d1 == d2:
            state[BANKED] = 0
        state[TOTAL] = 0
        state[TURNS] -= 1
    else:
        state[TOTAL] += d1 + d2


@njit(cache=True)
def score(state):
    """The banked score: the final score at a terminal."""
    return float(state[BANKED])


@njit(cache=True)
def policy_action(state, out, rng):
    """The default policy: ``ROLL`` with probability 0.8, else ``STOP``; -1 at a terminal."""
    if state[TURNS] == 0:
        return -1
    return ROLL if uniform(rng) < ROLL_PROBABILITY else STOP


@njit(cache=True)
def feature(state, outcome):
    """b of seed 003's control variate (Sect. 4.2): the roll at this chance node shows a 1."""
    d1, d2 = dice(outcome)
    return d1 == 1 or d2 == 1


@njit(cache=True)
def feature_probability(state):
    """P[b | s, ROLL] = 11/36, the known expectation in Eq. 4."""
    return ONE_PROBABILITY


@njit(cache=True)
def ranked_outcome(state, rank):
    """The outcome of ``rank`` (rank and OUTCOMES - 1 - rank are antithetic, d -> 7 - d)."""
    return rank


def action_to_string(state: np.ndarray, action: int) -> str:
    if state[PENDING] == 1:
        d1, d2 = dice(action)
        return f"{d1}{d2}"
    return "roll" if action == ROLL else "stop"


def render(state: np.ndarray) -> str:
    turns, banked, total, pending = (int(v) for v in state)
    text = f"turns left {turns}, banked {banked}, turn total {total}"
    return text + (", dice to roll" if pending else "")
