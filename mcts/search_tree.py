"""The synthetic engine's search tree and the views of it that selection reads
(DESIGN.md §3-4): nodes in creation order, a node's b children in consecutive rows.

The exploration restart (seed 001, Eqs. 6-8) keeps a snapshot of the counts at each node's last
threshold change: t' = t - PARENT_BASE and T'_i = T_i - CHILD_BASE.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from bandits import Arm, has_trait, reads_second_moment
from bandits.indexing import ix

from .solver import NO_CHILD


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
    proven: np.ndarray  # int8 [capacity]; ``mcts.solver``'s values for the node's mover
    snapshot: np.ndarray  # int32 [capacity or 1, 2]; BASE_EPOCH, PARENT_BASE
    # float64 [capacity or 1, 4 or 8 (``cache_columns``)]; KL-UCB: SOLVED, LEVEL, AT_VISITS and
    # a pad; Bayes-UCB: POINT, POINT_LEVEL, SHAPE_A, SLOPE, SHAPE_B, CARRIED_ERROR and two pads.
    # Rows of 32 or 64 bytes, aligned to the cache lines (rows of 24 or 48 straddle them)
    index_cache: np.ndarray


VISITS, FIRST_CHILD, CHILD_BASE = 0, 1, 2
REWARD_SUM, SQUARE_SUM = 0, 1
BASE_EPOCH, PARENT_BASE = 0, 1  # restart: t' = t - PARENT_BASE, T' = T - CHILD_BASE
SOLVED, LEVEL, AT_VISITS = 0, 1, 2  # KL-UCB: a root, its level, and T when it was solved
# Bayes-UCB: a point x of the child's posterior Beta(SHAPE_A, SHAPE_B), the level ln(1 / G) of
# the posterior's upper tail G there, the quantile's slope G / f(x) in that level
# (``bandits.bayes_ucb.bayesucb_slope``) and a bound on the relative rounding error the
# recurrences carried into them (``mcts.child_indices._carry``). SHAPE_A shares AT_VISITS's
# column, so that its -1 (none yet, or dropped by ``mcts.rescoring``) matches no posterior.
POINT, POINT_LEVEL, SHAPE_A, SLOPE, SHAPE_B, CARRIED_ERROR = 0, 1, AT_VISITS, 3, 4, 5


def _columns(record_class) -> int:
    return (8 if has_trait(record_class, "caches_quantile")
            else 4 if has_trait(record_class, "caches_index") else 0)


def cache_columns(policy) -> int:
    """The columns of the index cache the policy keeps (0: none; KL-UCB 4, Bayes-UCB 8)."""
    return _columns(type(policy))


@overload(cache_columns, jit_options={"cache": True})
def _cache_columns(policy):
    columns = _columns(policy.instance_class)
    return lambda policy: columns


@njit(cache=True)
def node_capacity(branching, budget):
    """Nodes a run can create: the root plus b per playout (one expansion per playout)."""
    return 1 + branching * budget


@njit(cache=True)
def new_tree(capacity, restart, index_columns, second_moment):
    """An empty tree of ``capacity`` nodes; the restart's snapshot, the index cache of KL-UCB
    or Bayes-UCB (``index_columns`` > 0, ``cache_columns``) and the column of squared rewards
    (``second_moment``) only when asked for."""
    stats = np.zeros((capacity, 3 if restart else 2), np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    index_cache = np.zeros((capacity if index_columns > 0 else 1, max(index_columns, 4)))
    index_cache[:, AT_VISITS] = -1.0
    return SearchTree(stats, np.zeros((capacity, 2 if second_moment else 1)),
                      np.zeros(capacity, np.int8),
                      np.zeros((capacity if restart else 1, 2), np.int32), index_cache)


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
