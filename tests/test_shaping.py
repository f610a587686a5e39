"""Reward shaping on synthetic trees (``mcts.synthetic.shaping``; seed 000, Eqs. 4-10; DESIGN.md
§6): specs, bonus values by hand, agreement with the plain-Python reference, and what the Relative
Bonus can and cannot change."""

import json
import math

import numpy as np
import pytest
from numba import njit
from reference_mcts import reference_failure_rate

from bandits import index_tables, make_policy
from experiments import Curve, failure_block
from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.curves.failure import search_config, tree_instance
from mcts.core.rewards import ONLINE
from mcts.core.search_tree import REWARD_SUM
from mcts.synthetic import search, tree_arrays
from mcts.synthetic.shaping import (
    Bonuses,
    NoShaping,
    max_value,
    parse_shaping,
    shaping_spec,
    start_shaping,
)

UCB1, THOMPSON = make_policy("ucb1"), make_policy("thompson")


def test_specs_parse_to_records_and_back():
    assert parse_shaping("") == parse_shaping("none") == NoShaping()
    assert parse_shaping("rb") == Bonuses(rb_k=2.0, rb_a=0.25)
    assert parse_shaping(" rb(k=8) + qb(k=2,a=online)") == Bonuses(8.0, 0.25, 2.0, ONLINE)
    assert shaping_spec(parse_shaping("qb(a=0.5)+rb(k=8)")) == "rb(k=8,a=0.25)+qb(k=2,a=0.5)"
    assert shaping_spec(NoShaping()) == ""


@pytest.mark.parametrize("spec", ["xb", "rb(k=0)", "rb(k=-1)", "qb(a=-0.5)", "rb(q=1)",
                                  "rb(k)", "rb+rb", "rb(k=8", "qb(a=often)"])
def test_bad_specs_are_one_line_errors(spec):
    with pytest.raises(ValueError, match="shaping") as error:
        parse_shaping(spec)
    assert "\n" not in str(error.value)


@njit
def _feed(shaping, policy, playouts):
    """Max's values of a scripted sequence of playouts, rows (outcome, q, d, shaped)."""
    state = start_shaping(shaping)
    values = np.empty(playouts.shape[0])
    for i in range(playouts.shape[0]):
        reward, q, d, shaped = playouts[i]  # q as the margin over a span of 1; shaped: played
        values[i] = max_value(shaping, state, policy, reward, q, 1.0, d, shaped, 1)
    return values


def test_relative_bonus_by_hand():
    """Eqs. 4-6, k = 2 (so b(lambda) = tanh(lambda)), a = 0.25: per-winner mean and sd of
    the earlier lengths, none in the warm-up, draws untouched."""
    playouts = np.array([
        (1.0, 0.1, 3, 1),  # max wins; no statistics yet: 1
        (1.0, 0.1, 5, 1),  # one earlier win only: 1
        (0.0, 0.1, 6, 1),  # min's first win: -1
        (1.0, 0.1, 3, 1),  # max's lengths 3, 5: mean 4, sd sqrt(2)
        (0.5, 0.0, 2, 1),  # a draw: no bonus, no statistics
        (1.0, 0.1, 6, 1),  # max's 3, 5, 3: mean 11/3, sd sqrt(4/3)
        (1.0, 0.1, 2, 0),  # warm-up: not shaped, but counted
        (0.0, 0.1, 4, 1),  # min's 6 alone: -1
    ], dtype=float)
    r4 = 1 + 0.25 * math.tanh((4 - 3) / math.sqrt(2))
    r6 = 1 + 0.25 * math.tanh((11 / 3 - 6) / math.sqrt(4 / 3))
    rewards = [1, 1, -1, r4, 0, r6, 1, -1]
    values = _feed(parse_shaping("rb(k=2)"), UCB1, playouts)
    assert values == pytest.approx([(r + 1) / 2 for r in rewards], abs=1e-12)  # seed's scale
    values = _feed(parse_shaping("rb(k=2)"), THOMPSON, playouts)
    assert values == pytest.approx([(r + 1.25) / 2.5 for r in rewards], abs=1e-12)  # R = 1.25


