"""Bandit indices and the compiled samplers: UCB1 by hand, KL-UCB against scipy's brentq, the
ziggurat normal/exponential, Gamma and Beta against scipy.stats (moments, Kolmogorov-Smirnov)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from numba import njit
from scipy import stats
from scipy.optimize import brentq

from bandits import (
    bernoulli_kl,
    klucb_index,
    klucb_may_reach,
    klucb_root,
    klucb_value,
    thompson_challenger,
    thompson_index,
    ucb1_index,
)
from bandits import rng as R
from bandits.fused import fma, horner

N_DRAWS = 200_000


def test_ucb1_by_hand():
    got = ucb1_index([3.0, 1.0, 0.0, 2.0], [4, 2, 0, 2], [6, 6, 6, 9], c=1.5)
    expected = [0.75 + 1.5 * math.sqrt(math.log(6) / 4), 0.5 + 1.5 * math.sqrt(math.log(6) / 2),
                np.inf, 1.0 + 1.5 * math.sqrt(math.log(9) / 2)]
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def _kl(p, q):
    return (p * math.log(p / q) if p > 0 else 0.0) + (1 - p) * math.log((1 - p) / (1 - q))


def _klucb_exact(p, level):
    """The KL-UCB root by brentq (the reference)."""
    if p >= 1 or level <= 0:
        return p
    if _kl(p, 1 - 1e-15) <= level:
        return 1.0
    return brentq(lambda q: _kl(p, q) - level, p, 1 - 1e-15, xtol=1e-15)


def _check_klucb(p, counts, parents, c=0.0):
    got = klucb_index(p * counts, counts, parents, c=c)
    log_t = np.log(parents)
    bound = log_t + c * np.log(np.maximum(log_t, 1.0))
    exact = [_klucb_exact(pi, b / n) for pi, b, n in zip(p, bound, counts)]
    np.testing.assert_allclose(got, exact, rtol=0, atol=1e-6)


def test_klucb_random_cases_match_brentq():
    rng = np.random.default_rng(0)
    counts = rng.integers(1, 3000, 2000)
    p = rng.integers(0, 2 * counts + 1) / (2 * counts)
    parents = rng.integers(counts, 20000)
    _check_klucb(p, counts, parents)
    _check_klucb(p[:300], counts[:300], parents[:300], c=3.0)


def test_klucb_root_lies_under_its_tangent_in_the_level():
    """The engine skips re-solving a root q0 = q(L0) while ``klucb_may_reach`` says the root
    at the later level cannot reach the best index: q(L) is concave, under every tangent in
    every regime, so a root never exceeds a target the rule rules out; and the rule is not
    vacuous: targets just above the tangent are ruled out."""
    for p in [0.0, 1e-4, 0.1, 0.5, 0.9, 1 - 1e-6, 1.0]:
        for level in np.geomspace(1e-5, 50.0, 40):
            q = klucb_root(p, level)
            for later in level * np.array([1.0001, 1.01, 1.5, 4.0, 100.0]):
                gap, root = later - level, klucb_root(p, later)
                assert klucb_may_reach(p, q, gap, root - 2e-6)
                assert root >= q - 1e-6
                if p < q < 1.0:
                    tangent = q + gap * q * (1.0 - q) / (q - p)
                    assert not klucb_may_reach(p, q, gap, tangent * (1 + 1e-9) + 1e-12)


def test_klucb_series_regime_is_within_its_stated_error():
    """r = L / (p (1-p)) <= 1 is solved by a series truncated after e^12 (after e^9 for
    r <= 1/4): within 4e-8 of the root up to r = 1 and 2e-9 for r <= 1/4, for p from 1e-9 to
    1 - 1e-9 (module docstring)."""
    for p in np.concatenate([np.geomspace(1e-9, 0.5, 60), 1 - np.geomspace(1e-9, 0.5, 60),
                             np.linspace(0.01, 0.99, 99)]):
        for r in np.geomspace(1e-5, 1.0, 41):
            error = abs(klucb_root(p, r * p * (1 - p)) - _klucb_exact(p, r * p * (1 - p)))
            assert error < (2e-9 if r <= 0.25 else 4e-8), (p, r, error)


def test_klucb_every_regime_matches_brentq():
    """p from 1e-6 to 1 - 1e-12 against r = L / (p (1-p)) from 1e-4 to 1e4: the series near the
    mean and the iteration in y beyond, up to q = 1."""
    for p in np.concatenate([np.geomspace(1e-6, 0.5, 30), 1 - np.geomspace(1e-12, 0.5, 30)]):
        for level in np.geomspace(1e-4, 1e4, 41) * p * (1 - p):
            assert klucb_value(p, level, 1) == pytest.approx(_klucb_exact(p, level), abs=1e-6)


def test_klucb_edge_cases():
    got = klucb_index([0.0, 3.0, 0.0, 2.0], [5, 3, 0, 4], [100, 100, 100, 1])
    # kl(0, q) = -ln(1-q)
    assert got[0] == pytest.approx(-math.expm1(-math.log(100) / 5), abs=1e-15)
    assert got[1] == 1.0 and got[2] == np.inf and got[3] == 0.5
    q = got[0]
    assert 5 * bernoulli_kl(0.0, q) == pytest.approx(math.log(100))


@njit(cache=True)
def _draws(kind, a, b, n, seed):
    state = R.seed_state(seed)
    out = np.empty(n)
    for i in range(n):
        if kind == 0:
            out[i] = R.normal(state)
        elif kind == 1:
            out[i] = R.exponential(state)
        elif kind == 2:
            out[i] = R.gamma(state, a)
        else:
            out[i] = R.beta(state, a, b)
    return out


def _check_law(draws, law):
    """Mean and variance within 5 standard errors, and a KS test at level 1e-3 (fixed seeds)."""
    n = draws.size
    assert abs(draws.mean() - law.mean()) < 5 * law.std() / math.sqrt(n)
    assert abs(draws.var() / law.var() - 1) < 5 * math.sqrt((law.stats(moments="k") + 2) / n)
    assert stats.kstest(draws, law.cdf).pvalue > 1e-3


@njit
def _fused(x, y, z):
    return fma(x, y, z)


@njit
def _horner(x, coefficients):
    return horner(x, coefficients)


def test_fma_rounds_once_and_horner_evaluates_the_polynomial():
    """fma(x, y, z) is x y + z rounded once (0.1 x 10 - 1 is 2^-54, not the 0 of two
    roundings); Horner's rule in fmas agrees with exact rational arithmetic."""
    assert _fused(0.1, 10.0, -1.0) == float(Fraction(0.1) * 10 - 1) == 2.0**-54
    coefficients = (1 / 36, -13 / 36, 1 / 4320, -56201 / 5443200, 2697077 / 2351462400)
    for x in (0.0, 0.25, -0.7, 1.3):
        exact = sum(Fraction(c) * Fraction(x) ** k for k, c in enumerate(coefficients))
        assert _horner(x, coefficients) == pytest.approx(float(exact), rel=1e-15, abs=1e-17)


