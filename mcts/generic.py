"""MCTS in plain Python over any position of the game protocol (``games.protocol.GameState``):
OpenSpiel games through ``games.openspiel``, or any game with ``clone``. Slow, but general:
n players, chance nodes, returns on any scale.

One iteration: from the root, a decision node picks a child by the bandit policy's batched index
(``bandits.POLICY_INDICES``: ``ucb1_index``, ``klucb_index``, ``thompson_index``) and a chance
node samples an outcome by its probabilities; a node met for the first time is expanded (all
moves added) and a uniformly random playout runs from one child drawn uniformly at random. Each
edge keeps the visits and the sum of the rewards of the player who made its move, a return u
mapped to [0, 1] by (u - min_utility) / (max_utility - min_utility) (draws of a zero-sum game are
1/2). UCT's C is given for rewards in [-1, 1] as in ``mcts.games``, so the index on [0, 1] uses
C / 2 (the same ordering); KL-UCB's c and Thompson apply as they are. Index ties are broken
uniformly at random. The move played is the most visited root child (ties at random).
No solver and no reward shaping here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bandits import POLICY_INDICES

from .games import KLUCB, THOMPSON, UCT, GameSearchConfig
from .playouts import MAST

_NAMES = {UCT: "ucb1", KLUCB: "klucb", THOMPSON: "thompson"}


@dataclass(frozen=True)
class GenericResult:
    """The chosen move and the root's children after ``playouts`` iterations."""

    action: int
    actions: np.ndarray  # int64 [children]
    visits: np.ndarray  # float64 [children]
    values: np.ndarray  # float64 [children]; mean reward in [0, 1] of the root player
    playouts: int


class _Node:
    """A position in the tree: its moves, their statistics and the child nodes reached."""

    __slots__ = ("actions", "chance", "children", "counts", "sums", "visits")

    def __init__(self, state):
        outcomes = state.chance_outcomes()
        self.chance = None if outcomes is None else np.array([p for _, p in outcomes])
        moves = state.legal_actions() if outcomes is None else [a for a, _ in outcomes]
        self.actions = np.array(moves, dtype=np.int64)
        self.counts = np.zeros(len(moves), dtype=np.int64)
        self.sums = np.zeros(len(moves))
        self.children: list[_Node | None] = [None] * len(moves)
        self.visits = 0


def check_config(config: GameSearchConfig) -> None:
    """``ValueError`` if ``config`` asks for what this search lacks (bonuses, quality, MAST)."""
    if config.rb_k > 0 or config.qb_k > 0 or config.quality or config.playout == MAST:
        raise ValueError("the generic (OpenSpiel) search supports the selection policy only: "
                         "use uct, klucb or thompson (with c), without rb, qb, quality or mast")


def generic_search(game, state, budget: int, config: GameSearchConfig,
                   rng: np.random.Generator) -> GenericResult:
    """Search ``state`` of ``game`` (``min_utility``, ``max_utility``, ``num_players``) for
    ``budget`` playouts with ``config``'s policy and c."""
    check_config(config)
    if budget < 1:
        raise ValueError(f"budget {budget} is too small; use a budget of 1 playout or more")
    if state.is_terminal() or state.chance_outcomes() is not None:
        raise ValueError("search a position where a player is to move")
    low, span = game.min_utility, (game.max_utility - game.min_utility) or 1.0
    root = _Node(state)
    for _ in range(budget):
        _iterate(root, state.clone(), config, rng, low, span)
    best = np.flatnonzero(root.counts == root.counts.max())
    pick = int(rng.choice(best))
    visits = root.counts.astype(np.float64)
    return GenericResult(int(root.actions[pick]), root.actions.copy(), visits,
                         root.sums / np.maximum(visits, 1.0), budget)


def _iterate(root: _Node, state, config, rng, low, span) -> None:
    path: list[tuple[_Node, int, int]] = []  # (node, child index, mover)
    node = root
    while not state.is_terminal():
        mover = state.current_player()
        i = _choose(node, config, rng)
        path.append((node, i, mover))
        state.apply(int(node.actions[i]))
        if node.children[i] is None:
            if not state.is_terminal():
                node.children[i] = _Node(state)
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


def _choose(node: _Node, config: GameSearchConfig, rng: np.random.Generator) -> int:
    """A chance outcome by its probability, or the child of highest index (ties at random)."""
    if node.chance is not None:
        return int(rng.choice(node.actions.size, p=node.chance))
    index_fn = POLICY_INDICES[_NAMES[config.policy]]
    if config.policy == THOMPSON:
        index = index_fn(node.sums, node.counts, seed=int(rng.integers(2**63)))
    else:
        c = config.c / 2 if config.policy == UCT else config.c
        index = index_fn(node.sums, node.counts, node.visits, c=c)
    best = np.flatnonzero(index == index.max())
    return int(best[0] if best.size == 1 else rng.choice(best))
