"""Acceptance checks of the tree models, against brute force in plain Python that
reads only an instance's ``edge_value`` and ``terminal``: minimax values and optimal root
moves, the exact analysis against enumeration of every playout, traps that are real level-k
traps and leave the base tree's optimal moves alone, and variable-depth terminals."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from trees import TreeInstance, TreeSpec, analyze, level_start, make_tree

ROOT = Path(__file__).resolve().parents[1]

SPECS = [
    "constant(1,5)",
    "constant'(1,13)",
    "constant(2,1)",
    "random(4,3)",
    "random(1,0)",
    "pgame(127)",
    "pgame(2)",  # small values: draws and ties among the root moves
    "constant(1,5)+trap(1,0.5)",
    "random(4,3)+trap(3,0.3)",
    "pgame(127)+trap(3,0.5)",
    "pgame(3)+trap(1,1)",
    "constant(1,5)+end(0.2)",
    "random(4,3)+end(0.1)",
    "pgame(7)+end(0.3)",
    "random(4,3)+end(0.2)+trap(3,0.5)",
    "pgame(5)+trap(1,0.5)+end(0.1)",
    "constant'(1,13)+end(0.3)+end(0.3)",
    "my_tree:model(2)",
]

# (b, d, seeds): b = 2..4, d = 2..8 even, fewer seeds as the trees grow
SHAPES = [(2, 2, 12), (2, 4, 10), (2, 6, 6), (2, 8, 3), (3, 2, 10), (3, 4, 5), (3, 6, 2),
          (4, 2, 8), (4, 4, 3), (4, 6, 1)]


@pytest.fixture(autouse=True)
def _examples_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples"))


def _instances(spec, shapes=SHAPES):
    for b, d, seeds in shapes:
        for seed in range(seeds):
            yield make_tree(spec, b, d, seed)


def _children(tree, node):
    b = tree.branching
    return range(node * b + 1, node * b + 1 + b)


def _outcome(score):
    """The max player's outcome at threshold 0."""
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def _brute_minimax(tree):
    """{node: minimax score} of every reachable node (none below a terminal), by plain
    recursion from the root: a terminal scores its path sum, max moves from even plies."""
    values = {}

    def visit(node, ply, score):
        score += int(tree.edge_value[node])
        if tree.terminal[node]:
            values[node] = score
            return score
        assert ply < tree.depth, f"node {node} at ply {ply} is not terminal"
        below = [visit(child, ply + 1, score) for child in _children(tree, node)]
        values[node] = max(below) if ply % 2 == 0 else min(below)
        return values[node]

    visit(0, 0, 0)
    return values


def _brute_optimal_moves(tree, values):
    root = _outcome(values[0])
    return [k for k, child in enumerate(_children(tree, 0)) if _outcome(values[child]) == root]


def _playout_distribution(tree, node):
    """{score: probability} of the terminal a uniformly random playout from ``node`` reaches
    (1/b per move, stopping at the first terminal), by plain recursion with exact fractions."""
    distribution = {}
    score = sum(int(tree.edge_value[n]) for n in _path(tree, node))

    def visit(n, score, p):
        if tree.terminal[n]:
            distribution[score] = distribution.get(score, 0) + p
            return
        for child in _children(tree, n):
            visit(child, score + int(tree.edge_value[child]), p / tree.branching)

    visit(node, score, Fraction(1))
    return distribution