def test_ziggurat_normal_and_exponential():
    normal = _draws(0, 0.0, 0.0, 1_000_000, 1)
    _check_law(normal, stats.norm())
    tail = np.count_nonzero(np.abs(normal) > R._NORMAL_R)  # the rarely taken tail branch
    assert stats.binomtest(tail, normal.size, 2 * stats.norm.sf(R._NORMAL_R)).pvalue > 1e-3
    exponential = _draws(1, 0.0, 0.0, 1_000_000, 2)
    _check_law(exponential, stats.expon())
    tail = np.count_nonzero(exponential > R._EXP_R)
    assert stats.binomtest(tail, exponential.size, stats.expon.sf(R._EXP_R)).pvalue > 1e-3


@pytest.mark.parametrize("shape", [1.0, 1.0001, 1.3, 4.5, 1000.5])
def test_gamma(shape):
    _check_law(_draws(2, shape, 0.0, N_DRAWS, 3), stats.gamma(shape))


@pytest.mark.parametrize("shape", [1.0001, 1.5, 2.0, 7.5, 100.0, 1e5])
def test_gamma_squeeze_lies_under_the_acceptance_probability(shape):
    """``gamma_given`` accepts without logarithms when u w < w - 0.75 d y^4; that must imply
    Marsaglia & Tsang's u < e^f, f = x^2/2 + d (1 - v + ln v), for every x (here f is summed
    from the series of ln(1+y) near y = 0, where the closed form cancels)."""
    d = shape - 1.0 / 3.0
    c = R.gamma_constant(shape)
    for x in np.linspace(-1.0 / c + 1e-9, 10.0, 20_001):
        y = c * x
        if abs(y) < 0.01:
            f = 3 * d * math.fsum((-1) ** (k + 1) * y**k / k for k in range(4, 16))
        else:
            v = (1.0 + y) ** 3
            f = 0.5 * x * x + d * (1.0 - v + math.log(v))
        w = min(1.0, 1.0 + y)
        assert (w - 0.75 * d * y**4) / w <= math.exp(f) + 1e-12


