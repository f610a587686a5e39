"""Hypothesis tests of a policy comparison whose unit is the run.

The runs are the independent samples; they are nested in tree instances (every method of a
configuration searches the same instances), so each test is stratified by instance: it compares
two methods within each instance and pools the evidence, never treating instances as the
samples. Each method is tested against one baseline; the family of a test, within which Holm's
correction (Holm 1979) holds the family-wise error at alpha, is stated in its ``family`` column:

- ``curve_tests`` (the primary test): per config, a permutation test of the normalised area
  under each run's failure curve, method labels permuted within each instance; family: the
  methods against the baseline on one config. Effect size: the difference of the mean areas,
  with a 95% interval from a two-stage bootstrap paired by instance.
- ``budget_tests`` (where the curves part): per (config, budget), the Cochran-Mantel-Haenszel
  test (Mantel & Haenszel 1959) of the 2 x 2 tables (method, baseline) x (failed, not failed),
  one per instance; family: the methods against the baseline on one config at every budget,
  so that a claim at one budget is corrected for the budgets looked at. Effect size: the
  Mantel-Haenszel common odds ratio of failing, with its 95% interval; where that ratio is 0
  or inf (a zero cell in every stratum), the exact conditional one (``stratified``).

A method whose runs are another's (``same``: a cell at a tuned constant that is its
policy's default shares that cell) is not tested: its test would repeat the other's, or test
the baseline against itself; its rows say so and stay out of the family.

A pair's unadjusted p-value and interval depend on that pair alone: the random draws of a
permutation test and its bootstrap are seeded by the seed and the pair's names
(``pair_seed``), not by the pair's place in the table. Holm's adjusted p-values depend on the
family, and change when methods are added to it.

Input tables: ``instances`` (config, policy, adjuster, tree_index, budget, runs, failures) and
``run_areas`` (config, policy, adjuster, tree_index, run, area); a method is
``f"{policy}+{adjuster}"``.
"""

from __future__ import annotations

import hashlib
import math
from itertools import combinations, product

import numpy as np
import pandas as pd

from .stats import nested_bootstrap
from .stratified import cmh_test, common_odds_ratio

CELL = ["config", "policy", "adjuster"]
BUDGET_TEST_COLUMNS = ["config", "budget", "method", "baseline", "test", "family",
                       "n_instances", "runs", "rate", "baseline_rate", "odds_ratio",
                       "odds_ratio_low", "odds_ratio_high", "odds_ratio_method", "statistic",
                       "p_value", "p_holm", "reject", "note"]
CURVE_TEST_COLUMNS = ["config", "method", "baseline", "test", "family", "n_instances", "runs",
                      "area", "baseline_area", "area_difference", "difference_low",
                      "difference_high", "permutations", "exact", "p_value", "p_holm",
                      "reject", "note"]
CMH = "Cochran-Mantel-Haenszel, continuity-corrected, stratified by instance"
PERMUTATION = "permutation of method labels within instance, mean normalised area"
EXACT_LIMIT = 20_000  # enumerate every relabelling when there are at most this many


def methods_of(frame: pd.DataFrame) -> pd.Series:
    return frame["policy"] + "+" + frame["adjuster"]


def check_baseline(methods, baseline: str | None) -> str:
    """``baseline`` if it names one of ``methods`` (default: the first); else a one-line
    ValueError listing them."""
    methods = list(dict.fromkeys(methods))
    if baseline is None:
        return methods[0]
    if baseline not in methods:
        raise ValueError(f"--baseline {baseline} names no method of the grid: use one of "
                         f"{', '.join(methods)}")
    return baseline


def same_runs_as(same: dict[tuple[str, str], str] | None, config: str, method: str,
                 baseline: str) -> str | None:
    """The method whose runs ``method``'s are on ``config``, when testing it against
    ``baseline`` would repeat that method's test or test the baseline against itself, else
    None. ``same`` maps (config, method) to the method listed first with the same runs
    (``Grid.same_cells``)."""
    same = same or {}
    if same.get((config, method), method) == same.get((config, baseline), baseline):
        return baseline
    return same.get((config, method))


def _not_tested(twin: str) -> str:
    return f"no test: the same runs as {twin}"


