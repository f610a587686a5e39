"""MCTS in plain Python over any position of the game protocol (``games.protocol.GameState``):
OpenSpiel games through ``games.openspiel``, or any game with ``clone``. Slow, but general:
n players, chance nodes, returns on any scale.

One iteration: from the root, a decision node picks a child by the highest index of the
selection policy (any record of ``bandits.make_policy``: the one selection of
``mcts.core.child_indices``, the policy's hooks included, over this engine's :class:`FlatChildren`,
in one compiled call) and a chance node samples an outcome by its probabilities; a node met
for the first time is expanded (all moves added) and a uniformly random playout runs from one
child drawn uniformly at random. Each edge keeps the visits and the sum of the rewards of the
player who made its move (and of their squares, for policies reading the second moment), a return
u mapped to [0, 1] by (u - min_utility) / (max_utility - min_utility) (draws of a zero-sum game
are 1/2). The c of a policy reading raw rewards (``raw_rewards``: UCB1) is UCT's C for rewards in
[-1, 1] as in ``mcts.games``, so the index on [0, 1] uses c / 2 (the same ordering); the other
policies' parameters apply as they are. Index ties are broken uniformly at random by ``rng``;
the policies draw from a compiled stream spawned from it (``Generator.spawn``), leaving its own
draws as they were. The move played is the most visited root child (ties at random). No solver
and no reward shaping here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import Arm, IndexTables, index_tables, reads_second_moment
from bandits.hooks import INDEX, child_count, child_lost, child_mean, child_reward_sum, child_visits
from bandits.indexing import ix
from bandits.rng import seed_state
from bandits.ties import argmax_at_random

from .core.child_indices import index_children
from .core.children import child_arm, child_sibling, implements
from .core.reward_scale import on_unit_returns
from .core.root_specs import NoRoot
from .core.solver import UNPROVEN
from .games.engine import GameSearchConfig
from .games.playouts import MAST


@dataclass(frozen=True)
class GenericResult:
    """The chosen move and the root's children after ``playouts`` iterations."""

    action: int
    actions: np.ndarray  # int64 [children]
    visits: np.ndarray  # float64 [children]
    values: np.ndarray  # float64 [children]; mean reward in [0, 1] of the root player
    playouts: int
    # int8 [children]; all UNPROVEN: this engine proves nothing (the games engine's field)
    proven: np.ndarray


class _Selection(NamedTuple):
    """The selection policy's record, its index tables and compiled random stream."""

    policy: NamedTuple
    tables: IndexTables
    rng: np.ndarray  # uint64 [4]; the kernel stream of bandits.rng


class _Node:
    """A position in the tree: its moves, their statistics and the child nodes reached."""

    __slots__ = ("actions", "chance", "children", "counts", "second_moment", "squares", "sums",
                 "visits")

    def __init__(self, state, second_moment: bool):
        outcomes = state.chance_outcomes()
        self.chance = None if outcomes is None else np.array([p for _, p in outcomes])
        moves = state.legal_actions() if outcomes is None else [a for a, _ in outcomes]
        self.actions = np.array(moves, dtype=np.int64)
        self.counts = np.zeros(len(moves), dtype=np.int64)
        self.sums = np.zeros(len(moves))
        self.second_moment = second_moment
        self.squares = np.zeros(len(moves))  # kept only if the policy reads the second moment
        self.children: list[_Node | None] = [None] * len(moves)
        self.visits = 0


def check_config(config: GameSearchConfig) -> None:
    """``ValueError`` if ``config`` asks for what this search lacks (bonuses, quality, MAST)."""
    if (config.rb_k > 0 or config.qb_k > 0 or config.quality or config.playout == MAST
            or not isinstance(config.root, NoRoot)):
        raise ValueError("the generic (OpenSpiel) search supports the selection policy only: "
                         "drop rb, qb, quality, mast and root= (any policy of `mctslab "
                         "policies list`)")


