"""Statistics of a policy comparison (issue 29): failure curves with Wilson intervals, the
playouts needed to reach a failure rate, the area under the curve, paired tests with Holm's
correction, and rliable-style aggregates across tree configurations (Agarwal et al. 2021,
"Deep RL at the edge of the statistical precipice").

Input: ``instances``, one row per (config, policy, adjuster, tree_index, budget) with
``runs`` and ``failures`` (the runs that chose a wrong root move at that budget). A cell is
(config, policy, adjuster); a method is ``f"{policy}+{adjuster}"``. Under one config, a
``tree_index`` is the same tree for every method, so comparisons are paired by instance.

Bootstraps (and random sign flips) are seeded per cell, method or pair with
``np.random.default_rng(seed)``, so an interval does not depend on which other cells the table
holds.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import integrate, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

CELL = ["config", "policy", "adjuster"]
INSTANCE_COLUMNS = [*CELL, "tree_index", "budget", "runs", "failures"]
AREA_COLUMNS = [*CELL, "tree_index", "area"]


def _check_columns(frame: pd.DataFrame, columns: list[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the table lacks the columns {', '.join(missing)}")


def _check_epsilon(epsilon: float) -> None:
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must lie in (0, 1), got {epsilon}")


def _with_method(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(method=frame["policy"] + "+" + frame["adjuster"])


def failure_curves(instances: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Failure rate k/n per cell and budget, pooled over instances, with Wilson intervals.

    Wilson (1927): p~ = (k + z^2/2) / (n + z^2), half-width z sqrt(k(n-k)/n + z^2/4) / (n + z^2),
    z = Phi^-1(1 - alpha/2); with k = 0 the upper bound is z^2 / (n + z^2) > 0.
    Columns: config, policy, adjuster, budget, runs, failures, failure_rate, ci_low, ci_high.
    """
    _check_columns(instances, INSTANCE_COLUMNS)
    curves = (instances.groupby([*CELL, "budget"], as_index=False)[["runs", "failures"]].sum()
              .sort_values([*CELL, "budget"], ignore_index=True))
    low, high = proportion_confint(curves["failures"], curves["runs"], alpha=alpha,
                                   method="wilson")
    return curves.assign(failure_rate=curves["failures"] / curves["runs"], ci_low=low,
                         ci_high=high)


def _sorted_curve(budgets, rates) -> tuple[np.ndarray, np.ndarray]:
    budgets, rates = np.asarray(budgets, float), np.asarray(rates, float)
    order = np.argsort(budgets)
    return budgets[order], rates[order]


def _playouts_rows(budgets: np.ndarray, rates: np.ndarray, epsilon: float) -> np.ndarray:
    """[...] first budget of rates [..., B] after the last rate above epsilon; inf if none."""
    above = rates > epsilon
    count = above.shape[-1]
    start = np.where(above.any(axis=-1), count - np.argmax(above[..., ::-1], axis=-1), 0)
    return np.where(start < count, budgets[np.minimum(start, count - 1)], np.inf)


def playouts_to_epsilon(budgets, rates, epsilon: float) -> float:
    """Playouts to reach failure rate epsilon: min { t_i : rate(t_j) <= epsilon for all j >= i }.

    A curve that dips below epsilon and rises above it again has not reached it at the dip;
    NaN when the rate at the largest budget is above epsilon (not reached).
    """
    _check_epsilon(epsilon)
    playouts = _playouts_rows(*_sorted_curve(budgets, rates), epsilon)
    return float(playouts) if np.isfinite(playouts) else np.nan


def _cell_matrix(cell: pd.DataFrame, column: str) -> np.ndarray:
    """[instances, budgets] values of ``column`` of one cell; every instance has every budget."""
    matrix = cell.pivot(index="tree_index", columns="budget", values=column)
    if matrix.isna().any().any():
        raise ValueError("the instances of a cell do not all have the same budgets")
    return matrix.to_numpy()


