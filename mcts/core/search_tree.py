"""The layout of the compiled engines' search trees, and the synthetic engine's views of its
tree that selection reads (DESIGN.md §3-4): nodes in creation order, a node's children in
consecutive rows. The synthetic engine keeps a :class:`SearchTree` record; the compiled games
keep the same columns in arrays of their own (``mcts.games.game_tree``).

The exploration restart (seed 001, Eqs. 6-8) keeps a snapshot of the counts at each node's last
threshold change: t' = t - PARENT_BASE and T'_i = T_i - CHILD_BASE.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import Arm, reads_second_moment
from bandits.hooks import (
    INDEX,
    child_count,
    child_lost,
    child_mean,
    child_prior,
    child_reward_sum,
    child_visits,
)
from bandits.indexing import ix
from bandits.rng import randint

from .children import child_arm, child_sibling, implements
from .final_move import choose_final
from .solver import LOSS, NO_CHILD


class SearchTree(NamedTuple):
    """One run's search tree, nodes in creation order; node 0 is the root. A node's b children
    are consecutive rows; a node's place in the game tree is not stored but followed on the
    descent (the k-th child of game-tree node v is v b + 1 + k)."""

    # int32 [capacity, 2, 3 with the restart]; VISITS, FIRST_CHILD, CHILD_BASE (beside the
    # visits it is read with, as the restart reads them together)
    stats: np.ndarray
    # float64 [capacity, 1, 2 for a policy reading the second moment]; REWARD_SUM, SQUARE_SUM:
    # the mover's sum of backed-up rewards (``mcts.core.backup``) and of their squares. Sums of 0,
    # 1/2 and 1 are exact in float64, so the plain search's numbers are those of integer counts.
    rewards: np.ndarray
    proven: np.ndarray  # int8 [capacity]; ``mcts.core.solver``'s values for the node's mover
    snapshot: np.ndarray  # int32 [capacity or 1, 2]; BASE_EPOCH, PARENT_BASE
    # float64 [capacity or 1, the policy's ``bandits.cache_columns`` or 1]: the columns the
    # policy keeps per node (``bandits.hooks``: KL-UCB's roots, Bayes-UCB's points), zeros at
    # the start
    index_cache: np.ndarray
    # float64 [depth + 1, 3]: the scratch of the minimax final move's walk of the tree
    # (``mcts.core.final_move.negamax_value``)
    stack: np.ndarray
    # float64 [capacity, or 1 unguided]: a guided search's prior P of the move into the node
    # (``mcts.synthetic.guidance``), set when its parent is expanded
    prior: np.ndarray
    # float64 [capacity, or 1 unguided]: a guided search's raw value of the node, its first
    # evaluation for the player to move at it (mctx's ``raw_values``)
    raw_value: np.ndarray
    played: np.ndarray  # int64 [1]: the root child a root policy played (-1: none)


VISITS, FIRST_CHILD, CHILD_BASE = 0, 1, 2
REWARD_SUM, SQUARE_SUM = 0, 1
BASE_EPOCH, PARENT_BASE = 0, 1  # restart: t' = t - PARENT_BASE, T' = T - CHILD_BASE


@njit(cache=True)
def node_capacity(branching, budget):
    """Nodes a run can create: the root plus b per playout (one expansion per playout)."""
    return 1 + branching * budget


@njit(cache=True)
def new_tree(capacity, restart, index_columns, second_moment, depth=0, guided=False):
    """An empty tree of ``capacity`` nodes of a game of ``depth`` plies at most; the restart's
    snapshot, the policy's columns per node (``index_columns`` > 0, ``bandits.cache_columns``),
    the column of squared rewards (``second_moment``) and a guided search's priors and raw
    values (``guided``) only when asked for."""
    stats = np.zeros((capacity, 3 if restart else 2), np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    index_cache = np.zeros((capacity if index_columns > 0 else 1, max(index_columns, 1)))
    return SearchTree(stats, np.zeros((capacity, 2 if second_moment else 1)),
                      np.zeros(capacity, np.int8),
                      np.zeros((capacity if restart else 1, 2), np.int32), index_cache,
                      np.zeros((depth + 1, 3)), np.zeros(capacity if guided else 1),
                      np.zeros(capacity if guided else 1), np.full(1, -1, np.int64))


# Not inlined: it runs once per recorded budget, and numba's IR inlining of it (with the
# final-move rules beneath) into every policy's kernel cost seconds of each cold compile.
@njit(cache=True)
def chosen_move(tree, b, rule, rng, values):
    """The move played under the final-move ``rule`` (``mcts.core.final_move``, ``values`` [3, b]
    its scratch); random before the root's expansion."""
    first = tree.stats[0, FIRST_CHILD]
    if first == NO_CHILD:
        return randint(rng, b)
    return choose_final(rule, tree.proven, tree.stats[:, VISITS], tree.rewards[:, REWARD_SUM],
                        tree.stats[:, FIRST_CHILD], first, b, rng, values[INDEX], tree.stack)


