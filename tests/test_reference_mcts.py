"""The plain-Python reference MCTS: hand-computed tiny trees, solved trees, scripted adjusters."""

import math
import random

import pytest
from reference_mcts import (
    DRAW,
    LOSS,
    WIN,
    FixedThreshold,
    MaxFrequency,
    Node,
    ReferenceSearch,
    ScoreSituational,
    ThresholdSchedule,
    ValueSituational,
    bernoulli_kl,
    effective_threshold,
    klucb_index,
    outcome,
    reference_failure_rate,
    reference_run,
    solved_value,
    thompson_index,
    ucb1_index,
)

from trees import make_tree


@pytest.fixture
def tiny():
    """Constant(1,5), b=2, d=2: the optimal move reaches {0, 5}, the other {-1, 4}."""
    return make_tree("constant(1,5)", 2, 2, seed=7)


def test_outcome_and_effective_threshold():
    assert [outcome(s, 0) for s in (-1, 0, 1)] == [0.0, 0.5, 1.0]
    assert [outcome(s, 2.5) for s in (2, 3)] == [0.0, 1.0]
    assert effective_threshold(3.0) == 3.0
    assert effective_threshold(3.01) == effective_threshold(3.99) == 3.5
    assert effective_threshold(-0.2) == -0.5


def test_ucb1_index_by_hand():
    assert ucb1_index(1.5, 2, 2, 8, None) == pytest.approx(0.75 + math.sqrt(2 * math.log(8) / 2))
    assert ucb1_index(1.5, 2, 2, 8, None, c=0.5) == pytest.approx(0.75 + 0.5 * math.sqrt(
        math.log(8) / 2))
    assert ucb1_index(1.5, 2, 0, 8, None) == math.inf


def test_klucb_index_solves_the_kl_constraint():
    assert klucb_index(3.0, 4, 4, 1, None) == 0.75  # ln 1 = 0: the mean itself
    assert klucb_index(3.0, 4, 0, 9, None) == math.inf
    for c, bound in [(0.0, math.log(50)), (3.0, math.log(50) + 3 * math.log(math.log(50)))]:
        q = klucb_index(3.0, 4, 4, 50, None, c=c)  # the largest q within 1e-9
        assert 4 * bernoulli_kl(0.75, q) <= bound < 4 * bernoulli_kl(0.75, q + 2e-9)
    assert klucb_index(4.0, 4, 4, 50, None) == 1.0


def test_thompson_uses_fresh_counts():
    """Eq. 8: alpha = mean T', beta = (1 - mean) T'; the same draws as Beta(alpha+1, beta+1)."""
    draw = thompson_index(6.0, 8, 4, 20, random.Random(3))
    assert draw == random.Random(3).betavariate(4.0, 2.0)
    assert thompson_index(0.0, 0, 0, 20, random.Random(3)) == random.Random(3).betavariate(1, 1)


def test_solver_values():
    def node(value):
        child = Node(1, 1, 0)
        child.proven = value
        return child

    assert solved_value([node(None), node(WIN)]) == LOSS
    assert solved_value([node(LOSS), node(None)]) is None
    assert solved_value([node(LOSS), node(DRAW)]) == DRAW
    assert solved_value([node(LOSS), node(LOSS)]) == WIN


def test_tiny_tree_first_budgets_by_hand(tiny):
    """t = 1: root unexpanded, a random move; t = 2, 3: one then both children visited once, so
    a coin flip. t = 4: the better child (ties: a coin) is expanded at a random terminal; it
    fails when that is the suboptimal child (playout won: 1/2) and its terminal is +4 (1/2),
    against the optimal one's mean 0.5 (1/2) or a lost tie-break from 1 (1/2 * 1/2):
    1/2 * 1/2 * (1/2 + 1/4) = 3/16."""
    rates = reference_failure_rate(tiny, [1, 2, 3, 4], runs=3000, seed=1)
    assert rates == pytest.approx([0.5, 0.5, 0.5, 3 / 16], abs=0.04)


def test_tiny_tree_is_solved_to_a_draw(tiny):
    search = ReferenceSearch(tiny, rng=5)
    for _ in range(64):
        search.step()
    values = [child.proven for child in search.root.children]
    assert values[tiny.optimal_move] == DRAW and values[1 - tiny.optimal_move] == LOSS
    assert reference_failure_rate(tiny, [64], runs=50) == [0.0]


def test_budgets_are_reported_in_order(tiny):
    moves = reference_run(tiny, [64, 1, 32], rng=2)
    assert moves[0] == moves[2] == tiny.optimal_move and moves[1] in (0, 1)
    with pytest.raises(ValueError):
        reference_run(tiny, [0, 4])
    with pytest.raises(ValueError):
        reference_run(tiny, [4], policy="ucb2")
    with pytest.raises(ValueError):
        reference_run(tiny, [4], adjuster="komi")


@pytest.mark.parametrize("policy", ["ucb1", "klucb", "thompson"])
@pytest.mark.parametrize("adjuster", ["plain", "maxfreq"])
@pytest.mark.parametrize("tree_seed", [0, 1, 2])
def test_exhausted_tree_picks_the_optimal_move(policy, adjuster, tree_seed):
    """Random(4,3), b=3, d=4 (81 leaves): the solver proves every root move; only the optimal
    one draws, the others lose, whatever the threshold did to the playout statistics."""
    tree = make_tree("random(4,3)", 3, 4, seed=tree_seed)
    search = ReferenceSearch(tree, policy=policy, adjuster=adjuster, rng=tree_seed)
    for _ in range(8192):
        search.step()
        if search.root.children and all(c.proven is not None for c in search.root.children):
            break
    values = [child.proven for child in search.root.children]
    assert values.pop(tree.optimal_move) == DRAW and values == [LOSS, LOSS]
    assert search.best_move() == tree.optimal_move


