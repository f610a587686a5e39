"""KL-UCB (Cappe et al. 2013; seed 001, Eq. 2 and its restarted form Eq. 7).

index_i = max { q in [mean_i, 1] : T_i * kl(mean_i, q) <= ln t + c ln ln t } with the Bernoulli
divergence kl(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)); ln ln t is read as 0 while ln t < 1
so the bound stays finite. Solved by Newton's method in y = -ln(1 - q), where
kl = (1-p) y - p ln(1 - e^-y) + p ln p + (1-p) ln(1-p) is convex and increasing with slope
(q - p) / q: started from an upper bound on the root (Pinsker's q <= p + sqrt(bound/2), or
y <= (bound - p ln p - (1-p) ln(1-p)) / (1-p)), the iterates decrease monotonically onto it;
stopped when a step moves q by less than 1e-8 (accuracy well inside 1e-6). A root beyond
1 - e^-36 is returned as 1.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .tables import index_tables
from .ucb1 import _as_arms, _largest

TOLERANCE = 1e-8
_Y_MAX = 36.0  # 1 - q = e^-36 < 3e-16: q is 1 to double precision beyond it


@njit(inline="always")
def bernoulli_kl(p, q):
    """kl(p, q) for p in [0, 1], q in (0, 1)."""
    value = 0.0
    if p > 0.0:
        value += p * math.log(p / q)
    if p < 1.0:
        value += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return value


@njit(inline="always")
def klucb_bound(log_t, c):
    """Right-hand side ln t + c ln ln t of Eq. 2."""
    return log_t + c * math.log(max(log_t, 1.0))


@njit(inline="always")
def klucb_value(mean, bound, explore_count):
    """The largest q >= mean with T'_i kl(mean, q) <= bound (+inf when T'_i = 0)."""
    if explore_count <= 0:
        return np.inf
    level = bound / explore_count
    if level <= 0.0 or mean >= 1.0:
        return mean
    entropy = (mean * math.log(mean) if mean > 0.0 else 0.0) + (1.0 - mean) * math.log(1.0 - mean)
    y = (level - entropy) / (1.0 - mean)
    pinsker = mean + math.sqrt(0.5 * level)
    if pinsker < 1.0:
        y = min(y, -math.log(1.0 - pinsker))
    if y > _Y_MAX:
        if bernoulli_kl(mean, -math.expm1(-_Y_MAX)) <= level:
            return 1.0
        y = _Y_MAX
    for _ in range(60):
        q = -math.expm1(-y)
        step = (bernoulli_kl(mean, q) - level) * q / (q - mean)
        y -= step
        if step * (1.0 - q) < TOLERANCE:
            break
    return -math.expm1(-y)


@njit(inline="always")
def klucb_arm_value(mean, count, parent_count, c, tables, rng):
    """Engine-facing form: the index of one arm with T'_i = count and t' = parent_count."""
    return klucb_value(mean, klucb_bound(tables.log[parent_count], c), count)


@njit(cache=True)
def _klucb_batch(sums, counts, parent_counts, c, tables):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = klucb_arm_value(mean, counts[i], parent_counts[i], c, tables, None)
    return out


def klucb_index(sums, counts, parent_counts, *, c: float = 0.0) -> np.ndarray:
    """Batched KL-UCB over arrays [n] of reward sums, visit counts and parent visit counts."""
    sums, counts, parents = _as_arms(sums, counts, parent_counts)
    return _klucb_batch(sums, counts, parents, float(c), index_tables(_largest(counts, parents)))
