"""Bayes-UCB (Kaufmann, Cappé & Garivier 2012, Algorithm 1) for rewards in {0, 1/2, 1}.

With the uniform prior, an arm of S successes in n_j pulls has the posterior
Beta(S + 1, n_j - S + 1), and its index at time t is the quantile

    q_j(t) = Q(1 - 1 / (t (ln N)^c), Beta(S + 1, n_j - S + 1)),

N the horizon; their Theorem 1 (Bernoulli rewards) takes c >= 5, their experiments c = 0 (the
default here). In the tree, as for UCB1 and Thompson (seed 001, Eqs. 6-8): n_j = T'_i,
S = mean_i T'_i (a draw scores 1/2, so S may be a half-integer and the posterior is read with
real shapes, as Thompson's), t = t' and the horizon N = t' as well, no horizon being fixed.
Where the level is undefined or not positive we keep the lab's conventions: ln N is read as
max(ln N, 1) (KL-UCB's ln ln t, seed 001, Eq. 2), so (ln N)^c = 1 for N <= e and c > 0; at
t' = 1 the level 1 - 1/t' is 0 and the index is the posterior's 0-quantile, its lower end 0
(the quantile function's limit at 0; only a lone visited child can meet it). An unvisited
arm has index +inf.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .beta_quantile import beta_upper_quantile, log_beta, upper_regularized_beta


@njit(inline="always")  # per selection and per quantile computed
def bayesucb_tail(t, c, tables):
    """The tail 1 / (t' max(ln t', 1)^c) of the level (1/t' and ln max(ln t', 1) from
    ``tables``)."""
    t = np.uint64(t)
    tail = tables.inverse[t]
    if c != 0.0:
        tail *= math.exp(-c * tables.log_log[t])
    return tail


@njit(inline="always")  # per selection (Bayes-UCB's level)
def bayesucb_log_level(t, c, tables):
    """ln(1 / tail) = ln t' + c ln max(ln t', 1), from ``tables`` without a logarithm: the
    variable in which the quantile is concave (``bayesucb_slope``)."""
    t = np.uint64(t)
    return tables.log[t] + c * tables.log_log[t]


@njit(inline="always")  # per child of a selection: the hot path
def bayesucb_shapes(mean, count):
    """The posterior's shapes (S + 1, T' - S + 1), S = mean T' clipped to [0, T']."""
    successes = min(max(mean * count, 0.0), float(count))
    return successes + 1.0, count - successes + 1.0


@njit(inline="always")  # per child of a selection (Bayes-UCB's index): the hot path
def bayesucb_value(mean, count, parent_count, c, tables):
    """Bayes-UCB's index: the posterior's upper quantile at the tail 1 / (t' max(ln t', 1)^c)."""
    if count <= 0:
        return np.inf
    tail = bayesucb_tail(parent_count, c, tables)
    if tail >= 1.0:
        return 0.0
    a, b = bayesucb_shapes(mean, count)
    return beta_upper_quantile(a, b, tail)


@njit(inline="always")  # per quantile computed at a selection
def bayesucb_slope(a, b, quantile, tail):
    """An upper bound on the growth of the upper quantile Q(l) of Beta(a, b) per unit of the
    level l = ln(1 / tail), from the quantile ``quantile`` at ``tail``: Q(l') <= Q(l) +
    (l' - l) slope for every l' (+inf where the density vanishes).

    dl/dQ is the hazard rate f(Q) / (1 - F(Q)); a density log-concave on [0, 1] (a, b >= 1,
    always so for the posterior of a uniform prior) has an increasing hazard rate, so Q(l) is
    concave and lies below its tangent, of slope (1 - F(Q)) / f(Q) = tail / f(Q)."""
    if not 0.0 < quantile < 1.0:
        return np.inf
    density = math.exp((a - 1.0) * math.log(quantile) + (b - 1.0) * math.log1p(-quantile)
                       - log_beta(a, b))
    return tail / density if density > 0.0 else np.inf


@njit(inline="always")  # per point refined or placed afresh at a selection
def bayesucb_point(x, a, b):
    """The level ln(1 / G) of the upper tail G = 1 - I_x(a, b) of Beta(a, b) at x, 0 < x < 1,
    and the quantile's slope G / f(x) there (``bayesucb_slope``): x is the quantile at that
    level. (-inf, inf) where G or f(x) vanishes."""
    lbeta = log_beta(a, b)
    tail = upper_regularized_beta(x, a, b, lbeta)
    density = math.exp((a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x) - lbeta)
    if not (tail > 0.0 and density > 0.0):
        return -np.inf, np.inf
    return -math.log(tail), tail / density


@njit(inline="always")  # per child of a selection moved by a win or loss
def bayesucb_carry(x, level, slope, a, b, win):
    """The point x of Beta(a, b), at the level ``level`` = ln(1 / G) of its upper tail
    G = 1 - I_x(a, b) with the quantile's slope G / f(x) there (``bayesucb_slope``), carried to
    the posterior after one more win, Beta(a + 1, b), or loss, Beta(a, b + 1): returns the
    level and slope of x under it, and the factor by which relative rounding errors grow
    (inf if the tail is not positive).

    The recurrences of Numerical Recipes (Press et al. 2007, Eq. 6.4.8) with the front
    F = x^a (1 - x)^b / B(a, b) = x (1 - x) f(x): I_x(a + 1, b) = I_x(a, b) - F / a and
    I_x(a, b + 1) = I_x(a, b) + F / b; the densities are f(x) x (a + b) / a and
    f(x) (1 - x) (a + b) / b. A loss subtracts, so G's relative error grows by
    (G + F / b) / G'; a win adds, so it does not grow."""
    tail = math.exp(-level)
    density = tail / slope
    front = density * x * (1.0 - x)
    if win:
        step, density = front / a, density * x * (a + b) / a
    else:
        step, density = -front / b, density * (1.0 - x) * (a + b) / b
    carried = tail + step
    if not carried > 0.0:
        return level, slope, np.inf
    return -math.log(carried), carried / density, (tail + abs(step)) / carried
