"""Thompson sampling (seed 001, Eq. 3 and its restarted form Eq. 8).

Each arm draws from Beta(alpha_i + 1, beta_i + 1) with alpha_i = mean_i * T'_i and
beta_i = (1 - mean_i) * T'_i (non-integer values are fine); the arm with the highest draw wins.
The draw is exact: Gamma ratio with ziggurat normals inside Marsaglia & Tsang's Gamma, Exp(1)
for the frequent shape 1 (a mean of 0 or 1), a uniform for Beta(1, 1) (see ``bandits.rng``).
Engines that only need the winning arm draw the arms without a win last
(``draw_winless_last``, Thompson's ``index_children`` hook, ``bandits.hooks``), by
:func:`thompson_challenger`, which rules most of them out without drawing their value.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .batch import batch_arms
from .hooks import INDEX, PolicyHooks, child_count, child_lost, child_mean, child_reward_sum
from .indexing import ix
from .rng import beta_given, gamma_constant, seed_state, uniform

_SNAP = 8.0 * np.finfo(np.float64).eps  # relative rounding error of mean T' (mean = 0.5 h / n)


@njit(inline="always")  # per child of a selection (two Gamma draws): the hot path
def thompson_value(mean, count, parent_count, c, tables, rng):
    """One arm's Beta draw using the kernel random state ``rng`` (t' and c are unused). When
    alpha = mean T' is a whole number k/2 of half points (always so without the restart: a
    draw scores half a win), up to the rounding of mean T' (a few units in the last place),
    the shapes are taken as exactly 1 + k/2 and T' - k/2 + 1 and their gamma constants come
    from ``tables.gamma_c``, saving a square root and a division per Gamma. (Read exactly,
    mean T' = 0.5 h (1/n) n misses the table for a quarter of the pairs (h, n), hence the
    snapping.)"""
    alpha = mean * count
    k = np.int64(2.0 * alpha + 0.5)
    if abs(2.0 * alpha - k) <= _SNAP * k and 0 <= k <= 2 * count:
        a, b = 1.0 + 0.5 * k, count - 0.5 * k + 1.0
        return beta_given(rng, a, tables.gamma_c[np.uint64(k)], b,
                          tables.gamma_c[np.uint64(2 * count - k)])
    a, b = alpha + 1.0, count - alpha + 1.0
    return beta_given(rng, a, gamma_constant(a), b, gamma_constant(b))


@njit(inline="always")  # per winless child of a selection: the hot path
def thompson_challenger(count, best, rng):
    """The draw of an arm without a win (alpha = 0, T'_i = ``count`` > 0) if it may beat
    ``best``, the highest draw of the other arms so far (-inf: none), else -inf. Its law is
    Beta(1, T'+1), drawn by inversion: X = 1 - U^(1/(T'+1)) for U uniform on (0, 1]. X > best
    only if U < (1 - best)^(T'+1) <= e^-z <= 1 / (1 + z + z^2/2 + z^3/6) with
    z = (T'+1) (best + best^2/2) (as ln(1 - x) <= -x - x^2/2), so most U are ruled out by a
    polynomial; only the rest pay the logarithm and exponential of the inversion. The arm that
    wins is the one drawing every arm's Beta would pick: the rule changes the random stream,
    not the law."""
    u = 1.0 - uniform(rng)
    shape = count + 1.0
    if best > -np.inf:
        z = shape * best * (1.0 + 0.5 * best)
        if u * (1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6.0)))) >= 1.0:
            return -np.inf
    return -math.expm1(math.log(u) / shape)


@njit(inline="always")  # per child of a selection (twice): the hot path
def _winless_count(view, k):
    """T'_i of child ``k`` if it has visits (since the snapshot) but no win, else 0."""
    return child_count(view, k) if child_reward_sum(view, k) == 0 else 0


@njit(inline="always")  # per selection: Thompson's loop over the children
def draw_winless_last(policy, view, tables, rng, values):
    """The children's draws into ``values[INDEX]`` and the highest: first those with a win,
    then those without, after the others' highest draw is known. By
    :func:`thompson_challenger` most of these are ruled out (index -inf) without drawing
    their Beta(1, T'+1); a child so ruled out could not have won, so the choice has the law of
    drawing every child's Beta (seed 001, Eq. 3)."""
    best, indices = -np.inf, values[INDEX]
    for j in range(view.b):
        k = ix(j)
        indices[k] = -np.inf
        if child_lost(view, j):
            continue
        if _winless_count(view, j) > 0:
            continue  # drawn below, once the others' best draw is known
        indices[k] = thompson_value(child_mean(view, j, tables), child_count(view, j), view.t,
                                    policy.c, tables, rng)
        best = max(best, indices[k])
    for j in range(view.b):
        if child_lost(view, j):
            continue
        count = _winless_count(view, j)
        if count > 0:
            indices[ix(j)] = thompson_challenger(count, best, rng)
            best = max(best, indices[ix(j)])
    return best


HOOKS = PolicyHooks(index_children=draw_winless_last)


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
