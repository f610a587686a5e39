"""A policy on a plain stochastic bandit: the same compiled records the trees use,
on K arms whose rewards are drawn from ``bandits.arms``, for a horizon of N pulls.

At time t = 0, 1, ..., N - 1 (t pulls done) the policy's record for this pull is
``begin_selection(policy, rng)`` (epsilon-greedy's coin; any other record as it is), each arm's
index is ``policy_value(record, Arm(mean_i, square_mean_i, T_i, t, K, 1/K), tables, rng)`` with T_i
the pulls of arm i so far, and the arm of the highest index is pulled, ties drawn uniformly
(one draw, only for a tie: ``bandits.ties``, every engine's rule). With t the pulls so far, UCB1 is
Auer, Cesa-Bianchi & Fischer's (2002, Fig. 1) x_i + sqrt(2 ln t / T_i) after one pull of each
arm; KL-UCB, Thompson sampling and Bayes-UCB are their plain indices (no cached roots or
quantiles: every index is computed afresh), PUCT's Q transform reads the range of the pulled
arms' means and the mean of all pulls (the parent's value; ``bandits.q_range``, the arms read as
a node's children), MOSS's horizon is t.

Each run owns two xoshiro256** streams from its two seeds: one for the policy's draws, the ties
and the rewards, one for the ties of the recommendations, so recording them never changes a run.
At every point t of ``grid`` a run records the pulls T_i(t) of every arm and two
recommendations: the most pulled arm and the arm of best empirical mean (unpulled arms last),
ties drawn uniformly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .arms import draw_reward
from .policies import Arm, begin_selection, policy_value, reads_second_moment
from .q_range import sibling_range
from .rng import seed_state
from .ties import pick_highest

MOST_PULLED, BEST_MEAN = 0, 1  # the recommendation rules, columns of ``recommended``
RULES = ("most_pulled", "best_mean")


@njit(inline="always")  # per arm of a pull's Q range: the arm's sums as a child's
def _read_arm(arms, k):
    """Arm ``k`` as ``bandits.q_range`` reads a child: (reward sum, pulls, mean, in range)."""
    sums, counts = arms
    n = counts[k]
    return sums[k], n, sums[k] / n if n > 0 else 0.0, True


@njit(inline="always")  # per pull of a plain bandit: the loop over the arms
def _indices(policy, sums, squares, counts, t, tables, rng, values):
    """Every arm's index at time ``t`` into ``values`` (the module docstring's formula)."""
    arms = counts.shape[0]
    record = sibling_range(begin_selection(policy, rng), _read_arm, (sums, counts), 0, arms)
    for k in range(arms):
        n = counts[k]
        mean = sums[k] / n if n > 0 else 0.0
        square = squares[k] / n if n > 0 else 0.0
        values[k] = policy_value(record, Arm(mean, square, n, t, arms, 1.0 / arms), tables,
                                 rng)


@njit(cache=True, nogil=True)
def flat_runs(policy, family, laws, horizon, grid, seeds, tables):
    """Independent runs of ``policy`` on the arms (``family``, ``laws`` float64 [K, 2], as
    ``bandits.arms.Arms`` holds them) for ``horizon`` pulls, one per row of ``seeds`` (uint64
    [R, 2]); ``grid`` int64 [G], increasing points in 1..horizon; ``tables`` cover counts up to
    the horizon (``bandits.index_tables``). Returns pulls int64 [R, G, K] (T_i at each point)
    and recommended int64 [R, G, 2] (the arm by ``MOST_PULLED`` and by ``BEST_MEAN``). The GIL
    is released: callers spread blocks of seeds over threads."""
    runs, arms, points = seeds.shape[0], laws.shape[0], grid.shape[0]
    pulls = np.zeros((runs, points, arms), np.int64)
    recommended = np.zeros((runs, points, 2), np.int64)
    sums, squares, values = np.empty(arms), np.empty(arms), np.empty(arms)
    counts = np.empty(arms, np.int64)
    second = reads_second_moment(policy)
    for r in range(runs):
        play, ties = seed_state(seeds[r, 0]), seed_state(seeds[r, 1])
        sums[:], squares[:], counts[:] = 0.0, 0.0, 0
        g = 0
        for t in range(horizon):
            _indices(policy, sums, squares, counts, t, tables, play, values)
            arm = pick_highest(values, play)
            reward = draw_reward(family, laws[arm], play)
            sums[arm] += reward
            if second:
                squares[arm] += reward * reward
            counts[arm] += 1
            while g < points and grid[g] == t + 1:
                pulls[r, g] = counts
                recommended[r, g, MOST_PULLED] = pick_highest(counts, ties)
                for k in range(arms):
                    values[k] = sums[k] / counts[k] if counts[k] > 0 else -np.inf
                recommended[r, g, BEST_MEAN] = pick_highest(values, ties)
                g += 1
    return pulls, recommended
