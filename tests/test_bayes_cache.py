"""Bayes-UCB's quantile cache (``bandits.bayes_ucb_cache.index_by_cached_quantiles``): the bounds
it skips children by, the recurrences that carry its points, and whole searches equal to those
computing every quantile."""

import numpy as np
import pytest
from scipy.stats import beta as stats_beta

from bandits import index_tables, make_policy
from bandits.bayes_ucb import bayesucb_carry, bayesucb_point, bayesucb_slope
from bandits.bayes_ucb_cache import _point_bounds
from bandits.beta_quantile import beta_upper_quantile, log_beta, upper_regularized_beta
from experiments import Curve
from experiments.curves.failure import search_config, tree_instance
from mcts.synthetic import search, tree_arrays


def test_the_slope_bounds_the_quantiles_growth():
    """Q(l) <= Q(l0) + (l - l0) slope(l0) for l = ln(1 / tail) > l0, on shapes >= 1 (half
    points as a draw makes them, small and large) and tails from 1/2 to 1e-9; the bound is
    also close (a tangent) for a small step."""
    shapes = [1.0, 1.5, 2.0, 3.5, 10.0, 40.5, 300.0, 2000.5]
    tails = np.geomspace(0.5, 1e-9, 25)
    worst_gap = np.inf
    for a in shapes:
        for b in shapes:
            quantiles = [beta_upper_quantile(a, b, tail) for tail in tails]
            for i, (q0, tail0) in enumerate(zip(quantiles, tails)):
                slope = bayesucb_slope(a, b, q0, tail0)
                for q, tail in zip(quantiles[i + 1:], tails[i + 1:]):
                    bound = q0 + np.log(tail0 / tail) * slope
                    assert q <= bound + 1e-13, (a, b, tail0, tail)
                    worst_gap = min(worst_gap, bound - q)
                if i + 1 < len(tails):  # the tangent is close over a small step
                    tail1 = tail0 * 0.999
                    step = beta_upper_quantile(a, b, tail1) - q0
                    assert q0 + np.log(tail0 / tail1) * slope - q0 <= 1.01 * step + 1e-12
    assert worst_gap > -1e-13


def test_the_slope_is_the_tail_over_the_density():
    q = beta_upper_quantile(3.0, 5.5, 0.01)
    assert bayesucb_slope(3.0, 5.5, q, 0.01) == pytest.approx(0.01 / stats_beta.pdf(q, 3.0, 5.5),
                                                             rel=1e-10)
    assert bayesucb_slope(3.0, 5.5, 0.0, 0.5) == np.inf


def test_the_upper_tail_is_precise_far_out():
    for a, b, x in [(3.0, 5.5, 0.2), (3.0, 5.5, 0.9), (40.5, 2.0, 0.999), (300.0, 2000.5, 0.2),
                    (1.5, 1.0, 0.5), (2.0, 700.0, 0.05)]:
        assert upper_regularized_beta(x, a, b, log_beta(a, b)) == pytest.approx(
            stats_beta.sf(x, a, b), rel=1e-12)


def test_a_point_is_the_quantile_at_its_level():
    """x = Q(l) for l = ln(1 / G(x)) (the level differs from the tail's by the quantile's own
    error, relatively ~ulp / slope), with the slope ``bayesucb_slope`` gives there."""
    for a, b, tail in [(3.0, 5.5, 0.01), (302.0, 1.0, 1e-4), (40.5, 60.5, 1e-6), (1.0, 2.0, 0.5)]:
        x = beta_upper_quantile(a, b, tail)
        level, slope = bayesucb_point(x, a, b)
        assert beta_upper_quantile(a, b, np.exp(-level)) == pytest.approx(x, abs=1e-15)
        assert abs(level - np.log(1.0 / tail)) <= 1e-15 / slope
        assert slope == pytest.approx(bayesucb_slope(a, b, x, tail), rel=1e-9)
    assert bayesucb_point(1e-300, 50.0, 2.0)[1] == np.inf  # no density: no point


