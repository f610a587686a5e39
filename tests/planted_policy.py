"""A plug-in policy whose parameter x has a planted best value: UCB1 (Auer, Cesa-Bianchi &
Fischer 2002) with the exploration constant C + SLOPE |ln(x / X_BEST)|. On Constant(1,5) (b = 4,
d = 6) at 1,024 playouts UCB1's failure rate grows with c above about 0.1 (0.002 below, 0.08 at
0.44, 0.73 at 1: 1,000 runs), so x = X_BEST is best by construction and the failure grows on
either side of it. The tuner's tests find it (tests/test_tune.py)."""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import Policy
from specs import above

X_BEST, C, SLOPE = 2.0, 0.1, 0.5


class Planted(NamedTuple):
    x: float = 1.0


@njit(inline="always")  # per child of every selection: the hot path, as examples/my_ucb1.py
def index(policy, arm, tables, rng):
    if arm.visits == 0:
        return np.inf
    c = C + SLOPE * abs(math.log(policy.x / X_BEST))
    return arm.mean + c * tables.sqrt_log[arm.parent_visits] * tables.inv_sqrt[arm.visits]


policy = Policy("planted", Planted, index, description="UCB1 with c growing away from x = 2",
                citation="Auer, Cesa-Bianchi & Fischer 2002", domains={"x": above(0)})