@pytest.mark.parametrize("a, b", [(1.0, 1.0), (1.0, 3.7), (2.5, 1.0), (1.5, 2.25), (1.0, 1000.5),
                                  (300.5, 1000.5), (12345.25, 7.5), (1.0001, 1.0001)])
def test_beta(a, b):
    _check_law(_draws(3, a, b, N_DRAWS, 4), stats.beta(a, b))


@njit
def _challenges(count, best, n, seed):
    state = R.seed_state(seed)
    return np.array([thompson_challenger(count, best, state) for _ in range(n)])


@pytest.mark.parametrize("count, best", [(1, 0.3), (2, 0.9), (40, 0.005), (40, 0.03), (7, 0.0),
                                         (3, -np.inf)])
def test_thompson_challenger_beats_best_as_a_beta_draw_would(count, best):
    """An arm without a win draws Beta(1, T'+1): the challenger beats ``best`` with probability
    (1 - best)^(T'+1), and when it does, its draw has the law of that Beta above ``best``."""
    draws = _challenges(count, best, N_DRAWS, 5)
    law = stats.beta(1.0, count + 1.0)
    above = draws[draws > best]
    assert stats.binomtest(above.size, draws.size, law.sf(max(best, 0.0))).pvalue > 1e-3
    cdf = (lambda x: (law.cdf(x) - law.cdf(best)) / law.sf(best)) if best > 0 else law.cdf
    assert stats.kstest(above, cdf).pvalue > 1e-3


def test_thompson_tabulated_gamma_constants_draw_as_the_generic_beta():
    """Whole half points (the tables' path) and other alphas (the restart's) give the draw of
    ``rng.beta`` bit for bit, including the shapes 1 (Exp(1)) and Beta(1, 1) (a uniform); a
    whole number of half points is drawn at exactly that alpha, whatever the rounding of
    mean x T' (1 / n x n is not always 1)."""
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 400, 1500)
    halves = rng.integers(0, 2 * counts + 1)
    halves[:50], halves[50:100] = 0, 2 * counts[50:100]  # a mean of 0 or 1: a shape 1
    sums = np.where(np.arange(1500) % 3 == 0, halves * 0.37, halves / 2.0)  # 1 in 3: no half points
    for seed, (s, n) in enumerate(zip(sums, counts)):
        alpha = s * (1.0 / n) * n if n > 0 else 0.0  # mean x T' as the kernels compute it
        if (2.0 * s).is_integer():
            alpha = s
        expected = _draws(3, alpha + 1.0, n - alpha + 1.0, 1, seed)[0]
        assert thompson_index([s], [n], seed=seed)[0] == expected


def test_thompson_draws_beta_of_the_counts():
    n = 50_000
    draws = thompson_index(np.full(n, 2.5), np.full(n, 4), seed=5)
    _check_law(draws, stats.beta(3.5, 2.5))
    np.testing.assert_array_equal(draws, thompson_index(np.full(n, 2.5), np.full(n, 4), seed=5))
