"""The final move and the failure as data (``mcts.core.final_move``,
``mcts.synthetic.tree_arrays``): the rules by hand, against the plain-Python reference, and the
options' errors."""

import numpy as np
import pytest
from numba import njit
from reference_mcts import reference_failure_rate

from bandits.rng import seed_state
from experiments import Curve, failure_block
from experiments.cli import main
from experiments.curves.failure import tree_instance
from mcts.core.final_move import BEST_MEAN, MINIMAX, MOST_VISITS, ROBUST_MAX, choose_final
from mcts.core.solver import LOSS, NO_CHILD, UNPROVEN, WIN
from mcts.synthetic import tree_arrays


@njit
def _choose(rule, proven, visits, sums, children, seed):
    return choose_final(rule, proven, visits, sums, children, 1, 3,
                        seed_state(np.uint64(seed)), np.empty(3), np.empty((4, 3)))


def _choices(rule, proven, visits, sums, below=()):
    """The set of moves chosen over 40 seeds (ties are drawn at random); ``below`` (visits,
    reward sum) of the first child's three children, if it has them."""
    children = [1, 4 if below else NO_CHILD, NO_CHILD, NO_CHILD] + [NO_CHILD] * len(below)
    arrays = (np.array([UNPROVEN, *proven] + [UNPROVEN] * len(below), np.int8),
              np.array([9, *visits, *(n for n, _ in below)], np.int32),
              np.array([0.0, *sums, *(s for _, s in below)]), np.array(children, np.int32))
    return {_choose(rule, *arrays, seed) for seed in range(40)}


def test_the_rules_by_hand():
    """Children (visits, reward sum): (10, 6), (8, 6), (2, 2). Most visited: 0; best mean
    (1.0): 2; max-robust: none is both, so the largest sum: 0 or 1 at random."""
    visits, sums = [10, 8, 2], [6.0, 6.0, 2.0]
    none = [UNPROVEN] * 3
    assert _choices(MOST_VISITS, none, visits, sums) == {0}
    assert _choices(BEST_MEAN, none, visits, sums) == {2}
    assert _choices(ROBUST_MAX, none, visits, sums) == {0, 1}
    # (10, 9) is both most visited and of best mean: the max-robust child
    assert _choices(ROBUST_MAX, none, visits, [9.0, 6.0, 1.8]) == {0}


def test_the_minimax_rule_by_hand():
    """Children (visits, reward sum): (10, 6), (8, 6), (2, 1). Leaves, minimax is the best
    mean: 1 (0.75). Below child 0, three children of means 5/6, 0.2 and never visited: the
    opponent's best is 5/6, so child 0 is worth 1/6 and 1 stays; at 0.1 instead of 5/6 the
    opponent's best is 0.2, child 0 is worth 0.8 and beats 1's 0.75, where the best mean
    (0.6) would not."""
    visits, sums, none = [10, 8, 2], [6.0, 6.0, 1.0], [UNPROVEN] * 3
    assert _choices(MINIMAX, none, visits, sums) == {1}
    assert _choices(MINIMAX, none, visits, sums, [(6, 5.0), (4, 0.8), (0, 0.0)]) == {1}
    assert _choices(MINIMAX, none, visits, sums, [(6, 0.6), (4, 0.8), (0, 0.0)]) == {0}
    assert _choices(BEST_MEAN, none, visits, sums, [(6, 0.6), (4, 0.8), (0, 0.0)]) == {1}


def test_the_rules_keep_the_solvers_exceptions():
    """A child proven won is played; one proven lost is passed over (unless all are); a
    child never visited ranks below the visited ones for the best mean."""
    visits, sums = [10, 8, 2], [6.0, 6.0, 2.0]
    for rule in (MOST_VISITS, BEST_MEAN, ROBUST_MAX, MINIMAX):
        assert _choices(rule, [UNPROVEN, WIN, UNPROVEN], visits, sums) == {1}
    assert _choices(BEST_MEAN, [UNPROVEN, UNPROVEN, LOSS], visits, sums) == {1}  # 0.75
    assert _choices(BEST_MEAN, [LOSS, UNPROVEN, UNPROVEN], [1, 0, 0], [1.0, 0, 0]) == {1, 2}
    assert _choices(BEST_MEAN, [LOSS] * 3, visits, sums) == {2}


