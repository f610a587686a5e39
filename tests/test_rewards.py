"""The shaped rewards of seed 000 (Eqs. 4-10) on sequences small enough to check by hand."""

import math

import numpy as np
import pytest

from mcts.core.rewards import ONLINE, QB, RB, reward_bound, unit_mean, winner_reward
from mcts.games import GameSearchConfig


def fresh():
    """Empty search statistics: moments [bonus, winner, count/mean/M2], sums [bonus, 5]."""
    return np.zeros((2, 2, 3)), np.zeros((2, 5))


def feed(config, observations, me=0, shaped=True):
    """Winner rewards for (w, d, q) observations in order, with one set of statistics."""
    moments, sums = fresh()
    rewards = [winner_reward(config, moments, sums, w, me, d, q, shaped)
               for w, d, q in observations]
    return rewards, moments, sums


def b(lam, k):
    """Seed 000, Eq. 5."""
    return -1.0 + 2.0 / (1.0 + math.exp(-k * lam))


def test_sigmoid_is_odd_and_bounded():
    assert b(0.0, 2.0) == 0.0
    assert b(1.0, 2.0) == pytest.approx(-b(-1.0, 2.0))
    assert b(1.0, 2.0) == pytest.approx(0.761594, abs=1e-6)  # tanh(1): b(l) = tanh(k l / 2)
    assert b(50.0, 2.0) == pytest.approx(1.0)


def test_plain_outcome_without_bonuses():
    rewards, moments, _ = feed(GameSearchConfig(), [(0, 10, 0.7), (1, 12, 0.4)])
    assert rewards == [1.0, 1.0] and not moments.any()


def test_qualitative_bonus_by_hand():
    """q of winner 0: 0.4, 0.6 (no bonus: fewer than two samples / the first has sd 0), then
    0.7: lambda_q = (0.7 - 0.5) / sd, sd = sqrt(((0.1)^2 + (0.1)^2) / 1) = 0.1 sqrt 2 (Eq. 7),
    reward 1 + 0.25 b(lambda_q) (Eq. 8). Winner 1's statistics are separate."""
    config = GameSearchConfig(qb_k=2.0, qb_a=0.25)
    obs = [(0, 10, 0.4), (1, 10, 0.9), (0, 10, 0.6), (0, 10, 0.7), (1, 10, 0.1)]
    rewards, moments, _ = feed(config, obs)
    lam = 0.2 / (0.1 * math.sqrt(2.0))
    assert rewards[:3] == [1.0, 1.0, 1.0]
    assert rewards[3] == pytest.approx(1.0 + 0.25 * b(lam, 2.0))
    assert rewards[4] == 1.0  # winner 1 has one earlier sample only
    count, mean, m2 = moments[QB, 0]
    assert (count, mean) == pytest.approx((3, (0.4 + 0.6 + 0.7) / 3))
    assert m2 / (count - 1) == pytest.approx(np.var([0.4, 0.6, 0.7], ddof=1))
    assert moments[QB, 1, :2] == pytest.approx([2, 0.5])


def test_relative_bonus_rewards_short_playouts():
    """lambda_r = (mean_D - d) / sd_D (Eq. 4): shorter than the mean is a bonus."""
    config = GameSearchConfig(rb_k=8.0, rb_a=0.25)
    rewards, _, _ = feed(config, [(1, 20, 0.5), (1, 30, 0.5), (1, 22, 0.5), (1, 28, 0.5)])
    lam_short = (25.0 - 22.0) / math.sqrt(50.0)
    assert rewards[2] == pytest.approx(1.0 + 0.25 * b(lam_short, 8.0)) and rewards[2] > 1.0
    mean = (20 + 30 + 22) / 3
    sd = np.std([20, 30, 22], ddof=1)
    assert rewards[3] == pytest.approx(1.0 + 0.25 * b((mean - 28.0) / sd, 8.0))
    assert rewards[3] < 1.0


def test_warm_up_collects_statistics_without_shaping():
    config = GameSearchConfig(qb_k=2.0)
    obs = [(0, 10, 0.4), (0, 10, 0.6), (0, 10, 0.9)]
    rewards, moments, _ = feed(config, obs, shaped=False)
    assert rewards == [1.0, 1.0, 1.0] and moments[QB, 0, 0] == 3


def test_both_bonuses_add():
    config = GameSearchConfig(rb_k=8.0, rb_a=0.25, qb_k=2.0, qb_a=0.5)
    obs = [(0, 10, 0.4), (0, 20, 0.6), (0, 12, 0.7)]
    rewards, _, _ = feed(config, obs)
    lam_r = (15.0 - 12.0) / math.sqrt(50.0)
    lam_q = (0.7 - 0.5) / math.sqrt(0.02)
    assert rewards[2] == pytest.approx(1.0 + 0.25 * b(lam_r, 8.0) + 0.5 * b(lam_q, 2.0))


