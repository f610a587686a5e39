"""Root policies built for the simple regret (``mcts.core.root_policies``): sequential
halving at the root makes flat sequential halving's pulls, the Gumbel root agrees with a
plain-Python transcription of mctx's, and the options' errors. The kernels are those of
tests/test_final_move.py (UCB1, b = 4, random(3,2) at depth 4): a root policy is data."""

import numpy as np
import pytest
from numba import njit
from reference_gumbel import considered_visit_sequence, gumbel_failure_rate

from bandits import index_tables, make_policy
from bandits.rng import randint, seed_state
from bandits.sequential_halving import (
    ARM,
    FINISHED,
    halving_choice,
    halving_observe,
    halving_rounds,
    new_halving,
    start_halving,
)
from enhancements.adjusters import start_adjuster
from enhancements.thresholds import effective_threshold
from experiments import Curve, failure_block
from experiments.cli import main
from experiments.comparisons.atlas import preset_lists
from experiments.curves.entries import method_fields
from experiments.curves.failure import search_config, simulate_block, tree_instance
from experiments.studies.study import read_curves
from mcts.core.gumbel_root import considered_visits
from mcts.core.root_specs import parse_root, root_spec
from mcts.core.search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from mcts.core.solver import LOSS, UNPROVEN
from mcts.synthetic import search, tree_arrays
from mcts.synthetic.score_reward import playout_reward

_SHAPE = {"branching": 4, "depth": 4}


@njit
def _flat_halving(game, config, budget, seed):
    """Flat sequential halving (``bandits.sequential_halving``, as ``bandits.pure_exploration``
    runs it) on the root's children as arms, a pull a uniformly random playout from the child
    rewarded at the plain adjuster's threshold: (pulls per arm, reward sums, arm chosen)."""
    b = len(config.children)
    rng = seed_state(seed)
    theta, _ = start_adjuster(config.adjuster, config.score_low, config.score_high)
    halving = new_halving(b)
    start_halving(halving, budget, halving_rounds(b), rng)
    pulls, sums = np.zeros(b, np.int64), np.zeros(b)
    while halving.step[ARM] != FINISHED:
        arm = halving.step[ARM]
        node = np.int64(1 + arm)
        while not game.terminal[node]:
            node = node * b + 1 + randint(rng, b)
        reward = playout_reward(config.reward, np.int64(game.path_score[node]),
                                effective_threshold(theta), config.score_low, config.score_high)
        pulls[arm] += 1
        sums[arm] += reward
        halving_observe(halving, arm, reward, rng)
    return pulls, sums, halving_choice(halving)


def test_sequential_halving_at_the_root_is_flat_sequential_halving():
    """On the one-ply search (a depth-1 search tree: the root's children are the arms, a
    playout a pull) the root's sequential halving makes exactly flat sequential halving's
    pulls, rewards and choice, seed for seed, budgets on and off the rounds' multiples."""
    curve = Curve("random(3,2)", "ucb1", "plain", search_depth=1, root="sh", max_budget=64,
                  **_SHAPE)
    instance = tree_instance(curve.tree, 4, 4, 5, 0)
    config, game = search_config(curve, instance), tree_arrays(instance)
    policy = make_policy("ucb1")
    for budget in (8, 21, 64):
        tables = index_tables(budget)
        for seed in range(6):
            failed = np.zeros(1, np.bool_)
            tree = search(game, config, budget, np.uint64(seed), tables, policy, failed)
            pulls, sums, chosen = _flat_halving(game, config, budget, np.uint64(seed))
            first = tree.stats[0, FIRST_CHILD]
            assert np.array_equal(tree.stats[first:first + 4, VISITS], pulls)
            assert np.array_equal(tree.rewards[first:first + 4, REWARD_SUM], sums)
            assert failed[0] == (not game.correct[chosen])


def test_a_root_curve_makes_one_search_per_budget():
    """A curve to 16 makes a search per budget 1, 2, ..., 16: the Gumbel root spends them all
    (31 playouts a run), sequential halving on 4 children 4 floor(n / 8) + 2 floor(n / 4):
    2 at n = 4 (the first round makes none), 8 at 8, 16 at 16; fewer only where a root is
    proven."""
    for root, playouts in (("gumbel", 31), ("sh", 26)):
        curve = Curve("random(3,2)", "ucb1", "plain", root=root, max_budget=16, runs=40,
                      **_SHAPE)
        _, played = simulate_block(curve, 0, 0, curve.runs, seed=2)
        assert played.max() == playouts and (played == playouts).mean() > 0.8, played


