"""The playout's reward of its terminal's score (``mcts.synthetic.score_reward``): the rules by
hand, the linear rule against the exact analysis and the plain-Python reference, a user's rule, and
the options' errors."""

import numpy as np
import pytest
from numba import njit
from reference_mcts import reference_failure_rate

from experiments import Curve, failure_block
from experiments.cli import main
from experiments.curves.failure import search_config, tree_instance
from mcts.core.search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from mcts.synthetic import search, tree_arrays
from mcts.synthetic.score_reward import (
    LINEAR,
    ScoreReward,
    check_reward_range,
    load_reward,
    playout_reward,
)
from trees import analyze


@njit
def _reward(rule, score, theta, low, high):
    return playout_reward(rule, np.int64(score), theta, low, high)


def test_the_built_in_rules_by_hand():
    """The outcome: 1 above theta, 1/2 at it, 0 below; the linear rule: (s - low) / (high -
    low), theta unread, 1/2 on a tree of one score."""
    outcome, linear = ScoreReward(), ScoreReward(LINEAR)
    assert [_reward(outcome, s, 0.5, -3, 5) for s in (0, 1)] == [0.0, 1.0]
    assert _reward(outcome, 2, 2.0, -3, 5) == 0.5
    assert [_reward(linear, s, 7.0, -3, 5) for s in (-3, 1, 5)] == [0.0, 0.5, 1.0]
    assert _reward(linear, 4, 0.0, 4, 4) == 0.5
    assert load_reward("linear") == linear and load_reward("outcome") == outcome


def test_linear_rewards_of_a_one_ply_search_are_the_exact_mean_scores():
    """Expansion stopped at depth 1: each root child is an arm whose mean reward is the exact
    mean of (S_i - low) / (high - low) under uniform playouts (``trees.analysis``'s pmf)."""
    curve = Curve("random(3,2)", search_depth=1, max_budget=2048, reward="linear")
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    exact = analyze(instance)
    config = search_config(curve, instance)
    low, high = config.score_low, config.score_high
    expected = exact.pmf @ ((exact.support - low) / (high - low))
    rewards, visits = np.zeros(4), np.zeros(4)
    for seed in range(20):
        failed = np.zeros(12, np.bool_)
        tree = search(tree_arrays(instance), config, 2048, np.uint64(seed),
                      *_tables_and_policy(curve), failed)
        first = tree.stats[0, FIRST_CHILD]
        rewards += tree.rewards[first:first + 4, REWARD_SUM]
        visits += tree.stats[first:first + 4, VISITS]
    means = rewards / visits
    assert np.all(np.abs(means - expected) < 4 * 0.5 / np.sqrt(visits)), (means, expected)


def _tables_and_policy(curve):
    from bandits import index_tables, make_policy

    return index_tables(curve.max_budget), make_policy(curve.policy, **curve.policy_params)


@pytest.mark.parametrize("tree, policy, adjuster", [
    ("random(3,2)", "ucb1", "plain"),
    ("random(3,2)", "thompson", "value"),
    ("constant(1,3)+end(0.2)", "klucb", "plain"),
])
def test_linear_rewards_agree_with_the_reference(tree, policy, adjuster):
    """Failure rates per budget under the linear reward agree with the plain-Python
    reference's (|z| < 4 at every budget)."""
    curve = Curve(tree, policy, adjuster, branching=4, depth=4, max_budget=64, runs=4000,
                  reward="linear")
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5).mean(axis=0)
    instance = tree_instance(curve.tree, 4, 4, 5, 0)
    runs = 300 if policy == "klucb" else 1000
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=9,
                                                policy=policy, adjuster=adjuster,
                                                reward="linear"))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def test_the_outcome_is_the_default_bit_for_bit():
    """reward="outcome" is the default: same key, no stored field, the same runs."""
    options = {"branching": 2, "depth": 6, "max_budget": 64, "runs": 50}
    default = Curve("constant(1,3)", **options)
    explicit = Curve("constant(1,3)", reward="outcome", **options)
    assert explicit.key == default.key and "reward" not in explicit.to_dict()
    assert np.array_equal(failure_block(default, 0, 0, 50, seed=3),
                          failure_block(explicit, 0, 0, 50, seed=3))


