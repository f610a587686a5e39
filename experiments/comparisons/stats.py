"""Estimates of a policy comparison: failure curves with Wilson intervals, the
playouts needed to reach a failure rate and the area under the failure curve with intervals
from a bootstrap that respects the nesting of runs in instances. The rliable-style aggregates
across tree configurations are in ``experiments.comparisons.aggregates``, the hypothesis tests,
whose unit is the run, in ``experiments.comparisons.tests``.

Input: ``runs``, one row per run (RUN_COLUMNS: its cell, tree instance, run index and which
budgets it failed at), or ``instances``, one row per (config, policy, adjuster, tree_index,
budget) with ``runs`` and ``failures`` (the runs that chose a wrong root move at that budget).
A cell is (config, policy, adjuster); a method is ``f"{policy}+{adjuster}"``. Under one config,
a ``tree_index`` is the same tree for every method.

Metrics, lower is better for each: the failure rate at a budget; the playouts to reach epsilon
(the first budget from which the failure rate stays <= epsilon); the normalised area (the
area under a failure curve over log2 budget divided by the log2 range, in [0, 1]).

Bootstraps are seeded per cell, method or pair with ``np.random.default_rng(seed)``, so an
interval does not depend on which other cells the table holds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import integrate, stats

from ..intervals import wilson_interval

CELL = ["config", "policy", "adjuster"]
INSTANCE_COLUMNS = [*CELL, "tree_index", "budget", "runs", "failures"]
# one row per run: bit k of failed_bits is its failure at budget 2^k, k = 0 .. log2(max_budget)
RUN_COLUMNS = [*CELL, "tree_index", "run", "max_budget", "failed_bits"]
AREA_COLUMNS = [*CELL, "tree_index", "area"]


def check_columns(frame: pd.DataFrame, columns: list[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the table lacks the columns {', '.join(missing)}")


def _check_epsilon(epsilon: float) -> None:
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must lie in (0, 1), got {epsilon}")


def with_method(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(method=frame["policy"] + "+" + frame["adjuster"])


def failure_curves(instances: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Failure rate k/n per cell and budget, pooled over instances, with Wilson intervals.

    Wilson (1927): p~ = (k + z^2/2) / (n + z^2), half-width z sqrt(k(n-k)/n + z^2/4) / (n + z^2),
    z = Phi^-1(1 - alpha/2); with k = 0 the upper bound is z^2 / (n + z^2) > 0.
    Columns: config, policy, adjuster, budget, runs, failures, failure_rate, ci_low, ci_high.
    """
    check_columns(instances, INSTANCE_COLUMNS)
    curves = (instances.groupby([*CELL, "budget"], as_index=False)[["runs", "failures"]].sum()
              .sort_values([*CELL, "budget"], ignore_index=True))
    low, high = wilson_interval(curves["failures"], curves["runs"], stats.norm.ppf(1 - alpha / 2))
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


def run_failures(bits, max_budget: int) -> np.ndarray:
    """bool [runs, budgets]: bit k of a run's ``failed_bits`` is its failure at 2^k playouts,
    k = 0 .. log2(max_budget)."""
    ks = np.arange(int(max_budget).bit_length(), dtype=np.int64)
    return ((np.asarray(bits, dtype=np.int64)[:, None] >> ks) & 1).astype(bool)


def failure_bits(failed: np.ndarray) -> np.ndarray:
    """int64 [runs] from bool [runs, budgets]: the inverse of ``run_failures``."""
    failed = np.asarray(failed, dtype=bool)
    return (failed.astype(np.int64) << np.arange(failed.shape[1], dtype=np.int64)).sum(axis=1)


