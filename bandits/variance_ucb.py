"""Indices that read the arm's second moment: UCB1-Tuned and UCB-V.

With X̄ the mean reward, m2 the mean squared reward (all samples), n_j = T'_i and n = t'
(seed 001, Eqs. 6-8, as for UCB1), rewards in [0, 1] (range b_r = 1):

* UCB1-Tuned (Auer, Cesa-Bianchi & Fischer 2002, Sect. 4):
  X̄ + sqrt((ln n / n_j) min(1/4, V_j)), V_j = m2 - X̄² + sqrt(2 ln n / n_j);
* UCB-V (Audibert, Munos & Szepesvári 2009, Eq. 1):
  X̄ + sqrt(2 V̂ E / n_j) + c 3 b_r E / n_j, E = ζ ln n, V̂ = m2 - X̄² (defaults ζ = 1.2, c = 1).

An unvisited arm has index +inf.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(inline="always")  # per child of a selection: the hot path
def ucb1tuned_value(mean, square_mean, count, parent_count, tables):
    """UCB1-Tuned's index (ln n and 1/n_j read from ``tables``)."""
    if count <= 0:
        return np.inf
    log_ratio = tables.log[np.uint64(parent_count)] * tables.inverse[np.uint64(count)]
    variance = max(square_mean - mean * mean, 0.0) + math.sqrt(2.0 * log_ratio)
    return mean + math.sqrt(log_ratio * min(0.25, variance))


@njit(inline="always")  # per child of a selection: the hot path
def ucbv_value(mean, square_mean, count, parent_count, zeta, c, tables):
    """UCB-V's index (ln n and 1/n_j read from ``tables``)."""
    if count <= 0:
        return np.inf
    exploration = zeta * tables.log[np.uint64(parent_count)] * tables.inverse[np.uint64(count)]
    variance = max(square_mean - mean * mean, 0.0)
    return mean + math.sqrt(2.0 * variance * exploration) + 3.0 * c * exploration
