"""The synthetic engine's search tree and the views of it that selection reads
(DESIGN.md §3-4): nodes in creation order, a node's b children in consecutive rows.

The exploration restart (seed 001, Eqs. 6-8) keeps a snapshot of the counts at each node's last
threshold change: t' = t - PARENT_BASE and T'_i = T_i - CHILD_BASE.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import Arm, reads_second_moment

UNPROVEN, WIN, DRAW, LOSS = 0, 1, 2, 3  # proven values, from the view of the node's mover
NO_CHILD = -1


class SearchTree(NamedTuple):
    """One run's search tree, nodes in creation order; node 0 is the root. A node's b children
    are consecutive rows; a node's place in the game tree is not stored but followed on the
    descent (the k-th child of game-tree node v is v b + 1 + k)."""

    # int32 [capacity, 2, 3 with the restart]; VISITS, FIRST_CHILD, CHILD_BASE (beside the
    # visits it is read with, as the restart reads them together)
    stats: np.ndarray
    # float64 [capacity, 1, 2 for a policy reading the second moment]; REWARD_SUM, SQUARE_SUM:
    # the mover's sum of backed-up rewards (``mcts.backup``) and of their squares. Sums of 0,
    # 1/2 and 1 are exact in float64, so the plain search's numbers are those of integer counts.
    rewards: np.ndarray
    proven: np.ndarray  # int8 [capacity]; UNPROVEN, WIN, DRAW or LOSS for the node's mover
    snapshot: np.ndarray  # int32 [capacity or 1, 2]; BASE_EPOCH, PARENT_BASE
    # float64 [capacity or 1, 4]; KL-UCB: SOLVED, LEVEL, AT_VISITS and a pad; Bayes-UCB:
    # QUANTILE, AT_PARENT, AT_VISITS, SLOPE. Rows of 32 bytes, aligned to the cache lines (rows
    # of 24 straddle them)
    index_cache: np.ndarray


VISITS, FIRST_CHILD, CHILD_BASE = 0, 1, 2
REWARD_SUM, SQUARE_SUM = 0, 1
BASE_EPOCH, PARENT_BASE = 0, 1  # restart: t' = t - PARENT_BASE, T' = T - CHILD_BASE
SOLVED, LEVEL, AT_VISITS = 0, 1, 2  # KL-UCB: a root, its level, and T when it was solved
# Bayes-UCB: a quantile, the parent's t' and T when it was computed, and its growth per unit of
# ln(1 / tail) (``bandits.bayes_ucb.bayesucb_slope``)
QUANTILE, AT_PARENT, SLOPE = SOLVED, LEVEL, 3


@njit(cache=True)
def node_capacity(branching, budget):
    """Nodes a run can create: the root plus b per playout (one expansion per playout)."""
    return 1 + branching * budget


@njit(cache=True)
def new_tree(capacity, restart, cached_index, second_moment):
    """An empty tree of ``capacity`` nodes; the restart's snapshot, the index cache of KL-UCB
    or Bayes-UCB (``cached_index``) and the column of squared rewards (``second_moment``) only
    when asked for."""
    stats = np.zeros((capacity, 3 if restart else 2), np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    index_cache = np.zeros((capacity if cached_index else 1, 4))
    index_cache[:, AT_VISITS] = -1.0
    return SearchTree(stats, np.zeros((capacity, 2 if second_moment else 1)),
                      np.zeros(capacity, np.int8),
                      np.zeros((capacity if restart else 1, 2), np.int32), index_cache)


@njit(inline="always")
def ix(i):
    """``i`` as an unsigned array index. Numba wraps signed indices around (a negative one counts
    from the end) at a few instructions per access, in the innermost loops; unsigned ones skip
    that. Every index so cast is a valid position."""
    return np.uint64(i)


@njit(inline="always")
def explore_count(tree, node, restart):
    """T'_i of Eqs. 6-8: the visits of ``node`` since its parent's last snapshot (all of them
    without the restart)."""
    n = tree.stats[node, VISITS]
    return n - tree.stats[node, CHILD_BASE] if restart else n


@njit(inline="always")
def parent_count(tree, parent, restart):
    """t' of Eqs. 6-8: the visits of ``parent`` since its last snapshot (all of them without
    the restart)."""
    t = tree.stats[ix(parent), VISITS]
    return t - tree.snapshot[parent, PARENT_BASE] if restart else t


@njit(inline="always")
def reward_sum(tree, node):
    """The sum of the rewards of the move into ``node`` for its mover."""
    return tree.rewards[ix(node), REWARD_SUM]


@njit(inline="always")
def square_sum(tree, node):
    """The sum of the squared rewards of the move into ``node`` for its mover (policies
    reading the second moment only)."""
    return tree.rewards[ix(node), SQUARE_SUM]


@njit(inline="always")
def mean_reward(tree, node, tables):
    """The mean reward of the move into ``node`` for its mover."""
    return reward_sum(tree, node) * tables.inverse[ix(tree.stats[ix(node), VISITS])]


@njit(inline="always")
def arm_view(tree, child, t, b, restart, tables, policy):
    """The :class:`bandits.Arm` view of ``child`` for the parent's t'; the mean squared reward
    only for policies reading it."""
    square_mean = 0.0
    if reads_second_moment(policy):
        square_mean = square_sum(tree, child) * tables.inverse[ix(tree.stats[child, VISITS])]
    return Arm(mean_reward(tree, child, tables), square_mean, explore_count(tree, child, restart),
               t, b)
