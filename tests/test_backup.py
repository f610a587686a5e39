"""The backup step (``mcts.core.backup``): the discount by hand, against the plain-Python reference,
a user's rule, and the options' errors."""

import numpy as np
import pytest
from numba import njit
from reference_mcts import reference_failure_rate

from experiments import Curve, failure_block
from experiments.cli import main
from experiments.curves.failure import tree_instance
from mcts.core.backup import Discount, PlayoutValue, back_up, load_backup
from mcts.core.search_tree import REWARD_SUM, SQUARE_SUM, VISITS, new_tree


@njit
def _back_up(tree, path, depth, end, value, rule):
    back_up(tree.stats, tree.rewards, path, depth, PlayoutValue(value, end, rule), True)


def test_discount_by_hand():
    """Max wins (1) at depth 4 along the path 0 -> 1 -> 2, gamma 1/2: the node at ply 1 (max
    moved into it) keeps 1/2 + (1/2)^3 (1 - 1/2), the node at ply 2 (min) 1/2 + (1/2)^2 (0 -
    1/2); gamma 1 keeps the outcome itself."""
    tree = new_tree(3, False, 0, True)
    path = np.array([0, 1, 2])
    _back_up(tree, path, 2, 4, 1.0, Discount(0.5))
    assert tree.stats[:, VISITS].tolist() == [1, 1, 1]
    assert tree.rewards[1:, REWARD_SUM].tolist() == [0.5625, 0.375]
    assert tree.rewards[1:, SQUARE_SUM].tolist() == [0.5625**2, 0.375**2]
    _back_up(tree, path, 2, 4, 0.5, Discount(0.5))  # a draw is 1/2 whatever the distance
    assert tree.rewards[1:, REWARD_SUM].tolist() == [1.0625, 0.875]
    plain = new_tree(3, False, 0, True)
    _back_up(plain, path, 2, 4, 1.0, Discount(1.0))
    assert plain.rewards[1:, REWARD_SUM].tolist() == [1.0, 0.0]


def test_discount_one_is_the_paper_search_bit_for_bit():
    """gamma = 1 is the default: same key (stored results stay valid) and the same runs."""
    default = Curve("constant(1,3)", "ucb1", "plain", branching=2, depth=6, max_budget=64,
                    runs=50)
    explicit = Curve("constant(1,3)", "ucb1", "plain", branching=2, depth=6, max_budget=64,
                     runs=50, discount=1.0)
    assert explicit.key == default.key and "discount" not in explicit.to_dict()
    assert np.array_equal(failure_block(default, 0, 0, 50, seed=3),
                          failure_block(explicit, 0, 0, 50, seed=3))


@pytest.mark.parametrize("gamma", [0.9, 0.5])
def test_discount_agrees_with_the_reference(gamma):
    """On a b = 2 tree that the search solves within the budget, failure rates per budget agree
    with the plain-Python reference's (|z| < 4 at every budget); and gamma 0.5 moves the curve
    away from the undiscounted one."""
    curve = Curve("constant(1,3)+end(0.2)", "ucb1", "plain", branching=2, depth=6,
                  max_budget=64, runs=3000, discount=gamma)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=4).mean(axis=0)
    instance = tree_instance(curve.tree, 2, 6, 4, 0)
    runs = 1000
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=11,
                                                discount=gamma))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def test_a_strong_discount_changes_the_curve():
    """gamma 0.5 on a tree ending at every depth: the curve differs from gamma 1's (z > 4 at
    some budget), so the option reaches the search."""
    options = {"branching": 2, "depth": 6, "max_budget": 64, "runs": 3000}
    plain = Curve("constant(1,3)+end(0.2)", "ucb1", "plain", **options)
    discounted = Curve("constant(1,3)+end(0.2)", "ucb1", "plain", discount=0.5, **options)
    a, b = (failure_block(c, 0, 0, c.runs, seed=4).mean(axis=0) for c in (plain, discounted))
    pooled = (a + b) / 2
    z = np.abs(a - b) / (np.sqrt(pooled * (1 - pooled) * 2 / options["runs"]) + 1e-12)
    assert z.max() > 4, (a, b)


def test_a_users_backup_rule_runs_and_is_its_own_kernel(monkeypatch):
    """examples/my_backup.py: the engine's backup step keeps what its rule says (a win at
    depth 4 is worth 0.9^3 at ply 1, the loss at ply 2 stays 0), and a search runs with it."""
    monkeypatch.syspath_prepend("examples")
    rule = load_backup("my_backup:rule")
    assert type(rule).__name__.startswith("Plugin_ShrinkingWins") and rule.w == 0.9
    tree = new_tree(3, False, 0, True)
    _back_up(tree, np.array([0, 1, 2]), 2, 4, 1.0, rule)
    assert tree.rewards[1:, REWARD_SUM].tolist() == pytest.approx([0.9**3, 0.0], abs=1e-15)
    curve = Curve("constant(1,3)+end(0.2)", "ucb1", "plain", branching=2, depth=6,
                  max_budget=64, runs=200, backup="my_backup:rule")
    assert curve.key != Curve("constant(1,3)+end(0.2)", "ucb1", "plain", branching=2, depth=6,
                              max_budget=64, runs=200).key
    rates = failure_block(curve, 0, 0, curve.runs, seed=2).mean(axis=0)
    assert 0.0 <= rates.min() and rates.max() <= 1.0


@pytest.mark.parametrize("argv, fragment", [
    (["--discount", "0"], "discount 0.0 must lie in (0, 1]"),
    (["--discount", "1.5"], "discount 1.5 must lie in (0, 1]"),
    (["--discount", "nan"], "must lie in (0, 1]"),
    (["--discount", "0.9", "--rescore", "--adjuster", "maxfreq"], "exclude each other"),
    (["--backup", "my_ucb1:policy"], "not a backup rule: define it as mcts.core.backup.Backup"),
    (["--backup", "my_backup:nothing"], "has no object 'nothing'"),
    (["--backup", "shrink"], "is not of the form package.module:object"),
    (["--backup", "my_backup:rule", "--discount", "0.9"],
     "--backup and --discount exclude each other"),
])
def test_bad_backup_options_are_one_line(argv, fragment, capsys, monkeypatch):
    monkeypatch.syspath_prepend("examples")
    code = main(["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "4",
                 "--max-budget", "16", *argv])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and fragment in error, error
