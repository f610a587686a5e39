"""The regularized incomplete beta function and its inverse, the Beta(a, b) quantile, for
compiled kernels (Bayes-UCB's index; see ``bandits.bayes_ucb``).

* I_x(a, b) = B(a, b)^-1 int_0^x t^(a-1) (1-t)^(b-1) dt by the continued fraction of
  Numerical Recipes (Press et al. 2007, Sect. 6.4, Eq. 6.4.5), evaluated by the modified
  Lentz method, on the side of the mean where it converges fast (x < (a+1)/(a+b+2), else
  1 - I_(1-x)(b, a)); ln B(a, b) by ``math.lgamma``.
* The quantile x with I_x(a, b) = p: the starting guess of Numerical Recipes' ``invbetai``
  (Sect. 6.14.11; Abramowitz & Stegun 26.5.22 when a, b >= 1), then Halley steps safeguarded
  as in Numerical Recipes' ``rtsafe`` (Sect. 9.4): a bracket [lo, hi] of the root narrowed by
  every evaluation, and a bisection whenever a step would leave it or fails to halve the step
  before last; to a relative step of 1e-15 (absolute error far below 1e-12).
* The upper quantile, 1 - I_x(a, b) = q, as 1 - (the q-quantile of Beta(b, a)), so that a
  small tail q, as in Bayes-UCB's levels 1 - 1/t, is not rounded away by 1 - q.
"""

from __future__ import annotations

import math

from numba import njit

_EPS = 2.220446049250313e-16  # double epsilon: the continued fraction's relative tolerance
_FPMIN = 1e-300  # Lentz's guard against a zero denominator
_MAX_TERMS = 10000  # continued-fraction terms (O(sqrt(max(a, b))) are needed)
_MAX_STEPS = 200  # Halley steps or bisections (typically 3-6 steps)
_STEP_TOLERANCE = 1e-15  # relative size of the last step


@njit(cache=True, error_model="numpy")
def log_beta(a, b):
    """ln B(a, b) = ln Gamma(a) + ln Gamma(b) - ln Gamma(a + b)."""
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


@njit(cache=True, error_model="numpy")
def _continued_fraction(a, b, x):
    """Numerical Recipes' ``betacf``: the continued fraction of Eq. 6.4.5 by modified Lentz,
    with I_x(a, b) = x^a (1-x)^b / (a B(a, b)) times its value."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < _FPMIN:
        d = _FPMIN
    d = 1.0 / d
    h = d
    for m in range(1, _MAX_TERMS + 1):
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))  # even term d_2m
        d = 1.0 + aa * d
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = 1.0 + aa / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))  # odd term d_2m+1
        d = 1.0 + aa * d
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = 1.0 + aa / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) <= _EPS:
            break
    return h


@njit(cache=True, error_model="numpy")
def regularized_beta(x, a, b, lbeta):
    """I_x(a, b) for a, b > 0 given ``lbeta`` = ln B(a, b) (Numerical Recipes' ``betai``)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - lbeta)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


@njit(cache=True, error_model="numpy")
def _initial_guess(a, b, p, lbeta):
    """Numerical Recipes' starting point for the p-quantile of Beta(a, b): for a, b >= 1 the
    normal approximation of Abramowitz & Stegun 26.5.22, else the power-law tails."""
    if a >= 1.0 and b >= 1.0:
        pp = p if p < 0.5 else 1.0 - p
        t = math.sqrt(-2.0 * math.log(pp))
        z = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t
        if p < 0.5:
            z = -z
        al = (z * z - 3.0) / 6.0
        h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0))
        w = (z * math.sqrt(al + h) / h
             - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (al + 5.0 / 6.0 - 2.0 / (3.0 * h)))
        return a / (a + b * math.exp(min(2.0 * w, 700.0)))
    lna, lnb = math.log(a / (a + b)), math.log(b / (a + b))
    t, u = math.exp(a * lna) / a, math.exp(b * lnb) / b
    w = t + u
    if p < t / w:
        return math.pow(a * w * p, 1.0 / a)
    return 1.0 - math.pow(b * w * (1.0 - p), 1.0 / b)


@njit(cache=True, error_model="numpy")
def beta_quantile(a, b, p):
    """The p-quantile of Beta(a, b), a, b > 0: x with I_x(a, b) = p (0 for p <= 0, 1 for
    p >= 1), by bracketed Halley steps on I_x(a, b) - p from Numerical Recipes' guess."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    lbeta = log_beta(a, b)
    a1, b1 = a - 1.0, b - 1.0
    lo, hi = 0.0, 1.0
    x = _initial_guess(a, b, p, lbeta)
    if not 0.0 < x < 1.0:
        x = 0.5
    step = last_step = 1.0
    for _ in range(_MAX_STEPS):
        error = regularized_beta(x, a, b, lbeta) - p
        if error == 0.0:
            return x
        if error < 0.0:
            lo = x
        else:
            hi = x
        density = math.exp(a1 * math.log(x) + b1 * math.log1p(-x) - lbeta)
        new = -1.0
        if density > 0.0:
            u = error / density  # Newton's step; Halley's corrects it by the density's slope
            halley = 1.0 - 0.5 * u * (a1 / x - b1 / (1.0 - x))
            new = x - (u / halley if 0.5 <= halley <= 2.0 else u)
        # as Numerical Recipes' rtsafe: bisect when the step leaves the bracket or does not
        # halve the step before last (slow progress far from the root)
        if not lo < new < hi or abs(x - new) > 0.5 * abs(last_step):
            new = 0.5 * (lo + hi)
        last_step, step = step, x - new
        if abs(step) <= _STEP_TOLERANCE * new or hi - lo <= _STEP_TOLERANCE * hi:
            return new
        x = new
    return x


@njit(cache=True, error_model="numpy")
def beta_upper_quantile(a, b, q):
    """x with 1 - I_x(a, b) = q, i.e. the (1 - q)-quantile of Beta(a, b), computed as
    1 - (the q-quantile of Beta(b, a)) so that a small q keeps its precision."""
    return 1.0 - beta_quantile(b, a, q)


@njit(cache=True, error_model="numpy")
def upper_regularized_beta(x, a, b, lbeta):
    """1 - I_x(a, b) for a, b > 0 given ``lbeta`` = ln B(a, b), to full relative precision
    when it is small (x above the mean: the continued fraction of I_(1-x)(b, a) alone)."""
    if x <= 0.0:
        return 1.0
    if x >= 1.0:
        return 0.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - lbeta)
    if x < (a + 1.0) / (a + b + 2.0):
        return 1.0 - front * _continued_fraction(a, b, x) / a
    return front * _continued_fraction(b, a, 1.0 - x) / b
