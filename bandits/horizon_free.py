"""Indices with the parent's visits as horizon: MOSS and PUCT.

With X̄ the mean reward in [0, 1], n_j = T'_i, n = t' (seed 001, Eqs. 6-8) and K the number of
children:

* MOSS (Audibert & Bubeck 2009): X̄ + sqrt(max(ln(n / (K n_j)), 0) / n_j), horizon N = n;
  an unvisited arm has index +inf;
* PUCT (Silver et al. 2018; mctx ``muzero_action_selection``):
  Q_j + P_j sqrt(n) / (1 + n_j) (c_init + ln((n + c_base + 1) / c_base)), P_j = 1 / K or a
  guided search's prior (``mcts.synthetic.guidance``).
  Q_j is the child's mean as it is (``qtransform`` raw, the default), an unvisited child's
  1/2, the draw (AlphaZero's Q = 0 on its [-1, 1] scale); or, as mctx uses it by default
  (``qtransform_by_parent_and_siblings``), the mean rescaled onto the range of the parent's
  value V and its visited children's means: Q_j = (X̄_j - lo) / max(hi - lo, 1e-8) with
  lo = min(V, min X̄), hi = max(V, max X̄), an unvisited child's 0 (the range's bottom).
  The lab's V is the parent's mean reward for its mover over its children's visits, and in a
  guided search over its own first evaluation too, as mctx's ``node_values``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(inline="always")  # per child of a selection (MOSS's index): the hot path
def moss_value(mean, count, parent_count, arms, tables):
    """MOSS's index, ln(n / (K n_j)) = ln n - ln n_j - ln K and 1/n_j read from ``tables``
    (no logarithm but ln K, a constant of the kernel); a child with n <= K n_j has no bonus."""
    if count <= 0:
        return np.inf
    if parent_count <= arms * count:
        return mean
    t, n = np.uint64(parent_count), np.uint64(count)
    return mean + math.sqrt((tables.log[t] - tables.log[n] - math.log(arms)) * tables.inverse[n])


RAW, BY_PARENT_AND_SIBLINGS = 0, 1  # PUCT's Q transforms
_MIN_RANGE = 1e-8  # mctx's epsilon: a range narrower than this is widened to it


@njit(inline="always")  # per child of a selection (PUCT's Q): the hot path
def puct_q(mean, count, qtransform, low, width):
    """PUCT's Q of a child: raw, its mean (1/2 unvisited); by parent and siblings, its mean
    rescaled onto the selection's range [low, low + width] (0 unvisited)."""
    if qtransform == RAW:
        return mean if count > 0 else 0.5
    return (mean - low) / width if count > 0 else 0.0


@njit(inline="always")  # per selection (PUCT's range of Q, with_q_range)
def puct_range(parent_value, low_mean, high_mean):
    """(lo, hi - lo) of the Q transform by parent and siblings, from the parent's value and the
    lowest and highest means of its visited children (+inf and -inf when none is)."""
    low, high = min(parent_value, low_mean), max(parent_value, high_mean)
    return low, max(high - low, _MIN_RANGE)


@njit(inline="always")  # per child of a selection (PUCT's score): the hot path
def puct_value(q, count, parent_count, prior, c_init, c_base):
    """PUCT's score of a child of Q value ``q`` and prior P (1/K: uniform)."""
    scale = c_init + math.log((parent_count + c_base + 1.0) / c_base)
    return q + math.sqrt(parent_count) * prior / (1.0 + count) * scale
