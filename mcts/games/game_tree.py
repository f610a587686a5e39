"""The games engine's tree (``mcts.games``) in the one layout of ``mcts.core.search_tree``, and the
children view through which the one selection (``mcts.core.child_indices``) reads it.

The engine keeps the layout's arrays: ``stats`` int32 [capacity, 2] (VISITS, FIRST_CHILD),
``rewards`` float64 [capacity, 1, 2 for a policy reading the second moment] (REWARD_SUM,
SQUARE_SUM) and ``proven`` int8 [capacity], beside ``moves`` int64 [capacity, 3] (ACTION,
N_CHILDREN, MOVER), what a game adds: a node's children are consecutive rows, as many as its
position has moves. It keeps them in variables of their own, not in a ``SearchTree`` record
(``mcts.core.growth`` says why); a selection reads them through :class:`GameChildren`.

Rewards are kept on the game's scale, m in [-R, R] for the mover (seed 000, Algorithm 1), their
squares on the unit scale p = (m + R) / (2R) (``mcts.core.rewards.unit_mean``). A policy's index
reads a child's mean as it is when its record declares ``raw_rewards`` (UCB1: the seed's UCT), else
on the unit scale; an unvisited child's mean is 0 on the game's scale.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from bandits import Arm, reads_second_moment
from bandits.hooks import child_count, child_lost, child_mean, child_reward_sum, child_visits
from bandits.indexing import ix

from ..core.backup import node_gain
from ..core.children import child_arm, child_sibling, implements
from ..core.reward_scale import SIGNED_OUTCOMES, on_index_scale
from ..core.rewards import unit_mean
from ..core.search_tree import REWARD_SUM, SQUARE_SUM, VISITS
from ..core.solver import LOSS

ACTION, N_CHILDREN, MOVER = 0, 1, 2  # columns of ``moves``


class GameGains(NamedTuple):
    """What the games engine backs up (``mcts.core.backup.back_up``): the ``reward`` R' of a game
    won by ``winner`` (-1: a draw, 0 for both), kept as +R' by the nodes whose mover won and as
    -R' by the others (``moves[:, MOVER]``); squares on the unit scale of the ``bound``."""

    reward: float
    winner: int
    moves: np.ndarray
    bound: float


# inlined in numba's IR: per node of a playout's path
@overload(node_gain, inline="always", jit_options={"cache": True})
def _game_gain(gains, ply, node):
    if gains.instance_class is not GameGains:
        return None

    def gain(gains, ply, node):
        w = gains.winner
        reward = 0.0 if w < 0 else (gains.reward if gains.moves[node, MOVER] == w
                                    else -gains.reward)
        return reward, unit_mean(reward, gains.bound) ** 2

    return gain


class GameChildren(NamedTuple):
    """One parent's children in the games engine's arrays (module docstring): child k is row
    ``first + k``. The engine keeps no policy columns: ``cache`` is a placeholder, and the
    selection indexes every child at every selection (``index_children``'s ``cached`` off)."""

    stats: np.ndarray
    rewards: np.ndarray
    proven: np.ndarray
    cache: np.ndarray  # float64 [1, 1]
    first: int
    b: int
    t: int  # the parent's visits
    skip_losses: bool  # some child is not proven lost: the selection skips those that are
    bound: float  # R, the rewards' bound


# The accessors whose mean has a branch (an unvisited child) are left to LLVM to inline, as in
# ``mcts.core.search_tree``: inlined in numba's IR inside a hook they trip numba's scope check.


@njit(inline="always")  # per child of a selection
def _game_mean(view, row):
    """The mean reward of the move into ``row`` for its mover, on the game's scale (0 unseen)."""
    n = view.stats[row, VISITS]
    return view.rewards[row, REWARD_SUM] / n if n > 0 else 0.0


@implements(child_lost, GameChildren, inline=False)
def _child_lost(view, k):
    return view.skip_losses and view.proven[ix(view.first + k)] == LOSS


@implements(child_visits, GameChildren)
def _child_visits(view, k):
    return view.stats[ix(view.first + k), VISITS]


@implements(child_count, GameChildren)
def _child_count(view, k):
    return view.stats[ix(view.first + k), VISITS]


@implements(child_mean, GameChildren, inline=False)
def _child_mean(view, k, tables):
    return unit_mean(_game_mean(view, ix(view.first + k)), view.bound)


@implements(child_reward_sum, GameChildren, inline=False)
def _child_reward_sum(view, k):
    """On the unit scale, as ``child_mean``: 0 exactly when every reward was a loss."""
    row = ix(view.first + k)
    return view.stats[row, VISITS] * unit_mean(_game_mean(view, row), view.bound)


@implements(child_arm, GameChildren)
def _child_arm(view, k, tables, policy):
    row = ix(view.first + k)
    n = view.stats[row, VISITS]
    square_mean = 0.0
    if reads_second_moment(policy) and n > 0:
        square_mean = view.rewards[row, SQUARE_SUM] / n
    mean = on_index_scale(policy, _game_mean(view, row), view.bound, SIGNED_OUTCOMES)
    return Arm(mean, square_mean, np.int64(n), np.int64(view.t), view.b, 1.0 / view.b)


@implements(child_sibling, GameChildren)
def _child_sibling(view, k, tables):
    """n times child ``k``'s mean, n, and its mean, on the unit scale (PUCT reads no raw
    rewards); nothing for a child out of the choice."""
    row = ix(view.first + k)
    n = view.stats[row, VISITS]
    if n <= 0 or (view.skip_losses and view.proven[row] == LOSS):
        return 0.0, 0.0, 0.0, False
    mean = unit_mean(view.rewards[row, REWARD_SUM] / n, view.bound)
    return n * mean, np.float64(n), mean, True
