"""UCB1 (Auer et al. 2002; seed 001, Eq. 1 and its restarted form Eq. 6).

index_i = mean_i + c * sqrt(ln t / T_i), with t the parent's visits and T_i the arm's; an
unvisited arm has index +inf. After a threshold change, Eq. 6 puts t' = t - t_c and
T'_i = T_i - T_i(t_c) in the exploration term while the mean keeps all samples.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .tables import index_tables


@njit(inline="always")
def ucb1_value(mean, count, parent_count, c, tables, rng):
    """One arm's index from its mean, T'_i and t' (ln terms read from ``tables``)."""
    if count <= 0:
        return np.inf
    t, n = np.uint64(parent_count), np.uint64(count)  # unsigned: no index wraparound
    return mean + c * tables.sqrt_log[t] * tables.inv_sqrt[n]


@njit(cache=True)
def _ucb1_batch(sums, counts, parent_counts, c, tables):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = ucb1_value(mean, counts[i], parent_counts[i], c, tables, None)
    return out


def ucb1_index(sums, counts, parent_counts, *, c: float = math.sqrt(2.0)) -> np.ndarray:
    """Batched UCB1 over arrays [n] of reward sums, visit counts and parent visit counts."""
    sums, counts, parents = _as_arms(sums, counts, parent_counts)
    return _ucb1_batch(sums, counts, parents, float(c), index_tables(_largest(counts, parents)))


def _as_arms(sums, counts, parent_counts):
    counts = np.asarray(counts, dtype=np.int64)
    parents = np.broadcast_to(np.asarray(parent_counts, dtype=np.int64), counts.shape)
    return np.asarray(sums, dtype=np.float64), counts, np.ascontiguousarray(parents)


def _largest(*arrays) -> int:
    return int(max((a.max() if a.size else 0) for a in arrays))