def test_online_qualitative_bonus_by_hand():
    """Eqs. 7-10: q of max's wins 0.2, 0.6 (mean 0.4, sd 0.2 sqrt 2), min's 0.4; then max wins
    with q = 0.3: a' = |Cov(Y^w, Y) / Var(Y)| over Y = (0.2, 0.4, 0.6), Y^w = (0.2, 0, 0.6)."""
    playouts = np.array([(1.0, 0.2, 8, 1), (0.0, 0.4, 8, 1), (1.0, 0.6, 8, 1),
                         (1.0, 0.3, 8, 1)])
    y, y_w = np.array([0.2, 0.4, 0.6]), np.array([0.2, 0.0, 0.6])
    weight = abs(np.cov(y_w, y)[0, 1] / np.var(y, ddof=1))
    assert weight == pytest.approx(1.0)
    last = 1 + weight * math.tanh(3.0 * (0.3 - 0.4) / (0.2 * math.sqrt(2)) / 2)
    values = _feed(parse_shaping("qb(k=3,a=online)"), UCB1, playouts)
    assert values == pytest.approx([1.0, 0.0, 1.0, (last + 1) / 2], abs=1e-12)
    values = _feed(parse_shaping("qb(k=3,a=online)"), THOMPSON, playouts)  # R = 2
    assert values == pytest.approx([0.75, 0.25, 0.75, (last + 2) / 4], abs=1e-12)


AGREEMENT = [("ucb1", "rb(k=8)"), ("ucb1", "qb(k=2,a=online)"),
             ("thompson", "rb(k=8,a=0.5)+qb(k=2)")]


@pytest.mark.parametrize("policy, shaping", AGREEMENT)
def test_kernel_agrees_with_reference(policy, shaping):
    """Failure rates per budget agree with the plain-Python reference (|z| < 4 per budget)."""
    curve = Curve("random(3,2)+end(0.2)", policy, "plain", branching=4, depth=4, max_budget=64,
                  runs=4000, shaping=shaping)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5).mean(axis=0)
    instance = tree_instance(curve.tree, curve.branching, curve.depth, 5, 0)
    runs = 1000
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=9,
                                                policy=policy, shaping=shaping))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def _tree_after(curve, budget=512, seed=3):
    instance = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0)
    return search(tree_arrays(instance), search_config(curve, instance), budget,
                  np.uint64(seed), index_tables(budget), UCB1,
                  np.zeros(int(math.log2(budget)) + 1, np.bool_))


def _z_last(a: Curve, b: Curve) -> float:
    """z of the difference of the failure rates at the largest budget."""
    rates = [failure_block(c, 0, 0, c.runs, seed=1)[:, -1].mean() for c in (a, b)]
    pooled = sum(rates) / 2
    return (rates[1] - rates[0]) / math.sqrt(pooled * (1 - pooled) * 2 / a.runs)


def test_relative_bonus_is_zero_at_uniform_depth():
    """Every playout of random(4,3) ends at ply 8: sd_D = 0, no bonus, each shaped reward is
    the outcome (exactly: every sum a multiple of 1/2), and the curve has the plain one's
    law."""
    curve = Curve("random(4,3)", "ucb1", "plain", max_budget=256, runs=3000, shaping="rb(k=8,a=1)")
    sums = 2 * _tree_after(curve).rewards[:, REWARD_SUM]
    assert np.array_equal(sums, np.round(sums))
    assert abs(_z_last(curve, Curve("random(4,3)", "ucb1", "plain", max_budget=256,
                                    runs=3000))) < 4


def test_relative_bonus_changes_the_curve_at_variable_depth():
    curve = Curve("random(4,3)+end(0.1)", "ucb1", "plain", max_budget=256, runs=3000,
                  shaping="rb(k=8,a=1)")
    sums = 2 * _tree_after(curve).rewards[:, REWARD_SUM]
    assert not np.allclose(sums, np.round(sums))
    plain = Curve("random(4,3)+end(0.1)", "ucb1", "plain", max_budget=256, runs=3000)
    assert abs(_z_last(plain, curve)) > 4


def test_shaping_is_in_the_curve_key_only_when_set():
    plain = Curve("random(4,3)")
    assert plain.key == "89b3fe0fbb9503f8"  # as before shaping existed: stored results stay
    assert "shaping" not in plain.to_dict()
    shaped = Curve("random(4,3)", shaping="rb(k=8)")
    assert shaped.key != plain.key and shaped.to_dict()["shaping"] == "rb(k=8,a=0.25)"
    assert Curve("random(4,3)", shaping="rb( k=8, a=0.25 )").key == shaped.key
    assert Curve("random(4,3)", shaping="none").key == plain.key


def test_cli_and_study_files(capsys, tmp_path):
    args = ["failure-rate", "--tree", "random(3,2)+end(0.2)", "--runs", "10", "--max-budget",
            "16", "--depth", "4", "--json"]
    assert main(args + ["--shaping", "rb(k=8)"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shaping"] == out["config"]["shaping"] == "rb(k=8,a=0.25)"
    assert main(args + ["--shaping", "rb(k=0)"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "rb parameter k = 0: must be a finite number > 0" in error
    study = tmp_path / "study.toml"
    study.write_text('[study]\nseed = 1\n[[curves]]\ntree = "random(3,2)+end(0.2)"\n'
                     'shaping = ["", "qb(a=online)"]\n')
    assert [c.shaping for c in read_study(study).curves] == ["", "qb(k=2,a=online)"]