@pytest.mark.parametrize("win", [True, False])
def test_the_recurrences_carry_a_point_to_one_more_win_or_loss(win):
    """``bayesucb_carry`` gives the level and slope of x under Beta(a + 1, b) or Beta(a, b + 1)
    that computing them afresh gives, for points on both sides of the mean; the growth of the
    relative error is 1 for a win, (G + F / b) / G' for a loss."""
    for a, b in [(2.0, 1.0), (3.0, 5.5), (302.0, 1.0), (40.5, 60.5), (4.0, 115.0)]:
        for x in (0.3, 0.7, 0.99):
            level, slope = bayesucb_point(x, a, b)
            carried, carried_slope, growth = bayesucb_carry(x, level, slope, a, b, win)
            after = (a + 1.0, b) if win else (a, b + 1.0)
            expected, expected_slope = bayesucb_point(x, *after)
            assert np.exp(-carried) == pytest.approx(np.exp(-expected), rel=1e-10)
            assert carried_slope == pytest.approx(expected_slope, rel=1e-10)
            assert growth == 1.0 if win else growth >= 1.0
    assert bayesucb_carry(0.999, *bayesucb_point(0.999, 2.0, 1.0), 2.0, 1.0, False)[2] > 1e3


def test_a_points_bounds_hold_the_quantile_within_one_unit_of_level():
    """``_point_bounds`` from x = Q(l_x): low <= Q(l) <= high for |l - l_x| <= 1 and beyond,
    on shapes >= 1 with the mode below and above the quantile; the lower bound is second order
    (within s d^2 of Q) where it holds, and x itself for l > l_x where the curvature fails."""
    for a, b in [(1.0, 1.0), (2.0, 1.0), (1.0, 40.0), (3.0, 5.5), (302.0, 1.0), (40.5, 60.5),
                 (700.0, 8.0), (2.0, 700.0)]:
        for tail0 in (0.4, 1e-2, 1e-4, 1e-7):
            x = beta_upper_quantile(a, b, tail0)
            level0, slope = np.log(1.0 / tail0), bayesucb_slope(a, b, x, tail0)
            for gap in (-1.5, -1.0, -0.3, -0.01, 0.0, 0.01, 0.3, 1.0, 2.0):
                if level0 + gap <= 0.0:
                    continue
                q = beta_upper_quantile(a, b, np.exp(-(level0 + gap)))
                low, high = _point_bounds(x, level0, slope, 1e-15, a, b, level0 + gap)
                assert low - 1e-12 <= q <= high + 1e-12, (a, b, tail0, gap)
                if low > -np.inf and low != x and abs(gap) <= 1.0:  # the curvature's bound
                    assert q - low <= slope * gap * gap + 1e-12
                if gap > 0.0:
                    assert low >= x


def _searches(spec, adjuster, seed, budget, **options):
    curve = Curve(spec, "bayesucb", adjuster, max_budget=budget, **options)
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    config, tables, policy = search_config(curve, instance), index_tables(budget), \
        make_policy("bayesucb", **curve.policy_params)
    trees = []
    for keep in (True, False):
        failed = np.zeros(int(np.log2(budget)) + 1, np.bool_)
        trees.append((search(tree_arrays(instance), config._replace(cache_indices=keep), budget,
                             np.uint64(seed), tables, policy, failed), failed))
    return trees


@pytest.mark.parametrize("adjuster", ["plain", "maxfreq"])
@pytest.mark.parametrize("seed", range(10))
def test_cached_quantiles_choose_as_computing_every_quantile(seed, adjuster):
    """The whole search (tree, proofs, failures) equals one computing every child's quantile
    at every selection, on 10 seeds; plain (wins and losses carried by the recurrences, draws
    by G afresh) and MaxFrequency (the restart's counts: G afresh)."""
    (cached, cached_failed), (every, every_failed) = _searches("constant(1,5)", adjuster, seed,
                                                               2048)
    assert cached.index_cache.shape[0] > 1 and every.index_cache.shape[0] == 1
    assert np.array_equal(cached.stats, every.stats)
    assert np.array_equal(cached.rewards, every.rewards)
    assert np.array_equal(cached.proven, every.proven)
    assert np.array_equal(cached_failed, every_failed)


@pytest.mark.parametrize(("spec", "adjuster", "options"), [
    ("random(4,0)", "plain", {}), ("random(4,3)", "maxfreq", {}),  # maxfreq: the restart
    ("random(4,3)", "maxfreq", {"rescore": True}), ("constant'(1,13)", "value", {}),
    ("constant(1,3)", "plain", {"policy_params": {"c": 2.0}})])
def test_cached_quantiles_choose_as_computing_every_quantile_elsewhere(spec, adjuster, options):
    for seed in range(2):
        (cached, cached_failed), (every, every_failed) = _searches(spec, adjuster, seed, 2048,
                                                                   **options)
        assert np.array_equal(cached.stats, every.stats)
        assert np.array_equal(cached.proven, every.proven)
        assert np.array_equal(cached_failed, every_failed)