def test_the_failure_sets():
    """``failure="score"`` counts a failure outside the best minimax score's moves, a subset
    of the optimal outcome's; an unknown name is refused."""
    instance = tree_instance("pgame(127)", 2, 6, 0, 0)
    outcome, score = tree_arrays(instance).correct, tree_arrays(instance, "score").correct
    assert np.array_equal(outcome, instance.optimal)
    assert np.array_equal(score, instance.best_score) and not (score & ~outcome).any()
    with pytest.raises(ValueError, match="not one of outcome, score"):
        tree_arrays(instance, "minimax")


@pytest.mark.parametrize("tree, policy, options", [
    ("pgame(127)", "ucb1", {"final_move": "mean", "failure": "score"}),
    ("random(3,2)", "ucb1", {"final_move": "robust"}),
    ("random(3,2)", "thompson", {"final_move": "mean"}),
    ("pgame(127)", "ucb1", {"failure": "score", "policy_params": {"depth_exponent": 1}}),
    ("pgame(127)", "ucb1", {"final_move": "mean", "failure": "score", "reward": "linear",
                            "policy_params": {"depth_exponent": 1, "c": 0.5}}),
])
def test_the_rules_agree_with_the_reference(tree, policy, options):
    """Failure rates per budget agree with the plain-Python reference's (|z| < 4 at every
    budget), the Kocsis & Szepesvari set-up included (best mean, best-score failure, depth
    exponent, linear reward)."""
    curve = Curve(tree, policy, "plain", branching=4, depth=4, max_budget=64, runs=4000,
                  **options)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5).mean(axis=0)
    instance = tree_instance(curve.tree, 4, 4, 5, 0)
    runs = 1000
    reference = np.array(reference_failure_rate(
        instance, curve.budgets, runs, seed=9, policy=policy,
        policy_params=options.get("policy_params"), failure=curve.failure,
        final_move=curve.final_move, reward=curve.reward))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def test_the_defaults_are_todays_search_bit_for_bit():
    """visits and outcome are the defaults: same key, no stored field, the same runs."""
    options = {"branching": 2, "depth": 6, "max_budget": 64, "runs": 50}
    default = Curve("constant(1,3)", **options)
    explicit = Curve("constant(1,3)", final_move="visits", failure="outcome",
                     policy_params={"depth_exponent": 0}, **options)
    assert explicit.key == default.key
    assert not {"final_move", "failure"} & set(explicit.to_dict())
    assert np.array_equal(failure_block(default, 0, 0, 50, seed=3),
                          failure_block(explicit, 0, 0, 50, seed=3))


def test_the_rules_reach_the_search():
    """On P-game trees, counting against the best score fails more often than against the
    optimal outcome (z > 4 at some budget)."""
    options = {"branching": 4, "depth": 4, "max_budget": 64, "runs": 3000}
    a = failure_block(Curve("pgame(127)", **options), 0, 0, 3000, seed=4).mean(axis=0)
    b = failure_block(Curve("pgame(127)", failure="score", **options), 0, 0, 3000,
                      seed=4).mean(axis=0)
    pooled = (a + b) / 2
    z = (b - a) / (np.sqrt(pooled * (1 - pooled) * 2 / 3000) + 1e-12)
    assert z.max() > 4, (a, b)


@pytest.mark.parametrize("argv, fragment", [
    (["--final-move", "max"], "invalid choice: 'max'"),
    (["--failure", "minimax"], "invalid choice: 'minimax'"),
    (["--policy-param", "depth_exponent=2"], "depth_exponent"),
    (["--policy-param", "depth_exponent=-1"], "depth_exponent"),
])
def test_bad_rule_options_are_one_line(argv, fragment, capsys):
    code = main(["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "4",
                 "--max-budget", "16", "--workers", "1", *argv])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and fragment in error, error
