"""Compiled MCTS for the real games (DESIGN §6, §9; seed 000, Algorithm 1), one search per call.

One iteration (seed 000, Algorithm 1): select from the root by the bandit policy to a leaf of
the search tree; a leaf on its first visit is played out from directly, a leaf visited before
(and the root) is expanded (all its moves added) and a playout starts from one of its children,
drawn uniformly; playouts are ``mcts.playouts`` (uniform, the game's policy, or MAST
epsilon-greedy); the reward (``mcts.rewards``: outcome, quality bonuses, or terminal quality) is
backed up negamax (each node keeps the sum of rewards of the player who made its move).
MCTS-Solver with draws (``mcts.solver``, as in every engine): a terminal reached in the tree is
proven, and here also every child that ends the game when its parent is expanded (the seed's
framework; a child that wins at once is then the one played out); a solved root stops the
search. The move played is the solver's final move: a proven win, else the most visited root
child not proven lost.

Selection policies are the registered bandit records of ``bandits`` (DESIGN §4, §10), each
compiled into its own kernel: once per selection ``begin_selection`` gives the record that
indexes the children, and ``policy_value`` reads each child's :class:`bandits.Arm`: its mean on
p = (m + R) / (2R) in [0, 1] (``mcts.rewards.unit_mean``; these policies' rewards are clipped to
[-R, R]), the mean of its squared rewards on that scale (kept only for policies that read it),
its visits T_i, its parent's t and the number of children K. A policy whose record declares
``raw_rewards`` (UCB1) keeps the seed's framework's scale instead: UCT m + C sqrt(ln t / T_i) on
the unclipped rewards, C = the record's c (the game's C, ``mcts.presets``). Each policy rates
unvisited children itself (UCB1: first; Thompson: a Beta(1, 1) draw). Ties are broken uniformly
at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from bandits import (
    UCB1,
    Arm,
    begin_selection,
    index_tables,
    policy_value,
    reads_second_moment,
)
from bandits.rng import randint, seed_state
from games import Game, State, compiled

from .growth import grown
from .playouts import MAST, POLICY, mast_key, mast_update, new_table, playout
from .q_range import sibling_range
from .reward_scale import reads_raw_rewards
from .rewards import ONLINE, WARMUP, reward_bound, unit_mean, winner_reward
from .solver import DRAW, LOSS, NO_CHILD, UNPROVEN, WIN, final_move, prove, solver_choice
from .ties import pick_best

ACTION, FIRST_CHILD, N_CHILDREN, MOVER = 0, 1, 2, 3  # columns of ``nodes``
VISITS, REWARDS, SQUARES = 0, 1, 2  # columns of ``stats`` (SQUARES: second-moment policies)

__all__ = [
    "DEFAULT",
    "DRAW",
    "LOSS",
    "ONLINE",
    "UNPROVEN",
    "WARMUP",
    "WIN",
    "GameSearchConfig",
    "SearchResult",
    "search",
]


class GameSearchConfig(NamedTuple):
    """Selection policy, rewards and playouts of one search; k = 0 disables a bonus."""

    policy: NamedTuple = UCB1(c=0.8)  # a record of bandits.make_policy; UCB1's c is UCT's C
    rb_k: float = 0.0  # Relative Bonus slope (seed 000 Table 1: 8.0 for Breakthrough)
    rb_a: float = 0.25  # its weight, or ONLINE
    qb_k: float = 0.0  # Qualitative Bonus slope (seed 000 Table 3: 2.0 for Breakthrough)
    qb_a: float = 0.25
    quality: bool = False  # reward = terminal quality q alone (seed 000 Table 4)
    playout: int = POLICY  # mcts.playouts.UNIFORM, POLICY or MAST
    epsilon: float = 1.0  # MAST: probability of a move of the game's own playout policy


@dataclass(frozen=True)
class SearchResult:
    """The chosen move and the root's children after ``playouts`` iterations."""

    action: int
    actions: np.ndarray  # int64 [children]
    visits: np.ndarray  # float64 [children]
    values: np.ndarray  # float64 [children]; mean reward of the root player
    proven: np.ndarray  # int8 [children]; UNPROVEN, WIN, DRAW, LOSS for the root player
    playouts: int


DEFAULT = GameSearchConfig()