def instances_from_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The per-instance table (INSTANCE_COLUMNS: failures and runs per budget) of a per-run
    table (RUN_COLUMNS)."""
    check_columns(runs, RUN_COLUMNS)
    parts = []
    for max_budget, group in runs.groupby("max_budget", sort=False):
        failed = run_failures(group["failed_bits"], max_budget)
        budgets = 2 ** np.arange(failed.shape[1])
        counts = pd.DataFrame(failed.astype(np.int64), columns=budgets, index=group.index)
        counts["runs"] = 1
        keys = [group[c] for c in (*CELL, "tree_index")]
        summed = counts.groupby(keys, sort=False).sum()
        long = summed.drop(columns="runs").rename_axis(columns="budget").stack()
        parts.append(long.rename("failures").reset_index().merge(
            summed["runs"].reset_index(), on=[*CELL, "tree_index"]))
    if not parts:
        return pd.DataFrame({c: pd.Series(dtype="object" if c in CELL else "int64")
                             for c in INSTANCE_COLUMNS})
    table = pd.concat(parts, ignore_index=True)[INSTANCE_COLUMNS]
    return table.astype({c: "int64" for c in ("tree_index", "budget", "runs", "failures")})


def _cell_runs(runs: pd.DataFrame):
    """(cell key, budgets float [B], [per instance: (patterns bool [P, B], counts [P])]) per
    cell: each instance's runs grouped by their failure pattern."""
    for key, cell in runs.groupby(CELL, sort=True):
        max_budgets = cell["max_budget"].unique()
        if len(max_budgets) != 1:
            raise ValueError(f"the runs of {'+'.join(key)} do not all have the same budgets")
        budgets = 2.0 ** np.arange(int(max_budgets[0]).bit_length())
        pairs, counts = np.unique(cell[["tree_index", "failed_bits"]].to_numpy(np.int64),
                                  axis=0, return_counts=True)
        _, starts = np.unique(pairs[:, 0], return_index=True)
        strata = [(run_failures(bits, max_budgets[0]), n) for bits, n in
                  zip(np.split(pairs[:, 1], starts[1:]), np.split(counts, starts[1:]))]
        yield key, budgets, strata


def nested_bootstrap(strata, n_boot: int, rng: np.random.Generator,
                     picks: np.ndarray | None = None) -> np.ndarray:
    """float [n_boot, B] pooled failure rates of two-stage bootstrap replicates: the instances
    drawn with replacement, then, within each drawn instance, its runs drawn with replacement
    (a multinomial over its failure patterns), so both levels of the nesting vary (Davison &
    Hinkley 1997, Sect. 3.8). ``strata``: per instance (patterns [P, B], counts [P]); a
    pattern may hold any per-run values (a run's area: B = 1), the result is then their mean.
    An instance drawn c times contributes c independent resamples of its runs: one multinomial
    of c x (its runs) draws. ``picks`` int [n_boot, J]: the instances drawn (default: drawn
    from ``rng``); two methods on the same instances pass the same picks, a paired bootstrap."""
    if picks is None:
        picks = rng.integers(0, len(strata), size=(n_boot, len(strata)))
    failures, runs = 0.0, 0.0
    for j, (patterns, counts) in enumerate(strata):
        drawn = (picks == j).sum(axis=1)  # [n_boot] times instance j is drawn
        total = counts.sum()
        draws = _multinomial(rng, drawn * total, counts / total)
        failures = failures + draws @ patterns.astype(float)
        runs = runs + drawn * total
    return failures / runs[:, None]


def _multinomial(rng: np.random.Generator, trials: np.ndarray, p: np.ndarray) -> np.ndarray:
    """float [len(trials), len(p)] multinomial draws, one category at a time: x_k ~
    Binomial(trials left, p_k / (1 - p_1 - ... - p_{k-1})), vectorised over the rows (8x
    faster here than ``Generator.multinomial`` with an array of trials)."""
    draws = np.zeros((len(trials), len(p)))
    left, mass = trials.astype(np.int64), 1.0
    for k, share in enumerate(p[:-1]):
        draws[:, k] = rng.binomial(left, min(1.0, share / mass) if mass > 0 else 0.0)
        left = left - draws[:, k].astype(np.int64)
        mass -= share
    draws[:, -1] = left
    return draws


def _estimates(runs: pd.DataFrame, n_boot: int, seed: int):
    """Per cell: key, budgets, pooled failure rates [B], runs and ``nested_bootstrap``
    replicates [n_boot, B] seeded by ``seed``."""
    for key, budgets, strata in _cell_runs(runs):
        n = sum(counts.sum() for _, counts in strata)
        pooled = sum(counts @ patterns for patterns, counts in strata) / n
        yield key, budgets, pooled, n, nested_bootstrap(strata, n_boot,
                                                        np.random.default_rng(seed))


