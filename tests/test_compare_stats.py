"""The comparison statistics against cases small enough to check by hand."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import StratifiedTable
from statsmodels.stats.multitest import multipletests

from experiments.comparisons.aggregates import (
    aggregate_intervals,
    performance_profile,
    probability_of_improvement,
)
from experiments.comparisons.stats import (
    area_intervals,
    areas,
    budget_to_epsilon,
    cell_areas,
    failure_area,
    failure_bits,
    failure_curves,
    instances_from_runs,
    nested_bootstrap,
    playouts_to_epsilon,
    run_areas,
    run_failures,
)
from experiments.comparisons.stratified import cmh_test, common_odds_ratio
from experiments.comparisons.tables import comparison_tables
from experiments.comparisons.tests import (
    budget_tests,
    check_baseline,
    curve_tests,
    difference_interval,
    holm_adjusted,
    stratified_permutation_test,
    tuned_tests,
)

Z = 1.959963984540054


def table(rows, config="c", adjuster="plain"):
    """instances from (policy, tree_index, budget, runs, failures) rows."""
    frame = pd.DataFrame(rows, columns=["policy", "tree_index", "budget", "runs", "failures"])
    return frame.assign(config=config, adjuster=adjuster)


def area_table(values_by_cell):
    """areas from {(config, policy): [area of instance 0, 1, ...]}."""
    return pd.DataFrame([(config, policy, "plain", j, area)
                         for (config, policy), values in values_by_cell.items()
                         for j, area in enumerate(values)],
                        columns=["config", "policy", "adjuster", "tree_index", "area"])


def wilson(k, n):
    centre = (k + Z**2 / 2) / (n + Z**2)
    half = Z * math.sqrt(k * (n - k) / n + Z**2 / 4) / (n + Z**2)
    return centre - half, centre + half


def test_wilson_intervals_pool_the_instances():
    rows = [("ucb1", 0, 1, 10, 2), ("ucb1", 1, 1, 10, 1), ("ucb1", 0, 2, 10, 0),
            ("ucb1", 1, 2, 10, 0)]
    curves = failure_curves(table(rows))
    assert list(curves.columns) == ["config", "policy", "adjuster", "budget", "runs", "failures",
                                    "failure_rate", "ci_low", "ci_high"]
    assert curves["failures"].tolist() == [3, 0] and curves["runs"].tolist() == [20, 20]
    assert curves["failure_rate"].tolist() == [0.15, 0.0]
    for (low, high), (_, row) in zip([wilson(3, 20), wilson(0, 20)], curves.iterrows()):
        assert row["ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, abs=1e-12)
    assert curves["ci_high"].iloc[1] == pytest.approx(Z**2 / (20 + Z**2))


@pytest.mark.parametrize(("rates", "expected"), [
    ([0.9, 0.5, 0.04, 0.03, 0.0], 4),           # reached at 4
    ([0.9, 0.5, 0.3, 0.2, 0.1], math.nan),      # not reached
    ([0.9, 0.04, 0.2, 0.03, 0.01], 8),          # dips below at 2, rises above at 4
    ([0.05, 0.0, 0.0, 0.0, 0.0], 1),            # <= epsilon everywhere
    ([0.0, 0.0, 0.0, 0.0, 0.06], math.nan),     # rises above at the largest budget
])
def test_playouts_to_epsilon_on_scripted_curves(rates, expected):
    playouts = playouts_to_epsilon([1, 2, 4, 8, 16], rates, 0.05)
    assert playouts == expected or (math.isnan(expected) and math.isnan(playouts))


def test_playouts_to_epsilon_sorts_the_budgets_and_checks_epsilon():
    assert playouts_to_epsilon([8, 1, 4, 2], [0.0, 0.9, 0.01, 0.5], 0.05) == 4
    for epsilon in (0, 1, -0.1):
        with pytest.raises(ValueError, match=r"epsilon must lie in \(0, 1\)"):
            playouts_to_epsilon([1, 2], [0.5, 0.0], epsilon)
    with pytest.raises(ValueError, match="epsilon"):
        budget_to_epsilon(table([("ucb1", 0, 1, 10, 1)]), epsilon=1.5)


def curve_rows(policy, tree_index, failures, runs=100):
    return [(policy, tree_index, 2**i, runs, f) for i, f in enumerate(failures)]


def run_rows(policy, tree_index, failures, runs=100, config="c", adjuster="plain"):
    """Per-run rows whose failure counts per budget 2^k are ``failures`` (non-increasing):
    run r fails at 2^k when r < failures[k]."""
    failed = np.arange(runs)[:, None] < np.asarray(failures)[None, :]
    bits = failure_bits(failed)
    return pd.DataFrame({"config": config, "policy": policy, "adjuster": adjuster,
                         "tree_index": tree_index, "run": np.arange(runs),
                         "max_budget": 2 ** (len(failures) - 1), "failed_bits": bits})


def runs_of(*parts):
    return pd.concat(parts, ignore_index=True)


def test_failure_bits_round_trip_and_give_the_instance_counts():
    failed = np.array([[1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]], dtype=bool)
    assert failure_bits(failed).tolist() == [3, 1, 8]
    assert np.array_equal(run_failures(failure_bits(failed), 8), failed)
    runs = runs_of(run_rows("ucb1", 0, [3, 2, 0]), run_rows("ucb1", 1, [1, 1, 1], runs=4))
    instances = instances_from_runs(runs)
    assert instances["failures"].tolist() == [3, 2, 0, 1, 1, 1]
    assert instances["runs"].tolist() == [100] * 3 + [4] * 3
    assert instances["budget"].tolist() == [1, 2, 4] * 2


def test_a_runs_area_by_hand():
    # fails at 1 and 2, not at 4 and 8: trapezoids 1 + 0.5 + 0 over x = log2 t in [0, 3]
    runs = run_rows("ucb1", 0, [1, 1, 0, 0], runs=2)
    assert run_areas(runs)["area"].tolist() == pytest.approx([0.5, 0.0])
    cell = area_intervals(runs, n_boot=200).iloc[0]
    assert cell["area"] == pytest.approx(0.25) and cell["runs"] == 2
    assert cell["low"] <= cell["area"] <= cell["high"]


def test_budget_to_epsilon_bootstraps_the_instances():
    # A reaches 0.05 at 4, B at 8, the pooled curve (A + B) / 2 at 8: every replicate (AA, AB,
    # BB) reaches it at 4 or 8, AA (probability 1/4) at 4; resampling B's runs keeps its rate
    # at 4 near 0.4
    runs = runs_of(run_rows("ucb1", 0, [90, 50, 0, 0, 0]), run_rows("ucb1", 1, [90, 50, 40, 0, 0]))
    result = budget_to_epsilon(runs, n_boot=1000)
    assert list(result.columns) == ["config", "policy", "adjuster", "epsilon", "playouts", "low",
                                    "high", "reached"]
    assert result.iloc[0][["playouts", "low", "high"]].tolist() == [8, 4, 8]
    assert result["reached"].item()


def test_budget_to_epsilon_states_not_reached():
    # B never reaches it: BB replicates (probability 1/4) are inf, and so is the pooled curve
    runs = runs_of(run_rows("ucb1", 0, [90, 50, 0, 0, 0]),
                   run_rows("ucb1", 1, [90, 50, 40, 30, 20]))
    result = budget_to_epsilon(runs, n_boot=1000).iloc[0]
    assert math.isnan(result["playouts"]) and not result["reached"]
    assert result["low"] == 4 and result["high"] == math.inf


def test_budget_to_epsilon_of_one_instance_resamples_its_runs():
    # rates 1 and 0 are drawn exactly; 50/100 is above 0.05 in every draw but a vanishing few
    result = budget_to_epsilon(run_rows("ucb1", 0, [100, 50, 0, 0]), n_boot=500)
    assert result.iloc[0][["playouts", "low", "high"]].tolist() == [4, 4, 4]


def test_four_alike_instances_give_no_zero_width_interval():
    # the report once gave "512 [512, 512]". Every instance fails 4, 2, 1 of 50 runs at 256,
    # 512, 1024: resampling instances alone gives 512 in every replicate; resampling their runs
    # too puts the rate at 512 above 0.05 in about a quarter of the replicates (1024 then)
    failures = [50] * 8 + [4, 2, 1]
    runs = runs_of(*(run_rows("ucb1", j, failures, runs=50) for j in range(4)))
    result = budget_to_epsilon(runs, n_boot=2000).iloc[0]
    assert result["playouts"] == 512
    assert result["low"] <= 512 and result["high"] == 1024


def test_failure_area_by_hand():
    # x = log2 t = 0, 1, 2, 3: trapezoids 0.75 + 0.5 + 0.25 = 1.5 over a range of 3
    assert failure_area([1, 2, 4, 8], [1.0, 0.5, 0.5, 0.0]) == pytest.approx(0.5)
    assert failure_area([8, 1, 2, 4], [0.0, 1.0, 0.5, 0.5]) == pytest.approx(0.5)
    assert failure_area([16], [0.3]) == 0.3
    rows = curve_rows("ucb1", 0, [10, 5, 5, 0], runs=10) + curve_rows("ucb1", 1, [10, 0, 0, 0],
                                                                       runs=10)
    per_instance = areas(table(rows))
    assert list(per_instance.columns) == ["config", "policy", "adjuster", "tree_index", "area"]
    assert per_instance["area"].tolist() == pytest.approx([0.5, 1 / 6])
    assert cell_areas(table(rows))["area"].item() == pytest.approx((0.5 + 1 / 6) / 2)


def test_aggregate_intervals_match_a_direct_scipy_bootstrap():
    first, second = np.array([0.1, 0.4, 0.3]), np.array([0.0, 0.2, 0.9, 0.5])
    result = aggregate_intervals(area_table({("c1", "ucb1"): first, ("c2", "ucb1"): second}),
                                 n_boot=500, seed=3)
    assert list(result.columns) == ["method", "metric", "estimate", "low", "high"]
    result = result.set_index("metric")
    assert (result["method"] == "ucb1+plain").all()
    pooled = {"mean": lambda a, b, axis: np.mean(np.concatenate([a, b], axis), axis=axis),
              "iqm": lambda a, b, axis: stats.trim_mean(np.concatenate([a, b], axis), 0.25,
                                                        axis=axis)}
    for metric, statistic in pooled.items():
        direct = stats.bootstrap((first, second), statistic, n_resamples=500,
                                 method="percentile", rng=np.random.default_rng(3))
        assert result.loc[metric, "estimate"] == pytest.approx(statistic(first, second, 0))
        assert result.loc[metric, "low"] == pytest.approx(direct.confidence_interval.low)
        assert result.loc[metric, "high"] == pytest.approx(direct.confidence_interval.high)


def test_interquartile_mean_by_hand():
    values = [0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.9, 1.0]  # middle half: 0.1 .. 0.4
    result = aggregate_intervals(area_table({("c", "ucb1"): values}), n_boot=200)
    estimates = result.set_index("metric")["estimate"]
    assert estimates["iqm"] == pytest.approx(0.25) and estimates["mean"] == pytest.approx(0.3625)


def test_a_config_of_one_instance_enters_every_replicate_as_is():
    result = aggregate_intervals(area_table({("c1", "a"): [0.2], ("c2", "a"): [0.2]}))
    assert result[["estimate", "low", "high"]].to_numpy() == pytest.approx(0.2)
    mixed = aggregate_intervals(area_table({("c1", "a"): [0.2], ("c2", "a"): [0.0, 1.0]}))
    mean = mixed.set_index("metric").loc["mean"]
    assert (mean["estimate"], mean["low"], mean["high"]) == pytest.approx((0.4, 0.2 / 3, 2.2 / 3))


def test_probability_of_improvement_counted_by_hand():
    # x = 0.1 beats all three y; x = 0.2 ties 0.2 and beats 0.4, 0.35; x = 0.3 beats 0.4, 0.35
    x, y = [0.1, 0.2, 0.3], [0.2, 0.4, 0.35]
    result = probability_of_improvement(area_table({("c", "x"): x, ("c", "y"): y}), n_boot=300)
    assert list(result.columns) == ["method_x", "method_y", "probability", "low", "high"]
    pairs = result.set_index(["method_x", "method_y"])
    assert pairs.loc[("x+plain", "y+plain"), "probability"] == pytest.approx(7.5 / 9)
    assert pairs.loc[("y+plain", "x+plain"), "probability"] == pytest.approx(1.5 / 9)
    low, high = pairs.loc[("x+plain", "y+plain"), ["low", "high"]]
    assert 0 <= low <= 7.5 / 9 <= high <= 1
    assert pairs.loc[("y+plain", "x+plain"), ["low", "high"]].tolist() == pytest.approx(
        [1 - high, 1 - low])
    # a second config: 0.5 and 0.6 both beat 0.7, lose to 0.4: 2/4; mean (5/6 + 1/2) / 2
    two = area_table({("c", "x"): x, ("c", "y"): y, ("d", "x"): [0.5, 0.6], ("d", "y"): [0.4, 0.7]})
    assert probability_of_improvement(two, n_boot=300)["probability"].iloc[0] == pytest.approx(
        2 / 3)


def test_performance_profile_by_hand():
    profile = performance_profile(area_table({("c", "a"): [0.1], ("d", "a"): [0.5]}),
                                  taus=[0, 0.1, 0.5, 1])
    assert list(profile.columns) == ["method", "tau", "fraction"]
    assert profile["fraction"].tolist() == [0, 0.5, 1, 1]
    assert len(performance_profile(area_table({("c", "a"): [0.1]}))) == 101


def synthetic_runs():
    """2 configs x 3 methods x 4 instances x 40 runs, budgets 1..16, run r on an instance
    failing at 2^i when r < Binomial(40, rate_i) (sorted, so the counts do not increase)."""
    rng = np.random.default_rng(7)
    parts = []
    for config, hardness in (("random(4,3) b=4 d=8", 1.0), ("constant(1,2) b=4 d=8", 2.0)):
        for policy, adjuster, speed in (("ucb1", "plain", 1.0), ("ucb1", "maxfreq", 1.5),
                                        ("ucbv", "plain", 0.7)):
            for j in range(4):
                rates = np.minimum(1.0, 0.8 * hardness * np.exp(-speed * np.arange(5)))
                failures = np.sort(rng.binomial(40, rates))[::-1]
                parts.append(run_rows(policy, j, failures, runs=40, config=config,
                                      adjuster=adjuster))
    return runs_of(*parts)


def test_a_synthetic_grid_goes_through_every_function():
    runs = synthetic_runs()
    instances = instances_from_runs(runs)
    curves = failure_curves(instances)
    assert len(curves) == 2 * 3 * 5 and not curves.isna().any().any()
    assert (curves["ci_high"] > 0).all()
    reach = budget_to_epsilon(runs, epsilon=0.1, n_boot=200)
    assert len(reach) == 6 and reach["reached"].any()
    assert not reach.loc[reach["reached"], ["playouts", "low", "high"]].isna().any().any()
    assert (reach["low"] <= reach["high"]).all()
    per_instance = areas(instances)
    assert len(per_instance) == 2 * 3 * 4 and per_instance["area"].between(0, 1).all()
    assert cell_areas(instances)["area"].to_numpy() == pytest.approx(
        area_intervals(runs, n_boot=50)["area"].to_numpy())
    tests = budget_tests(instances)
    assert len(tests) == 2 * 5 * 2 and set(tests["baseline"]) == {"ucb1+plain"}
    whole = curve_tests(run_areas(runs), baseline="ucbv+plain", n_permutations=199)
    assert len(whole) == 2 * 2 and set(whole["method"]) == {"ucb1+plain", "ucb1+maxfreq"}
    aggregates = aggregate_intervals(per_instance, n_boot=200)
    assert len(aggregates) == 3 * 2 and not aggregates.isna().any().any()
    improvement = probability_of_improvement(per_instance, n_boot=200)
    assert len(improvement) == 3 * 2 and not improvement.isna().any().any()
    assert len(performance_profile(per_instance)) == 3 * 101


def test_a_table_without_the_contract_columns_is_refused():
    with pytest.raises(ValueError, match="lacks the columns tree_index"):
        failure_curves(pd.DataFrame(columns=["config", "policy", "adjuster", "budget", "runs",
                                             "failures"]))


def test_comparison_tables_feed_the_report(tmp_path):
    """Every table the report reads comes out of one call, and the report takes them all."""
    from experiments.comparisons.report import write_report

    tables = comparison_tables(synthetic_runs(), epsilon=0.1, n_boot=100, n_permutations=99)
    assert set(tables) == {"instances", "curves", "to_epsilon", "budget_tests", "curve_tests",
                           "cell_areas", "areas", "aggregates", "improvement", "profile"}
    markdown, _ = write_report(tmp_path, tables, {"epsilon": 0.1})
    text = markdown.read_text()
    assert "missing or empty" not in text and "No playouts" not in text
    assert all((tmp_path / f"{name}.csv").exists() for name in tables)


# --- tests whose unit is the run ---

def test_cmh_by_hand_and_against_statsmodels():
    # stratum 1: n = 8, rows 4 / 4, failures column 4: E a = 2, V = 4 4 4 4 / (64 7) = 256/448
    # stratum 2: n = 8, rows 4 / 4, failures column 2: E a = 1, V = 4 4 2 6 / (64 7) = 192/448
    # sum (a - E a) = (3 - 2) + (2 - 1) = 2, sum V = 1: chi^2 = (2 - 1/2)^2 / 1 = 2.25
    tables = np.array([[[3, 1], [1, 3]], [[2, 2], [0, 4]]])
    statistic, p = cmh_test(tables)
    assert statistic == pytest.approx(2.25) and p == pytest.approx(stats.chi2.sf(2.25, 1))
    reference = StratifiedTable([t for t in tables]).test_null_odds(correction=True)
    assert (statistic, p) == pytest.approx((reference.statistic, reference.pvalue))
    # a stratum with a zero margin (both fail none, or all) carries nothing and is left out
    zero_margins = np.array([*tables, [[0, 5], [0, 5]], [[5, 0], [5, 0]]])
    assert cmh_test(zero_margins) == pytest.approx((2.25, p))
    assert cmh_test(np.array([[[0, 5], [0, 5]], [[5, 0], [5, 0]]])) is None
    # within 1/2 of the expectation: no evidence at all, chi^2 = 0 (statsmodels would not clip)
    assert cmh_test(np.array([[[2, 2], [2, 2]]])) == (0.0, 1.0)


def mantel_haenszel_by_hand(tables, z=Z):
    """The MH common odds ratio R / S, R = sum a d / n, S = sum b c / n, and its interval
    exp(log OR -+ z se), the variance of log OR by Robins, Breslow & Greenland (1986, Eq. 9):
    sum P R / 2R^2 + sum (P S + Q R) / 2RS + sum Q S / 2S^2, P = (a + d) / n, Q = (b + c) / n."""
    (a, b), (c, d) = np.moveaxis(np.asarray(tables, float), 0, -1)
    n = a + b + c + d
    p, q, r, s = (a + d) / n, (b + c) / n, a * d / n, b * c / n
    ratio = r.sum() / s.sum()
    variance = ((p * r).sum() / (2 * r.sum() ** 2) + (p * s + q * r).sum() / (2 * r.sum() * s.sum())
                + (q * s).sum() / (2 * s.sum() ** 2))
    spread = z * math.sqrt(variance)
    return ratio, ratio * math.exp(-spread), ratio * math.exp(spread)


def test_the_common_odds_ratio_by_hand():
    # stratum 1: a d / n = 9/8, b c / n = 1/8; stratum 2: 8/8 and 0: OR = (17/8) / (1/8) = 17;
    # P = 6/8, Q = 2/8 in both: var log OR = (102/64) / (2 (17/8)^2) + (40/64) / (2 (17/8)(1/8))
    # + (2/64) / (2 / 64) = 3/17 + 20/17 + 1 = 40/17
    tables = np.array([[[3, 1], [1, 3]], [[2, 2], [0, 4]]])
    ratio, low, high, method = common_odds_ratio(tables)
    assert method == "Mantel-Haenszel"
    spread = Z * math.sqrt(40 / 17)
    assert (ratio, low, high) == pytest.approx((17, 17 * math.exp(-spread),
                                                17 * math.exp(spread)))
    assert (ratio, low, high) == pytest.approx(mantel_haenszel_by_hand(tables))
    # strata with a zero margin add nothing
    zero_margins = np.array([*tables, [[0, 5], [0, 5]], [[5, 0], [5, 0]]])
    assert common_odds_ratio(zero_margins)[:3] == pytest.approx((ratio, low, high))
    assert common_odds_ratio(zero_margins[2:]) is None
    # larger, seeded strata: the same as the textbook formulas
    rng = np.random.default_rng(11)
    tables = rng.integers(1, 30, size=(6, 2, 2))
    assert common_odds_ratio(tables)[:3] == pytest.approx(mantel_haenszel_by_hand(tables))


def test_a_zero_cell_in_every_stratum_gives_the_exact_conditional_odds_ratio():
    # 1 failure in 200 runs against 0: the Mantel-Haenszel ratio is inf. Given the margins
    # (one failure among 400 runs) the failure is the method's with probability
    # psi / (1 + psi): the exact interval's low end solves psi / (1 + psi) = 0.025, psi = 1/39;
    # the median-unbiased estimate solves psi / (1 + psi) = 1/2, psi = 1
    ratio, low, high, method = common_odds_ratio(np.array([[[1, 199], [0, 200]]]))
    assert method == "exact conditional, median-unbiased"
    assert (ratio, low, high) == pytest.approx((1, 1 / 39, math.inf))
    # the reverse, and Fisher's exact interval for one table (scipy) on a less even one
    assert common_odds_ratio(np.array([[[0, 200], [1, 199]]]))[:3] == pytest.approx((1, 0, 39))
    fisher = stats.contingency.odds_ratio([[0, 30], [6, 24]], kind="conditional")
    assert common_odds_ratio(np.array([[[0, 30], [6, 24]]]))[1:3] == pytest.approx(
        tuple(fisher.confidence_interval()))
    # two strata, the method failing none: P(both at 0; psi) = 10 / (10 + 50 psi + 50 psi^2
    # + 10 psi^3) * 4 / (4 + 4 psi), 0.025 at the interval's high end, 1/2 at the estimate
    ratio, low, high, _ = common_odds_ratio(np.array([[[0, 5], [3, 2]], [[0, 4], [1, 3]]]))

    def at_zero(psi):
        return 10 / (10 + 50 * psi + 50 * psi**2 + 10 * psi**3) / (1 + psi)

    assert low == 0 and at_zero(high) == pytest.approx(0.025) and 1 < high < 2
    assert at_zero(ratio) == pytest.approx(0.5) and 0 < ratio < 1


def instance_rows(policy, failures, runs, budget=1, config="c", adjuster="plain"):
    return pd.DataFrame({"config": config, "policy": policy, "adjuster": adjuster,
                         "tree_index": range(len(failures)), "budget": budget, "runs": runs,
                         "failures": failures})


def test_budget_tests_state_the_baseline_family_and_the_budgets_without_a_test():
    instances = pd.concat([
        instance_rows("a", [3, 2], 4), instance_rows("b", [1, 0], 4),
        instance_rows("c", [3, 2], 4),
        instance_rows("a", [0, 0], 4, budget=2), instance_rows("b", [0, 0], 4, budget=2),
        instance_rows("c", [4, 0], 4, budget=2)], ignore_index=True)
    tests = budget_tests(instances, baseline="a+plain")
    first = tests[(tests.budget == 1) & (tests.method == "b+plain")].iloc[0]
    assert first["statistic"] == pytest.approx(2.25)  # the tables above
    assert first["family"] == "c, every budget: each method vs a+plain"
    assert first["rate"] == pytest.approx(1 / 8) and first["baseline_rate"] == pytest.approx(5 / 8)
    # the tables above with the rows swapped: the odds ratio 1/17, its interval inverted
    _, low, high = mantel_haenszel_by_hand([[[3, 1], [1, 3]], [[2, 2], [0, 4]]])
    assert first[["odds_ratio", "odds_ratio_low", "odds_ratio_high"]].tolist() == pytest.approx(
        [1 / 17, 1 / high, 1 / low])
    assert first["odds_ratio_method"] == "Mantel-Haenszel"
    # the family is config c at every budget: the three tests with a p, Holm across them
    # (statsmodels' implementation), so a claim at one budget pays for the budgets looked at
    done = tests.dropna(subset="p_value")
    assert len(done) == 3
    np.testing.assert_allclose(done["p_holm"],
                               multipletests(done["p_value"], method="holm")[1])
    none = tests[(tests.budget == 2) & (tests.method == "b+plain")].iloc[0]
    assert math.isnan(none["p_value"]) and not none["reject"] and none["note"].startswith(
        "no test: both fail none or all")
    assert math.isnan(none["odds_ratio"]) and none["odds_ratio_method"] == ""
    # c fails 4 of 4 runs where a fails none (the other instance carries nothing): the
    # Mantel-Haenszel ratio is inf, the exact conditional interval has a finite low end
    apart = tests[(tests.budget == 2) & (tests.method == "c+plain")].iloc[0]
    assert apart["odds_ratio_method"] == "exact conditional, median-unbiased"
    assert 1 < apart["odds_ratio"] < math.inf and apart["odds_ratio_high"] == math.inf
    assert 1 < apart["odds_ratio_low"] < apart["odds_ratio"]
    assert set(budget_tests(instances)["baseline"]) == {"a+plain"}  # default: the first
    with pytest.raises(ValueError, match=r"^--baseline z\+plain names no method of the grid: "
                       r"use one of a\+plain, b\+plain, c\+plain$"):
        budget_tests(instances, baseline="z+plain")
    assert check_baseline(["a", "b"], None) == "a"


def test_a_permutation_p_on_three_and_three_runs_enumerated_by_hand():
    # D = mean(x) - mean(y) = 0.1 - 0.6; of the C(6, 3) = 20 relabellings only the identity
    # and the swap reach |D| >= 0.5: p = 2/20
    difference, p, count, exact = stratified_permutation_test(
        [(np.array([0.0, 0.1, 0.2]), np.array([0.5, 0.6, 0.7]))])
    assert (difference, p, count, exact) == (pytest.approx(-0.5), pytest.approx(0.1), 20, True)
    # ties: pooled [0, 0, 1, 1, 1, 1]; x-sums 1 (4 ways, D = -2/3), 2 (12, D = 0), 3 (4, 2/3)
    _, p, _, _ = stratified_permutation_test([(np.array([0.0, 0.0, 1.0]), np.ones(3))])
    assert p == pytest.approx(8 / 20)
    # two strata of 1 + 1: 4 relabellings; x = (0, 0), y = (1, 1): only the identity and the
    # full swap reach |D| = 1
    _, p, count, _ = stratified_permutation_test([(np.zeros(1), np.ones(1))] * 2)
    assert (p, count) == (pytest.approx(0.5), 4)


def area_rows(policy, areas_by_instance, config="c"):
    """run_areas rows from [areas of instance 0's runs, instance 1's, ...]."""
    return pd.DataFrame([(config, policy, "plain", j, r, area)
                         for j, areas in enumerate(areas_by_instance)
                         for r, area in enumerate(areas)],
                        columns=["config", "policy", "adjuster", "tree_index", "run", "area"])


def test_the_area_difference_interval_pairs_the_instances():
    # the instances differ widely, but on each the method's runs lie 0.1 below the baseline's:
    # every paired replicate differs by -0.1 (instances drawn independently per method would
    # spread it over about +-0.5)
    levels = [0.1, 0.4, 0.9]
    run_areas = pd.concat([area_rows("a", [[level] * 5 for level in levels]),
                           area_rows("b", [[level - 0.1] * 5 for level in levels])])
    test = curve_tests(run_areas, "a+plain", n_permutations=99, n_boot=500).iloc[0]
    assert test["area_difference"] == pytest.approx(test["area"] - test["baseline_area"])
    assert test[["area_difference", "difference_low", "difference_high"]].tolist() == (
        pytest.approx([-0.1] * 3))


def test_a_pairs_p_and_interval_do_not_move_when_the_grid_grows():
    """Growing the grid by two methods, a plug-in among them, leaves the first pair's
    unadjusted p-value and bootstrap interval as they were (large enough that both are drawn
    at random); its Holm-adjusted p grows with the family."""
    rng = np.random.default_rng(11)
    instances = [rng.uniform(0, 1, 30) for _ in range(4)]
    base, method = area_rows("a", instances), area_rows("b", [a * 0.9 for a in instances])
    pair = pd.concat([base, method])
    grown = pd.concat([base, area_rows("c", [areas * 1.1 for areas in instances]),  # before b
                       area_rows("my_ucb1:policy", [areas[::-1] for areas in instances]),
                       method])
    small, large = (curve_tests(frame, "a+plain", n_permutations=199, n_boot=300)
                    for frame in (pair, grown))
    first = large[large["method"] == "b+plain"].iloc[0]
    columns = ["p_value", "difference_low", "difference_high", "permutations"]
    assert not small["exact"].iloc[0]
    assert first[columns].tolist() == small.iloc[0][columns].tolist()
    assert first["p_holm"] >= small["p_holm"].iloc[0]


def test_the_area_difference_interval_of_one_instance_is_the_normal_one():
    # one instance: only the runs vary; 400 runs of areas 0 or 1 each, rates 0.3 and 0.5: the
    # interval is about -0.2 -+ 1.96 sqrt(0.3 x 0.7 / 400 + 0.5 x 0.5 / 400) = -0.2 -+ 0.066
    x, y = (np.arange(400) < 120).astype(float), (np.arange(400) < 200).astype(float)
    low, high = difference_interval([(x, y)], 4000, np.random.default_rng(5))
    spread = Z * math.sqrt((0.21 + 0.25) / 400)
    assert (low, high) == pytest.approx((-0.2 - spread, -0.2 + spread), abs=0.01)


def test_a_large_permutation_test_draws_seeded_relabellings():
    rng = np.random.default_rng(3)
    strata = [(rng.integers(0, 5, 50) / 4, rng.integers(1, 5, 50) / 4) for _ in range(3)]
    first = stratified_permutation_test(strata, 999, np.random.default_rng(1))
    again = stratified_permutation_test(strata, 999, np.random.default_rng(1))
    assert first == again and first[2:] == (999, False)
    assert 1 / 1000 <= first[1] <= 1


def test_a_permutation_test_keeps_the_labels_within_instances():
    # instance 0 is easy, instance 1 hard, for both methods alike: within instances the
    # methods do not differ (p = 1), although pooling the instances would mix them up
    strata = [(np.array([0.0, 0.0, 0.1]), np.array([0.0, 0.1, 0.0])),
              (np.array([0.9, 1.0, 1.0]), np.array([1.0, 0.9, 1.0]))]
    assert stratified_permutation_test(strata)[1] == pytest.approx(1.0)


def monotone_counts(rates, runs):
    return np.round(np.asarray(rates) * runs).astype(int)


def test_the_grid_of_issue_36_rejects_at_every_budget_from_256_on():
    # ucb1+plain fails 0.76 and ucb1+maxfreq 0.00 at 1024 playouts over 200 runs (8 instances
    # x 25 runs); below 256 both fail alike
    plain = [1.0, 0.96, 0.96, 0.92, 0.92, 0.88, 0.88, 0.84, 0.84, 0.8, 0.76]
    maxfreq = [1.0, 0.96, 0.96, 0.92, 0.92, 0.88, 0.88, 0.6, 0.0, 0.0, 0.0]
    runs = runs_of(*(run_rows("ucb1", j, monotone_counts(rates, 25), runs=25, adjuster=adjuster)
                     for adjuster, rates in (("plain", plain), ("maxfreq", maxfreq))
                     for j in range(8)))
    tables = comparison_tables(runs, baseline="ucb1+plain", n_boot=200, n_permutations=999)
    tests = tables["budget_tests"].set_index("budget")
    assert tests.loc[1024, ["rate", "baseline_rate"]].tolist() == pytest.approx([0.0, 0.76])
    assert tests.loc[tests.index >= 256, "reject"].all()
    assert not tests.loc[tests.index < 128, "reject"].any()
    assert tests.loc[1, "note"].startswith("no test")  # both fail every run at 1 playout
    whole = tables["curve_tests"].iloc[0]
    assert whole["reject"] and whole["area"] < whole["baseline_area"]
    assert whole["permutations"] == 999 and not whole["exact"]


def test_two_identical_methods_reject_at_most_five_percent_of_the_time():
    # 200 seeded repetitions: 6 instances with their own failure rate, 30 runs per method on
    # each, both methods drawn from the same law; at one budget (CMH) and over the curve
    # (the permutation test on areas taking 5 values)
    rng = np.random.default_rng(2029)
    cmh_rejections = permutation_rejections = 0
    for _ in range(200):
        rates = rng.uniform(0.05, 0.95, size=6)
        failures = rng.binomial(30, rates[:, None], size=(6, 2))
        tables = np.stack([np.stack([failures, 30 - failures], -1)[:, 0],
                           np.stack([failures, 30 - failures], -1)[:, 1]], 1)
        result = cmh_test(tables)
        cmh_rejections += result is not None and result[1] <= 0.05
        strata = [tuple(rng.binomial(4, rate, size=(2, 30)) / 4) for rate in rates]
        p = stratified_permutation_test(strata, 199, rng)[1]
        permutation_rejections += p <= 0.05
    assert cmh_rejections <= 10 and permutation_rejections <= 10


def holm_by_hand(p_values):
    """Holm (1979) step-down: the i-th smallest of m p-values times m - i + 1, at most 1 and
    never below the one before it."""
    adjusted, running = np.empty(len(p_values)), 0.0
    for i, k in enumerate(np.argsort(p_values)):
        running = max(running, min(1.0, (len(p_values) - i) * p_values[k]))
        adjusted[k] = running
    return adjusted


def test_holm_corrects_within_each_config_across_its_budgets():
    # four methods against a on two configs at two budgets: two families of eight tests
    failures = {"a": [5, 6, 4], "b": [2, 3, 1], "c": [4, 5, 4], "d": [1, 0, 1], "e": [7, 6, 6]}
    instances = pd.concat([instance_rows(policy, np.minimum(np.add(counts, shift), 10), 10,
                                         budget=budget, config=config)
                           for config, shift in (("c1", 0), ("c2", 2))
                           for budget in (1, 2)
                           for policy, counts in failures.items()], ignore_index=True)
    tests = budget_tests(instances, baseline="a+plain")
    families = tests.groupby("config")
    assert families.size().tolist() == [8, 8]
    for _, family in families:
        assert family["p_holm"].to_numpy() == pytest.approx(
            holm_by_hand(family["p_value"].to_numpy()))
    assert (tests["p_holm"] > tests["p_value"]).any()
    assert holm_by_hand(np.array([0.03, 0.5, 0.01, 0.02])) == pytest.approx(
        [0.06, 0.5, 0.04, 0.06])


def test_holm_agrees_with_statsmodels():
    # families of 1 to 12 p-values, with ties and values near 1, against multipletests
    rng = np.random.default_rng(11)
    for m in range(1, 13):
        p_values = rng.choice([rng.uniform(0, 0.1), *rng.uniform(0, 1, 3), 0.9, 1.0], m)
        assert holm_adjusted(p_values) == pytest.approx(
            multipletests(p_values, method="holm")[1], abs=1e-15)


def test_the_nested_bootstrap_resamples_instances_then_runs():
    # one instance: only its runs vary; replicate rates average the pooled rate, with the
    # binomial spread of 40 runs (sd sqrt(0.25 x 0.75 / 40) = 0.068 at a rate of 0.25)
    patterns, counts = np.array([[True], [False]]), np.array([10, 30])
    replicates = nested_bootstrap([(patterns, counts)], 4000, np.random.default_rng(5))
    assert replicates.mean() == pytest.approx(0.25, abs=0.005)
    assert replicates.std() == pytest.approx(math.sqrt(0.25 * 0.75 / 40), rel=0.05)
    # two instances failing always and never: the instance draw dominates (0, 1/2 or 1)
    strata = [(np.array([[True]]), np.array([20])), (np.array([[False]]), np.array([20]))]
    replicates = nested_bootstrap(strata, 4000, np.random.default_rng(5))
    assert set(np.unique(replicates)) == {0.0, 0.5, 1.0}
    assert np.mean(replicates == 0.5) == pytest.approx(0.5, abs=0.03)


def test_the_improvement_count_is_mann_whitney_u():
    """The pairwise count of P(X < Y) + P(X = Y) / 2 equals scipy's Mann-Whitney U of (y, x)
    over nm, ties included, for one pair and for a batch of bootstrap replicates."""
    from scipy import stats

    from experiments.comparisons.aggregates import _lower_share

    rng = np.random.default_rng(4)
    x, y = rng.integers(0, 5, (300, 8)) / 4, rng.integers(0, 5, (300, 6)) / 4  # many ties
    expected = stats.mannwhitneyu(y, x, axis=-1).statistic / (8 * 6)
    assert np.allclose(_lower_share(x, y), expected, rtol=0, atol=1e-12)
    assert _lower_share(np.array([0.1, 0.5]), np.array([0.5, 0.9])) == (1 + 1 + 0.5 + 1) / 4


def test_a_method_with_another_methods_runs_is_not_tested_nor_counted_in_the_family():
    """b2 has b's runs (a constant tuned to its default shares its cell), a2 the baseline's:
    neither is tested, and b's Holm-adjusted p is what it is without them."""
    rows = [instance_rows("a", [3, 2], 4), instance_rows("b", [1, 0], 4),
            instance_rows("c", [4, 4], 4)]
    alone = pd.concat(rows, ignore_index=True)
    instances = pd.concat([*rows, instance_rows("b2", [1, 0], 4),
                           instance_rows("a2", [3, 2], 4)], ignore_index=True)
    same = {("c", "b2+plain"): "b+plain", ("c", "a2+plain"): "a+plain"}
    tests = budget_tests(instances, "a+plain", same=same).set_index("method")
    expected = budget_tests(alone, "a+plain").set_index("method")
    assert tests.loc["b+plain", "p_holm"] == pytest.approx(expected.loc["b+plain", "p_holm"])
    assert tests.loc["b+plain", "p_holm"] != pytest.approx(
        budget_tests(instances, "a+plain").set_index("method").loc["b+plain", "p_holm"])
    for method, twin in (("b2+plain", "b+plain"), ("a2+plain", "a+plain")):
        assert math.isnan(tests.loc[method, "p_value"]) and not tests.loc[method, "reject"]
        assert tests.loc[method, "note"] == f"no test: the same runs as {twin}"
    areas = pd.DataFrame([("c", policy, "plain", j, run, area)
                          for policy, values in (("a", [0.5, 0.4]), ("b", [0.1, 0.2]),
                                                 ("b2", [0.1, 0.2]))
                          for j, area in enumerate(values) for run in range(2)],
                         columns=["config", "policy", "adjuster", "tree_index", "run", "area"])
    whole = curve_tests(areas, "a+plain", n_permutations=99, n_boot=50,
                        same=same).set_index("method")
    assert whole.loc["b2+plain", "note"] == "no test: the same runs as b+plain"
    assert math.isnan(whole.loc["b2+plain", "p_value"])
    assert whole.loc["b2+plain", "area"] == pytest.approx(0.15)
    assert whole.loc["b+plain", "p_holm"] == whole.loc["b+plain", "p_value"]  # alone in it