def search(game: Game, state: State | np.ndarray, budget: int,
           config: GameSearchConfig = DEFAULT, seed: int = 0) -> SearchResult:
    """Search ``state`` for ``budget`` playouts (fewer if the root is solved)."""
    array = state.array if isinstance(state, State) else state
    if budget < 1:
        raise ValueError(f"budget {budget} is too small; use a budget of 1 playout or more")
    if compiled.is_terminal(game.game_id, array):
        raise ValueError("the position is terminal; search a position with legal moves")
    bound = reward_bound(config)
    clip = np.inf if reads_raw_rewards(config.policy) else bound  # UCT: the rewards as they are
    nodes, stats, proven, playouts, action = _search(
        game.game_id, array.copy(), game.max_actions, budget, config, bound, clip,
        index_tables(budget + 1), seed_state(seed))
    first, count = nodes[0, FIRST_CHILD], nodes[0, N_CHILDREN]
    children = slice(first, first + count)
    visits = stats[children, VISITS]
    return SearchResult(int(action), nodes[children, ACTION].copy(), visits.copy(),
                        stats[children, REWARDS] / np.maximum(visits, 1), proven[children].copy(),
                        int(playouts))


@njit(cache=True)
def _search(gid, root, max_actions, budget, config, bound, clip, tables, rng):
    capacity = 1024
    second_moment = reads_second_moment(config.policy)
    nodes = np.full((capacity, 4), -1, dtype=np.int64)
    stats = np.zeros((capacity, 3 if second_moment else 2))
    proven = np.zeros(capacity, dtype=np.int8)
    me = compiled.current_player(gid, root)
    nodes[0, MOVER], nodes[0, N_CHILDREN] = 1 - me, 0
    n_nodes = 1
    out = np.empty(max_actions, dtype=np.int64)
    scores = np.empty(max_actions)  # scratch: a selection's indices, a MAST step's move values
    path = np.empty(budget + 2, dtype=np.int64)
    moments = np.zeros((2, 2, 3))  # [bonus RB/QB, winner, count/mean/M2]
    sums = np.zeros((2, 5))  # [bonus, n / sum Y / sum Y^2 / sum Y^w / sum Y^w Y]
    keys, values, used = new_table()
    trail = np.empty(256, dtype=np.int64)
    state = root.copy()
    scratch = root.copy()
    playouts = 0
    while playouts < budget and proven[0] == UNPROVEN:
        state[:] = root
        node, depth = 0, 0
        path[0] = 0
        while nodes[node, FIRST_CHILD] >= 0:
            node = _select(nodes, stats, proven, node, config, bound, tables, rng, scores)
            compiled.apply_action(gid, state, nodes[node, ACTION])
            depth += 1
            path[depth] = node
        terminal = compiled.is_terminal(gid, state)
        if not terminal and (node == 0 or stats[node, VISITS] > 0):
            nodes, stats, proven, n_nodes, node = _expand(gid, nodes, stats, proven, n_nodes, node,
                                                          state, out, scratch, rng)
            compiled.apply_action(gid, state, nodes[node, ACTION])
            depth += 1
            path[depth] = node
            terminal = compiled.is_terminal(gid, state)
        length = 0
        if terminal:
            prove(proven, path, depth, _outcome_value(nodes[node, MOVER],
                                                      compiled.winner(gid, state)),
                  nodes[:, FIRST_CHILD], nodes[:, N_CHILDREN])
        else:
            length, trail = playout(gid, state, out, scores, rng, config.playout, config.epsilon,
                                    keys, values, trail)
        w = compiled.winner(gid, state)
        reward = 0.0
        if w >= 0:
            reward = winner_reward(config, moments, sums, w, me, depth + length,
                                   compiled.quality(gid, state), playouts >= WARMUP * budget)
            reward = min(max(reward, -clip), clip)
        for ply in range(depth + 1):
            at = path[ply]
            gain = 0.0 if w < 0 else (reward if nodes[at, MOVER] == w else -reward)
            stats[at, VISITS] += 1.0
            stats[at, REWARDS] += gain
            if second_moment:
                stats[at, SQUARES] += unit_mean(gain, bound) ** 2
        if config.playout == MAST:
            for ply in range(1, depth + 1):
                at = path[ply]
                keys, values = mast_update(keys, values, used,
                                           mast_key(nodes[at, ACTION], nodes[at, MOVER]),
                                           _outcome(nodes[at, MOVER], w))
            for i in range(length):
                keys, values = mast_update(keys, values, used, trail[i],
                                           _outcome(trail[i] & 1, w))
        playouts += 1
    first, count = nodes[0, FIRST_CHILD], nodes[0, N_CHILDREN]
    action = nodes[first + final_move(proven, stats[:, VISITS], first, count, rng, scores),
                   ACTION]
    return nodes, stats, proven, playouts, action


@njit(inline="always")
def _outcome(player, w):
    """+1, -1 or 0: the unshaped outcome of a game won by w (-1 a draw) for ``player``."""
    return 0.0 if w < 0 else (1.0 if player == w else -1.0)


def _index(policy, mean, square_mean, count, parent_count, arms, bound, tables, rng):
    """The selection index of one child with mean reward m (``mean``) and mean squared unit
    reward ``square_mean`` under the record ``policy`` (see the module's docstring; compiled
    code only)."""
    raise NotImplementedError("_index runs inside compiled kernels only")


