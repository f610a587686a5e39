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
child not proven lost. A root policy (``GameSearchConfig.root``, ``mcts.root_policies``:
sequential halving or the Gumbel root) chooses the root's children over the whole budget, the
policy below: the root is expanded before the first playout (a move that wins at once proves
it), each playout's reward for the root's player is the one its child keeps (0, the middle of
the rewards, is the Gumbel root's v), and the move played is the root policy's under the
solver's rules (``root_policies.root_choice``: never a proven loss while a move is not).

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

from bandits import UCB1, index_tables, reads_second_moment
from bandits.hooks import INDEX
from bandits.rng import randint, seed_state
from games import Game, State, compiled

from .backup import back_up, node_gain
from .child_indices import index_children
from .game_tree import ACTION, MOVER, N_CHILDREN, GameChildren, GameGains
from .growth import grown
from .playouts import MAST, POLICY, mast_key, mast_update, new_table, playout
from .reward_scale import reads_raw_rewards
from .rewards import ONLINE, WARMUP, reward_bound, winner_reward
from .root_policies import (
    NoRoot,
    has_root,
    new_root_state,
    observe_root,
    root_child,
    root_choice,
    root_finished,
    start_root,
)
from .search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from .solver import DRAW, LOSS, NO_CHILD, UNPROVEN, WIN, final_move, prove, solver_choice
from .ties import pick_best

# The version of the game engines' random streams (this one's and ``mcts.generic``'s;
# ``mcts.STREAM_VERSION`` is the synthetic engine's), stored with every tournament block: a
# change that moves a search's numbers bumps it, so that blocks of two versions are never mixed.
# 3: the policy's index_children hook runs in both (Thompson's winless children drawn last)
GAME_STREAM_VERSION = 3

__all__ = [
    "DEFAULT",
    "DRAW",
    "GAME_STREAM_VERSION",
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
    # ``mcts.root_policies``: sequential halving or the Gumbel root choosing the root's
    # children over the whole budget (a kernel apart); NoRoot: the policy at the root too
    root: tuple = NoRoot()


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
    moves, stats, rewards, proven, playouts, action = _search(
        game.game_id, array.copy(), game.max_actions, budget, config, bound, clip,
        index_tables(budget + 1), seed_state(seed))
    first, count = stats[0, FIRST_CHILD], moves[0, N_CHILDREN]
    children = slice(first, first + count)
    visits = stats[children, VISITS].astype(np.float64)
    return SearchResult(int(action), moves[children, ACTION].copy(), visits,
                        rewards[children, REWARD_SUM] / np.maximum(visits, 1),
                        proven[children].copy(), int(playouts))


@njit(cache=True)
def _search(gid, root, max_actions, budget, config, bound, clip, tables, rng):
    capacity = 1024
    second_moment = reads_second_moment(config.policy)
    moves = np.full((capacity, 3), -1, dtype=np.int64)  # mcts.game_tree's layout
    stats = np.zeros((capacity, 2), dtype=np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    rewards = np.zeros((capacity, 2 if second_moment else 1))
    proven = np.zeros(capacity, dtype=np.int8)
    no_columns = np.zeros((1, 1))  # the policy's columns: none kept (``GameChildren``)
    me = compiled.current_player(gid, root)
    moves[0, MOVER], moves[0, N_CHILDREN] = 1 - me, 0
    n_nodes = 1
    out = np.empty(max_actions, dtype=np.int64)
    # scratch: a selection's indices (row INDEX), a MAST step's move values, the final move's
    values = np.empty((3, max_actions))
    scores = values[INDEX]
    path = np.empty(budget + 2, dtype=np.int64)
    moments = np.zeros((2, 2, 3))  # [bonus RB/QB, winner, count/mean/M2]
    sums = np.zeros((2, 5))  # [bonus, n / sum Y / sum Y^2 / sum Y^w / sum Y^w Y]
    keys, table, used = new_table()
    trail = np.empty(256, dtype=np.int64)
    state = root.copy()
    scratch = root.copy()
    playouts = 0
    rooted = has_root(config.root)
    if rooted:  # every playout passes through a child of the root policy's choosing
        moves, stats, rewards, proven, n_nodes, pick = _expand(
            gid, moves, stats, rewards, proven, n_nodes, 0, root, out, scratch, rng)
        if proven[pick] == WIN:  # a move that wins at once proves the root (MCTS-Solver)
            path[0], path[1] = 0, pick
            prove(proven, path, 1, WIN, stats[:, FIRST_CHILD], moves[:, N_CHILDREN])
    roots = new_root_state(config.root, moves[0, N_CHILDREN], budget, 0.0)  # 0: rewards' middle
    start_root(config.root, roots, budget, rng)
    while playouts < budget and proven[0] == UNPROVEN:
        if root_finished(config.root, roots):  # sequential halving's rounding
            break
        state[:] = root
        node, depth = 0, 0
        path[0] = 0
        while stats[node, FIRST_CHILD] != NO_CHILD:
            if depth == 0 and rooted:
                node = stats[0, FIRST_CHILD] + root_child(config.root, roots, stats, rewards,
                                                          playouts + 1)
            else:
                node = _select(moves, stats, rewards, proven, no_columns, node, config, bound,
                               tables, rng, values)
            compiled.apply_action(gid, state, moves[node, ACTION])
            depth += 1
            path[depth] = node
        terminal = compiled.is_terminal(gid, state)
        if not terminal and (node == 0 or stats[node, VISITS] > 0):
            moves, stats, rewards, proven, n_nodes, node = _expand(
                gid, moves, stats, rewards, proven, n_nodes, node, state, out, scratch, rng)
            compiled.apply_action(gid, state, moves[node, ACTION])
            depth += 1
            path[depth] = node
            terminal = compiled.is_terminal(gid, state)
        length = 0
        if terminal:
            prove(proven, path, depth, _outcome_value(moves[node, MOVER],
                                                      compiled.winner(gid, state)),
                  stats[:, FIRST_CHILD], moves[:, N_CHILDREN])
        else:
            length, trail = playout(gid, state, out, scores, rng, config.playout, config.epsilon,
                                    keys, table, trail)
        w = compiled.winner(gid, state)
        reward = 0.0
        if w >= 0:
            reward = winner_reward(config, moments, sums, w, me, depth + length,
                                   compiled.quality(gid, state), playouts >= WARMUP * budget)
            reward = min(max(reward, -clip), clip)
        gains = GameGains(reward, w, moves, bound)
        back_up(stats, rewards, path, depth, gains, second_moment)
        if rooted:
            observe_root(config.root, roots, path[1] - stats[0, FIRST_CHILD],
                         node_gain(gains, 1, path[1])[0], rng)
        if config.playout == MAST:
            for ply in range(1, depth + 1):
                at = path[ply]
                keys, table = mast_update(keys, table, used,
                                          mast_key(moves[at, ACTION], moves[at, MOVER]),
                                          _outcome(moves[at, MOVER], w))
            for i in range(length):
                keys, table = mast_update(keys, table, used, trail[i], _outcome(trail[i] & 1, w))
        playouts += 1
    first, count = stats[0, FIRST_CHILD], moves[0, N_CHILDREN]
    if rooted and proven[0] == UNPROVEN:
        action = moves[first + root_choice(config.root, roots, stats, rewards, proven, rng,
                                           scores), ACTION]
    else:
        action = moves[first + final_move(proven, stats[:, VISITS], first, count, rng, scores),
                       ACTION]
    return moves, stats, rewards, proven, playouts, action


@njit(inline="always")  # per node and move of a MAST update
def _outcome(player, w):
    """+1, -1 or 0: the unshaped outcome of a game won by w (-1 a draw) for ``player``."""
    return 0.0 if w < 0 else (1.0 if player == w else -1.0)


@njit(cache=True)
def _select(moves, stats, rewards, proven, no_columns, parent, config, bound, tables, rng,
            values):
    """The child of ``parent`` to descend to: the solver's choice (``mcts.solver``), else the
    best index among the children not proven lost (``mcts.child_indices``, the policy's hooks
    included); ties uniformly at random (``mcts.ties``); ``values`` (float64 [3, max
    actions]) is scratch, its row INDEX the children's indices."""
    first, count = stats[parent, FIRST_CHILD], moves[parent, N_CHILDREN]
    pick, losses, open_child = solver_choice(proven, first, count, rng)
    if pick != NO_CHILD:
        return pick
    if losses == count - 1:
        return open_child
    view = GameChildren(stats, rewards, proven, no_columns, np.int64(first), count,
                        np.int64(stats[parent, VISITS]), losses < count, bound)
    best = index_children(view, None, tables, config.policy, rng, values)
    return first + pick_best(values[INDEX], 0, count, best, rng)


@njit(cache=True)
def _expand(gid, moves, stats, rewards, proven, n_nodes, node, state, out, scratch, rng):
    """Add all children of ``node`` (position ``state``, not terminal) and return the grown
    tree, its new size and the child to play out from: a move that wins at once if there is one,
    else one drawn uniformly (both at random). Every child that ends the game is proven on the
    spot, as the seed's framework does (``TreeNode.expand``)."""
    n = compiled.legal_actions(gid, state, out)
    if n_nodes + n > moves.shape[0]:
        need = n_nodes + n
        moves, rewards = grown(moves, need, -1), grown(rewards, need, 0.0)
        stats, proven = grown(stats, need, NO_CHILD), grown(proven, need, UNPROVEN)
        stats[n_nodes:, VISITS] = 0
    mover = compiled.current_player(gid, state)
    wins = 0
    for i in range(n):
        child = n_nodes + i
        moves[child, ACTION], moves[child, MOVER] = out[i], mover
        scratch[:] = state
        compiled.apply_action(gid, scratch, out[i])
        if compiled.is_terminal(gid, scratch):
            proven[child] = _outcome_value(mover, compiled.winner(gid, scratch))
            wins += proven[child] == WIN
    stats[node, FIRST_CHILD], moves[node, N_CHILDREN] = n_nodes, n
    if wins > 0:
        pick = pick_best(proven, n_nodes, n, WIN, rng)
    else:
        pick = n_nodes + randint(rng, n)
    return moves, stats, rewards, proven, n_nodes + n, pick


@njit(inline="always")  # per child at an expansion, and per terminal
def _outcome_value(mover, w):
    """The proven value of a terminal for ``mover``, the player who moved into it, when w
    won (-1: a draw)."""
    return DRAW if w < 0 else (WIN if w == mover else LOSS)
