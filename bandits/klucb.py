"""KL-UCB (Cappe et al. 2013; seed 001, Eq. 2 and its restarted form Eq. 7).

index_i = max { q in [mean_i, 1] : T_i * kl(mean_i, q) <= ln t + c ln ln t } with the Bernoulli
divergence kl(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)); ln ln t is read as 0 while ln t < 1
so the bound stays finite. With L = bound / T_i the root is closed-form for p = 0
(q = 1 - e^-L). Otherwise, with r = L / (p (1-p)):

* r <= 1 (most visited arms): a series. With v = p (1-p) and q = p + v u,
  kl(p, q) / v = sum_k>=2 [p^(k-1) + (-1)^k (1-p)^(k-1)] u^k / k; reverting that series
  in e = sqrt(2 r) gives u = e + a_2 e^2 + ... + a_12 e^12 + O(e^13), each a_k a polynomial
  in v (times 2p - 1 for even k). Truncated there, or after e^9 for r <= 1/4, it is within
  4e-8 of the root for r <= 1 and 2e-9 for r <= 1/4 (checked on a dense grid of p and r in
  tests/test_bandits.py), at no logarithm (a Halley step costs two);
* r > 1: Halley's method in y = -ln(1 - q), where kl = (1-p) y - p ln(1 - e^-y) + p ln p +
  (1-p) ln(1-p) is convex and increasing, from the upper bound
  y <= (L - p ln p - (1-p) ln(1-p)) / (1-p) on the root (Pinsker's, q <= p + sqrt(L/2), cost
  a logarithm and saved 0.02 steps on the roots of a search), stopped once a step moves q by
  less than 1e-6 (the error after a Halley step is cubic in the step). A root beyond
  1 - e^-36 is returned as 1.
Each Halley step costs two logarithms (one exp and one log in y).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .batch import batch_arms
from .fused import fma, horner

TOLERANCE = 1e-6
_SERIES_MAX = 1.0  # r up to which the series; beyond, the iteration in y
_SHORT_SERIES = 0.25  # r up to which the series stops after e^9
_Y_MAX = 36.0  # 1 - q = e^-36 < 3e-16: q is 1 to double precision beyond it


@njit(inline="always")  # small; per far KL-UCB root, in its rare y > 36 branch
def bernoulli_kl(p, q):
    """kl(p, q) for p in [0, 1], q in (0, 1)."""
    value = 0.0
    if p > 0.0:
        value += p * math.log(p / q)
    if p < 1.0:
        value += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return value


@njit  # exported, no compiled caller: nothing to inline into
def klucb_bound(log_t, c):
    """Right-hand side ln t + c ln ln t of Eq. 2 (``IndexTables.log_log`` caches ln ln t)."""
    return log_t + c * math.log(max(log_t, 1.0))


# The series' coefficients a_k as polynomials in v, lowest power first (a_k / w for even k)
_A3 = (1 / 36, -13 / 36)
_A4 = (1 / 270, 23 / 270)
_A5 = (1 / 4320, -13 / 2160, 313 / 4320)
_A6 = (-1 / 17010, -1 / 1701, -241 / 17010)
_A7 = (-139 / 5443200, 79 / 1814400, 313 / 362880, -56201 / 5443200)
_A8 = (-1 / 204120, 1 / 68040, 1 / 13608, 361 / 204120)
_A9 = (-571 / 2351462400, 2239 / 587865600, -2179 / 391910400, -56201 / 587865600,
       2697077 / 2351462400)
_A10 = (281 / 1515591000, 1 / 37889775, -13 / 9021375, -799 / 108256500,
        -268183 / 1515591000)
_A11 = (163879 / 2172751257600, -771431 / 2172751257600, 31547 / 1086375628800,
        15803 / 31039303680, 2697077 / 310393036800, -226718347 / 2172751257600)
_A12 = (5221 / 354648294000, -23753 / 354648294000, 4733 / 177324147000,
        3049 / 25332021000, 1247 / 2026561680, 5232179 / 354648294000)


@njit(inline="always")  # per KL-UCB root solved (most roots): the hot path
def _series_root(p, ratio):
    """The root for r = ``ratio`` <= 1 by the reverted series of the module docstring:
    q = p + v e (1 + a_2 e + ... + a_12 e^11), e = sqrt(2 r), v = p (1-p), without the terms
    beyond e^9 when r <= 1/4; the a_k are exact (sympy's series reversion), w = 2p - 1.
    Evaluated by fused multiply-adds: half the arithmetic of separate ones, each rounded once."""
    v, w, e = p * (1.0 - p), 2.0 * p - 1.0, math.sqrt(2.0 * ratio)
    s = 0.0
    if ratio > _SHORT_SERIES:
        s = horner(e, (w * horner(v, _A10), horner(v, _A11), w * horner(v, _A12)))
    s = horner(e, (-w / 3, horner(v, _A3), w * horner(v, _A4), horner(v, _A5),
                   w * horner(v, _A6), horner(v, _A7), w * horner(v, _A8), horner(v, _A9), s))
    return p + v * e * fma(e, s, 1.0)


@njit(cache=True, error_model="numpy")
def _far_root(p, level):
    """The root for r > 1 by Halley's method in y = -ln(1 - q) (see the module docstring):
    f(y) = kl - L, f'(y) = (q-p) / q, f''(y) = p (1-q) / q^2."""
    entropy = p * math.log(p) + (1.0 - p) * math.log(1.0 - p)
    y = (level - entropy) / (1.0 - p)
    if y > _Y_MAX:
        if bernoulli_kl(p, -math.expm1(-_Y_MAX)) <= level:
            return 1.0
        y = _Y_MAX
    for _ in range(60):
        r = math.exp(-y)
        q = 1.0 - r
        f = (1.0 - p) * y - p * math.log(q) + entropy - level
        d1 = (q - p) / q
        step = 2.0 * f * d1 / (2.0 * d1 * d1 - f * p * r / (q * q))
        y -= step
        if abs(step) * r < TOLERANCE:
            break
    # 1 - e^-y = 1 - r e^step, e^step to third order: off by r step^4 / 24 < 1e-6 step^3 / 24
    return 1.0 - r * (1.0 + step * (1.0 + step * (0.5 + step * (1.0 / 6.0))))


@njit  # exported, no compiled caller: nothing to inline into
def klucb_value(mean, bound, explore_count):
    """The largest q >= mean with T'_i kl(mean, q) <= bound (+inf when T'_i = 0)."""
    if explore_count <= 0:
        return np.inf
    return klucb_root(mean, bound / explore_count)


@njit(inline="always")  # per child of a selection: the hot path
def klucb_level(explore_count, parent_count, c, tables):
    """L = (ln t' + c ln ln t') / T'_i for T'_i > 0, the level whose root is the index."""
    t, n = np.uint64(parent_count), np.uint64(explore_count)  # unsigned: no index wraparound
    return (tables.log[t] + c * tables.log_log[t]) * tables.inverse[n]


@njit(inline="always")  # per child of a selection with a stale root
def klucb_may_reach(mean, q, gap, target):
    """Whether the root q = q(L) of an arm with mean ``mean`` may reach ``target`` at level
    L + ``gap`` (gap >= 0); False means it cannot. q(L) is concave (the inverse of kl(mean, .),
    convex and increasing on [mean, 1]) with slope dq/dL = q (1-q) / (q - mean), so
    q(L + gap) <= q + gap q (1-q) / (q - mean). Multiplied out, without a division:
    False iff (target - q) (q - mean) > gap q (1-q) (never for q = mean, where the slope is
    infinite, nor for a NaN)."""
    return not (target - q) * (q - mean) > gap * q * (1.0 - q)


@njit(inline="always")  # per KL-UCB root solved, per child of a selection: the hot path
def klucb_root(mean, level):
    """The largest q >= mean with kl(mean, q) <= level (see the module docstring)."""
    if level <= 0.0 or mean >= 1.0:
        return mean
    if mean <= 0.0:
        return -math.expm1(-level)
    ratio = level / (mean * (1.0 - mean))
    if ratio > _SERIES_MAX:
        return _far_root(mean, level)
    return _series_root(mean, ratio)


@njit(inline="always")  # per child of a selection (KL-UCB's index): the hot path
def klucb_arm_value(mean, count, parent_count, c, tables, rng):
    """Engine-facing form: the index of one arm with T'_i = count and t' = parent_count."""
    if count <= 0:
        return np.inf
    return klucb_root(mean, klucb_level(count, parent_count, c, tables))


@njit(cache=True)
def _klucb_batch(sums, counts, parent_counts, c, tables):
    out = np.empty(sums.shape[0])
    for i in range(sums.shape[0]):
        mean = sums[i] * tables.inverse[counts[i]]
        out[i] = klucb_arm_value(mean, counts[i], parent_counts[i], c, tables, None)
    return out


def klucb_index(sums, counts, parent_counts, *, c: float = 0.0) -> np.ndarray:
    """Batched KL-UCB over arrays [n] of reward sums, visit counts and parent visit counts."""
    sums, counts, parents, tables = batch_arms(sums, counts, parent_counts)
    return _klucb_batch(sums, counts, parents, float(c), tables)