# Left to LLVM, not inlined in numba's IR: inlined there, Thompson's search took 151 s to
# compile instead of 18.
@overload(_index, jit_options={"cache": True})
def _index_by_record(policy, mean, square_mean, count, parent_count, arms, bound, tables, rng):
    def index(policy, mean, square_mean, count, parent_count, arms, bound, tables, rng):
        arm = Arm(_on_index_scale(policy, mean, bound), square_mean, count, parent_count, arms)
        return policy_value(policy, arm, tables, rng)

    return index


def _on_index_scale(policy, mean, bound):
    """A mean reward as ``policy``'s index reads it: as it is for a record with
    ``raw_rewards``, else mapped onto [0, 1] (``rewards.unit_mean``; compiled code only)."""
    raise NotImplementedError("_on_index_scale runs inside compiled kernels only")


@overload(_on_index_scale, inline="always", jit_options={"cache": True})
def _on_index_scale_by_record(policy, mean, bound):
    if reads_raw_rewards(policy.instance_class):
        return lambda policy, mean, bound: mean
    return lambda policy, mean, bound: unit_mean(mean, bound)


@njit(inline="always")
def _sibling(children, child):
    """A child as PUCT's Q range reads it (``mcts.q_range``), on the index's scale: n times its
    mean, n, its mean; nothing for a child proven lost when the selection skips those."""
    stats, proven, skip_losses, policy, bound = children
    n = stats[child, VISITS]
    if n <= 0 or (skip_losses and proven[child] == LOSS):
        return 0.0, 0.0, 0.0, False
    mean = _on_index_scale(policy, stats[child, REWARDS] / n, bound)
    return n * mean, n, mean, True


@njit(cache=True)
def _select(nodes, stats, proven, parent, config, bound, tables, rng, scores):
    """The child of ``parent`` to descend to: the solver's choice (``mcts.solver``), else the
    best index among the children not proven lost; ties uniformly at random (``mcts.ties``);
    ``scores`` (float64 [max actions]) is scratch for the children's indices."""
    first, count = nodes[parent, FIRST_CHILD], nodes[parent, N_CHILDREN]
    pick, losses, open_child = solver_choice(proven, first, count, rng)
    if pick != NO_CHILD:
        return pick
    if losses == count - 1:
        return open_child
    skip_losses = losses < count
    parent_count = np.int64(stats[parent, VISITS])
    chooser = sibling_range(begin_selection(config.policy, rng), _sibling,
                            (stats, proven, skip_losses, config.policy, bound), first, count)
    best = -np.inf
    for child in range(first, first + count):
        scores[child - first] = -np.inf
        if skip_losses and proven[child] == LOSS:
            continue
        n = stats[child, VISITS]
        mean = stats[child, REWARDS] / n if n > 0 else 0.0
        square_mean = 0.0
        if reads_second_moment(config.policy) and n > 0:
            square_mean = stats[child, SQUARES] / n
        value = _index(chooser, mean, square_mean, np.int64(n), parent_count, count, bound,
                       tables, rng)
        scores[child - first] = value
        best = max(best, value)
    return first + pick_best(scores, 0, count, best, rng)


@njit(cache=True)
def _expand(gid, nodes, stats, proven, n_nodes, node, state, out, scratch, rng):
    """Add all children of ``node`` (position ``state``, not terminal) and return the grown
    tree, its new size and the child to play out from: a move that wins at once if there is one,
    else one drawn uniformly (both at random). Every child that ends the game is proven on the
    spot, as the seed's framework does (``TreeNode.expand``)."""
    n = compiled.legal_actions(gid, state, out)
    if n_nodes + n > nodes.shape[0]:
        need = n_nodes + n
        nodes, stats = grown(nodes, need, -1), grown(stats, need, 0.0)
        proven = grown(proven, need, UNPROVEN)
    mover = compiled.current_player(gid, state)
    wins = 0
    for i in range(n):
        child = n_nodes + i
        nodes[child, ACTION], nodes[child, MOVER] = out[i], mover
        scratch[:] = state
        compiled.apply_action(gid, scratch, out[i])
        if compiled.is_terminal(gid, scratch):
            proven[child] = _outcome_value(mover, compiled.winner(gid, scratch))
            wins += proven[child] == WIN
    nodes[node, FIRST_CHILD], nodes[node, N_CHILDREN] = n_nodes, n
    if wins > 0:
        pick = pick_best(proven, n_nodes, n, WIN, rng)
    else:
        pick = n_nodes + randint(rng, n)
    return nodes, stats, proven, n_nodes + n, pick


@njit(inline="always")
def _outcome_value(mover, w):
    """The proven value of a terminal for ``mover``, the player who moved into it, when w
    won (-1: a draw)."""
    return DRAW if w < 0 else (WIN if w == mover else LOSS)
