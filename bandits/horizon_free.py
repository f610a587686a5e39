"""Indices with the parent's visits as horizon: MOSS and PUCT with a uniform prior.

With X̄ the mean reward in [0, 1], n_j = T'_i, n = t' (seed 001, Eqs. 6-8) and K the number of
children:

* MOSS (Audibert & Bubeck 2009): X̄ + sqrt(max(ln(n / (K n_j)), 0) / n_j), horizon N = n;
  an unvisited arm has index +inf;
* PUCT (Silver et al. 2018; mctx ``muzero_action_selection``):
  Q_j + P_j sqrt(n) / (1 + n_j) (c_init + ln((n + c_base + 1) / c_base)) with P_j = 1 / K.
  An unvisited child has Q = 1/2, the draw: AlphaZero's Q = 0 on its [-1, 1] scale.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(inline="always")
def moss_value(mean, count, parent_count, arms, tables):
    """MOSS's index, ln(n / (K n_j)) = ln n - ln n_j - ln K and 1/n_j read from ``tables``
    (no logarithm but ln K, a constant of the kernel); a child with n <= K n_j has no bonus."""
    if count <= 0:
        return np.inf
    if parent_count <= arms * count:
        return mean
    t, n = np.uint64(parent_count), np.uint64(count)
    return mean + math.sqrt((tables.log[t] - tables.log[n] - math.log(arms)) * tables.inverse[n])


@njit(inline="always")
def puct_value(mean, count, parent_count, arms, c_init, c_base):
    """PUCT's score with the uniform prior 1/K and Q = 1/2 for an unvisited child."""
    q = mean if count > 0 else 0.5
    scale = c_init + math.log((parent_count + c_base + 1.0) / c_base)
    return q + math.sqrt(parent_count) / (arms * (1.0 + count)) * scale