def holm_adjusted(p_values: np.ndarray) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values of one family of m tests: with p_(1) <= ...
    <= p_(m), p~_(i) = min(1, max_{j <= i} (m - j + 1) p_(j)), in the order given.
    statsmodels' ``multipletests(method="holm")`` computes the same (the tests check it
    against it), but runs a full ``gc.collect()`` per call: up to half a second per family in
    a process holding numba's kernels, minutes for a grid's report."""
    order = np.argsort(p_values, kind="stable")
    m = len(p_values)
    stepped = np.maximum.accumulate(p_values[order] * np.arange(m, 0, -1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def _holm(frame: pd.DataFrame, by: list[str], alpha: float) -> pd.DataFrame:
    """p_holm, Holm's adjusted p-values (``holm_adjusted``), and reject (p_holm <= alpha)
    within each group ``by`` of the rows with a p-value (others: NaN, False)."""
    p_holm = np.full(len(frame), np.nan)
    tested = frame["p_value"].notna().to_numpy()
    if tested.any():
        groups = frame.loc[tested].groupby(by, sort=False).indices
        positions = np.flatnonzero(tested)
        p_values = frame["p_value"].to_numpy()
        for rows in groups.values():
            p_holm[positions[rows]] = holm_adjusted(p_values[positions[rows]])
    return frame.assign(p_holm=p_holm, reject=np.nan_to_num(p_holm, nan=np.inf) <= alpha)


def _arrays(instances: pd.DataFrame):
    """Per config: (budgets [B], methods [M], failures and runs [M, B, J] over the config's
    instances, runs 0 where a method did not search an instance)."""
    frame = instances.assign(method=methods_of(instances))
    for config, group in frame.groupby("config", sort=False):
        methods = list(dict.fromkeys(group["method"]))
        budgets = np.sort(group["budget"].unique())
        trees = np.sort(group["tree_index"].unique())
        m = pd.Categorical(group["method"], categories=methods).codes
        b = np.searchsorted(budgets, group["budget"].to_numpy())
        j = np.searchsorted(trees, group["tree_index"].to_numpy())
        failures = np.zeros((len(methods), len(budgets), len(trees)), dtype=np.int64)
        runs = np.zeros_like(failures)
        failures[m, b, j] = group["failures"].to_numpy()
        runs[m, b, j] = group["runs"].to_numpy()
        yield config, budgets, methods, failures, runs


def budget_tests(instances: pd.DataFrame, baseline: str | None = None,
                 alpha: float = 0.05,
                 same: dict[tuple[str, str], str] | None = None) -> pd.DataFrame:
    """Every method against ``baseline`` (default: the first method listed) at every budget of
    every config, by the CMH test (``cmh_test``) over the instances both searched; Holm within
    the config, across its budgets and methods. ``rate`` and ``baseline_rate`` are the pooled
    failure rates (lower is better); ``odds_ratio`` with ``odds_ratio_low`` and
    ``odds_ratio_high`` the common odds ratio of failing, method against baseline, and its
    1 - alpha interval, computed as ``odds_ratio_method`` says (``common_odds_ratio``). A
    budget where both fail none or all of their runs on every instance has no test (p NaN,
    left out of the family; ``note`` says why), nor has a method with the runs of another
    (``same_runs_as``). Columns: BUDGET_TEST_COLUMNS."""
    baseline = check_baseline(methods_of(instances), baseline)
    rows = []
    for config, budgets, methods, failures, runs in _arrays(instances):
        if baseline not in methods:
            continue
        base = methods.index(baseline)
        for m, method in enumerate(methods):
            if m == base:
                continue
            twin = same_runs_as(same, config, method, baseline)
            for b, budget in enumerate(budgets):
                shared = (runs[m, b] > 0) & (runs[base, b] > 0)
                fa, na = failures[m, b, shared], runs[m, b, shared]
                fb, nb = failures[base, b, shared], runs[base, b, shared]
                tables = np.stack([np.stack([fa, na - fa], -1), np.stack([fb, nb - fb], -1)], 1)
                result = cmh_test(tables) if shared.any() and twin is None else None
                note = "" if result is not None else (
                    _not_tested(twin) if twin is not None else
                    "no test: no shared instance" if not shared.any() else
                    "no test: both fail none or all of their runs on every instance")
                statistic, p_value = result if result is not None else (np.nan, np.nan)
                ratio = common_odds_ratio(tables, alpha) if result is not None else None
                rows.append((config, int(budget), method, baseline, CMH,
                             f"{config}, every budget: each method vs {baseline}",
                             int(shared.sum()), int(na.sum()), fa.sum() / max(na.sum(), 1),
                             fb.sum() / max(nb.sum(), 1),
                             *(ratio if ratio is not None else (np.nan,) * 3 + ("",)),
                             statistic,
                             p_value, note))
    columns = [c for c in BUDGET_TEST_COLUMNS if c not in ("p_holm", "reject")]
    tests = _holm(pd.DataFrame(rows, columns=columns), ["config"], alpha)
    return tests[BUDGET_TEST_COLUMNS]


def _stratum_sums(values: np.ndarray, n_method: int) -> np.ndarray:
    """Sums of every subset of ``n_method`` of a stratum's ``values``: the method's share of
    the stratum under each relabelling."""
    return np.array([values[list(pick)].sum() for pick in combinations(range(len(values)),
                                                                        n_method)])


def stratified_permutation_test(strata: list[tuple[np.ndarray, np.ndarray]],
                                n_permutations: int = 9999,
                                rng: np.random.Generator | None = None
                                ) -> tuple[float, float, int, bool]:
    """Two-sided permutation test of mean(x) - mean(y) over strata [(x_s, y_s)], the labels
    x/y permuted within each stratum. Returns (difference, p, permutations, exact).

    D = sum_s sum(x_s) / N_x - sum_s sum(y_s) / N_y. When the relabellings number at most
    EXACT_LIMIT (prod_s C(n_s, |x_s|)), every one is enumerated and p = #{|D*| >= |D|} / count
    (the identity included); otherwise ``n_permutations`` relabellings are drawn from ``rng``
    (a stratum's x-share is a multivariate hypergeometric draw over its distinct values) and
    p = (1 + #{|D*| >= |D|}) / (1 + n_permutations), a valid p-value (Phipson & Smyth 2010).
    |D*| >= |D| is taken with a relative tolerance of 1e-9 for rounding."""
    n_x = sum(len(x) for x, _ in strata)
    n_y = sum(len(y) for _, y in strata)
    totals = sum(float(np.sum(x) + np.sum(y)) for x, y in strata)
    observed = sum(float(np.sum(x)) for x, _ in strata)

    def difference(x_sum):
        return x_sum / n_x - (totals - x_sum) / n_y

    count = math.prod(math.comb(len(x) + len(y), len(x)) for x, y in strata)
    exact = count <= EXACT_LIMIT
    if exact:
        shares = [_stratum_sums(np.concatenate([x, y]).astype(float), len(x)) for x, y in strata]
        x_sums = np.array([sum(parts) for parts in product(*shares)])
    else:
        rng = np.random.default_rng() if rng is None else rng
        x_sums = np.zeros(n_permutations)
        for x, y in strata:
            values, counts = np.unique(np.concatenate([x, y]), return_counts=True)
            if len(values) > 1:
                draws = rng.multivariate_hypergeometric(counts, len(x), size=n_permutations,
                                                        method="count")
                x_sums += draws @ values
            else:
                x_sums += len(x) * values[0]
    observed_difference = difference(observed)
    tolerance = 1e-9 * max(1.0, abs(observed_difference))
    extreme = int(np.sum(np.abs(difference(x_sums)) >= abs(observed_difference) - tolerance))
    p = extreme / len(x_sums) if exact else (1 + extreme) / (1 + n_permutations)
    return observed_difference, min(1.0, p), len(x_sums), exact


def difference_interval(strata: list[tuple[np.ndarray, np.ndarray]], n_boot: int = 2000,
                        rng: np.random.Generator | None = None,
                        alpha: float = 0.05) -> tuple[float, float]:
    """Percentile 1 - alpha interval of mean(x) - mean(y) over strata [(x_s, y_s)] (the runs'
    values of two methods on shared instances) from a two-stage bootstrap paired by instance:
    the instances drawn with replacement once for both methods, then each method's runs
    within every drawn instance (``stats.nested_bootstrap`` with shared picks), so
    what the instances share cancels out of the difference."""
    rng = np.random.default_rng() if rng is None else rng
    picks = rng.integers(0, len(strata), size=(n_boot, len(strata)))
    means = []
    for side in (0, 1):
        values = [np.unique(pair[side], return_counts=True) for pair in strata]
        means.append(nested_bootstrap([(v[:, None], c) for v, c in values], n_boot, rng,
                                      picks)[:, 0])
    difference = means[0] - means[1]
    return float(np.quantile(difference, alpha / 2)), float(np.quantile(difference,
                                                                         1 - alpha / 2))


def pair_seed(seed: int, config: str, method: str, baseline: str) -> list[int]:
    """The words that seed a pair's random draws: ``seed`` and four 32-bit words of the SHA-256
    of the pair's names, the same whatever else the grid holds."""
    digest = hashlib.sha256(f"{config}\n{method}\n{baseline}".encode()).digest()
    return [seed, *(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))]


def _area_test(config: str, method: str, baseline: str, areas: dict, base: dict, family: str,
               twin: str | None, alpha: float, n_permutations: int, seed: int,
               n_boot: int) -> tuple:
    """One row of CURVE_TEST_COLUMNS but p_holm and reject: ``method``'s run areas against
    ``baseline``'s ({tree_index: areas}) on the instances both searched (``curve_tests``);
    untested, with its note, when ``twin`` names a method whose runs these are, or when no
    instance is shared."""
    shared = sorted(areas.keys() & base.keys())
    strata = [(areas[j].to_numpy(float), base[j].to_numpy(float)) for j in shared]
    x = np.concatenate([one for one, _ in strata] or [[]])
    y = np.concatenate([other for _, other in strata] or [[]])
    if not strata or twin is not None:
        return (config, method, baseline, PERMUTATION, family, len(shared), len(x),
                x.mean() if len(x) else np.nan, y.mean() if len(y) else np.nan,
                *(np.nan,) * 3, 0, False, np.nan,
                _not_tested(twin) if twin is not None else "no test: no shared instance")
    words = pair_seed(seed, config, method, baseline)
    difference, p, count, exact = stratified_permutation_test(
        strata, n_permutations, np.random.default_rng([*words, 0]))
    low, high = difference_interval(strata, n_boot, np.random.default_rng([*words, 1]), alpha)
    note = "" if np.ptp(np.concatenate([x, y])) > 0 else "every run has the same area"
    return (config, method, baseline, PERMUTATION, family, len(shared), len(x), x.mean(),
            y.mean(), difference, low, high, count, exact, p, note)


TUNED_FAMILY = "every tuned constant against its default, across configurations"


def tuned_tests(run_areas: pd.DataFrame, pairs: list[tuple[str, str, str]],
                alpha: float = 0.05, n_permutations: int = 9999, seed: int = 0,
                n_boot: int = 2000, same: dict[tuple[str, str], str] | None = None
                ) -> pd.DataFrame:
    """Each cell at tuned constants against its policy's cell at the default constants:
    ``pairs`` of (config, tuned method, default method) (``Grid.tuned_pairs``), each by the
    permutation test of the runs' areas of ``curve_tests`` (``baseline`` the default), Holm
    over one family, TUNED_FAMILY: every pair of the grid, as a claim that tuning changes a
    policy somewhere pays for every tree and policy looked at. A tuned cell with its
    default's runs (the constant tuned is the default, ``same``) is not tested. Columns:
    CURVE_TEST_COLUMNS."""
    frame = run_areas.assign(method=methods_of(run_areas))
    cells = {key: dict(tuple(g.groupby("tree_index")["area"]))
             for key, g in frame.groupby(["config", "method"], sort=False)}
    rows = [_area_test(config, tuned, default, cells.get((config, tuned), {}),
                       cells.get((config, default), {}), TUNED_FAMILY,
                       default if (same or {}).get((config, tuned)) == default else None,
                       alpha, n_permutations, seed, n_boot)
            for config, tuned, default in pairs]
    columns = [c for c in CURVE_TEST_COLUMNS if c not in ("p_holm", "reject")]
    tests = _holm(pd.DataFrame(rows, columns=columns), ["family"], alpha)
    return tests[CURVE_TEST_COLUMNS]


def curve_tests(run_areas: pd.DataFrame, baseline: str | None = None, alpha: float = 0.05,
                n_permutations: int = 9999, seed: int = 0, n_boot: int = 2000,
                same: dict[tuple[str, str], str] | None = None) -> pd.DataFrame:
    """Every method against ``baseline`` on every config by ``stratified_permutation_test`` of
    the runs' normalised areas (strata: the instances both searched), Holm within the config.
    ``area`` and ``baseline_area`` are mean run areas (lower is better); ``area_difference``
    is area - baseline_area, with its ``difference_interval`` (``n_boot`` replicates)
    ``difference_low`` and ``difference_high``; ``permutations`` is the number of
    relabellings the p-value counts, ``exact`` whether that was all of them. The Monte Carlo
    draws come from ``np.random.default_rng([*pair_seed(seed, config, method, baseline), 0])``
    and the bootstrap's from the same with 1: a pair's numbers do not depend on the others.
    A method with the runs of another (``same_runs_as``) has no test (p NaN, out of the
    family). Columns: CURVE_TEST_COLUMNS."""
    frame = run_areas.assign(method=methods_of(run_areas))
    baseline = check_baseline(frame["method"], baseline)
    rows = []
    for config, group in frame.groupby("config", sort=False):
        by_method = {m: dict(tuple(g.groupby("tree_index")["area"]))
                     for m, g in group.groupby("method", sort=False)}
        if baseline not in by_method:
            continue
        for method, areas in by_method.items():
            if method != baseline:
                rows.append(_area_test(
                    config, method, baseline, areas, by_method[baseline],
                    f"{config}: each method vs {baseline}",
                    same_runs_as(same, config, method, baseline), alpha, n_permutations,
                    seed, n_boot))
    columns = [c for c in CURVE_TEST_COLUMNS if c not in ("p_holm", "reject")]
    tests = _holm(pd.DataFrame(rows, columns=columns), ["config"], alpha)
    return tests[CURVE_TEST_COLUMNS]
