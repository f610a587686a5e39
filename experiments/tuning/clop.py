"""The CLOP-like local quadratic regression of noisy win/loss outcomes that tunes a constant
(Coulom 2011, "CLOP: Confident local optimization for noisy black-box parameter tuning").

x is the parameter on its scale (log c when ``log``, else c). Round r draws its n pairs'
constants stratified over its region R_r: pair k gets x = lo + (k + u_k) (hi - lo) / n with u_k
uniform, from ``SeedSequence(seed, spawn_key=(r,))``. After each round the outcomes (win 1,
draw 1/2, loss 0) of every game with x in R_r are regressed on (1, z, z^2), z = x rescaled to
[-1, 1] over R_r, by a binomial GLM with the logit link (statsmodels): P(win | x) = 1 / (1 +
exp(-eta(z))), eta(z) = b0 + b1 z + b2 z^2. Three virtual draws, at z = -1, 0 and 1, are a
weak prior that keeps the curve flat and near 1/2 with few games, and finite when one side
wins every game (Coulom regularises his regression with a Gaussian prior for the same reason).

Let z* maximise eta on [-1, 1] (a grid of ``GRID`` points). A constant is shown worse when
eta(z*) - eta(z) > k se, se the delta-method standard error of that difference and k =
sqrt(-2 ln 0.05) = 2.45, Scheffe's multiplier for the two-dimensional span of such
differences (Scheffe 1953): the bound holds for every z at once with probability 95%, so
choosing z* from the same data does not inflate it, and when the quadratic model holds the
true optimum is shown worse with probability at most 5% a round. As CLOP discards the samples
confidently inferior, the constants not shown worse (their hull) are the next round's region,
widened around their centre to at least ``MIN_SHARE`` of R_r: a quadratic fitted over a wide
range may misplace an asymmetric optimum, so the search narrows gradually (as CLOP's weights
do), and a maximum at an end of R_r never leaves a point to sample. The region only shrinks.
After the last round, the interval reported is the last fit's constants not shown worse, and
the chosen constant maximises the lower 95% bound eta(z) - 1.96 se(eta(z)) over them: where
the fit is nearly flat a quadratic's maximum jumps to an end of the region, where it
extrapolates, and the bound prefers, among near-equal fitted rates, the constants the games
measure best.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..intervals import Z_95

GRID = 1001  # points of a region where "not shown worse" is checked
SCHEFFE = math.sqrt(-2.0 * math.log(0.05))  # sqrt of chi-square(2)'s 0.95 quantile
MIN_SHARE = 0.5  # of a region's width (on the parameter's scale) the next keeps at least


def draw_constants(seed: int, round_: int, count: int, region: tuple[float, float],
                   log: bool) -> np.ndarray:
    """The constants of round ``round_``'s ``count`` pairs, stratified over ``region`` on the
    parameter's scale: pair k at x = lo + (k + u_k) (hi - lo) / count, u_k uniform on [0, 1)
    from ``SeedSequence(seed, spawn_key=(round_,))``."""
    u = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(round_,))).random(count)
    lo, hi = to_x(np.asarray(region, float), log)
    x = lo + (np.arange(count) + u) * (hi - lo) / count
    return np.exp(x) if log else x


def to_x(constants, log: bool):
    return np.log(constants) if log else np.asarray(constants, float)


@dataclass(frozen=True)
class Fit:
    """The logistic regression of one round over its region (the module's docstring): eta(z)
    = b0 + b1 z + b2 z^2, z = (x - centre) / half over ``region``."""

    region: tuple[float, float]  # constants, low and high
    log: bool
    params: np.ndarray  # [3] b0, b1, b2
    cov: np.ndarray  # [3, 3] their covariance
    peak: float  # the constant of the largest fitted win rate in the region
    best: float  # the chosen: the largest lower 95% bound of the win rate, not shown worse
    not_worse: tuple[float, float]  # the hull of the constants not shown worse than peak
    games: int  # games fitted (without the virtual draws)

    def eta(self, constants) -> tuple[np.ndarray, np.ndarray]:
        """eta at ``constants`` and its standard error."""
        design = _design(_z(constants, self.region, self.log))
        return design @ self.params, np.sqrt(np.maximum(_quadratic_form(design, self.cov), 0.0))

    def win_rate(self, constants) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fitted win rate at ``constants`` with its pointwise 95% interval."""
        eta, se = self.eta(np.atleast_1d(constants))
        return _logistic(eta), _logistic(eta - Z_95 * se), _logistic(eta + Z_95 * se)

    def elo(self) -> tuple[float, float, float]:
        """Elo at ``best`` against the reference, 400 eta / ln 10, with its 95% interval."""
        eta, se = self.eta([self.best])
        scale = 400.0 / math.log(10.0)
        return (float(scale * eta[0]), float(scale * (eta[0] - Z_95 * se[0])),
                float(scale * (eta[0] + Z_95 * se[0])))


def _z(constants, region: tuple[float, float], log: bool) -> np.ndarray:
    """x rescaled to [-1, 1] over ``region``."""
    lo, hi = to_x(np.asarray(region, float), log)
    return (to_x(np.asarray(constants, float), log) - (lo + hi) / 2) / ((hi - lo) / 2)


def _design(z: np.ndarray) -> np.ndarray:
    z = np.asarray(z, float)
    return np.column_stack([np.ones_like(z), z, z * z])


def _logistic(eta):
    return 1.0 / (1.0 + np.exp(-np.asarray(eta, float)))


def fit_scores(constants, scores, region: tuple[float, float], log: bool) -> Fit:
    """The fit of the games whose constant lies in ``region`` (the module's docstring)."""
    # imported here: the mctslab program imports its commands at start, and statsmodels
    # alone costs it most of a second
    import statsmodels.api as sm

    constants, scores = np.asarray(constants, float), np.asarray(scores, float)
    inside = (constants >= region[0]) & (constants <= region[1])
    z = np.concatenate([_z(constants[inside], region, log), [-1.0, 0.0, 1.0]])
    y = np.concatenate([scores[inside], [0.5, 0.5, 0.5]])  # the virtual draws
    result = sm.GLM(y, _design(z), family=sm.families.Binomial()).fit()
    params, cov = np.asarray(result.params), np.asarray(result.cov_params())
    lo, hi = to_x(np.asarray(region, float), log)
    grid = np.linspace(-1.0, 1.0, GRID)
    design = _design(grid)
    eta, se = design @ params, np.sqrt(np.maximum(_quadratic_form(design, cov), 0.0))
    top = int(np.argmax(eta))
    contrast = design - design[top]
    gap_se = np.sqrt(np.maximum(_quadratic_form(contrast, cov), 0.0))
    kept = contrast @ params + SCHEFFE * gap_se >= 0
    chosen = int(np.argmax(np.where(kept, eta - Z_95 * se, -np.inf)))
    x = (lo + hi) / 2 + grid * (hi - lo) / 2
    constants = np.exp(x) if log else x
    constants[[0, -1]] = region  # exactly, not through the log and back
    not_worse = float(constants[kept].min()), float(constants[kept].max())
    return Fit(region, log, params, cov, float(constants[top]), float(constants[chosen]),
               not_worse, int(inside.sum()))


def _quadratic_form(rows: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """rows[n] . matrix . rows[n] for every row n."""
    return np.einsum("ni,ij,nj->n", rows, matrix, rows)


def next_region(fit: Fit) -> tuple[float, float]:
    """The region after ``fit``: its constants not shown worse, widened around their centre
    (on the parameter's scale) to at least ``MIN_SHARE`` of its region, within it."""
    (lo, hi), (low, high) = (to_x(np.asarray(pair, float), fit.log)
                             for pair in (fit.region, fit.not_worse))
    if high - low >= MIN_SHARE * (hi - lo):
        return fit.not_worse
    half = MIN_SHARE * (hi - lo) / 2
    centre = min(max((low + high) / 2, lo + half), hi - half)
    ends = np.array([centre - half, centre + half])
    low, high = np.exp(ends) if fit.log else ends
    return float(max(low, fit.region[0])), float(min(high, fit.region[1]))


def clop_rounds(play: Callable[[int, int, np.ndarray], pd.DataFrame],
                region: tuple[float, float], pairs: Sequence[int], seed: int, log: bool
                ) -> tuple[pd.DataFrame, tuple[Fit, ...]]:
    """Play the rounds: round r draws ``pairs[r]`` constants in its region
    (``draw_constants``) and calls ``play(r, first, constants)``, ``first`` the number of the
    round's first pair in the whole tuning, which returns its games (columns ``constant`` and
    ``score`` at least, one row per game); each round's fit gives the next region. Returns
    every game, in order, and the fit of each round."""
    tables, fits, first = [], [], 0
    for r, count in enumerate(pairs):
        tables.append(play(r, first, draw_constants(seed, r, count, region, log)))
        first += count
        games = pd.concat(tables, ignore_index=True)
        fits.append(fit_scores(games["constant"], games["score"], region, log))
        region = next_region(fits[-1])
    return games, tuple(fits)
