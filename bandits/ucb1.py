"""UCB1 (Auer et al. 2002; seed 001, Eq. 1 and its restarted form Eq. 6).

index_i = mean_i + c * sqrt(ln t / T_i), with t the parent's visits and T_i the arm's; an
unvisited arm has index +inf. After a threshold change, Eq. 6 puts t' = t - t_c and
T'_i = T_i - T_i(t_c) in the exploration term while the mean keeps all samples.

With the depth exponent of Kocsis & Szepesvari (2006, Sect. 3.1) the bias of a node at depth
d is c (ln t / T_i)^((D + d) / (2D + d)), "where D is the estimated game length starting from
the node, and d is the depth of the node in the tree": in a game of length L, D = L - d and
the power is L / (2L - d), the square root at the root rising to L / (L + 1) at the last
decision (``ucb1_power_value``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .batch import batch_arms


@njit(inline="always")  # per child of a selection (UCB1's index): the hot path
def ucb1_value(mean, count, parent_count, c, tables, rng):
    """One arm's index from its mean, T'_i and t' (ln terms read from ``tables``)."""
    if count <= 0:
        return np.inf
    t, n = np.uint64(parent_count), np.uint64(count)  # unsigned: no index wraparound
    return mean + c * tables.sqrt_log[t] * tables.inv_sqrt[n]


@njit(inline="always")  # per child of a selection (UCB1's core): the hot path
def ucb1_power_value(mean, count, parent_count, c, power, tables):
    """One arm's index mean + c (ln t' / T'_i)^power; ``power`` 1/2 is :func:`ucb1_value`,
    bit for bit."""
    if power == 0.5:
        return ucb1_value(mean, count, parent_count, c, tables, None)
    if count <= 0:
        return np.inf
    t, n = np.uint64(parent_count), np.uint64(count)
    return mean + c * (tables.log[t] * tables.inverse[n]) ** power


@njit(inline="always")  # per selection (at_depth's exponent)
def depth_power(depth, plies_left):
    """(D + d) / (2D + d): Kocsis & Szepesvari's exponent (Sect. 3.1) at depth d with D the
    game's length left from the node."""
    return (plies_left + depth) / (2.0 * plies_left + depth)


@njit(cache=True)
def _ucb1_batch(sums, counts, parent_counts, c, tables):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = ucb1_value(mean, counts[i], parent_counts[i], c, tables, None)
    return out


def ucb1_index(sums, counts, parent_counts, *, c: float = math.sqrt(2.0)) -> np.ndarray:
    """Batched UCB1 over arrays [n] of reward sums, visit counts and parent visit counts."""
    sums, counts, parents, tables = batch_arms(sums, counts, parent_counts)
    return _ucb1_batch(sums, counts, parents, float(c), tables)
