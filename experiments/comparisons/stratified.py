"""Stratified 2 x 2 tables, one per tree instance, rows (method, baseline) and columns
(failed, not failed): the Cochran-Mantel-Haenszel test of a common odds ratio 1 (Mantel &
Haenszel 1959) and the common odds ratio with its interval, Mantel-Haenszel's or, where that is
0 or inf, the exact conditional one (Hirji, Tsiatis & Mehta 1989). A stratum with a zero margin
carries no information and is left out. ``experiments.comparisons.tests`` runs them per budget."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq
from scipy.special import gammaln, logsumexp
from statsmodels.stats.contingency_tables import StratifiedTable

MANTEL_HAENSZEL = "Mantel-Haenszel"
EXACT_CONDITIONAL = "exact conditional, median-unbiased"


def _informative(tables: np.ndarray) -> np.ndarray:
    """float [k', 2, 2]: the strata of ``tables`` [k, 2, 2] without a zero margin (both rows
    fail none, or all, of their runs; or n < 2): they carry no information on the odds ratio."""
    tables = np.asarray(tables, dtype=float).reshape(-1, 2, 2)
    rows, columns = tables.sum(axis=2), tables.sum(axis=1)
    keep = (rows > 0).all(axis=1) & (columns > 0).all(axis=1) & (tables.sum(axis=(1, 2)) > 1)
    return tables[keep]


def cmh_test(tables: np.ndarray) -> tuple[float, float] | None:
    """(chi^2, p) of the Cochran-Mantel-Haenszel test of common odds ratio 1 on 2 x 2 tables
    [k, 2, 2] ([[a, b], [c, d]] per stratum), or None when no stratum carries information.

    chi^2 = max(0, |sum_k (a_k - E a_k)| - 1/2)^2 / sum_k V_k with E a_k = n1 m1 / n and
    V_k = n1 n2 m1 m2 / (n^2 (n - 1)) (row sums n1, n2, column sums m1, m2); p from chi^2 with
    1 degree of freedom (statsmodels' ``StratifiedTable.test_null_odds(correction=True)``,
    which does not clip at 0: a sum within 1/2 of its expectation gives chi^2 = 0, p = 1 here).
    A stratum with a zero margin (both rows fail 0, or all, of their runs; or n < 2) has
    V_k = 0 and a_k = E a_k: it is left out."""
    kept = _informative(tables)
    if not len(kept):
        return None
    deviation = np.sum(kept[:, 0, 0] - kept[:, 0].sum(1) * kept[:, :, 0].sum(1)
                       / kept.sum(axis=(1, 2)))
    if abs(deviation) <= 0.5:
        return 0.0, 1.0
    result = StratifiedTable(np.moveaxis(kept, 0, -1)).test_null_odds(correction=True)
    return float(result.statistic), float(result.pvalue)


def _log_choose(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)


def _exact_at_lowest(tables: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """(estimate, 0, high) of the common odds ratio psi of informative 2 x 2 tables
    [k, 2, 2] whose a_k all take their least value given the margins (the Mantel-Haenszel
    ratio is then 0), conditional on every stratum's margins.

    Given its margins (rows n1, n2, first column m1), a_k has Fisher's noncentral
    hypergeometric law P(a; psi) = C(n1, a) C(n2, m1 - a) psi^a / sum_u C(n1, u) C(n2, m1 - u)
    psi^u on max(0, m1 - n2) .. min(n1, m1), the strata independent; so the sum A = sum_k a_k
    is at its least value with P_0(psi) = prod_k P(a_k = low_k; psi), decreasing in psi. The
    exact 1 - alpha interval is [0, high] with P_0(high) = alpha / 2, and the median-unbiased
    estimate solves P_0(psi) = 1/2 (Hirji, Tsiatis & Mehta 1989): both finite, found on
    log psi by Brent's method."""
    (a, b), (c, d) = np.moveaxis(tables, 0, -1)
    n1, n2, m1 = a + b, c + d, a + c
    low, high = np.maximum(0, m1 - n2), np.minimum(n1, m1)
    span = np.arange(int((high - low).max()) + 1)
    support = low[:, None] + span  # [k, L]
    inside = support <= high[:, None]
    clipped = np.where(inside, support, low[:, None])
    weights = np.where(inside, _log_choose(n1[:, None], clipped)
                       + _log_choose(n2[:, None], m1[:, None] - clipped), -np.inf)

    def log_p0(log_psi: float) -> float:
        tilted = weights + support * log_psi
        return float(np.sum(tilted[:, 0] - logsumexp(tilted, axis=1)))

    def solve(level: float) -> float:
        target = math.log(level)
        left, right = -1.0, 1.0
        while log_p0(left) < target:
            left *= 2
        while log_p0(right) > target:
            right *= 2
        return math.exp(brentq(lambda t: log_p0(t) - target, left, right, xtol=1e-10))

    return solve(0.5), 0.0, solve(alpha / 2)


def common_odds_ratio(tables: np.ndarray, alpha: float = 0.05
                      ) -> tuple[float, float, float, str] | None:
    """(OR, low, high, method): the common odds ratio of 2 x 2 tables [k, 2, 2]
    ([[a, b], [c, d]] per stratum), its 1 - alpha interval and how both were computed, or None
    when no stratum carries information (the strata ``cmh_test`` keeps; the others add
    nothing). With rows (method, baseline) and columns (failed, not failed), OR < 1: the method
    fails less.

    MANTEL_HAENSZEL: OR = sum_k (a_k d_k / n_k) / sum_k (b_k c_k / n_k) (Mantel & Haenszel
    1959); the interval is exp(log OR -+ z se), se from Robins, Breslow & Greenland (1986),
    which holds for many small strata (statsmodels' ``StratifiedTable``).
    EXACT_CONDITIONAL, where that ratio is 0 (in every stratum the method fails none of its
    runs, or the baseline all of its) or inf (the reverse) and has no such interval: the
    median-unbiased estimate with the exact conditional interval (``_exact_at_lowest``; for
    inf, on the rows swapped and inverted), whose end on the side of 0 or inf stays there: the
    runs bound the ratio on one side only. For one stratum it is the interval of Fisher's
    exact test (scipy's ``odds_ratio(kind="conditional")``); 1 failure in 200 runs against 0
    gives 1 [0.0256, inf]."""
    kept = _informative(tables)
    if not len(kept):
        return None
    table = StratifiedTable(np.moveaxis(kept, 0, -1))
    with np.errstate(divide="ignore"):  # sum b c / n = 0: inf
        ratio = float(table.oddsratio_pooled)
    if ratio == 0:
        return (*_exact_at_lowest(kept, alpha), EXACT_CONDITIONAL)
    if ratio == np.inf:
        estimate, _, high = _exact_at_lowest(kept[:, ::-1], alpha)
        return 1 / estimate, 1 / high, np.inf, EXACT_CONDITIONAL
    low, high = table.oddsratio_pooled_confint(alpha=alpha)
    return ratio, float(low), float(high), MANTEL_HAENSZEL
