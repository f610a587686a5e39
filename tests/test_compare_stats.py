"""The comparison statistics against cases small enough to check by hand."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from experiments.compare_stats import (
    aggregate_intervals,
    areas,
    budget_to_epsilon,
    cell_areas,
    comparison_tables,
    failure_area,
    failure_curves,
    paired_tests,
    performance_profile,
    playouts_to_epsilon,
    probability_of_improvement,
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


def test_budget_to_epsilon_bootstraps_the_instances():
    # A reaches 0.05 at 4, B at 8, the pooled curve (A + B) / 2 at 8: every replicate (AA, AB,
    # BB) reaches it at 4 or 8, AA (probability 1/4) at 4
    rows = curve_rows("ucb1", 0, [90, 50, 0, 0, 0]) + curve_rows("ucb1", 1, [90, 50, 40, 0, 0])
    result = budget_to_epsilon(table(rows), n_boot=1000)
    assert list(result.columns) == ["config", "policy", "adjuster", "epsilon", "playouts", "low",
                                    "high", "reached"]
    assert result.iloc[0][["playouts", "low", "high"]].tolist() == [8, 4, 8]
    assert result["reached"].item()


def test_budget_to_epsilon_states_not_reached():
    # B never reaches it: BB replicates (probability 1/4) are inf, and so is the pooled curve
    rows = curve_rows("ucb1", 0, [90, 50, 0, 0, 0]) + curve_rows("ucb1", 1, [90, 50, 40, 30, 20])
    result = budget_to_epsilon(table(rows), n_boot=1000).iloc[0]
    assert math.isnan(result["playouts"]) and not result["reached"]
    assert result["low"] == 4 and result["high"] == math.inf


def test_budget_to_epsilon_of_one_instance_draws_binomial_failures():
    # rates 1 and 0 are drawn exactly; 50/100 is above 0.05 in every draw but a vanishing few
    result = budget_to_epsilon(table(curve_rows("ucb1", 0, [100, 50, 0, 0])), n_boot=500)
    assert result.iloc[0][["playouts", "low", "high"]].tolist() == [4, 4, 4]


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


def test_paired_test_of_a_method_failing_everywhere_against_one_failing_nowhere():
    # d = 1 on 4 instances: R+ = 4 x 2.5; of the 2^4 sign flips only all + and all - are as far
    # from n(n+1)/4 = 5
    rows = [(policy, j, 1, 10, 10 if policy == "a" else 0) for policy in "ab" for j in range(4)]
    one_instance = [(policy, 0, 1, 10, 10 if policy == "a" else 0) for policy in "ab"]
    tests = paired_tests(pd.concat([table(rows), table(one_instance, config="d")]))
    assert list(tests.columns) == ["config", "budget", "method_a", "method_b", "n_instances",
                                   "statistic", "p_value", "p_holm", "reject"]
    assert tests[["method_a", "method_b"]].drop_duplicates().values.tolist() == [
        ["a+plain", "b+plain"]]
    tests = tests.set_index("config")
    assert tests.loc["c", ["statistic", "p_value", "p_holm"]].tolist() == pytest.approx(
        [10, 2 / 16, 2 / 16])  # the config's only test
    assert tests.loc["d", "n_instances"] == 1
    assert tests.loc["d", ["statistic", "p_value", "p_holm"]].isna().all()
    assert not tests.loc["d", "reject"]


def test_paired_tests_use_the_instances_every_method_searched():
    rows = [(policy, j, 1, 10, j) for policy in "ab" for j in range(4)] + [("c", 0, 1, 10, 0)]
    tests = paired_tests(table(rows))
    assert (tests["n_instances"] == 1).all() and tests["p_value"].isna().all()


def test_holm_adjusts_across_budgets_by_hand():
    # 5 instances, runs 4, d = rate_a - rate_b per budget; exact sign-flip p-values (2^5 flips):
    # t=1: d = 1 x5: only all + / all -: 2/32; t=2: d = 1 x4, -0.5 (rank 1): R- in {0, 1}
    # and mirrored: 4/32; t=4: d = 0.5 x4, -0.5 (all rank 3): 0, 1, 4 or 5 negative: 12/32;
    # t=8: d = 0 x5: 1
    failures_a = {1: [4] * 5, 2: [4, 4, 4, 4, 0], 4: [2, 2, 2, 2, 0], 8: [1] * 5}
    failures_b = {1: [0] * 5, 2: [0, 0, 0, 0, 2], 4: [0, 0, 0, 0, 2], 8: [1] * 5}
    rows = [(policy, j, t, 4, failures[t][j]) for policy, failures in
            (("a", failures_a), ("b", failures_b)) for t in failures_a for j in range(5)]
    tests = paired_tests(table(rows)).set_index("budget")
    assert tests["p_value"].tolist() == pytest.approx([2 / 32, 4 / 32, 12 / 32, 1])
    # Holm, m = 4: 4 x 0.0625 = 0.25, 3 x 0.125 = 0.375, 2 x 0.375 = 0.75, 1 x 1 = 1
    assert tests["p_holm"].tolist() == pytest.approx([0.25, 0.375, 0.75, 1])
    assert not tests["reject"].any()
    assert paired_tests(table(rows), alpha=0.3)["reject"].tolist() == [True, False, False, False]


def test_paired_p_values_are_those_of_scipy_wilcoxon_with_ties_and_zeros():
    rng = np.random.default_rng(5)
    failures = {"a": rng.integers(0, 5, size=(2, 9)), "b": rng.integers(0, 5, size=(2, 9))}
    rows = [(policy, j, 2**i, 4, counts[i, j]) for policy, counts in failures.items()
            for i in range(2) for j in range(9)]
    tests = paired_tests(table(rows))
    for i in range(2):
        direct = stats.wilcoxon(failures["a"][i] / 4, failures["b"][i] / 4, zero_method="zsplit")
        assert tests["p_value"].iloc[i] == pytest.approx(direct.pvalue)


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


def synthetic_instances():
    """2 configs x 3 methods x 4 instances x 5 budgets, failures ~ Binomial(40, rate)."""
    rng = np.random.default_rng(7)
    rows = []
    for config, hardness in (("random(4,3) b=4 d=8", 1.0), ("constant(1,2) b=4 d=8", 2.0)):
        for policy, adjuster, speed in (("ucb1", "plain", 1.0), ("ucb1", "maxfreq", 1.5),
                                        ("ucbv", "plain", 0.7)):
            for j in range(4):
                for i in range(5):
                    rate = min(1.0, 0.8 * hardness * np.exp(-speed * i))
                    rows.append((config, policy, adjuster, j, 2**i, 40, rng.binomial(40, rate)))
    return pd.DataFrame(rows, columns=["config", "policy", "adjuster", "tree_index", "budget",
                                       "runs", "failures"])


def test_a_synthetic_grid_goes_through_every_function():
    instances = synthetic_instances()
    curves = failure_curves(instances)
    assert len(curves) == 2 * 3 * 5 and not curves.isna().any().any()
    assert (curves["ci_high"] > 0).all()
    reach = budget_to_epsilon(instances, epsilon=0.1, n_boot=200)
    assert len(reach) == 6 and reach["reached"].any()
    assert not reach.loc[reach["reached"], ["playouts", "low", "high"]].isna().any().any()
    assert (reach["low"] <= reach["high"]).all()
    per_instance = areas(instances)
    assert len(per_instance) == 2 * 3 * 4 and per_instance["area"].between(0, 1).all()
    assert len(cell_areas(instances)) == 6
    tests = paired_tests(instances)
    assert len(tests) == 2 * 5 * 3 and not tests.isna().any().any()
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
    from experiments.compare_report import write_report

    tables = comparison_tables(synthetic_instances(), epsilon=0.1, n_boot=100)
    assert set(tables) == {"instances", "curves", "to_epsilon", "tests", "areas", "aggregates",
                           "improvement", "profile"}
    markdown, _ = write_report(tmp_path, tables, {"epsilon": 0.1})
    text = markdown.read_text()
    assert "missing or empty" not in text and "No playouts" not in text
    assert all((tmp_path / f"{name}.csv").exists() for name in tables)
