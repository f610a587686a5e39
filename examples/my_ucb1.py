"""UCB1 under another name: mean + c sqrt(ln t / T_i), unvisited children first
(Auer, Cesa-Bianchi & Fischer 2002). Run it with
PYTHONPATH=examples mctslab failure-rate --tree "constant(1,3)" --policy my_ucb1:policy"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import Policy


class MyUCB1(NamedTuple):
    c: float = math.sqrt(2.0)  # the exploration constant
    raw_rewards = True  # rewards on the outcome's scale, as UCB1 (shaping, games)


@njit(inline="always")  # per child of every selection: the hot path
def index(policy, arm, tables, rng):
    """The index of one child; ``tables`` hold sqrt(ln t) and 1 / sqrt(T) by count."""
    if arm.visits == 0:
        return np.inf
    return arm.mean + policy.c * tables.sqrt_log[arm.parent_visits] * tables.inv_sqrt[arm.visits]


policy = Policy("my_ucb1", MyUCB1, index, description="UCB1, a user's copy",
                citation="Auer, Cesa-Bianchi & Fischer 2002")