def generic_search(game, state, budget: int, config: GameSearchConfig,
                   rng: np.random.Generator) -> GenericResult:
    """Search ``state`` of ``game`` (``min_utility``, ``max_utility``, ``num_players``) for
    ``budget`` playouts with ``config``'s policy."""
    check_config(config)
    if budget < 1:
        raise ValueError(f"budget {budget} is too small; use a budget of 1 playout or more")
    if state.is_terminal() or state.chance_outcomes() is not None:
        raise ValueError("search a position where a player is to move")
    low, span = game.min_utility, (game.max_utility - game.min_utility) or 1.0
    policy = on_unit_returns(config.policy)
    stream = seed_state(np.uint64(rng.spawn(1)[0].integers(2**63)))
    selection = _Selection(policy, index_tables(budget), stream)
    root = _Node(state, reads_second_moment(policy))
    for _ in range(budget):
        _iterate(root, state.clone(), selection, rng, low, span)
    pick = argmax_at_random(root.counts, rng)
    visits = root.counts.astype(np.float64)
    return GenericResult(int(root.actions[pick]), root.actions.copy(), visits,
                         root.sums / np.maximum(visits, 1.0), budget,
                         np.full(len(visits), UNPROVEN, np.int8))


def _iterate(root: _Node, state, selection: _Selection, rng, low, span) -> None:
    path: list[tuple[_Node, int, int]] = []  # (node, child index, mover)
    node = root
    while not state.is_terminal():
        mover = state.current_player()
        i = _choose(node, selection, rng)
        path.append((node, i, mover))
        state.apply(int(node.actions[i]))
        if node.children[i] is None:
            if not state.is_terminal():
                node.children[i] = _Node(state, node.second_moment)
            break
        node = node.children[i]
    while not state.is_terminal():
        outcomes = state.chance_outcomes()
        if outcomes is None:
            moves = state.legal_actions()
            state.apply(moves[rng.integers(len(moves))])
        else:
            index = rng.choice(len(outcomes), p=[p for _, p in outcomes])
            state.apply(outcomes[index][0])
    rewards = (np.asarray(state.returns(), dtype=np.float64) - low) / span
    for node, i, mover in path:
        node.visits += 1
        node.counts[i] += 1
        if mover >= 0:
            node.sums[i] += rewards[mover]
            if node.second_moment:
                node.squares[i] += rewards[mover] ** 2


def _choose(node: _Node, selection: _Selection, rng: np.random.Generator) -> int:
    """A chance outcome by its probability, or the child of highest index (ties at random)."""
    if node.chance is not None:
        return int(rng.choice(node.actions.size, p=node.chance))
    return argmax_at_random(_indices(selection.policy, node.sums, node.squares, node.counts,
                                     node.visits, selection.tables, selection.rng), rng)


class FlatChildren(NamedTuple):
    """One node's children in this engine's arrays, as the one selection reads them
    (``mcts.core.children``, ``bandits.hooks``): child k's visits ``counts[k]``, reward sums
    ``sums[k]`` and squares ``squares[k]`` (zeros unless the policy reads the second moment);
    no child is ever out of the choice (no solver), and no policy columns are kept."""

    sums: np.ndarray
    squares: np.ndarray
    counts: np.ndarray
    cache: np.ndarray  # float64 [1, 1]; a placeholder
    first: int  # 0
    b: int
    t: int  # the node's visits


@implements(child_lost, FlatChildren)
def _child_lost(view, k):
    return False


@implements(child_visits, FlatChildren)
def _child_visits(view, k):
    return view.counts[ix(k)]


@implements(child_count, FlatChildren)
def _child_count(view, k):
    return view.counts[ix(k)]


@implements(child_reward_sum, FlatChildren)
def _child_reward_sum(view, k):
    return view.sums[ix(k)]


@implements(child_mean, FlatChildren)
def _child_mean(view, k, tables):
    return view.sums[ix(k)] * tables.inverse[view.counts[ix(k)]]


@implements(child_arm, FlatChildren)
def _child_arm(view, k, tables, policy):
    n = view.counts[ix(k)]
    inverse = tables.inverse[n]
    return Arm(view.sums[ix(k)] * inverse, view.squares[ix(k)] * inverse, n, view.t, view.b,
               1.0 / view.b)


@implements(child_sibling, FlatChildren)
def _child_sibling(view, k, tables):
    n = view.counts[ix(k)]
    if n <= 0:
        return 0.0, 0.0, 0.0, False
    return view.sums[ix(k)], np.float64(n), view.sums[ix(k)] * tables.inverse[n], True


@njit(cache=True)
def _indices(policy, sums, squares, counts, parent_count, tables, rng):
    """The index of every child of one selection (``mcts.core.child_indices``, the policy's hooks
    included, over :class:`FlatChildren`); the kernel stream ``rng`` (uint64 [4]) advances."""
    values = np.empty((3, sums.shape[0]))
    view = FlatChildren(sums, squares, counts, np.zeros((1, 1)), 0, sums.shape[0], parent_count)
    index_children(view, None, tables, policy, rng, values)
    return values[INDEX]
