"""Acceptance checks of the search on the tree models beyond seed 001's: the engine's solver
proves P-games, trap and variable-depth trees to their brute-force minimax outcome, the kernel
agrees with the plain-Python reference, and failure curves reach 0 on small trees of every
model. One kernel per policy, adjuster and b: UCB1 and plain only, at b = 2 and 4."""

import math
from pathlib import Path

import numpy as np
import pytest
from reference_mcts import reference_failure_rate

from bandits import index_tables, make_policy
from experiments import Curve, failure_block, failure_rate
from experiments.curves.failure import search_config, tree_instance
from mcts.core.search_tree import FIRST_CHILD, VISITS
from mcts.core.solver import DRAW, LOSS, UNPROVEN, WIN
from mcts.synthetic import search, tree_arrays
from trees import make_tree

ROOT = Path(__file__).resolve().parents[1]


def _minimax_outcome(tree, node):
    """The max player's minimax outcome (1, 0.5, 0 at threshold 0) at heap node ``node``, by
    plain recursion on edge_value and terminal: the path's score plus the subtree's best."""
    b = tree.branching

    def below(n, ply, score):
        if tree.terminal[n]:
            return score
        scores = [below(c, ply + 1, score + int(tree.edge_value[c]))
                  for c in range(n * b + 1, n * b + 1 + b)]
        return max(scores) if ply % 2 == 0 else min(scores)

    path, n = [], node
    while n > 0:
        path.append(n)
        n = (n - 1) // b
    score = below(node, len(path), sum(int(tree.edge_value[n]) for n in path))
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def _proven_value(max_outcome, depth):
    """The proven value expected at a node of ``depth``, for the player who moved into it
    (max moves into odd depths)."""
    mover = max_outcome if depth % 2 == 1 else 1.0 - max_outcome
    return WIN if mover == 1.0 else DRAW if mover == 0.5 else LOSS


# P-games with m = 31: their scores fit int16 at these depths, as every other tree's here, so
# they share the suite's kernels (each integer type of the scores compiles its own)
SOLVED = ["pgame(31)", "pgame(3)", "random(4,3)+trap(1,0.5)", "pgame(7)+trap(3,0.5)",
          "constant(1,5)+trap(3,1)", "pgame(5)+end(0.2)"]


@pytest.mark.parametrize("spec", SOLVED)
def test_solver_proves_small_trees_to_their_minimax_outcome(spec):
    """4096 playouts exhaust b=2 trees of depth 4 and 6: the root is solved (every root child
    proven, or one proven won, which the search then always follows), every proof in the tree
    is the brute-force minimax outcome, and the last choice is optimal."""
    budget = 4096
    for depth in (4, 6):
        for seed in range(8):
            instance = make_tree(spec, 2, depth, seed)
            curve = Curve(spec, "ucb1", "plain", branching=2, depth=depth, max_budget=budget)
            failed = np.zeros(int(math.log2(budget)) + 1, np.bool_)
            tree = search(tree_arrays(instance), search_config(curve, instance), budget,
                          np.uint64(seed), index_tables(budget), make_policy("ucb1"), failed)
            first = tree.stats[0, FIRST_CHILD]
            roots = tree.proven[first:first + 2]
            expected = [_proven_value(_minimax_outcome(instance, 1 + k), 1) for k in range(2)]
            case = (spec, depth, seed, roots.tolist(), expected)
            assert (roots != UNPROVEN).all() or (roots == WIN).any(), case
            if (roots == WIN).any():  # a proven win is chosen and ends the run
                assert tree.stats[0, VISITS] < budget, case
            assert all(value in (UNPROVEN, want) for value, want in zip(roots, expected)), case
            assert not failed[-1], case
            depth_of, place_of = {0: 0}, {0: 0}  # a search node's depth and game-tree node
            for node in range(tree.stats.shape[0]):
                children = tree.stats[node, FIRST_CHILD]
                if node in depth_of and children >= 0:
                    depth_of.update({children + k: depth_of[node] + 1 for k in range(2)})
                    place_of.update({children + k: 2 * place_of[node] + 1 + k for k in range(2)})
            for node in np.flatnonzero(tree.proven):
                want = _proven_value(_minimax_outcome(instance, place_of[node]), depth_of[node])
                assert tree.proven[node] == want, (*case, node)


# (spec, b, d, largest budget, tree seed): instances whose optimal moves are not all the moves
AGREEMENT = [
    ("pgame(31)", 4, 4, 64, 0),
    ("random(4,3)+trap(1,0.5)", 4, 4, 64, 4),
    ("random(4,3)+trap(3,0.5)", 2, 6, 256, 5),
    ("pgame(31)+end(0.15)", 4, 4, 64, 0),
    ("random(4,3)+end(0.2)", 4, 4, 64, 3),
]


@pytest.mark.parametrize("spec, b, d, budget, tree_seed", AGREEMENT)
def test_kernel_agrees_with_reference_on_new_models(spec, b, d, budget, tree_seed):
    """Failure rates per budget agree with the plain-Python reference (|z| < 4 per budget)."""
    curve = Curve(spec, "ucb1", "plain", runs=4000, branching=b, depth=d, max_budget=budget)
    instance = tree_instance(spec, b, d, tree_seed, 0)
    assert 0 < instance.optimal.sum() < b
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5, tree_seed=tree_seed).mean(axis=0)
    runs = 600 if budget > 64 else 1000
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=9,
                                                policy="ucb1", adjuster="plain"))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)
    assert kernel.max() > 0.2  # the curve is not trivially 0


EVERY_MODEL = [
    "constant(1,5)", "constant'(1,13)", "random(4,3)", "pgame(31)", "pgame(3)",
    "constant(1,5)+trap(3,0.3)", "random(4,3)+trap(1,0.5)", "pgame(31)+trap(3,0.5)",
    "constant'(1,13)+end(0.1)", "random(4,3)+end(0.2)", "pgame(7)+end(0.2)",
    "random(4,3)+end(0.1)+trap(3,0.5)", "my_tree:model(2)",
]


@pytest.mark.parametrize("spec", EVERY_MODEL)
def test_failure_curves_reach_zero_once_a_small_tree_is_searched(spec, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    rates = failure_rate(spec, "ucb1", "plain", runs=20, budgets=2**10, branching=2, depth=6,
                         trees=3)
    assert rates.failure_rate.iloc[-1] == 0.0, rates.failure_rate.tolist()
    assert rates.runs.iloc[-1] == 60
