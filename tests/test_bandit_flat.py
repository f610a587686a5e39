"""The policies on plain bandits (``bandits.flat``, ``experiments.plain_bandits.study``): a
hand-checked UCB1 run, the regret of KL-UCB and Thompson sampling against UCB1's and the bounds
on Garivier & Cappe 2011's scenarios, and KL-UCB's approach to the Lai-Robbins rate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bandits import index_tables, make_policy
from bandits.arms import parse_arms
from bandits.flat import BEST_MEAN, MOST_PULLED, flat_runs
from experiments.plain_bandits.study import PRESETS, bandit, log_grid, policy_runs


def _ucb1_by_hand(horizon):
    """int [horizon - 1, 2]: (T_0, T_1) after t = 2..horizon pulls of UCB1 on arms that always
    pay 1 and 0: each arm once, then arm 0 while 1 + sqrt(2 ln t / T_0) > sqrt(2 ln t / T_1)
    (equality, a tie, does not occur: one side is irrational where the other is not)."""
    counts, rows = [1, 1], [(1, 1)]
    for t in range(2, horizon):
        explore = [math.sqrt(2 * math.log(t) / n) for n in counts]
        counts[0 if 1 + explore[0] > explore[1] else 1] += 1
        rows.append(tuple(counts))
    return np.array(rows)


def test_ucb1_on_two_deterministic_arms_pulls_the_hand_computed_sequence():
    arms = parse_arms("bernoulli(1.0,0.0)")
    horizon = 400
    grid = np.arange(1, horizon + 1)
    seeds = np.arange(20, dtype=np.uint64).reshape(10, 2)
    pulls, recommended = flat_runs(make_policy("ucb1"), arms.family, arms.params, horizon, grid,
                                   seeds, index_tables(horizon))
    # By hand: one pull each (the first drawn at random), then arm 0 until arm 1's
    # sqrt(2 ln t) exceeds 1 + sqrt(2 ln t / (t - 1)), first at t = 6: sqrt(2 ln 6) = 1.893 >
    # 1 + sqrt(2 ln 6 / 5) = 1.846, so after 6 pulls T = (5, 1) and after 7 T = (5, 2).
    assert (pulls[:, 5] == [5, 1]).all() and (pulls[:, 6] == [5, 2]).all()
    assert (pulls[:, 1:] == _ucb1_by_hand(horizon)).all()
    assert set(np.argmax(pulls[:, 0], axis=1)) == {0, 1}  # the first pull's tie, both ways
    assert (recommended[:, 10:, MOST_PULLED] == 0).all()
    assert (recommended[:, 1:, BEST_MEAN] == 0).all()


def test_runs_do_not_depend_on_threads_or_blocks(monkeypatch):
    import numba

    import experiments.plain_bandits.study as runner

    arms, grid = parse_arms("beta(0.6,0.5,0.4,s=3)"), log_grid(500)
    whole = policy_runs("thompson", arms, 500, 30, 7, grid)
    monkeypatch.setattr(runner, "CHUNK_RUNS", 7)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        split = policy_runs("thompson", arms, 500, 30, 7, grid)
    finally:
        numba.set_num_threads(threads)
    assert all((a == b).all() for a, b in zip(whole, split))
    assert len({tuple(run[-1]) for run in whole[0]}) > 1  # the runs differ from one another
    # tasks of at most TASK_PULLS pulls (a Ctrl-C waits for one): 2 runs of 500 each here
    monkeypatch.setattr(runner, "TASK_PULLS", 1000)
    assert runner._blocks(3, 5, 500) == [(3, 2), (5, 2), (7, 1)]
    small = policy_runs("thompson", arms, 500, 30, 7, grid)
    assert all((a == b).all() for a, b in zip(whole, small))


@pytest.mark.parametrize("name", ["ucb1tuned", "ucbv", "moss", "puct",
                                  "puct(qtransform=parent_and_siblings)", "egreedy", "bayesucb"])
def test_every_builtin_policy_learns_a_plain_bandit(name):
    arms, horizon = parse_arms("bernoulli(0.7,0.3)"), 2000
    pulls, _ = policy_runs(name, arms, horizon, 20, 1, np.array([horizon]))
    assert (pulls[:, -1, 0] > 0.6 * horizon).mean() >= 0.9, pulls[:, -1]


@pytest.fixture(scope="module")
def regret_at_10k():
    frame = bandit("garivier-cappe", ["ucb1", "klucb", "thompson"], horizon=10_000, runs=200,
                   seed=3, baselines=())
    return frame[frame["measure"] == "regret"].set_index(["problem", "method", "t"])


@pytest.mark.parametrize("problem", PRESETS["garivier-cappe"])
def test_klucb_and_thompson_beat_ucb1_and_all_stay_within_the_bounds(regret_at_10k, problem):
    at = regret_at_10k.loc[problem].xs(10_000, level="t")
    for better in ("klucb", "thompson"):
        assert at.loc[better, "ci_high"] < at.loc["ucb1", "ci_low"], at
    for policy in ("ucb1", "klucb", "thompson"):
        assert at.loc[policy, "ci_high"] < at.loc["UCB1 bound (Auer et al.)", "estimate"]


@pytest.mark.parametrize("problem", PRESETS["garivier-cappe"])
def test_klucb_regret_over_lai_robbins_moves_toward_1(regret_at_10k, problem):
    """The ratio R(t) / (C ln t) of KL-UCB at t = 10^2, 10^3, 10^4: each interval lies nearer
    to 1 than the one before (on these problems it rises toward 1 from below: the finite-t
    regret lags the asymptotic rate)."""
    rows = regret_at_10k.loc[problem]
    bound = rows.loc["Lai-Robbins", "estimate"]
    distance = []
    for t in (100, 1000, 10_000):
        low, high = (rows.loc[("klucb", t), key] / bound.loc[t] for key in ("ci_low", "ci_high"))
        distance.append((min(abs(low - 1), abs(high - 1)) if not low <= 1 <= high else 0.0,
                         max(abs(low - 1), abs(high - 1))))
    for (_, farthest_later), (nearest_before, _) in zip(distance[1:], distance):
        assert farthest_later < nearest_before, distance
    assert distance[-1][1] < 0.5, distance
