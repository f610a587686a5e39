"""The P-game generator and the vectorised minimax solver, against hand-built trees and a
brute-force recursive solver on small instances."""

from types import SimpleNamespace

import numpy as np
import pytest

from trees import (
    PGameSpec,
    TreeInstance,
    level_start,
    make_tree,
    node_count,
    path_sums,
    pgame,
    solve_minimax,
    uniform_terminals,
)


def _brute_force(edge_value, b, d, node=0, ply=0, total=0):
    """Minimax score below ``node`` by plain recursion over the heap's children."""
    total += int(edge_value[node])
    if ply == d:
        return total
    values = [_brute_force(edge_value, b, d, node * b + 1 + k, ply + 1, total) for k in range(b)]
    return max(values) if ply % 2 == 0 else min(values)


def _outcome(score, theta):
    return 1.0 if score > theta else 0.5 if score == theta else 0.0


def test_pgame_signs_ranges_and_path_scores():
    game = pgame(7, 3, 4, seed=2)
    b = 3
    assert game.edge_value.shape == (node_count(3, 4),) and game.edge_value[0] == 0
    for ply in range(1, 5):
        level = game.edge_value[level_start(b, ply) : level_start(b, ply + 1)]
        assert (level >= 0).all() and (level <= 7).all() if ply % 2 else (
            (level <= 0).all() and (level >= -7).all())
    leaf = level_start(b, 4) + 17
    path = [leaf]
    while path[-1]:
        path.append((path[-1] - 1) // b)
    assert game.path_score[leaf] == game.edge_value[path].sum()


def test_pgame_is_seeded_and_its_default_m_is_127():
    a, b = pgame(seed=5), pgame(127, 4, 8, 5)
    assert np.array_equal(a.edge_value, b.edge_value) and a.spec.text == "pgame(127)"
    assert not np.array_equal(a.edge_value, pgame(seed=6).edge_value)
    assert np.abs(a.edge_value).max() <= 127 and np.abs(a.edge_value).max() > 100


def test_hand_built_b2_d2():
    edge_value = np.array([0, 3, 1, -3, -1, 0, -2], dtype=np.int32)  # leaves: 0, 2 | 1, -1
    game = TreeInstance(PGameSpec(3), 2, 2, 0, edge_value, uniform_terminals(2, 2))
    result = solve_minimax(game)
    assert result.value.tolist() == [0, 0, -1, 0, 2, 1, -1]
    assert result.optimal_moves().tolist() == [0] and result.best_moves().tolist() == [0]
    assert result.optimal_moves(theta=-1.0).tolist() == [0]  # 0 > -1 wins, -1 draws
    assert result.optimal_moves(theta=-2.0).tolist() == [0, 1]  # both win


@pytest.mark.parametrize("b", [2, 3, 4])
@pytest.mark.parametrize("d", [2, 4, 6, 8])
def test_minimax_equals_brute_force(b, d):
    for seed in range(20 if b**d <= 256 else 6 if b**d <= 4096 else 2 if b**d <= 8192 else 1):
        game = pgame(7 if seed % 2 else 127, b, d, seed)
        result = solve_minimax(game)
        for node in range(b + 1):
            ply = 0 if node == 0 else 1
            expected = _brute_force(game.edge_value, b, d, node, ply,
                                    int(game.path_score[node]) - int(game.edge_value[node]))
            assert result.value[node] == expected
        children = [_brute_force(game.edge_value, b, d, 1 + k, 1) for k in range(b)]
        root = max(children)
        for theta in (0.0, 0.5, float(root), float(root) - 0.5):
            expected = [k for k in range(b)
                        if _outcome(children[k], theta) == _outcome(root, theta)]
            assert result.optimal_moves(theta).tolist() == expected
        assert result.best_moves().tolist() == [k for k in range(b) if children[k] == root]


@pytest.mark.parametrize("b, d", [(2, 3), (3, 5)])
def test_odd_depths_end_on_a_max_move(b, d):
    rng = np.random.default_rng(b * d)
    for _ in range(4):
        edge_value = rng.integers(-9, 10, size=node_count(b, d))
        edge_value[0] = 0
        tree = SimpleNamespace(branching=b, depth=d, path_score=path_sums(edge_value, b, d),
                               terminal=uniform_terminals(b, d))
        assert solve_minimax(tree).value[0] == _brute_force(edge_value, b, d)


def test_every_inner_node_equals_brute_force_on_one_small_tree():
    b, d = 3, 4
    game = pgame(127, b, d, seed=11)
    value = solve_minimax(game).value
    for ply in range(d + 1):
        for node in range(level_start(b, ply), level_start(b, ply + 1)):
            prefix = int(game.path_score[node]) - int(game.edge_value[node])
            assert value[node] == _brute_force(game.edge_value, b, d, node, ply, prefix)


@pytest.mark.parametrize("spec", ["constant(1,5)", "constant'(1,13)", "random(4,3)"])
def test_seed001_trees_have_one_optimal_move_of_value_0(spec):
    for seed in range(3):
        tree = make_tree(spec, 3, 4, seed)
        result = solve_minimax(tree)
        assert result.value[0] == 0
        assert result.optimal_moves().tolist() == [tree.optimal_move]