def _path(tree, node):
    """The nodes from the root to ``node``, both included."""
    path = [node]
    while path[-1] > 0:
        path.append((path[-1] - 1) // tree.branching)
    return path[::-1]


def _ply(tree, node):
    return len(_path(tree, node)) - 1


@pytest.mark.parametrize("spec", SPECS)
def test_minimax_values_and_optimal_moves_equal_brute_force(spec):
    """Minimax values, the optimal moves and the moves of best minimax score (a subset of
    them; the exact analysis carries both sets) against brute force, for every tree model."""
    for number, tree in enumerate(_instances(spec)):
        values = _brute_minimax(tree)
        nodes = np.fromiter(values, dtype=np.int64)
        expected = np.fromiter(values.values(), dtype=np.int64)
        assert np.array_equal(tree.minimax.value[nodes], expected), (spec, tree.branching,
                                                                     tree.depth, tree.seed)
        optimal = _brute_optimal_moves(tree, values)
        assert tree.optimal_moves.tolist() == optimal, (spec, tree.branching, tree.depth,
                                                        tree.seed)
        assert tree.optimal.tolist() == [k in optimal for k in range(tree.branching)]
        best = [k for k, child in enumerate(_children(tree, 0)) if values[child] == values[0]]
        assert tree.best_score.tolist() == [k in best for k in range(tree.branching)]
        assert best and set(best) <= set(optimal)
        if number == 0:
            analysis = analyze(tree)
            assert analysis.best_score_moves.tolist() == best
            assert analysis.optimal_moves.tolist() == optimal
        if isinstance(tree.spec, TreeSpec):  # seed 001: one optimal move, a drawn root
            assert values[0] == 0 and optimal == [int(tree.optimal_child[0])]


@pytest.mark.parametrize("spec", SPECS)
def test_exact_analysis_equals_enumeration_of_playouts(spec):
    for tree in _instances(spec, [(b, d, min(seeds, 3)) for b, d, seeds in SHAPES]):
        result = analyze(tree)
        rows = [_playout_distribution(tree, child) for child in _children(tree, 0)]
        scores = {score for row in rows for score in row}
        assert result.support.tolist() == list(range(min(scores), max(scores) + 1))
        expected = np.array([[float(row.get(score, 0)) for score in result.support]
                             for row in rows])
        assert result.pmf.shape == (tree.branching, result.support.size)
        assert np.allclose(result.pmf, expected, rtol=0, atol=1e-12), (spec, tree.branching,
                                                                       tree.depth, tree.seed)
        assert result.optimal_moves.tolist() == tree.optimal_moves.tolist()
        for move, row in enumerate(rows):  # mu_i(0) = P(S > 0) + P(S = 0) / 2
            mu = sum(p * Fraction(_outcome(score)) for score, p in row.items())
            assert result.win_rate(move, 0.0) == pytest.approx(float(mu), abs=1e-12)


def _forced_win(tree, node, ply, plies, o_is_max):
    """Whether player O (max if ``o_is_max``) can force the game to end in O's win (score > 0
    for max, < 0 for min) within ``plies`` moves from ``node``, reached at ``ply``."""
    if tree.terminal[node]:
        score = int(tree.path_score[node])
        return score > 0 if o_is_max else score < 0
    if plies == 0:
        return False
    below = (_forced_win(tree, child, ply + 1, plies - 1, o_is_max)
             for child in _children(tree, node))
    return any(below) if (ply % 2 == 0) == o_is_max else all(below)


def _subtree(tree, node):
    """Every node of the subtree of ``node`` (itself included), in heap order."""
    nodes, level = [], [node]
    while level and level[0] < tree.n_nodes:
        nodes += level
        level = [child for n in level for child in _children(tree, n)]
    return nodes


def _expected_trap_roots(base, k):
    """The moves trap(k, 1) turns into traps, from the rule of ``trees/traps.py``: top-down,
    every move that is strictly worse for its mover than the node it leaves (outcomes at
    threshold 0 in the base tree), from a node that is reachable, not terminal and inside no
    earlier trap, such that the trap ends by ply d."""
    outcome = {node: _outcome(value) for node, value in _brute_minimax(base).items()}
    roots, inside = [], set()
    level = [0]
    for ply in range(base.depth - k):
        following = []
        for node in level:
            if base.terminal[node] or node in inside:
                continue
            for child in _children(base, node):
                worse = (outcome[child] < outcome[node] if ply % 2 == 0
                         else outcome[child] > outcome[node])
                if worse:
                    roots.append(child)
                    inside.update(_subtree(base, child))
                following.append(child)
        level = following
    return roots


TRAP_BASES = ["constant(1,5)", "constant'(1,13)", "random(4,3)", "pgame(127)", "pgame(3)",
              "random(4,3)+end(0.2)", "my_tree:model(1)"]


@pytest.mark.parametrize("base", TRAP_BASES)
@pytest.mark.parametrize("k", [1, 3, 5])
def test_every_trap_is_a_real_level_k_trap_and_only_traps_change(base, k):
    """With p = 1 every candidate move becomes a trap: after it the opponent forces a win
    within k plies (depth-limited brute force on the trapped tree), and nothing outside the
    traps' subtrees changes."""
    placed = 0
    for b, d, seeds in [(2, 4, 4), (2, 6, 4), (3, 4, 3), (2, 8, 1), (3, 6, 1)]:
        for seed in range(seeds):
            before = make_tree(base, b, d, seed)
            after = make_tree(f"{base}+trap({k},1)", b, d, seed)
            roots = _expected_trap_roots(before, k)
            inside = np.zeros(before.n_nodes, dtype=bool)
            for root in roots:
                ply = _ply(after, root)
                o_is_max = ply % 2 == 0
                assert not after.terminal[root], (base, b, d, seed, root)
                assert _forced_win(after, root, ply, k, o_is_max), (base, b, d, seed, root)
                inside[_subtree(after, root)] = True
            assert np.array_equal(after.edge_value[~inside], before.edge_value[~inside])
            assert np.array_equal(after.terminal[~inside], before.terminal[~inside])
            assert after.optimal_moves.tolist() == before.optimal_moves.tolist()
            assert after.minimax.value[0] == before.minimax.value[0]
            placed += len(roots)
    assert placed > 0


@pytest.mark.parametrize("base", TRAP_BASES)
def test_trapping_keeps_the_optimal_root_moves_and_the_base_stream(base):
    """For p < 1: the base instance is drawn from the same stream whatever the modifiers
    (p = 0 changes nothing), every trap found (a changed final move, whose score is now the
    smallest win of the player who made it) is a real level-k trap on a move strictly worse
    for its mover, and the optimal root moves and the root's value stay those of the base."""
    k, found = 3, 0
    for b, d, seeds in [(2, 6, 10), (3, 4, 8), (4, 4, 4), (2, 8, 3), (4, 6, 1)]:
        for seed in range(seeds):
            before = make_tree(base, b, d, seed)
            same = make_tree(f"{base}+trap({k},0)", b, d, seed)
            assert np.array_equal(same.edge_value, before.edge_value)
            assert np.array_equal(same.terminal, before.terminal)
            after = make_tree(f"{base}+trap({k},0.4)", b, d, seed)
            assert after.optimal_moves.tolist() == before.optimal_moves.tolist(), (b, d, seed)
            assert after.minimax.value[0] == before.minimax.value[0]
            outcome = before.minimax.outcome(0.0)
            for win in np.flatnonzero(after.edge_value != before.edge_value):
                ply = _ply(after, win)
                root = _path(after, win)[ply - k]
                parent = (root - 1) // b
                assert after.terminal[win] and after.path_score[win] == (1 if ply % 2 else -1)
                assert (outcome[root] < outcome[parent] if (ply - k - 1) % 2 == 0
                        else outcome[root] > outcome[parent]), (b, d, seed, root)
                assert _forced_win(after, root, ply - k, k, (ply - k) % 2 == 0)
                found += 1
    assert found > 0


@pytest.mark.parametrize("base", ["constant(1,5)", "random(4,3)", "pgame(127)"])
def test_variable_depth_ends_at_several_plies_and_nothing_below_a_terminal_counts(base):
    """end(p): the base's edge values from the same stream, its terminals and more; the
    reachable terminals lie at several plies, and ``terminals()`` lists exactly those a
    playout can reach (never one below a terminal), with weight b**(d - ply)."""
    for b, d, seed in [(2, 8, 0), (3, 6, 1), (4, 4, 2), (3, 6, 3)]:
        before = make_tree(base, b, d, seed)
        after = make_tree(f"{base}+end(0.3)", b, d, seed)
        assert np.array_equal(after.edge_value, before.edge_value)
        assert (after.terminal >= before.terminal).all()
        reachable, stack = [], [0]
        while stack:
            node = stack.pop()
            if after.terminal[node]:
                reachable.append(node)
            else:
                stack += _children(after, node)
        plies = {_ply(after, node) for node in reachable}
        assert len(plies) >= 3 and min(plies) < d, (b, d, seed, plies)
        nodes, moves, weights = after.terminals()
        assert nodes.tolist() == sorted(reachable)
        assert moves.tolist() == [_path(after, node)[1] - 1 for node in nodes]
        assert weights.tolist() == [b ** (d - _ply(after, node)) for node in nodes]
        below = [child for node in reachable if node * b + 1 < after.n_nodes
                 for child in _subtree(after, node)[1:]]
        assert below and not after.reachable[below].any()
        # nodes below a terminal are unused: changing them changes nothing
        edge_value, terminal = after.edge_value.copy(), after.terminal.copy()
        edge_value[below] = 10**6
        terminal[below] = ~terminal[below]
        terminal[level_start(b, d):] = True
        poisoned = TreeInstance(after.spec, b, d, seed, edge_value, terminal)
        exact, changed = analyze(after), analyze(poisoned)
        assert np.array_equal(exact.support, changed.support)
        assert np.array_equal(exact.pmf, changed.pmf)
        assert np.array_equal(poisoned.minimax.value[nodes], after.minimax.value[nodes])
        assert poisoned.optimal_moves.tolist() == after.optimal_moves.tolist()