def test_restart_snapshots_stay_consistent():
    """Eqs. 6-8 after Maximum Frequency changes: every node refreshed in the current epoch has
    T'_i >= 0 and sum_i T'_i <= t'; without the restart no snapshot is ever taken."""
    tree = make_tree("constant(1,5)", 4, 6, seed=3)
    search = ReferenceSearch(tree, adjuster="maxfreq", rng=1)
    for step in range(1, 2001):
        search.step()
        if step % 100 == 0:
            stack = [search.root]
            while stack:
                node = stack.pop()
                if node.children is None:
                    continue
                stack.extend(node.children)
                if node.snap_epoch == search.schedule.epoch:
                    fresh = [c.visits - c.child_base for c in node.children]
                    assert min(fresh) >= 0 and sum(fresh) <= node.visits - node.parent_base
    assert search.schedule.epoch >= 1 and search.root.parent_base > 0

    search = ReferenceSearch(tree, adjuster="maxfreq", restart=False, rng=1)
    for _ in range(500):
        search.step()
    assert search.schedule.epoch >= 1 and search.root.parent_base == 0


def _feed(schedule, scores, rewards=None):
    """Record iterations; returns the effective threshold after each."""
    rewards = rewards or [0.5] * len(scores)
    trajectory = []
    for score, reward in zip(scores, rewards, strict=True):
        schedule.record(score, reward)
        trajectory.append(schedule.threshold)
    return trajectory


def test_fixed_threshold_never_moves():
    schedule = ThresholdSchedule(FixedThreshold(12.5))
    assert set(_feed(schedule, [40] * 30)) == {12.5} and schedule.epoch == 0


def test_score_situational_trajectory():
    """Algorithm 1: rate = 1/(1+exp(24*0.2)); the first update after the 10-playout freeze,
    then (the 0.5 threshold being new) frozen again, then one update per playout."""
    rate = 1 / (1 + math.exp(4.8))
    adjuster = ScoreSituational()
    schedule = ThresholdSchedule(adjuster)
    trajectory = _feed(schedule, [10] * 10)
    theta = 10 * rate
    assert trajectory == [0.0] * 9 + [0.5] and adjuster.theta == pytest.approx(theta)
    assert schedule.epoch == 1 and schedule.n_since_change == 0
    _feed(schedule, [10] * 9)
    assert adjuster.theta == pytest.approx(theta) and adjuster.count == 9
    _feed(schedule, [10])
    theta += rate * (10 - theta)  # mean over the 10 playouts since the last update
    assert adjuster.theta == pytest.approx(theta)
    _feed(schedule, [0])
    theta += rate * (0 - theta)
    assert adjuster.theta == pytest.approx(theta) and schedule.epoch == 1


def test_value_situational_trajectory_and_ratchet():
    """Algorithm 2: wins raise theta, losses lower it and (theta > 0) set the ratchet, which
    then stops theta from climbing back above it."""
    adjuster = ValueSituational()
    schedule = ThresholdSchedule(adjuster)
    assert _feed(schedule, [0] * 10, [1.0] * 10)[-2:] == [0.0, 1.0]
    assert _feed(schedule, [0] * 10, [0.0] * 10)[-2:] == [1.0, 0.0] and adjuster.ratchet == 1
    assert _feed(schedule, [0] * 10, [1.0] * 10)[-1] == 1.0
    assert _feed(schedule, [0] * 10, [1.0] * 10)[-1] == 1.0  # theta == ratchet: stays
    assert schedule.epoch == 3 and schedule.n_since_change == 10
    # the window runs since the last change: 10 wins then losses only until X < 0.05
    trajectory = _feed(schedule, [0] * 191, [0.0] * 191)
    assert trajectory[-2:] == [1.0, 0.0] and adjuster.ratchet == 1
    assert _feed(schedule, [0] * 10, [0.0] * 10)[-1] == -1.0 and adjuster.ratchet == 1


def test_value_situational_interval_beyond_the_freeze():
    schedule = ThresholdSchedule(ValueSituational(interval=25), freeze=10)
    trajectory = _feed(schedule, [0] * 25, [1.0] * 25)
    assert trajectory[-2:] == [0.0, 1.0]


def test_max_frequency_mode_rule():
    """Ties go to the score nearest theta; on an equal distance the incumbent stays."""
    adjuster = MaxFrequency()
    for score, mode in [(3, 3), (5, 3), (-2, -2), (5, 5), (0, 5), (0, 0)]:
        adjuster.observe(score, 1.0)
        assert adjuster.mode == mode
    adjuster.consult()
    assert adjuster.theta == 0.0  # no effect while the mode is 0
    adjuster = MaxFrequency()
    adjuster.theta = 5.0
    for score, mode in [(4, 4), (6, 4), (6, 6), (4, 6)]:
        adjuster.observe(score, 1.0)
        assert adjuster.mode == mode


def test_max_frequency_trajectory_with_offset():
    adjuster = MaxFrequency(offset=-0.5)
    schedule = ThresholdSchedule(adjuster)
    trajectory = _feed(schedule, [7, 7, 3, 3, 3, 7, 0, 0, 0, 7])
    assert trajectory == [0.0] * 9 + [6.5] and schedule.epoch == 1
    assert _feed(schedule, [0] * 10)[-1] == 6.5  # mode 0 from the 10th zero: theta stays
    with pytest.raises(ValueError):
        MaxFrequency(offset=1.0)
