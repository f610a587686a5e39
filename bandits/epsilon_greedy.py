"""Epsilon-greedy (Sutton & Barto 2018, Sect. 2.2; Auer, Cesa-Bianchi & Fischer 2002 analyse
its epsilon_n-greedy variant): at each selection, with probability epsilon a child drawn
uniformly among those not proven lost, else the child of highest mean (ties at random).

One coin per selection, not per child: :func:`explore_coin` is drawn once by the engine's
per-selection hook (``bandits.begin_selection``) and :func:`egreedy_value` turns it into
indices. On an exploring selection every child has the same index 1/2, so the engine's
uniform tie-break is the uniform draw; otherwise a child with T'_i = 0 has index +inf (tried
first, as for UCB1 and with the exploration restart of seed 001, Eqs. 6-8) and any other its
mean over all samples.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rng import uniform


@njit(inline="always")  # per selection: the coin, one uniform
def explore_coin(epsilon, rng):
    """1.0 with probability ``epsilon`` (one uniform of the kernel state ``rng``), else 0.0."""
    return 1.0 if uniform(rng) < epsilon else 0.0


@njit(inline="always")  # per child of a selection: the hot path
def egreedy_value(mean, count, explore):
    """The index under the selection's coin ``explore``: 1/2 for all when exploring, else
    +inf for an unvisited child (T'_i = 0) and the mean for the others."""
    if explore != 0.0:
        return 0.5
    if count <= 0:
        return np.inf
    return mean
