"""Exact re-scoring of stored rewards (mcts.synthetic.rescoring): a scripted tree checked by hand,
the engine's tree against the re-scoring of its own histograms, and the option's interface."""

import json
import tomllib

import numpy as np
import pytest
from numba import njit

from bandits import KLUCB, index_tables, make_policy
from bandits.klucb_cache import AT_VISITS
from bandits.rng import seed_state
from experiments import Curve
from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.curves.failure import memory_per_curve_run, search_config, tree_instance
from mcts.core.search_tree import FIRST_CHILD, REWARD_SUM, SQUARE_SUM, VISITS, new_tree
from mcts.synthetic.engine import _playouts, _workspace, tree_arrays
from mcts.synthetic.rescoring import new_histograms, record_playout, rescore_tree


@njit
def _record(histograms, path, depth, score, in_tree):
    record_playout(histograms, path, depth, score, in_tree)


def _max_reward(score, theta):
    return 1.0 if score > theta else 0.5 if score == theta else 0.0


# b = 2: the root 0 has children 1, 2 (max moved into them), 1 has 3, 4 (min), 3 has 5, 6 (max,
# and 5 is a terminal of score 1 inside the tree)
PLY = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
SCRIPT = [  # (threshold in force, path, score, ended on a terminal inside the tree)
    (0.0, [0, 1], 2, False), (0.0, [0, 2], -1, False), (0.0, [0, 1, 3], 0, False),
    (0.0, [0, 1, 4], 3, False),
    (1.0, [0, 1, 3, 5], 1, True), (1.0, [0, 1, 3, 6], 2, False), (1.0, [0, 2], 1, False),
    (1.0, [0, 1, 3, 5], 1, True), (1.0, [0, 1, 4], 1, False),
]


def _expected(playouts, theta):
    """Each node's (reward sum, sum of squared rewards) had every playout been scored at
    ``theta``, terminals inside the tree at 0."""
    sums, squares = np.zeros(7), np.zeros(7)
    for _, path, score, in_tree in playouts:
        reward = _max_reward(score, 0.0 if in_tree else theta)
        for node in path[1:]:
            mover = reward if PLY[node] % 2 == 1 else 1.0 - reward
            sums[node] += mover
            squares[node] += mover * mover
    return sums, squares


def test_a_scripted_tree_is_rescored_exactly_at_every_change():
    """Playouts backed up at the threshold then in force, as the engine does; after each
    change every node's sums equal the direct sums at the new threshold, and a node whose sum
    moved drops its cached KL-UCB root."""
    tree = new_tree(7, False, 4, True)
    for node, first in ((0, 1), (1, 3), (3, 5)):
        tree.stats[node, FIRST_CHILD] = first
    histograms = new_histograms(True, 7, -1, 3)
    path = np.zeros(4, np.int64)
    changes = [(0.0, 1.0), (1.0, 2.5), (2.5, -1.0), (-1.0, -0.5), (-0.5, 3.0)]
    for theta, script_path, score, in_tree in SCRIPT:
        if theta != changes[0][0]:
            old, new = changes.pop(0)
            rescore_tree(histograms, tree, 7, 2, old, new, True, True, KLUCB())
        path[:len(script_path)] = script_path
        _record(histograms, path, len(script_path) - 1, score, in_tree)
        reward = _max_reward(score, 0.0 if in_tree else theta)
        tree.stats[0, VISITS] += 1
        for node in script_path[1:]:
            mover = reward if PLY[node] % 2 == 1 else 1.0 - reward
            tree.stats[node, VISITS] += 1
            tree.rewards[node, REWARD_SUM] += mover
            tree.rewards[node, SQUARE_SUM] += mover * mover
    assert histograms.counts[3].tolist() == [0, 1, 0, 1, 0]  # scores 0 and 2; 5 stays out
    for old, new in changes:
        before = tree.rewards[:, REWARD_SUM].copy()
        tree.index_cache[:, AT_VISITS] = tree.stats[:, VISITS]
        rescore_tree(histograms, tree, 7, 2, old, new, True, True, KLUCB())
        sums, squares = _expected(SCRIPT, new)
        assert tree.rewards[1:, REWARD_SUM].tolist() == sums[1:].tolist(), (old, new)
        assert tree.rewards[1:, SQUARE_SUM].tolist() == squares[1:].tolist(), (old, new)
        moved = tree.rewards[:, REWARD_SUM] != before
        assert moved.any()
        assert (tree.index_cache[moved, AT_VISITS] == -1.0).all()
        assert (tree.index_cache[~moved, AT_VISITS] >= 0.0).all()
    assert tree.rewards[5, REWARD_SUM] == 2.0  # the terminal keeps its true value (max won)


def test_without_rescoring_no_histogram_is_allocated():
    histograms = new_histograms(False, 7, -1, 3)
    assert histograms.counts.shape == (1, 1) and histograms.max_into.shape == (1,)


