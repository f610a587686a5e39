"""Playout rewards of the game MCTS: the outcome, the quality-based bonuses of seed 000 (Eqs.
4-10), the terminal-quality reward of its Table 4, and the map onto [0, 1] that every selection
policy but UCB1 reads (``mcts.games``).

The winner of a playout receives ``winner_reward`` and the loser its negation; a draw is 0.
- Outcome: 1.
- Bonuses: 1 + a b(lambda) per enabled bonus, b(lambda) = -1 + 2 / (1 + exp(-k lambda)) (Eq. 5),
  lambda_r = (mean_D[w] - d) / sd_D[w] (Relative Bonus, Eq. 4; d = depth of the playout's start
  node + playout length) and lambda_q = (q - mean_Q[w]) / sd_Q[w] (Qualitative Bonus, Eq. 7).
  Statistics are per winner w, per search, updated after use; the first ``WARMUP`` share of the
  budget is not shaped (statistics still collected). a is fixed, or ``ONLINE``:
  a' = |Cov(Y^w, Y) / Var(Y)| with Y^w = Y when the searching player wins, else 0 (Eqs. 9-10).
- Quality (Table 4, last column): q alone, i.e. sgn(r) q, so the winner's reward is q (in [-1, 1]
  but for Amazons' mobility / 16; a Breakthrough win a pawn down gives q < 0, as with the
  framework's q).

Map to [0, 1]: a shaped reward lies in [-R, R] with R = 1 + sum of the enabled bonus weights
(R = 1 without bonuses or with the quality reward); an online weight a' is counted as 1 there
and a reward beyond [-R, R] (a' > 1, rare) is clipped to it, for those policies only. A
node's mean m maps to p = (m + R) / (2R), so a draw is 1/2, a plain win 1/2 + 1/(2R).
"""

from __future__ import annotations

import math

from numba import njit

ONLINE = -1.0  # a bonus weight a of ONLINE means a' of seed 000, Eq. 10
WARMUP = 0.05  # share of the budget played before rewards are shaped
RB, QB = 0, 1  # rows of the shaping statistics


def reward_bound(config) -> float:
    """R of the module's docstring for a ``GameSearchConfig``."""
    if config.quality:
        return 1.0
    return bonus_bound(config.rb_k, config.rb_a, config.qb_k, config.qb_a)


@njit(cache=True)
def bonus_bound(rb_k, rb_a, qb_k, qb_a):
    """R = 1 + the weights a of the enabled bonuses (k > 0), ``ONLINE`` counted as 1."""
    weights = 0.0
    if rb_k > 0:
        weights += rb_a if rb_a != ONLINE else 1.0
    if qb_k > 0:
        weights += qb_a if qb_a != ONLINE else 1.0
    return 1.0 + weights


@njit(cache=True)
def winner_reward(config, moments, sums, w, me, d, q, shaped):
    """The reward of winner w (0 or 1) of a playout of length d (from the root) ending with
    quality q; ``moments`` [2 bonuses, 2 winners, 3] and ``sums`` [2 bonuses, 5] are the search's
    statistics (updated here), ``shaped`` False during the warm-up."""
    if config.quality:
        return q
    return bonus_reward(config, moments, sums, w, me, d, q, shaped)


@njit(cache=True)
def bonus_reward(config, moments, sums, w, me, d, q, shaped):
    """1 + a b(lambda) per bonus ``config`` enables (any record with fields rb_k, rb_a, qb_k,
    qb_a: the game engine's and the synthetic engine's), as :func:`winner_reward`."""
    reward = 1.0
    if config.rb_k > 0:
        reward += _bonus(moments[RB], sums[RB], w, me, d, -1.0, config.rb_k, config.rb_a, shaped)
    if config.qb_k > 0:
        reward += _bonus(moments[QB], sums[QB], w, me, q, 1.0, config.qb_k, config.qb_a, shaped)
    return reward


@njit(cache=True)
def _bonus(moments, sums, w, me, y, sign, k, a, shaped):
    """a b(lambda) for one observation y of a game won by w (0 during the warm-up), then the
    update of w's running mean and variance (Welford) and of the sums behind a'.
    ``sign`` = -1 for the Relative Bonus (short is good), +1 for the Qualitative Bonus."""
    count, mean, m2 = moments[w, 0], moments[w, 1], moments[w, 2]
    bonus = 0.0
    if shaped and count > 1 and m2 > 0:
        lam = sign * (y - mean) / math.sqrt(m2 / (count - 1))
        weight = a
        if a == ONLINE:
            n, s, ss, sw, swy = sums[0], sums[1], sums[2], sums[3], sums[4]
            var = ss - s * s / n
            weight = abs((swy - sw * s / n) / var) if var > 0 else 0.0
        bonus = weight * (-1.0 + 2.0 / (1.0 + math.exp(-k * lam)))
    count += 1
    delta = y - mean
    mean += delta / count
    moments[w, 0], moments[w, 1], moments[w, 2] = count, mean, m2 + delta * (y - mean)
    y_w = y if w == me else 0.0
    sums[0] += 1
    sums[1] += y
    sums[2] += y * y
    sums[3] += y_w
    sums[4] += y_w * y
    return bonus


@njit(inline="always")  # per child of a selection
def unit_mean(mean, bound):
    """p = (m + R) / (2R), clipped to [0, 1]."""
    return min(max((mean + bound) / (2.0 * bound), 0.0), 1.0)
