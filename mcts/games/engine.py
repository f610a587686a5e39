"""Compiled MCTS for the real games (DESIGN §6, §9; seed 000, Algorithm 1), one search per call.

One iteration (seed 000, Algorithm 1; the one search loop, ``mcts.core.search_loop``, with this
engine's steps): select from the root by the bandit policy to a leaf of
the search tree; a leaf on its first visit is played out from directly, a leaf visited before
(and the root) is expanded (all its moves added) and a playout starts from one of its children,
drawn uniformly; playouts are ``mcts.games.playouts`` (uniform, the game's policy, or MAST
epsilon-greedy); the reward (``mcts.core.rewards``: outcome, quality bonuses, or terminal quality)
is backed up negamax (each node keeps the sum of rewards of the player who made its move).
MCTS-Solver with draws (``mcts.core.solver``, as in every engine): a terminal reached in the tree is
proven, and here also every child that ends the game when its parent is expanded (the seed's
framework; a child that wins at once is then the one played out); a solved root stops the
search. The move played is the solver's final move: a proven win, else the most visited root
child not proven lost. A root policy (``GameSearchConfig.root``, ``mcts.core.root_policies``:
sequential halving or the Gumbel root) chooses the root's children over the whole budget, the
policy below: the root is expanded before the first playout (a move that wins at once proves
it), each playout's reward for the root's player is the one its child keeps (0, the middle of
the rewards, is the Gumbel root's v), and the move played is the root policy's under the
solver's rules (``root_policies.root_choice``: never a proven loss while a move is not).

Selection policies are the registered bandit records of ``bandits`` (DESIGN §4, §10), each
compiled into its own kernel: once per selection ``begin_selection`` gives the record that
indexes the children, and ``policy_value`` reads each child's :class:`bandits.Arm`: its mean on
p = (m + R) / (2R) in [0, 1] (``mcts.core.rewards.unit_mean``; these policies' rewards are clipped
to [-R, R]), the mean of its squared rewards on that scale (kept only for policies that read it),
its visits T_i, its parent's t and the number of children K. A policy whose record declares
``raw_rewards`` (UCB1) keeps the seed's framework's scale instead: UCT m + C sqrt(ln t / T_i) on
the unclipped rewards, C = the record's c (the game's C, ``mcts.games.presets``). Each policy rates
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
from bandits.ties import pick_best
from games import Game, State, compiled

from ..core.child_indices import index_children
from ..core.growth import grown
from ..core.reward_scale import reward_clip
from ..core.rewards import ONLINE, WARMUP, reward_bound, winner_reward
from ..core.root_policies import has_root, new_root_state, root_pick
from ..core.root_specs import NoRoot
from ..core.search_loop import make_search_loop
from ..core.search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from ..core.solver import DRAW, LOSS, NO_CHILD, UNPROVEN, WIN, final_move, prove, solver_choice
from .game_tree import ACTION, MOVER, N_CHILDREN, GameChildren, GameGains
from .playouts import MAST, POLICY, mast_key, mast_update, new_table, playout

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
    playout: int = POLICY  # mcts.games.playouts.UNIFORM, POLICY or MAST
    epsilon: float = 1.0  # MAST: probability of a move of the game's own playout policy
    # ``mcts.core.root_policies``: sequential halving or the Gumbel root choosing the root's
    # children over the whole budget (a kernel of its own); NoRoot: the policy at the root too
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
    clip = reward_clip(config.policy, bound)
    moves, stats, rewards, proven, playouts, action = _search(
        game.game_id, array.copy(), game.max_actions, budget, config, bound, clip,
        index_tables(budget + 1), seed_state(seed))
    first, count = stats[0, FIRST_CHILD], moves[0, N_CHILDREN]
    children = slice(first, first + count)
    visits = stats[children, VISITS].astype(np.float64)
    return SearchResult(int(action), moves[children, ACTION].copy(), visits,
                        rewards[children, REWARD_SUM] / np.maximum(visits, 1),
                        proven[children].copy(), int(playouts))


class GameSearch(NamedTuple):
    """One search as a domain of the one search loop (``mcts.core.search_loop``): the game, the
    root's position and player, the options, the reward's bound and clip, the policy's tables,
    the root policy and its state, and the scratch the steps share."""

    gid: int
    position: np.ndarray
    me: int  # the root's player
    config: GameSearchConfig
    budget: int
    bound: float
    clip: float
    tables: np.ndarray
    root: tuple
    roots: tuple
    second_moment: bool
    path: np.ndarray
    state: np.ndarray  # the position of the playout
    scratch: np.ndarray  # a position an expansion tries moves on
    out: np.ndarray  # legal moves
    values: np.ndarray  # float64 [3, max actions]: a selection's indices (row INDEX), MAST's
    scores: np.ndarray  # its row INDEX
    no_columns: np.ndarray  # the policy's columns: none kept (``GameChildren``)
    moments: np.ndarray  # the shaping's statistics (``mcts.core.rewards``): [bonus, winner, 3]
    sums: np.ndarray  # [bonus, 5]
    used: np.ndarray  # MAST's table's slots in use (``mcts.games.playouts``)


class GameWalk(NamedTuple):
    """What a search carries from one playout to the next: the tree's arrays (``game_tree``'s
    layout, grown as it fills), its node count, MAST's table and the last playout's moves."""

    moves: np.ndarray
    stats: np.ndarray
    rewards: np.ndarray
    proven: np.ndarray
    n_nodes: int
    keys: np.ndarray
    table: np.ndarray
    trail: np.ndarray


@njit(cache=True)
def _search(gid, position, max_actions, budget, config, bound, clip, tables, rng):
    capacity = 1024
    moves = np.full((capacity, 3), -1, dtype=np.int64)  # mcts.games.game_tree's layout
    stats = np.zeros((capacity, 2), dtype=np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    second_moment = reads_second_moment(config.policy)
    rewards = np.zeros((capacity, 2 if second_moment else 1))
    proven = np.zeros(capacity, dtype=np.int8)
    me = compiled.current_player(gid, position)
    moves[0, MOVER], moves[0, N_CHILDREN] = 1 - me, 0
    n_nodes = 1
    out = np.empty(max_actions, dtype=np.int64)
    values = np.empty((3, max_actions))
    path = np.empty(budget + 2, dtype=np.int64)
    keys, table, used = new_table()
    scratch = position.copy()
    if has_root(config.root):  # every playout passes through a child of the root policy's choosing
        moves, stats, rewards, proven, n_nodes, pick = _expand(
            gid, moves, stats, rewards, proven, n_nodes, 0, position, out, scratch, rng)
        if proven[pick] == WIN:  # a move that wins at once proves the root (MCTS-Solver)
            path[0], path[1] = 0, pick
            prove(proven, path, 1, WIN, stats[:, FIRST_CHILD], moves[:, N_CHILDREN])
    roots = new_root_state(config.root, moves[0, N_CHILDREN], budget, 0.0)  # 0: rewards' middle
    domain = GameSearch(gid, position, me, config, budget, bound, clip, tables, config.root, roots,
                        second_moment, path, position.copy(), scratch, out, values,
                        values[INDEX], np.zeros((1, 1)), np.zeros((2, 2, 3)), np.zeros((2, 5)),
                        used)
    walk, playouts, choice = _search_loop(
        domain, GameWalk(moves, stats, rewards, proven, n_nodes, keys, table,
                         np.empty(256, dtype=np.int64)), rng)
    moves, stats, rewards, proven = walk.moves, walk.stats, walk.rewards, walk.proven
    first, count = stats[0, FIRST_CHILD], moves[0, N_CHILDREN]
    if choice == NO_CHILD:  # no root policy's move
        choice = final_move(proven, stats[:, VISITS], first, count, rng, values[INDEX])
    return moves, stats, rewards, proven, playouts, moves[first + choice, ACTION]


@njit(inline="always")  # per playout: a step of the search loop
def _stopped(domain, walk, t):
    return (t >= domain.budget) | (walk.proven[0] != UNPROVEN)  # no branch (a step is inlined)


@njit(inline="always")  # per playout: a step of the search loop
def _descend(domain, walk, t, rng):
    """Select from the root's position down to a leaf of the search tree, the root's child by
    the root policy if there is one; expand a leaf visited before (and the root) and step to
    the child ``_expand`` picks. Returns the walk and the leaf: its node, depth and whether its
    position ends the game."""
    gid, config, state, path = domain.gid, domain.config, domain.state, domain.path
    moves, stats, rewards, proven, n_nodes = (walk.moves, walk.stats, walk.rewards, walk.proven,
                                              walk.n_nodes)
    state[:] = domain.position
    node, depth = 0, 0
    path[0] = 0
    while stats[node, FIRST_CHILD] != NO_CHILD:
        pick = root_pick(config.root, domain.roots, depth, stats, rewards, t)
        if pick != NO_CHILD:  # the root policy's child
            node = stats[node, FIRST_CHILD] + pick
        else:
            node = _select(moves, stats, rewards, proven, domain.no_columns, node, config,
                           domain.bound, domain.tables, rng, domain.values)
        compiled.apply_action(gid, state, moves[node, ACTION])
        depth += 1
        path[depth] = node
    terminal = compiled.is_terminal(gid, state)
    if not terminal and (node == 0 or stats[node, VISITS] > 0):
        moves, stats, rewards, proven, n_nodes, node = _expand(
            gid, moves, stats, rewards, proven, n_nodes, node, state, domain.out,
            domain.scratch, rng)
        compiled.apply_action(gid, state, moves[node, ACTION])
        depth += 1
        path[depth] = node
        terminal = compiled.is_terminal(gid, state)
    walk = GameWalk(moves, stats, rewards, proven, n_nodes, walk.keys, walk.table, walk.trail)
    return walk, (node, depth, terminal)


@njit(inline="always")  # per playout: a step of the search loop
def _evaluate(domain, walk, leaf, t, rng):
    """Prove a terminal leaf, else play out from it (``mcts.games.playouts``); reward the winner
    (``mcts.core.rewards``, clipped to the policy's range)."""
    gid, config, state = domain.gid, domain.config, domain.state
    node, depth, terminal = leaf
    moves, trail = walk.moves, walk.trail
    length = 0
    if terminal:
        prove(walk.proven, domain.path, depth,
              _outcome_value(moves[node, MOVER], compiled.winner(gid, state)),
              walk.stats[:, FIRST_CHILD], moves[:, N_CHILDREN])
    else:
        length, trail = playout(gid, state, domain.out, domain.scores, rng,
                                config.playout, config.epsilon, walk.keys, walk.table, trail)
    w = compiled.winner(gid, state)
    reward = 0.0
    if w >= 0:
        reward = winner_reward(config, domain.moments, domain.sums, w, domain.me, depth + length,
                               compiled.quality(gid, state), t - 1 >= WARMUP * domain.budget)
        reward = min(max(reward, -domain.clip), domain.clip)
    walk = GameWalk(moves, walk.stats, walk.rewards, walk.proven, walk.n_nodes, walk.keys,
                    walk.table, trail)
    return walk, (w, length), depth, GameGains(reward, w, moves, domain.bound)


@njit(inline="always")  # per playout: a step of the search loop
def _statistics(domain, walk):
    return walk.stats, walk.rewards, walk.proven


@njit(inline="always")  # per playout: a step of the search loop
def _learn(domain, walk, evaluation, depth, gains, t, rng):
    """MAST's update (``mcts.games.playouts``): every move of the path and of the playout, with the
    outcome for its mover."""
    if domain.config.playout != MAST:
        return walk
    w, length = evaluation
    moves, path, keys, table = walk.moves, domain.path, walk.keys, walk.table
    for ply in range(1, depth + 1):
        at = path[ply]
        keys, table = mast_update(keys, table, domain.used,
                                  mast_key(moves[at, ACTION], moves[at, MOVER]),
                                  _outcome(moves[at, MOVER], w))
    for i in range(length):
        keys, table = mast_update(keys, table, domain.used, walk.trail[i],
                                  _outcome(walk.trail[i] & 1, w))
    return GameWalk(moves, walk.stats, walk.rewards, walk.proven, walk.n_nodes, keys, table,
                    walk.trail)


_search_loop = make_search_loop(_stopped, _descend, _evaluate, _statistics, _learn)


@njit(inline="always")  # per node and move of a MAST update
def _outcome(player, w):
    """+1, -1 or 0: the unshaped outcome of a game won by w (-1 a draw) for ``player``."""
    return 0.0 if w < 0 else (1.0 if player == w else -1.0)


@njit(cache=True)
def _select(moves, stats, rewards, proven, no_columns, parent, config, bound, tables, rng,
            values):
    """The child of ``parent`` to descend to: the solver's choice (``mcts.core.solver``), else the
    best index among the children not proven lost (``mcts.core.child_indices``, the policy's hooks
    included); ties uniformly at random (``bandits.ties``); ``values`` (float64 [3, max
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
