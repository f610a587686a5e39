"""Thompson sampling (seed 001, Eq. 3 and its restarted form Eq. 8).

Each arm draws from Beta(alpha_i + 1, beta_i + 1) with alpha_i = mean_i * T'_i and
beta_i = (1 - mean_i) * T'_i (non-integer values are fine); the arm with the highest draw wins.
The draw is exact: Gamma ratio with ziggurat normals inside Marsaglia & Tsang's Gamma, Exp(1)
for the frequent shape 1 (a mean of 0 or 1), a uniform for Beta(1, 1) (see ``bandits.rng``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rng import beta, seed_state
from .tables import index_tables
from .ucb1 import _as_arms


@njit(inline="always")
def thompson_value(mean, count, parent_count, c, tables, rng):
    """One arm's Beta draw using the kernel random state ``rng`` (t' and c are unused)."""
    alpha = mean * count
    return beta(rng, alpha + 1.0, count - alpha + 1.0)


@njit(cache=True)
def _thompson_batch(sums, counts, tables, rng):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = thompson_value(mean, counts[i], 0, 0.0, tables, rng)
    return out


def thompson_index(sums, counts, parent_counts=0, *, seed: int = 0) -> np.ndarray:
    """Batched Thompson draws for arrays [n] of reward sums and counts, seeded."""
    sums, counts, _ = _as_arms(sums, counts, parent_counts)
    tables = index_tables(int(counts.max()) if counts.size else 0)
    return _thompson_batch(sums, counts, tables, seed_state(np.uint64(seed)))