@pytest.mark.parametrize("root", ["sh", "gumbel"])
def test_a_root_policy_never_plays_a_proven_loss(root):
    """On the atlas's trap tree instance 2 the trap moves look best in the first round and are
    proven lost later: sequential halving's last two children and the Gumbel root's most
    visited are all proven lost, and the move played must be the one child that is not (the
    solver's rule of every final move)."""
    curve = Curve("random(4,3)+trap(3,0.2)", "ucb1", "maxfreq", root=root)
    instance = tree_instance(curve.tree, 4, 8, 2029, 2)
    game = tree_arrays(instance)
    for seed in range(2):
        failed = np.zeros(1, np.bool_)
        tree = search(game, search_config(curve, instance), 16384, np.uint64(seed),
                      index_tables(16384), make_policy("ucb1"), failed)
        first = tree.stats[0, FIRST_CHILD]
        visits, proven = tree.stats[first:first + 4, VISITS], tree.proven[first:first + 4]
        assert tree.proven[0] == UNPROVEN and (proven != LOSS).sum() == 1
        assert np.all(proven[visits == visits.max()] == LOSS)
        assert game.correct[proven != LOSS].all() and not failed[0]


@pytest.mark.parametrize("m, budget", [(1, 5), (2, 9), (3, 7), (4, 64), (16, 50), (4, 3)])
def test_considered_visits_are_mctx_schedule(m, budget):
    out = np.zeros(budget, np.int64)
    considered_visits(m, budget, out)
    assert out.tolist() == considered_visit_sequence(m, budget)


@pytest.mark.parametrize("root, options", [
    ("gumbel", {}),
    ("gumbel(m=2,c_scale=0.1)", {"m": 2, "c_scale": 0.1}),
])
def test_the_gumbel_root_agrees_with_the_reference(root, options):
    """Failure rates per budget agree with the plain-Python transcription of mctx's Gumbel
    root (|z| < 4 at every budget)."""
    curve = Curve("random(3,2)", "ucb1", "plain", max_budget=32, runs=3000, root=root,
                  **_SHAPE)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5).mean(axis=0)
    runs = 600
    reference = np.array(gumbel_failure_rate(tree_instance(curve.tree, 4, 4, 5, 0),
                                             curve.budgets, runs, seed=9, **options))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def test_specs_and_the_atlas():
    assert root_spec(parse_root("gumbel(m=16, c_visit=50)")) == "gumbel"
    assert root_spec(parse_root("gumbel(m=4)")) == "gumbel(m=4)"
    assert root_spec(parse_root("none")) == ""
    assert Curve("constant(1,3)").key == Curve("constant(1,3)", root="").key
    assert Curve("constant(1,3)", root="sh").label.endswith("root=sh")
    assert {"ucb1(root=sh)", "ucb1(root=gumbel)"} <= set(preset_lists("atlas")["policies"])
    fields = method_fields("klucb(root=gumbel(m=4, c_visit=10))", "maxfreq")
    assert (fields["policy"], fields["root"]) == ("klucb", "gumbel(m=4,c_visit=10)")
    assert root_spec(parse_root(fields["root"])) == "gumbel(m=4,c_visit=10.0)"


def test_a_study_file_takes_root_policies(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text('[study]\nseed = 1\n[[curves]]\ntree = "constant(1,3)"\n'
                    'root = ["", "sh", "gumbel(m=4, c_scale=1)"]\n')
    assert [curve.root for curve in read_curves(path).curves] == ["", "sh", "gumbel(m=4)"]
    path.write_text('[study]\nseed = 1\n[[curves]]\ntree = "constant(1,3)"\n'
                    'root = "gumbel(m=0)"\n')
    with pytest.raises(ValueError, match="entry 1: root policy gumbel parameter m = 0"):
        read_curves(path)


@pytest.mark.parametrize("argv, fragment", [
    (["--root", "ucb1"], "unknown root policy 'ucb1'"),
    (["--root", "gumbel(m=0)"], "m = 0"),
    (["--root", "gumbel(k=3)"], "unknown root policy parameter 'k'"),
    (["--root", "sh", "--max-budget", "4"], "too small: sequential halving at a root of"),
    (["--root", "sh", "--final-move", "mean"], "exclude each other"),
    (["--root", "sh", "--policy", "ucb1(root=gumbel)"], "given twice"),
])
def test_bad_root_options_are_one_line(argv, fragment, capsys):
    code = main(["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "4",
                 "--max-budget", "16", "--workers", "1", *argv])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and fragment in error, error


def test_inspect_refuses_a_root_policy(tmp_path, capsys):
    code = main(["inspect", "--tree", "constant(1,3)", "--depth", "4", "--max-budget", "16",
                 "--root", "sh", "--out", str(tmp_path / "a")])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "does not watch a root policy" in error