def test_a_users_reward_rule_runs(monkeypatch):
    """examples/my_reward.py: its record loads, and a search runs with it."""
    monkeypatch.syspath_prepend("examples")
    rule = load_reward("my_reward:rule")
    assert type(rule).__name__.startswith("Plugin_Margin") and rule.scale == 2.0
    assert _reward(rule, 2, 0.0, -5, 5) == pytest.approx(0.5 + 0.5 * np.tanh(1.0))
    curve = Curve("random(4,2)", branching=2, depth=6, max_budget=64, runs=100,
                  reward="my_reward:rule")
    rates = failure_block(curve, 0, 0, curve.runs, seed=2).mean(axis=0)
    assert 0.0 <= rates.min() and rates.max() <= 1.0


_OUTSIDE = '''
from typing import NamedTuple
from numba import njit
from mcts.synthetic.score_reward import RewardRule

class Raw(NamedTuple):
    unused: float = 0.0

@njit
def reward(rule, score, theta, low, high):
    return float(score)

rule = RewardRule("raw", Raw, reward)
'''


@pytest.mark.parametrize("argv, fragment", [
    (["--reward", "bad_reward:rule"], "outside [0, 1]"),
    (["--reward", "squared"], "neither built in (outcome, linear, sum)"),
    (["--reward", "my_backup:rule"], "not a reward rule"),
    (["--reward", "linear", "--rescore", "--adjuster", "maxfreq"],
     "--reward and --rescore exclude each other"),
    (["--reward", "linear", "--shaping", "rb(k=2)"], "--reward and --shaping exclude"),
])
def test_bad_reward_options_are_one_line(argv, fragment, capsys, monkeypatch, tmp_path):
    (tmp_path / "bad_reward.py").write_text(_OUTSIDE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend("examples")
    code = main(["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "4",
                 "--max-budget", "16", "--workers", "1", *argv])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and fragment in error, error


@pytest.mark.parametrize("policy", ["klucb", "bayesucb"])
def test_the_policies_caches_choose_as_every_index_under_linear_rewards(policy):
    """KL-UCB's cached roots and Bayes-UCB's cached quantile bounds assume nothing of the
    rewards but that they lie in [0, 1]: under the linear reward the whole search (tree,
    proofs, failures) equals one computing every index at every selection."""
    curve = Curve("random(3,2)+end(0.1)", policy, "plain", max_budget=1024, reward="linear")
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    config = search_config(curve, instance)
    tables, policy_record = _tables_and_policy(curve)
    for seed in range(3):
        runs = []
        for keep in (True, False):
            failed = np.zeros(11, np.bool_)
            tree = search(tree_arrays(instance), config._replace(cache_indices=keep), 1024,
                          np.uint64(seed), tables, policy_record, failed)
            runs.append((tree, failed))
        (cached, cached_failed), (every, every_failed) = runs
        assert np.array_equal(cached.stats, every.stats)
        assert np.array_equal(cached.rewards, every.rewards)
        assert np.array_equal(cached_failed, every_failed)


def test_a_rule_out_of_range_is_refused_after_a_good_one_of_equal_fields(tmp_path, monkeypatch):
    """Two rules' records with equal fields are equal tuples: the range check, cached per
    record, must still tell them apart by their class (the CI run that checked the examples'
    rule first once let the raw score through)."""
    good = _OUTSIDE.replace("return float(score)", "return 0.5")
    (tmp_path / "good_rule.py").write_text(good)
    (tmp_path / "raw_rule.py").write_text(_OUTSIDE)
    monkeypatch.syspath_prepend(str(tmp_path))
    check_reward_range(load_reward("good_rule:rule"), -3, 3)
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        check_reward_range(load_reward("raw_rule:rule"), -3, 3)