def budget_to_epsilon(instances: pd.DataFrame, epsilon: float = 0.05, n_boot: int = 2000,
                      seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """Playouts to reach epsilon on each cell's pooled curve, with a bootstrap interval.

    Point estimate: ``playouts_to_epsilon`` on sum(failures) / sum(runs) per budget. Interval:
    percentile bootstrap (Efron & Tibshirani 1993, Ch. 13) over n_boot replicates, resampling
    the cell's instances with replacement and pooling again; a replicate that never reaches
    epsilon counts as +inf, so ``high`` (or even ``low``) may be inf: not reached. Quantiles
    are rounded outwards to a replicate's value (a budget or inf). A cell with one instance
    draws failures ~ Binomial(runs, pooled rate) at each budget independently: an approximation
    that ignores that the same runs give the whole curve, so its interval is only indicative.
    Columns: config, policy, adjuster, epsilon, playouts, low, high, reached.
    """
    _check_epsilon(epsilon)
    _check_columns(instances, INSTANCE_COLUMNS)
    rows = []
    for key, cell in instances.groupby(CELL, sort=True):
        budgets = np.sort(cell["budget"].unique()).astype(float)
        failures, runs = _cell_matrix(cell, "failures"), _cell_matrix(cell, "runs")
        pooled = failures.sum(axis=0) / runs.sum(axis=0)
        rng = np.random.default_rng(seed)
        if len(failures) > 1:
            picks = rng.integers(0, len(failures), size=(n_boot, len(failures)))
            replicates = failures[picks].sum(axis=1) / runs[picks].sum(axis=1)
        else:
            replicates = rng.binomial(runs[0], pooled, size=(n_boot, len(budgets))) / runs[0]
        boot = _playouts_rows(budgets, replicates, epsilon)
        playouts = playouts_to_epsilon(budgets, pooled, epsilon)
        rows.append((*key, epsilon, playouts, np.quantile(boot, alpha / 2, method="lower"),
                     np.quantile(boot, 1 - alpha / 2, method="higher"), not np.isnan(playouts)))
    return pd.DataFrame(rows, columns=[*CELL, "epsilon", "playouts", "low", "high", "reached"])


def failure_area(budgets, rates) -> float:
    """Area under the failure curve over log2 budget, divided by the log2 range: in [0, 1].

    Trapezoid rule on x = log2(t): sum_i (x_{i+1} - x_i)(r_i + r_{i+1}) / 2 / (x_B - x_1);
    a single budget gives its rate.
    """
    budgets, rates = _sorted_curve(budgets, rates)
    if len(budgets) == 1:
        return float(rates[0])
    log_budgets = np.log2(budgets)
    return float(integrate.trapezoid(rates, log_budgets) / (log_budgets[-1] - log_budgets[0]))


def _areas_of_curves(curves: pd.DataFrame, keys: list[str], rate: str) -> pd.DataFrame:
    rows = [(*key, failure_area(curve["budget"], curve[rate]))
            for key, curve in curves.groupby(keys, sort=True)]
    return pd.DataFrame(rows, columns=[*keys, "area"])


def areas(instances: pd.DataFrame) -> pd.DataFrame:
    """Normalised area (``failure_area``) of each instance's own curve failures / runs.

    Columns: config, policy, adjuster, tree_index, area.
    """
    _check_columns(instances, INSTANCE_COLUMNS)
    rates = instances.assign(rate=instances["failures"] / instances["runs"])
    return _areas_of_curves(rates, [*CELL, "tree_index"], "rate")


def cell_areas(instances: pd.DataFrame) -> pd.DataFrame:
    """Normalised area of each cell's pooled curve (``failure_curves``); it is the mean of the
    instances' areas when every instance has the same runs. Columns: config, policy, adjuster,
    area."""
    return _areas_of_curves(failure_curves(instances), CELL, "failure_rate")


def _signed_rank_tests(differences: np.ndarray, n_flips: int,
                       seed: int) -> tuple[np.ndarray, np.ndarray]:
    """[pairs] R+ and two-sided sign-flip p-values of differences [pairs, instances]."""
    ranks = stats.rankdata(np.abs(differences), axis=-1)

    def positive_rank_sum(flipped, axis):
        return np.sum(ranks * ((flipped > 0) + 0.5 * (flipped == 0)), axis=axis)

    test = stats.permutation_test((differences,), positive_rank_sum, vectorized=True,
                                  permutation_type="samples", n_resamples=n_flips, axis=-1,
                                  batch=max(1, 2**20 // differences.size),
                                  rng=np.random.default_rng(seed))
    return test.statistic, test.pvalue


def paired_tests(instances: pd.DataFrame, alpha: float = 0.05, n_flips: int = 9999,
                 seed: int = 0) -> pd.DataFrame:
    """Wilcoxon signed-rank tests of every pair of methods at every budget, Holm-corrected.

    Per config, budget and pair (method_a < method_b by name), d_j = rate_a(j) - rate_b(j) over
    the n instances j that every method of the config searched (rate = failures / runs).
    Statistic (Wilcoxon 1945, zeros split as zero_method="zsplit"): R+ = sum_j rank|d_j|
    ([d_j > 0] + [d_j = 0] / 2), above n(n+1)/4 when method_a fails more. Two-sided p-value
    from the sign-flip distribution of R+ with the ranks held fixed
    (``scipy.stats.permutation_test``): exact over all 2^n flips when 2^n <= n_flips, the
    p-value ``scipy.stats.wilcoxon`` gives for up to 13 pairs with ties or zeros (which it
    computes a pair at a time, 0.1 s each), else n_flips random flips from ``seed``.
    All d_j = 0 gives p = 1, kept in the family; fewer than 2 instances: statistic and p NaN,
    left out of the family (p_holm NaN, reject False). Holm (1979) within each config, across
    budgets and pairs (``multipletests``): p_(i) -> max_{k<=i} min(1, (m - k + 1) p_(k)),
    reject p_holm <= alpha. Columns: config, budget, method_a, method_b, n_instances,
    statistic, p_value, p_holm, reject.
    """
    _check_columns(instances, INSTANCE_COLUMNS)
    rates = _with_method(instances).assign(rate=instances["failures"] / instances["runs"])
    rows = []
    for (config, budget), group in rates.groupby(["config", "budget"], sort=True):
        table = group.pivot(index="tree_index", columns="method", values="rate").dropna()
        pairs = list(combinations(sorted(table.columns), 2))
        statistics = p_values = np.full(len(pairs), np.nan)
        if len(table) >= 2 and pairs:
            differences = np.array([table[a] - table[b] for a, b in pairs])
            statistics, p_values = _signed_rank_tests(differences, n_flips, seed)
        rows += [(config, budget, a, b, len(table), statistic, p_value)
                 for (a, b), statistic, p_value in zip(pairs, statistics, p_values)]
    tests = pd.DataFrame(rows, columns=["config", "budget", "method_a", "method_b",
                                        "n_instances", "statistic", "p_value"])
    tests["p_holm"], tests["reject"] = np.nan, False
    for _, family in tests.dropna(subset="p_value").groupby("config"):
        reject, p_holm, _, _ = multipletests(family["p_value"], alpha=alpha, method="holm")
        tests.loc[family.index, "p_holm"], tests.loc[family.index, "reject"] = p_holm, reject
    return tests


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
    _check_columns(areas, AREA_COLUMNS)
    rows = []
    for method, frame in _with_method(areas).groupby("method", sort=True):
        strata = list(_strata(frame).values())
        for metric, statistic in (("mean", _mean), ("iqm", _interquartile_mean)):
            rows.append((method, metric, *_stratified_bootstrap(strata, statistic, n_boot,
                                                                seed, alpha)))
    return pd.DataFrame(rows, columns=["method", "metric", "estimate", "low", "high"])


def _improvement(*strata):
    """Mean over configs of P(X < Y) + P(X = Y) / 2; strata are x_1..x_C then y_1..y_C."""
    count = len(strata) // 2
    return np.mean([stats.mannwhitneyu(y, x, method="asymptotic", axis=-1).statistic
                    / (x.shape[-1] * y.shape[-1]) for x, y in zip(strata[:count],
                                                                  strata[count:])], axis=0)


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
    _check_columns(areas, AREA_COLUMNS)
    by_method = {m: _strata(f) for m, f in _with_method(areas).groupby("method", sort=True)}
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
    _check_columns(areas, AREA_COLUMNS)
    taus = np.linspace(0, 1, 101) if taus is None else np.asarray(taus, float)
    rows = [(method, tau, fraction)
            for method, frame in _with_method(areas).groupby("method", sort=True)
            for tau, fraction in zip(taus, (frame["area"].to_numpy() <= taus[:, None]).mean(1))]
    return pd.DataFrame(rows, columns=["method", "tau", "fraction"])


def comparison_tables(instances: pd.DataFrame, epsilon: float = 0.05, n_boot: int = 2000,
                      seed: int = 0) -> dict[str, pd.DataFrame]:
    """Every table of a comparison (what ``experiments.compare_report.write_report`` reads)
    from its per-instance table: instances, curves, to_epsilon, tests, areas, aggregates,
    improvement and profile."""
    instance_areas = areas(instances)
    return {
        "instances": instances,
        "curves": failure_curves(instances),
        "to_epsilon": budget_to_epsilon(instances, epsilon, n_boot, seed),
        "tests": paired_tests(instances, seed=seed),
        "areas": instance_areas,
        "aggregates": aggregate_intervals(instance_areas, n_boot, seed),
        "improvement": probability_of_improvement(instance_areas, n_boot, seed),
        "profile": performance_profile(instance_areas),
    }
