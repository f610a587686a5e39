"""Stochastic UCT and its variance reduction (seed 003 Sect. 3) on the die bet, a one-decision
MDP with known values (LOW scores d: 3.5; HIGH scores 2 d - 3: 4), and on Pig."""

import itertools

import numpy as np
import pytest
from games_conformance import check_game_conformance

from enhancements.variance import MOMENTS, chance_stream, cv_coefficient, estimate, observe
from games import SolitaireGame, die_bet, get_game, pig
from mcts.stochastic import StochasticConfig, play, search

DIE_BET = SolitaireGame("die-bet", "one decision then a die", die_bet,
                        die_bet.initial_state, die_bet.MAX_ACTIONS, ucb_c=1.0)
ROUND_ROBIN = 1e9  # a UCB constant so large that the edges are visited in turn: fixed counts
RUNS = 3000


def root_estimates(config, budget=20, runs=RUNS):
    """float64 [runs, 2]: the root estimates of LOW and HIGH, one search per seed."""
    return np.array([search(DIE_BET, die_bet.initial_state(), budget, config, seed=s).values
                     for s in range(runs)])


def test_die_bet_conformance():
    check_game_conformance(DIE_BET, n_games=20, seed=0)


@pytest.mark.parametrize("cv, crn, av", list(itertools.product([False, True], repeat=3)))
def test_estimates_are_unbiased(cv, crn, av):
    """With fixed visit counts (10 each) and a fixed c (T < 50), every combination estimates
    E[X_{s,a}] without bias: the mean over 3000 searches is within 4 standard errors."""
    config = StochasticConfig(c=ROUND_ROBIN, cv=cv, cv_offline=-2.0, crn=crn, av=av)
    values = root_estimates(config)
    mean, stderr = values.mean(axis=0), values.std(axis=0) / np.sqrt(RUNS)
    assert np.all(np.abs(mean - die_bet.VALUES) <= 4 * stderr + 1e-12)


def test_antithetic_pairs_cancel_the_die():
    """d + (7 - d) = 7: after an even number of visits the estimates are exact."""
    values = root_estimates(StochasticConfig(c=ROUND_ROBIN, av=True), runs=50)
    assert np.allclose(values, die_bet.VALUES)


def test_common_random_numbers_reduce_the_variance_of_differences():
    """HIGH - LOW = d - 3 on shared dice (variance 35/12 / 10) against 5 * 35/12 / 10 apart."""
    apart = root_estimates(StochasticConfig(c=ROUND_ROBIN))
    shared = root_estimates(StochasticConfig(c=ROUND_ROBIN, crn=True))
    var_apart = np.var(apart[:, 1] - apart[:, 0])
    var_shared = np.var(shared[:, 1] - shared[:, 0])
    assert var_apart == pytest.approx(5 * 35 / 120, rel=0.1)
    assert var_shared == pytest.approx(35 / 120, rel=0.1)


def test_control_variate_removes_corr_squared_of_the_variance():
    """LOW: X = d, Y = I[d = 6] - 1/6, c* = -3 and Corr^2 = 3/7 (seed 003 Sect. 3.1)."""
    plain = root_estimates(StochasticConfig(c=ROUND_ROBIN))[:, 0]
    cv = root_estimates(StochasticConfig(c=ROUND_ROBIN, cv=True, cv_offline=-3.0))[:, 0]
    assert np.var(plain) == pytest.approx(35 / 120, rel=0.1)
    assert np.var(cv) == pytest.approx(35 / 120 * (1 - 3 / 7), rel=0.1)


def test_online_coefficient_from_fifty_visits():
    moments = np.zeros(MOMENTS)
    rng = np.random.default_rng(0)
    for i in range(60):
        x, y = rng.normal(), rng.normal()
        observe(moments, x + 2 * y, y)
        if i == 48:
            assert cv_coefficient(moments, 6.0) == 6.0
    xs_ys = moments
    n = xs_ys[0]
    cov = xs_ys[3] - xs_ys[1] * xs_ys[2] / n
    var = xs_ys[4] - xs_ys[2] ** 2 / n
    assert cv_coefficient(moments, 6.0) == pytest.approx(-cov / var) == pytest.approx(-2, abs=0.5)
    assert estimate(moments, True, 6.0) == pytest.approx(
        moments[1] / n - cov / var * moments[2] / n)


def test_chance_streams():
    assert [chance_stream(k, 1, 2, False, False) for k in range(3)] == [(1, False), (3, False),
                                                                         (5, False)]
    assert [chance_stream(k, 1, 2, True, False) for k in range(3)] == [(0, False), (1, False),
                                                                        (2, False)]
    assert [chance_stream(k, 0, 2, True, True) for k in range(4)] == [(0, False), (0, True),
                                                                       (1, False), (1, True)]


def test_pig_search_records_checkpoints_and_prefers_roll():
    game = get_game("pig")
    result = search(game, pig.initial_state(3), 2000, StochasticConfig(cv=True, crn=True),
                    seed=4, checkpoints=[10, 100, 2000])
    assert result.visits.sum() == 2000 and np.allclose(result.recorded[-1], result.values)
    assert result.action == pig.ROLL


def test_play_is_determined_by_its_seed():
    game = get_game("pig")
    scores = [play(game, pig.initial_state(3), 32, StochasticConfig(cv=True), seed=s)
              for s in (7, 7, 8)]
    assert scores[0] == scores[1] and all(s >= 0 for s in scores)


def test_bad_input():
    game = get_game("pig")
    with pytest.raises(ValueError, match="budget"):
        search(game, pig.initial_state(3), 0)
    with pytest.raises(ValueError, match="decision state"):
        search(game, np.array([3, 0, 0, 1]), 10)
    with pytest.raises(ValueError, match="checkpoints"):
        search(game, pig.initial_state(3), 10, checkpoints=[5, 20])
