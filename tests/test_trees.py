"""Tree models and the exact analysis: hand-computed tiny trees, brute force, seed 001's Fig. 2."""

import itertools

import numpy as np
import pytest

from trees import TreeSpec, analyze, convolved_pmf, enumerated_pmf, make_tree, parse_tree_spec


def test_parse_specs():
    assert parse_tree_spec("constant(1,5)") == TreeSpec("constant", 1, 5)
    assert parse_tree_spec(" Constant'( 1 , 13 ) ") == TreeSpec("constant'", 1, 13)
    assert parse_tree_spec("random(4,3)").text == "random(4,3)"


@pytest.mark.parametrize("bad", ["foo(1,2)", "constant(1)", "constant(0,5)", "random(0,3)",
                                 "random(4,-1)", "constant(1,5", ""])
def test_bad_specs_raise_one_line(bad):
    with pytest.raises(ValueError) as error:
        parse_tree_spec(bad)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("b, d", [(1, 8), (4, 7), (4, 0), (4, 30)])
def test_bad_shapes(b, d):
    with pytest.raises(ValueError):
        make_tree("constant(1,5)", b, d)


def test_constant_tree_b2_d2_by_hand():
    tree = make_tree("constant(1,5)", 2, 2, seed=7)
    opt = tree.optimal_move
    # root move values: 0 (optimal) and -1; at ply 1 (min) values 0 and +5
    assert tree.edge_value[1 + opt] == 0 and tree.edge_value[2 - opt] == -1
    a = analyze(tree)
    # optimal move leads to scores {0, 5}, the other to {-1, 4}, each with probability 1/2
    assert a.win_rate(opt, 0) == pytest.approx(0.5 * 0.5 + 0.5 * 1.0)
    assert a.win_rate(1 - opt, 0) == pytest.approx(0.5)
    assert a.win_rate(opt, 4.5) == pytest.approx(0.5)
    assert a.win_rate(1 - opt, 4.5) == pytest.approx(0.0)
    # Eq. 5 with a = 1: Delta is maximal (0.5) for thresholds in (4, 5) and (-1, 0)
    assert a.delta.max() == pytest.approx(0.5)
    assert a.static_threshold == -0.5


def test_constant_prime_uses_b_only_on_last_ply():
    tree = make_tree("constant'(1,13)", 2, 4, seed=1)
    values = {ply: set(tree.edge_value[(2**ply - 1):(2 ** (ply + 1) - 1)].tolist())
              for ply in range(1, 5)}
    assert values == {1: {0, -1}, 2: {0, 1}, 3: {0, -1}, 4: {0, 13}}


def test_random_tree_values_in_range():
    tree = make_tree("random(4,3)", 4, 4, seed=2)
    for ply in range(4):
        start = (4 ** (ply + 1) - 1) // 3
        values = tree.edge_value[start:start + 4 ** (ply + 1)].reshape(-1, 4)
        assert ((values == 0).sum(axis=1) == 1).all()
        nonzero = values[values != 0]
        assert (nonzero >= -4).all() and (nonzero <= -1).all() if ply % 2 == 0 \
            else (nonzero >= 8).all() and (nonzero <= 11).all()


def test_optimal_move_position_varies_with_seed():
    positions = {make_tree("constant(1,5)", 4, 2, seed=s).optimal_move for s in range(40)}
    assert positions == {0, 1, 2, 3}