def test_online_weight_is_the_regression_of_y_w_on_y():
    """a' = |Cov(Y^w, Y) / Var(Y)| (Eqs. 9-10) over the playouts before the current one, with
    Y = q and Y^w = q when the searching player (me = 0) won, else 0."""
    config = GameSearchConfig(qb_k=2.0, qb_a=ONLINE)
    obs = [(0, 10, 0.8), (1, 10, 0.3), (0, 10, 0.6), (1, 10, 0.5), (0, 10, 0.7)]
    rewards, _, sums = feed(config, obs)
    y = np.array([0.8, 0.3, 0.6, 0.5])
    y_w = np.array([0.8, 0.0, 0.6, 0.0])
    a = abs(np.cov(y_w, y)[0, 1] / np.var(y, ddof=1))
    lam = (0.7 - 0.7) / np.std([0.8, 0.6], ddof=1)
    assert rewards[4] == pytest.approx(1.0 + a * b(lam, 2.0))  # lambda = 0: no bonus
    rewards, _, _ = feed(config, obs[:4] + [(0, 10, 0.9)])
    lam = (0.9 - 0.7) / np.std([0.8, 0.6], ddof=1)
    assert a == pytest.approx(0.23 / 0.13)  # > 1: q's mean is far from 0 (see Sect. 4.4)
    assert rewards[4] == pytest.approx(1.0 + a * b(lam, 2.0))
    assert sums[QB, 0] == 5 and sums[RB].sum() == 0


def test_online_weight_of_the_other_player():
    """For the other searching player Y^w becomes Y - Y^w, so Cov/Var becomes 1 - Cov/Var; the
    sign is dropped (seed 000 Sect. 4.4)."""
    config = GameSearchConfig(qb_k=2.0, qb_a=ONLINE)
    obs = [(0, 10, 0.8), (1, 10, 0.3), (0, 10, 0.6), (1, 10, 0.5), (0, 10, 0.9)]
    mine, _, _ = feed(config, obs, me=0)
    theirs, _, _ = feed(config, obs, me=1)
    bonus = b((0.9 - 0.7) / np.std([0.8, 0.6], ddof=1), 2.0)
    assert mine[4] == pytest.approx(1.0 + 0.23 / 0.13 * bonus)
    assert theirs[4] == pytest.approx(1.0 + abs(1.0 - 0.23 / 0.13) * bonus)


def test_online_weight_depends_on_the_zero_of_q():
    """a' (Eq. 10) is invariant to the scale of q but not to its zero: Cov(Y^w + c 1_w, Y) =
    Cov(Y^w, Y) + c Cov(1_w, Y). Breakthrough's q is therefore the framework's piece difference /
    16 (0 at equal material), not a map into (0, 1). By hand, for me = 0: Y = 1/4, -1/4, 1/2, 0
    (winners 0, 1, 0, 1) gives Cov/Var = (7/32) / (5/16) = 0.7; Y + 1/2 gives (15/32) / (5/16) =
    1.5, and twice Y (a scale) 0.7 again. Winner 0's statistics give lambda = (1/8) / sqrt(1/32)
    for the fifth playout in all three cases."""
    config = GameSearchConfig(qb_k=2.0, qb_a=ONLINE)
    winners = [0, 1, 0, 1, 0]
    lam = 0.125 / math.sqrt(1.0 / 32.0)
    for shift, scale, a in ((0.0, 1.0, 0.7), (0.5, 1.0, 1.5), (0.0, 2.0, 0.7)):
        qs = [scale * q + shift for q in (0.25, -0.25, 0.5, 0.0, 0.5)]
        rewards, _, _ = feed(config, [(w, 10, q) for w, q in zip(winners, qs, strict=True)])
        assert rewards[4] == pytest.approx(1.0 + a * b(lam, 2.0))


def test_reward_bound_and_unit_map():
    assert reward_bound(GameSearchConfig()) == 1.0
    assert reward_bound(GameSearchConfig(rb_k=8.0, qb_k=2.0, qb_a=ONLINE)) == 2.25
    assert reward_bound(GameSearchConfig(qb_k=2.0, quality=True)) == 1.0
    assert unit_mean(0.0, 1.25) == 0.5 and unit_mean(1.25, 1.25) == 1.0
    assert unit_mean(-3.0, 1.25) == 0.0


def test_quality_reward_is_q():
    rewards, _, _ = feed(GameSearchConfig(quality=True), [(0, 10, 0.7)])
    assert rewards == [0.7]
    assert RB == 0 and QB == 1


@pytest.mark.slow
def test_qualitative_bonus_beats_plain_uct_in_breakthrough():
    """Seed 000 Table 3: uct+qb beats uct in Breakthrough (72-79% there at 17k-85k playouts a
    move). Seeded, so a golden result: 130 of 200 here at 1000 playouts (Wilson 0.582-0.713);
    about 11 minutes on one core."""
    from experiments.tournaments.tournament import Tournament, run_tournament, summarize

    tournament = Tournament("breakthrough", "uct+qb", "uct", games=200, playouts=1000, seed=0)
    summary = summarize(run_tournament(tournament, workers=1, progress=False))
    assert summary["ci95"][0] > 0.5, summary
