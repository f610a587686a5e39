"""Thompson sampling (seed 001, Eq. 3 and its restarted form Eq. 8).

Each arm draws from Beta(alpha_i + 1, beta_i + 1) with alpha_i = mean_i * T'_i and
beta_i = (1 - mean_i) * T'_i (non-integer values are fine); the arm with the highest draw wins.
The draw is exact: Gamma ratio with ziggurat normals inside Marsaglia & Tsang's Gamma, Exp(1)
for the frequent shape 1 (a mean of 0 or 1), a uniform for Beta(1, 1) (see ``bandits.rng``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .batch import batch_arms
from .rng import beta_given, gamma_constant, seed_state


@njit(inline="always")
def thompson_value(mean, count, parent_count, c, tables, rng):
    """One arm's Beta draw using the kernel random state ``rng`` (t' and c are unused). When
    alpha = mean T' comes out a whole number of half points (mostly so without the restart: a
    draw scores half a win), the gamma constants come from ``tables.gamma_c``, saving a square
    root and a division per Gamma (Thompson runs 1.1x faster); the draw is the same."""
    alpha = mean * count
    a, b = alpha + 1.0, count - alpha + 1.0
    k = np.int64(2.0 * alpha + 0.5)
    if 2.0 * alpha == k and 0 <= k <= 2 * count:
        c_a, c_b = tables.gamma_c[np.uint64(k)], tables.gamma_c[np.uint64(2 * count - k)]
    else:
        c_a, c_b = gamma_constant(a), gamma_constant(b)
    return beta_given(rng, a, c_a, b, c_b)


@njit(cache=True)
def _thompson_batch(sums, counts, tables, rng):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = thompson_value(mean, counts[i], 0, 0.0, tables, rng)
    return out


def thompson_index(sums, counts, parent_counts=0, *, seed: int = 0) -> np.ndarray:
    """Batched Thompson draws for arrays [n] of reward sums and counts, seeded."""
    sums, counts, _, tables = batch_arms(sums, counts, parent_counts)
    return _thompson_batch(sums, counts, tables, seed_state(np.uint64(seed)))
