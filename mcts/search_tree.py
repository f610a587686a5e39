"""The synthetic engine's search tree and the views of it that selection reads
(DESIGN.md §3-4): nodes in creation order, a node's b children in consecutive rows.

The exploration restart (seed 001, Eqs. 6-8) keeps a snapshot of the counts at each node's last
threshold change: t' = t - PARENT_BASE and T'_i = T_i - CHILD_BASE.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from bandits import Arm, reads_second_moment

UNPROVEN, WIN, DRAW, LOSS = 0, 1, 2, 3  # proven values, from the view of the node's mover
NO_CHILD = -1


class SearchTree(NamedTuple):
    """One run's search tree, nodes in creation order; node 0 is the root. A node's b children
    are consecutive rows; a node's place in the game tree is not stored but followed on the
    descent (the k-th child of game-tree node v is v b + 1 + k)."""

    # int32 [capacity, 3, 4 with the restart, 5 for a policy reading the second moment];
    # VISITS, HALF_REWARDS, FIRST_CHILD, CHILD_BASE (beside the visits it is read with, as the
    # restart reads them together), WINS (the mover's rewards of 1)
    stats: np.ndarray
    proven: np.ndarray  # int8 [capacity]; UNPROVEN, WIN, DRAW or LOSS for the node's mover
    snapshot: np.ndarray  # int32 [capacity or 1, 2]; BASE_EPOCH, PARENT_BASE
    # float64 [capacity or 1, 4]; SOLVED, LEVEL, AT_VISITS and a pad: rows of 32 bytes, aligned
    # to the cache lines (rows of 24 straddle them)
    index_cache: np.ndarray
    # float64 [capacity, 1 or 2] or None: with reward shaping (``mcts.shaping``) the mover's sum
    # of shaped rewards (and, for a policy reading the second moment, of their squares), which
    # selection then reads instead of HALF_REWARDS (those keep the outcomes)
    shaped: np.ndarray | None


VISITS, HALF_REWARDS, FIRST_CHILD, CHILD_BASE, WINS = 0, 1, 2, 3, 4  # HALF_REWARDS: 2 x reward sum
BASE_EPOCH, PARENT_BASE = 0, 1  # restart: t' = t - PARENT_BASE, T' = T - CHILD_BASE
SOLVED, LEVEL, AT_VISITS = 0, 1, 2  # KL-UCB: a root, its level, and T when it was solved


@njit(cache=True)
def node_capacity(branching, budget):
    """Nodes a run can create: the root plus b per playout (one expansion per playout)."""
    return 1 + branching * budget


@njit(cache=True)
def new_tree(capacity, restart, cached_index, second_moment, shaped):
    """An empty tree of ``capacity`` nodes; the restart's snapshot, KL-UCB's root cache
    (``cached_index``) and the WINS column (``second_moment``) only when asked for; ``shaped``
    its column of shaped rewards (None: none)."""
    stats = np.zeros((capacity, 5 if second_moment else 4 if restart else 3), np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    index_cache = np.zeros((capacity if cached_index else 1, 4))
    index_cache[:, AT_VISITS] = -1.0
    return SearchTree(stats, np.zeros(capacity, np.int8),
                      np.zeros((capacity if restart else 1, 2), np.int32), index_cache, shaped)


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


def reward_sum(tree, node):
    """The sum of the rewards of the move into ``node`` for its mover: half its HALF_REWARDS,
    or with reward shaping its shaped sum (compiled code only; the choice is made at compile
    time, by the type of ``tree.shaped``)."""
    raise NotImplementedError("reward_sum runs inside compiled kernels only")


def square_sum(tree, node):
    """The sum of the squared rewards of the move into ``node`` for its mover, for policies
    reading the second moment: wins + draws / 4 = WINS / 2 + HALF_REWARDS / 4, or the shaped
    squares (compiled code only)."""
    raise NotImplementedError("square_sum runs inside compiled kernels only")


def _is_shaped(tree) -> bool:
    return not isinstance(tree.types[tree.fields.index("shaped")], types.NoneType)


@overload(reward_sum, jit_options={"cache": True})
def _reward_sum(tree, node):
    if _is_shaped(tree):
        return lambda tree, node: tree.shaped[ix(node), 0]
    return lambda tree, node: 0.5 * tree.stats[ix(node), HALF_REWARDS]


@overload(square_sum, jit_options={"cache": True})
def _square_sum(tree, node):
    if _is_shaped(tree):
        return lambda tree, node: tree.shaped[ix(node), 1]
    return lambda tree, node: 0.5 * tree.stats[node, WINS] + 0.25 * tree.stats[node, HALF_REWARDS]


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