def budget_to_epsilon(runs: pd.DataFrame, epsilon: float = 0.05, n_boot: int = 2000,
                      seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """Playouts to reach epsilon on each cell's pooled curve, with a nested bootstrap interval.

    Point estimate: ``playouts_to_epsilon`` on the failure rate over all the cell's runs per
    budget. Interval: percentile bootstrap over ``n_boot`` replicates of ``nested_bootstrap``
    (instances, then runs within them), seeded per cell by ``seed``; a replicate that never
    reaches epsilon counts as +inf, so ``high`` (or even ``low``) may be inf: not reached.
    Quantiles are rounded outwards to a replicate's value (a budget or inf).
    Input: the per-run table (RUN_COLUMNS). Columns: config, policy, adjuster, epsilon,
    playouts, low, high, reached.
    """
    _check_epsilon(epsilon)
    check_columns(runs, RUN_COLUMNS)
    return _to_epsilon_table(_estimates(runs, n_boot, seed), epsilon, alpha)


def _to_epsilon_table(estimates, epsilon: float, alpha: float) -> pd.DataFrame:
    rows = []
    for key, budgets, pooled, _, replicates in estimates:
        boot = _playouts_rows(budgets, replicates, epsilon)
        playouts = playouts_to_epsilon(budgets, pooled, epsilon)
        rows.append((*key, epsilon, playouts, np.quantile(boot, alpha / 2, method="lower"),
                     np.quantile(boot, 1 - alpha / 2, method="higher"), not np.isnan(playouts)))
    return pd.DataFrame(rows, columns=[*CELL, "epsilon", "playouts", "low", "high", "reached"])


def area_intervals(runs: pd.DataFrame, n_boot: int = 2000, seed: int = 0,
                   alpha: float = 0.05) -> pd.DataFrame:
    """Each cell's mean normalised area over its runs (``failure_area`` of a run's 0/1 curve;
    the mean equals the area of the cell's pooled curve), with a percentile interval from
    ``nested_bootstrap`` (instances, then runs within them). Lower is better.
    Columns: config, policy, adjuster, runs, area, low, high."""
    check_columns(runs, RUN_COLUMNS)
    return _area_table(_estimates(runs, n_boot, seed), alpha)


def _area_table(estimates, alpha: float) -> pd.DataFrame:
    rows = []
    for key, budgets, pooled, n, replicates in estimates:
        boot = area_rows(budgets, replicates)
        rows.append((*key, int(n), float(area_rows(budgets, pooled)),
                     np.quantile(boot, alpha / 2), np.quantile(boot, 1 - alpha / 2)))
    return pd.DataFrame(rows, columns=[*CELL, "runs", "area", "low", "high"])


def nested_intervals(runs: pd.DataFrame, epsilon: float = 0.05, n_boot: int = 2000,
                     seed: int = 0, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(``budget_to_epsilon``, ``area_intervals``) from one set of bootstrap replicates."""
    _check_epsilon(epsilon)
    check_columns(runs, RUN_COLUMNS)
    estimates = list(_estimates(runs, n_boot, seed))
    return _to_epsilon_table(estimates, epsilon, alpha), _area_table(estimates, alpha)


def run_areas(runs: pd.DataFrame) -> pd.DataFrame:
    """The normalised area (``failure_area``) of every run's own 0/1 failure curve: in [0, 1],
    the share of log2 budgets over which the run chose a wrong move; lower is better.
    Columns: config, policy, adjuster, tree_index, run, area."""
    check_columns(runs, RUN_COLUMNS)
    parts = []
    for max_budget, group in runs.groupby("max_budget", sort=False):
        failed = run_failures(group["failed_bits"], max_budget)
        budgets = 2.0 ** np.arange(failed.shape[1])
        parts.append(group[[*CELL, "tree_index", "run"]].assign(
            area=area_rows(budgets, failed.astype(float))))
    if not parts:
        return pd.DataFrame(columns=[*CELL, "tree_index", "run", "area"])
    return pd.concat(parts).sort_index()


def area_rows(budgets: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """``failure_area`` of every row of rates [..., B]."""
    if len(budgets) == 1:
        return rates[..., 0]
    x = np.log2(budgets)
    return integrate.trapezoid(rates, x, axis=-1) / (x[-1] - x[0])


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
    check_columns(instances, INSTANCE_COLUMNS)
    rates = instances.assign(rate=instances["failures"] / instances["runs"])
    return _areas_of_curves(rates, [*CELL, "tree_index"], "rate")


def cell_areas(instances: pd.DataFrame) -> pd.DataFrame:
    """Normalised area of each cell's pooled curve (``failure_curves``); it is the mean of the
    instances' areas when every instance has the same runs. Columns: config, policy, adjuster,
    area."""
    return _areas_of_curves(failure_curves(instances), CELL, "failure_rate")
