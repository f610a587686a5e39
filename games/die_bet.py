"""Die bet: a one-decision MDP with known values, the depth-1 oracle for stochastic search.

One decision, then one die d: ``LOW`` scores d (value 3.5), ``HIGH`` scores 2 d - 3 (value 4).
State ``int64[3]`` = (stage, action, points): stage 0 decision, 1 chance node, 2 end. Outcome
o = d - 1; 5 - o is the die 7 - d (antithetic). Control-variate feature: the die shows a 6
(probability 1/6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

STAGE, ACTION, POINTS = 0, 1, 2
LOW, HIGH = 0, 1
OUTCOMES = 6
MAX_ACTIONS = OUTCOMES
VALUES = (3.5, 4.0)  # exact expected score of LOW and HIGH


def initial_state() -> np.ndarray:
    return np.zeros(3, dtype=np.int64)


@njit(cache=True)
def is_terminal(state):
    return state[STAGE] == 2


@njit(cache=True)
def n_outcomes(state):
    return OUTCOMES if state[STAGE] == 1 else 0


@njit(cache=True)
def legal_actions(state, out):
    if state[STAGE] == 2:
        return 0
    n = 2 if state[STAGE] == 0 else OUTCOMES
    for i in range(n):
        out[i] = i
    return n


@njit(cache=True)
def apply_action(state, action):
    state[STAGE], state[ACTION] = 1, action


@njit(cache=True)
def apply_outcome(state, outcome):
    d = outcome + 1
    state[POINTS] = d if state[ACTION] == LOW else 2 * d - 3
    state[STAGE] = 2


@njit(cache=True)
def score(state):
    return float(state[POINTS])


@njit(cache=True)
def policy_action(state, out, rng):
    return -1 if state[STAGE] == 2 else randint(rng, 2)


@njit(cache=True)
def feature(state, outcome):
    return outcome == 5


@njit(cache=True)
def feature_probability(state):
    return 1.0 / 6.0


@njit(cache=True)
def ranked_outcome(state, rank):
    return rank


def action_to_string(state: np.ndarray, action: int) -> str:
    if state[STAGE] == 1:
        return str(action + 1)
    return "low" if action == LOW else "high"


def render(state: np.ndarray) -> str:
    stage = ("choose low or high", "die to roll", "done")[int(state[STAGE])]
    return f"die bet: {stage}, points {int(state[POINTS])}"