def test_terminals_of_a_uniform_tree_are_its_leaves_with_their_path_sums():
    tree = make_tree("random(4,2)", 3, 4, seed=4)
    nodes, moves, weights = tree.terminals()
    assert nodes.tolist() == list(range(40, 121)) and (weights == 1).all()
    assert moves.tolist() == [leaf // 27 for leaf in range(81)]
    scores = tree.path_score[nodes]
    for leaf, path in enumerate(itertools.product(range(3), repeat=4)):
        node, total = 0, 0
        for k in path:
            node = node * 3 + 1 + k
            total += tree.edge_value[node]
        assert scores[leaf] == total


@pytest.mark.parametrize("spec, b, d", [("random(4,2)", 3, 4), ("random(4,6)", 4, 4)])
def test_path_score_sums_the_edge_values_up_to_the_root(spec, b, d):
    tree = make_tree(spec, b, d, seed=4)
    for node in range(tree.n_nodes):
        total, ancestor = 0, node
        while ancestor > 0:
            total += tree.edge_value[ancestor]
            ancestor = (ancestor - 1) // b
        assert tree.path_score[node] == total


@pytest.mark.parametrize("spec, d, dtype", [
    ("random(4,3)", 8, np.int16), ("random(4,6)", 8, np.int16), ("pgame(10000)", 8, np.int32)])
def test_path_score_takes_the_narrowest_type_that_holds_it(spec, d, dtype):
    """At least int16, so that seed 001's trees and pgame(127) share their kernels; the sums
    themselves are checked above."""
    assert make_tree(spec, 4, d, seed=4).path_score.dtype == dtype


def test_nbytes_counts_every_array_an_instance_holds():
    tree = make_tree("random(4,2)", 3, 4, seed=4)
    arrays = (tree.edge_value, tree.terminal, tree.path_score, tree.optimal_child)
    assert tree.nbytes == sum(array.nbytes for array in arrays)


@pytest.mark.parametrize("spec", ["constant(1,5)", "constant(2,3)", "constant'(1,13)",
                                  "constant'(2,7)"])
@pytest.mark.parametrize("b, d", [(2, 2), (3, 4), (4, 6)])
def test_convolution_equals_brute_force(spec, b, d):
    tree = make_tree(spec, b, d, seed=11)
    support, pmf = enumerated_pmf(tree)
    conv_support, conv_pmf = convolved_pmf(tree.spec, b, d, tree.optimal_move)
    assert np.array_equal(support, conv_support)
    assert np.allclose(pmf, conv_pmf, atol=1e-15)


def test_fig2_numbers_constant_prime_1_13():
    """Seed 001, Fig. 2 text: 0.875 vs 0.798 at threshold 0, 0.515 vs 0.234 at 12.5."""
    a = analyze("constant'(1,13)", 4, 8)
    i0, i125 = np.searchsorted(a.thresholds, [0.0, 12.5])
    assert a.win_rate_optimal[i0] == pytest.approx(0.875, abs=5e-4)
    assert a.win_rate_suboptimal[i0] == pytest.approx(0.798, abs=5e-4)
    assert a.delta[i0] == pytest.approx(0.077, abs=5e-4)
    assert a.win_rate_optimal[i125] == pytest.approx(0.515, abs=1.5e-3)
    assert a.win_rate_suboptimal[i125] == pytest.approx(0.234, abs=5e-4)
    assert a.delta[i125] == pytest.approx(0.28, abs=3e-3)
    assert a.static_threshold == 12.5 and a.delta.max() == a.delta[i125]


def test_equation_5_for_constant_trees():
    """Delta(t) = sum_{t<s<t+a} P[s] + 0.5 P(t) + 0.5 P(t+a) (seed 001, Eq. 5)."""
    a = analyze("constant(2,5)", 4, 6)
    p = dict(zip(a.support.tolist(), a.pmf[a.optimal_move]))
    for theta, delta in zip(a.thresholds, a.delta):
        between = sum(q for s, q in p.items() if theta < s < theta + 2)
        expected = between + 0.5 * p.get(theta, 0.0) + 0.5 * p.get(theta + 2, 0.0)
        assert delta == pytest.approx(expected, abs=1e-12)


def test_win_rates_are_monotone_and_bounded():
    a = analyze("random(4,3)", 4, 6, tree_seed=3)
    assert np.all(np.diff(a.win_rates, axis=1) <= 1e-12)
    assert a.win_rates[:, 0] == pytest.approx(1.0) and a.win_rates[:, -1] == pytest.approx(0.0)
    assert np.allclose(a.pmf.sum(axis=1), 1.0)


def test_static_threshold_tie_goes_to_nearest_zero():
    # Constant(1,1) is symmetric about 0: Delta peaks at -0.5 and +0.5 alike
    a = analyze("constant(1,1)", 2, 2, tree_seed=0)
    peaks = a.thresholds[np.isclose(a.delta, a.delta.max())]
    assert a.static_threshold == min(peaks, key=lambda t: (abs(t), t))