def test_tuned_cells_are_tested_against_their_defaults_in_one_family():
    """Each tuned cell against its own policy's cell at the default, on each config: the
    pair's p is curve_tests' for the same pair (its draws seeded by its names), Holm runs over
    every pair of the grid, and a tuned cell with its default's runs is not tested."""
    rows = []
    for config, tuned in (("c1", [0.1, 0.2, 0.1]), ("c2", [0.5, 0.45, 0.5])):
        for policy, values in (("u", [0.5, 0.45, 0.5]), ("u(tuned)", tuned),
                               ("k", [0.3, 0.3, 0.2]), ("k(tuned)", [0.3, 0.3, 0.2])):
            rows += [(config, policy, "plain", j, run, value + 0.01 * run)
                     for j, value in enumerate(values) for run in range(3)]
    areas = pd.DataFrame(rows, columns=["config", "policy", "adjuster", "tree_index", "run",
                                        "area"])
    pairs = [(config, f"{p}(tuned)+plain", f"{p}+plain") for config in ("c1", "c2")
             for p in ("u", "k")]
    same = {(config, "k(tuned)+plain"): "k+plain" for config in ("c1", "c2")}
    tests = tuned_tests(areas, pairs, n_permutations=199, n_boot=100, same=same)
    assert tests[["config", "method", "baseline"]].values.tolist() == [list(p) for p in pairs]
    assert set(tests["family"]) == {("every tuned constant against its default, across "
                                     "configurations")}
    untested = tests[tests["method"] == "k(tuned)+plain"]
    assert untested["p_value"].isna().all() and set(untested["note"]) == {
        "no test: the same runs as k+plain"}
    tested = tests.dropna(subset="p_value")
    assert len(tested) == 2 and tested["p_holm"].tolist() == pytest.approx(
        holm_adjusted(tested["p_value"].to_numpy()))
    first = tested.iloc[0]
    assert first["area_difference"] == pytest.approx(0.4 / 3 - 1.45 / 3)
    alone = curve_tests(areas[areas["config"] == "c1"], "u+plain", n_permutations=199,
                        n_boot=100).set_index("method").loc["u(tuned)+plain"]
    assert first["p_value"] == alone["p_value"] and first["difference_low"] == alone[
        "difference_low"]