def _search_with_histograms(curve, instance, seed):
    """One run of the engine (``mcts.synthetic.search``), keeping its histograms."""
    config, budget = search_config(curve, instance), curve.max_budget
    tree, path, values, (theta, state), statistics, histograms, roots = _workspace(
        config, budget, False, False, tree_arrays(instance), np.uint64(0))
    failed = np.zeros(len(curve.budgets), np.bool_)
    _playouts(tree, path, values, theta, state, statistics, seed_state(np.uint64(seed)),
              tree_arrays(instance), config, budget, index_tables(budget),
              make_policy(curve.policy), failed, histograms, roots, None, np.uint64(0))
    return tree, histograms


def _in_tree_terminals(tree, instance, b):
    """Per search node: its ply, and the (visits, score) of the game's terminals among it and
    its descendants in the search tree."""
    ply, place, below = {0: 0}, {0: 0}, {}
    for node in range(int((tree.stats[:, VISITS] > 0).nonzero()[0].max()) + 1):
        first = tree.stats[node, FIRST_CHILD]
        if node in ply and first >= 0:
            ply.update({first + k: ply[node] + 1 for k in range(b)})
            place.update({first + k: place[node] * b + 1 + k for k in range(b)})
    for node in sorted(ply, reverse=True):  # children before parents
        own = [(int(tree.stats[node, VISITS]), int(instance.path_score[place[node]]))] \
            if instance.terminal[place[node]] else []
        first = tree.stats[node, FIRST_CHILD]
        below[node] = own + [t for k in range(b) if first >= 0 for t in below[first + k]]
    return ply, below


def _half(score, theta, max_moved):
    half = 2 if score > theta else 1 if score == theta else 0
    return half if max_moved else 2 - half


@pytest.mark.parametrize("spec, seed", [("constant'(1,5)", 1), ("random(3,2)", 2)])
def test_the_engine_tree_is_the_exact_rescoring_of_its_histograms(spec, seed):
    """After a whole maxfreq search every node's reward sum is the rewards of the terminals
    inside the tree below it (threshold 0) plus its histogram scored at one threshold, the
    same for every node, and not the first one (0): the threshold changed."""
    curve = Curve(spec, "ucb1", "maxfreq", branching=4, depth=4, max_budget=512, rescore=True)
    instance = tree_instance(curve.tree, 4, 4, seed, 0)
    tree, histograms = _search_with_histograms(curve, instance, seed)
    ply, below = _in_tree_terminals(tree, instance, 4)
    scores = np.arange(histograms.counts.shape[1]) + histograms.low
    fits = []
    for theta in np.arange(2 * scores[0] - 1, 2 * scores[-1] + 2) / 2:
        fits.append(theta)
        for node in ply:
            if node == 0:
                continue
            max_moved = ply[node] % 2 == 1
            fixed = sum(n * _half(s, 0.0, max_moved) for n, s in below[node])
            rescored = sum(int(c) * _half(s, theta, max_moved)
                           for c, s in zip(histograms.counts[node], scores))
            if 2 * tree.rewards[node, REWARD_SUM] != fixed + rescored:
                fits.pop()
                break
    assert fits and 0.0 not in fits, fits


def test_the_option_reaches_the_curve_key_cli_study_and_memory(tmp_path, capsys):
    paper, exact = Curve("random(4,3)", adjuster="maxfreq"), Curve(
        "random(4,3)", adjuster="maxfreq", rescore=True)
    assert paper.key != exact.key
    assert paper.key == Curve("random(4,3)", adjuster="maxfreq", rescore=False).key
    instance = tree_instance("random(4,3)", 4, 8, 0, 0)
    assert search_config(paper, instance).rescore is False
    assert search_config(exact, instance).rescore is True
    config = search_config(exact, instance)
    extra = (1 + 4 * 2**14) * (4 * (config.score_high - config.score_low + 1) + 1)
    assert memory_per_curve_run(exact) - memory_per_curve_run(paper) == extra
    study = tmp_path / "study.toml"
    study.write_text('[study]\nseed = 1\n[[curves]]\ntree = "constant(1,3)"\n'
                     'adjuster = "maxfreq"\nrescore = [false, true]\n')
    assert [c.rescore for c in read_study(study).curves] == [False, True]
    assert tomllib.loads(study.read_text())["curves"][0]["rescore"] == [False, True]
    assert main(["failure-rate", "--tree", "constant(1,3)", "--adjuster", "maxfreq", "--runs",
                 "4", "--max-budget", "64", "--depth", "4", "--rescore", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["config"]["rescore"] is True


def test_rescoring_and_shaping_together_are_refused_in_one_line():
    with pytest.raises(ValueError, match="--rescore and --shaping exclude each other") as error:
        Curve("random(4,3)+end(0.1)", adjuster="maxfreq", shaping="rb(k=8)", rescore=True)
    assert "\n" not in str(error.value)
