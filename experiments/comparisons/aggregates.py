"""rliable-style aggregates of a comparison across tree configurations (Agarwal et al. 2021,
"Deep RL at the edge of the statistical precipice"), from each instance's normalised area under
its failure curve (``experiments.comparisons.stats.areas``): per method the mean and the
interquartile mean over configurations and instances with stratified-bootstrap intervals, the
probability that one method's area is lower than another's, and performance profiles. Lower
is better. Bootstraps are seeded per method or pair, so an interval does not depend on which
other methods the table holds."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .stats import AREA_COLUMNS, check_columns, with_method


def _stratified_bootstrap(strata: list[np.ndarray], statistic, n_boot: int, seed: int,
                          alpha: float) -> tuple[float, float, float]:
    """Estimate and percentile interval of statistic(*strata), each stratum resampled with
    replacement on its own (``scipy.stats.bootstrap``, several samples, not paired). A stratum
    of one value resamples to itself, so it enters every replicate as is."""
    estimate = float(statistic(*strata))
    varied = [i for i, stratum in enumerate(strata) if len(stratum) > 1]
    if not varied:
        return estimate, estimate, estimate

    def on_replicates(*resampled, axis=-1):
        batch = resampled[0].shape[:-1]
        samples = [np.broadcast_to(s, batch + s.shape[-1:]) for s in strata]
        for i, sample in zip(varied, resampled):
            samples[i] = sample
        return statistic(*samples)

    result = stats.bootstrap([strata[i] for i in varied], on_replicates, n_resamples=n_boot,
                             confidence_level=1 - alpha, method="percentile",
                             rng=np.random.default_rng(seed))
    return estimate, float(result.confidence_interval.low), float(result.confidence_interval.high)


def _mean(*strata):
    return np.mean(np.concatenate(strata, axis=-1), axis=-1)


def _interquartile_mean(*strata):
    return stats.trim_mean(np.concatenate(strata, axis=-1), 0.25, axis=-1)


def _strata(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """Areas by config (ordered by tree_index) of one method."""
    ordered = frame.sort_values(["config", "tree_index"])
    return {config: group["area"].to_numpy() for config, group in ordered.groupby("config")}


def aggregate_intervals(areas: pd.DataFrame, n_boot: int = 2000, seed: int = 0,
                        alpha: float = 0.05) -> pd.DataFrame:
    """Mean and interquartile mean (IQM) of each method's instance areas over all configs.

    Agarwal et al. (2021, Sect. 4): the mean and the IQM (``scipy.stats.trim_mean(x, 0.25)``:
    the mean of the middle 50%) of all (config, instance) scores, so a config weighs by its
    number of instances; stratified bootstrap percentile intervals, resampling instances within
    each config. Lower is better. Columns: method, metric ("mean" | "iqm"), estimate, low, high.
    """
    check_columns(areas, AREA_COLUMNS)
    rows = []
    for method, frame in with_method(areas).groupby("method", sort=True):
        strata = list(_strata(frame).values())
        for metric, statistic in (("mean", _mean), ("iqm", _interquartile_mean)):
            rows.append((method, metric, *_stratified_bootstrap(strata, statistic, n_boot,
                                                                seed, alpha)))
    return pd.DataFrame(rows, columns=["method", "metric", "estimate", "low", "high"])


def _improvement(*strata):
    """Mean over configs of P(X < Y) + P(X = Y) / 2; strata are x_1..x_C then y_1..y_C."""
    count = len(strata) // 2
    return np.mean([_lower_share(x, y) for x, y in zip(strata[:count], strata[count:])], axis=0)


def _lower_share(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(1 / nm) sum_ij [x_i < y_j] + [x_i = y_j] / 2 along the last axes (the Mann-Whitney U of
    (y, x) over nm), counted pair by pair: a config has a few instances, and every bootstrap
    replicate is counted at once."""
    below = x[..., :, None] < y[..., None, :]
    tied = x[..., :, None] == y[..., None, :]
    return (below + 0.5 * tied).mean(axis=(-2, -1))


def probability_of_improvement(areas: pd.DataFrame, n_boot: int = 2000, seed: int = 0,
                               alpha: float = 0.05) -> pd.DataFrame:
    """Probability that method X has a lower area than method Y, for every ordered pair.

    Agarwal et al. (2021, Sect. 4): P(X > Y) = (1/C) sum_c P(X_c > Y_c), with P(X_c > Y_c) =
    (1 / nm) sum_ij [x_i < y_j] + [x_i = y_j] / 2 over the instances of config c: the
    Mann-Whitney U of (y, x) over nm. Over the configs both methods were run on (a pair with
    none is left out); stratified bootstrap resampling the instances of X and of Y within each
    config independently. P(Y > X) = 1 - P(X > Y), its interval [1 - high, 1 - low].
    Columns: method_x, method_y, probability, low, high.
    """
    check_columns(areas, AREA_COLUMNS)
    by_method = {m: _strata(f) for m, f in with_method(areas).groupby("method", sort=True)}
    rows = []
    for method_x, method_y in combinations(by_method, 2):
        configs = sorted(by_method[method_x].keys() & by_method[method_y].keys())
        if not configs:
            continue
        strata = ([by_method[method_x][c] for c in configs]
                  + [by_method[method_y][c] for c in configs])
        probability, low, high = _stratified_bootstrap(strata, _improvement, n_boot, seed, alpha)
        rows += [(method_x, method_y, probability, low, high),
                 (method_y, method_x, 1 - probability, 1 - high, 1 - low)]
    return pd.DataFrame(rows, columns=["method_x", "method_y", "probability", "low", "high"])


def performance_profile(areas: pd.DataFrame, taus=None) -> pd.DataFrame:
    """Fraction of a method's (config, instance) pairs with area <= tau (Agarwal et al. 2021,
    Sect. 4, the run-score distribution with lower as better), tau on ``taus`` (default 101
    points in [0, 1]). No bootstrap band. Columns: method, tau, fraction."""
    check_columns(areas, AREA_COLUMNS)
    taus = np.linspace(0, 1, 101) if taus is None else np.asarray(taus, float)
    rows = [(method, tau, fraction)
            for method, frame in with_method(areas).groupby("method", sort=True)
            for tau, fraction in zip(taus, (frame["area"].to_numpy() <= taus[:, None]).mean(1))]
    return pd.DataFrame(rows, columns=["method", "tau", "fraction"])