@njit(inline="always")  # per child of a selection
def explore_count(tree, node, restart):
    """T'_i of Eqs. 6-8: the visits of ``node`` since its parent's last snapshot (all of them
    without the restart)."""
    n = tree.stats[node, VISITS]
    return n - tree.stats[node, CHILD_BASE] if restart else n


@njit(inline="always")  # per selection
def parent_count(tree, parent, restart):
    """t' of Eqs. 6-8: the visits of ``parent`` since its last snapshot (all of them without
    the restart)."""
    t = tree.stats[ix(parent), VISITS]
    return t - tree.snapshot[parent, PARENT_BASE] if restart else t


@njit(inline="always")  # per child of a selection
def reward_sum(tree, node):
    """The sum of the rewards of the move into ``node`` for its mover."""
    return tree.rewards[ix(node), REWARD_SUM]


@njit(inline="always")  # per child of a selection
def square_sum(tree, node):
    """The sum of the squared rewards of the move into ``node`` for its mover (policies
    reading the second moment only)."""
    return tree.rewards[ix(node), SQUARE_SUM]


@njit(inline="always")  # per child of a selection
def mean_reward(tree, node, tables):
    """The mean reward of the move into ``node`` for its mover."""
    return reward_sum(tree, node) * tables.inverse[ix(tree.stats[ix(node), VISITS])]


@njit(inline="always")  # per child of a selection
def arm_view(tree, child, t, b, restart, tables, policy):
    """The :class:`bandits.Arm` view of ``child`` for the parent's t'; the mean squared reward
    only for policies reading it; its prior a guided search's, else 1/b."""
    square_mean = 0.0
    if reads_second_moment(policy):
        square_mean = square_sum(tree, child) * tables.inverse[ix(tree.stats[child, VISITS])]
    prior = tree.prior[ix(child)] if tree.prior.shape[0] > 1 else 1.0 / b
    return Arm(mean_reward(tree, child, tables), square_mean, explore_count(tree, child, restart),
               t, b, prior)


class ChildrenView(NamedTuple):
    """One parent's b children as a policy's hooks read them (``bandits.hooks``, whose
    accessors are implemented below for it): child k is the tree's row ``first + k``."""

    tree: SearchTree
    cache: np.ndarray  # the tree's index_cache
    first: int
    b: int
    t: int  # the parent's t'
    restart: bool
    skip_losses: bool  # some child is not proven lost: the selection skips those that are


# The accessors with a branch (child_lost, child_count) are left to LLVM to inline: inlined
# in numba's IR, their branch nested in a hook's trips numba's scope check
# (NumbaIRAssumptionWarning).


@implements(child_lost, ChildrenView, inline=False)
def _child_lost(view, k):
    return view.skip_losses and view.tree.proven[ix(view.first + k)] == LOSS


@implements(child_visits, ChildrenView)
def _child_visits(view, k):
    return view.tree.stats[ix(view.first + k), VISITS]


@implements(child_count, ChildrenView, inline=False)
def _child_count(view, k):
    return explore_count(view.tree, ix(view.first + k), view.restart)


@implements(child_reward_sum, ChildrenView)
def _child_reward_sum(view, k):
    return reward_sum(view.tree, view.first + k)


@implements(child_mean, ChildrenView)
def _child_mean(view, k, tables):
    return mean_reward(view.tree, view.first + k, tables)


@implements(child_prior, ChildrenView, inline=False)
def _child_prior(view, k):
    tree = view.tree
    return tree.prior[ix(view.first + k)] if tree.prior.shape[0] > 1 else 1.0 / view.b


@implements(child_arm, ChildrenView)
def _child_arm(view, k, tables, policy):
    return arm_view(view.tree, ix(view.first + k), view.t, view.b, view.restart, tables, policy)


@implements(child_sibling, ChildrenView)
def _child_sibling(view, k, tables):
    """Child ``k``'s reward sum, visits and mean, and whether it was visited since the restart
    (only those count in the range of the means); nothing for a child out of the choice."""
    tree, row = view.tree, ix(view.first + k)
    n = tree.stats[row, VISITS]
    if n <= 0 or (view.skip_losses and tree.proven[row] == LOSS):
        return 0.0, 0.0, 0.0, False
    if explore_count(tree, row, view.restart) > 0:
        return reward_sum(tree, row), np.float64(n), mean_reward(tree, row, tables), True
    return reward_sum(tree, row), np.float64(n), 0.0, False
