"""Compiled MCTS for the real games (DESIGN §6, §9; seed 000, Algorithm 1), one search per call.

One iteration: select from the root by UCT (mean + C sqrt(ln N / n), unvisited children first,
ties at random) to a leaf of the search tree; a non-terminal leaf is expanded (all its moves
added) and a playout by the game's policy starts from one child drawn uniformly; negamax backup
(each node keeps the sum of rewards of the player who made its move). MCTS-Solver with draws: a
terminal reached in the tree is proven; a node whose child is a proven win for the child's mover
is a proven loss for its own mover, and once all children are proven it takes the best of them.
Selection takes a proven-winning child and avoids proven-losing ones; a solved root stops the
search. The move played: a proven win, else the most visited root child not proven losing.

Shaped rewards (seed 000, Eqs. 4-8): the winner's reward 1 becomes 1 + a b(lambda) per enabled
bonus, b(lambda) = -1 + 2 / (1 + exp(-k lambda)), with lambda_r = (mean_D[w] - d) / sd_D[w]
(Relative Bonus, d = depth of the playout's start node + playout length) and lambda_q =
(q - mean_Q[w]) / sd_Q[w] (Qualitative Bonus); draws get no bonus. Statistics are per winner,
per search, updated after use; the first 5% of the budget is not shaped. a is fixed, or online
(``ONLINE``): a' = |Cov(Y^w, Y) / Var(Y)| with Y^w = Y when the searching player wins, else 0
(Eqs. 9-10), estimated from the playouts so far.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from bandits.rng import randint, seed_state
from games import Game, State, compiled

UNPROVEN, WIN, DRAW, LOSS = 0, 1, 2, 3  # proven values, from the view of the node's mover
ACTION, FIRST_CHILD, N_CHILDREN, MOVER = 0, 1, 2, 3  # columns of ``nodes``
VISITS, REWARDS = 0, 1  # columns of ``stats``
ONLINE = -1.0  # a bonus weight a of ONLINE means a' of seed 000, Eq. 10
WARMUP = 0.05  # share of the budget played before rewards are shaped


class GameSearchConfig(NamedTuple):
    """UCT constant and the bonuses; k = 0 disables a bonus."""

    c: float = 0.8
    rb_k: float = 0.0  # Relative Bonus slope (seed 000 Table 1: 8.0 for Breakthrough)
    rb_a: float = 0.25  # its weight, or ONLINE
    qb_k: float = 0.0  # Qualitative Bonus slope (seed 000 Table 3: 2.0 for Breakthrough)
    qb_a: float = 0.25
    uniform: bool = False  # uniform random playouts instead of the game's policy


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
    nodes, stats, proven, playouts, action = _search(
        game.game_id, array.copy(), game.max_actions, budget, config, seed_state(seed))
    first, count = nodes[0, FIRST_CHILD], nodes[0, N_CHILDREN]
    children = slice(first, first + count)
    visits = stats[children, VISITS]
    return SearchResult(int(action), nodes[children, ACTION].copy(), visits.copy(),
                        stats[children, REWARDS] / np.maximum(visits, 1), proven[children].copy(),
                        int(playouts))


@njit(cache=True)
def _search(gid, root, max_actions, budget, config, rng):
    capacity = 1024
    nodes = np.full((capacity, 4), -1, dtype=np.int64)
    stats = np.zeros((capacity, 2))
    proven = np.zeros(capacity, dtype=np.int8)
    me = compiled.current_player(gid, root)
    nodes[0, MOVER], nodes[0, N_CHILDREN] = 1 - me, 0
    n_nodes = 1
    out = np.empty(max_actions, dtype=np.int64)
    path = np.empty(budget + 2, dtype=np.int64)
    shaping = np.zeros((2, 2, 3))  # [bonus RB/QB, winner, count/mean/M2]
    online = np.zeros((2, 5))  # [bonus, n / sum Y / sum Y^2 / sum Y^w / sum Y^w Y]
    state = root.copy()
    playouts = 0
    while playouts < budget and proven[0] == UNPROVEN:
        state[:] = root
        node, depth = 0, 0
        path[0] = 0
        while nodes[node, FIRST_CHILD] >= 0:
            node = _select(nodes, stats, proven, node, config.c, rng)
            compiled.apply_action(gid, state, nodes[node, ACTION])
            depth += 1
            path[depth] = node
        terminal = compiled.is_terminal(gid, state)
        if not terminal:
            n = compiled.legal_actions(gid, state, out)
            if n_nodes + n > nodes.shape[0]:
                nodes, stats, proven = _grow(nodes, stats, proven, n_nodes + n)
            mover = compiled.current_player(gid, state)
            for i in range(n):
                nodes[n_nodes + i, ACTION] = out[i]
                nodes[n_nodes + i, MOVER] = mover
            nodes[node, FIRST_CHILD], nodes[node, N_CHILDREN] = n_nodes, n
            node = n_nodes + randint(rng, n)
            n_nodes += n
            compiled.apply_action(gid, state, nodes[node, ACTION])
            depth += 1
            path[depth] = node
            terminal = compiled.is_terminal(gid, state)
        length = 0
        if terminal:
            _prove(nodes, proven, path, depth, compiled.winner(gid, state))
        else:
            length = compiled.playout(gid, state, out, rng, config.uniform)
        w = compiled.winner(gid, state)
        reward = 1.0
        if w >= 0:
            q = compiled.quality(gid, state)
            shaped = playouts >= WARMUP * budget
            if config.rb_k > 0:
                reward += _bonus(shaping[0], online[0], w, me, depth + length, -1.0,
                                 config.rb_k, config.rb_a, shaped)
            if config.qb_k > 0:
                reward += _bonus(shaping[1], online[1], w, me, q, 1.0, config.qb_k, config.qb_a,
                                 shaped)
        for ply in range(depth + 1):
            at = path[ply]
            stats[at, VISITS] += 1.0
            if w >= 0:
                stats[at, REWARDS] += reward if nodes[at, MOVER] == w else -reward
        playouts += 1
    return nodes, stats, proven, playouts, _final_action(nodes, stats, proven, rng)


@njit(cache=True)
def _select(nodes, stats, proven, parent, c, rng):
    """The child of ``parent`` to descend to: a proven win, else the best UCT value among the
    children not proven lost (unvisited ones first); ties uniformly at random."""
    first, count = nodes[parent, FIRST_CHILD], nodes[parent, N_CHILDREN]
    losses, wins, pick = 0, 0, -1
    for child in range(first, first + count):
        if proven[child] == WIN:
            wins += 1
            if randint(rng, wins) == 0:
                pick = child
        elif proven[child] == LOSS:
            losses += 1
    if wins > 0:
        return pick
    skip_losses = losses < count
    log_n = math.log(max(stats[parent, VISITS], 1.0))
    best, ties = -np.inf, 0
    for child in range(first, first + count):
        if skip_losses and proven[child] == LOSS:
            continue
        n = stats[child, VISITS]
        value = np.inf if n == 0 else stats[child, REWARDS] / n + c * math.sqrt(log_n / n)
        if value > best:
            best, pick, ties = value, child, 1
        elif value == best:
            ties += 1
            if randint(rng, ties) == 0:
                pick = child
    return pick


@njit(cache=True)
def _prove(nodes, proven, path, depth, w):
    """Prove the terminal at ``path[depth]`` (winner w, -1 a draw) and propagate to the root."""
    leaf = path[depth]
    proven[leaf] = DRAW if w < 0 else (WIN if nodes[leaf, MOVER] == w else LOSS)
    for ply in range(depth - 1, -1, -1):
        node = path[ply]
        first, count = nodes[node, FIRST_CHILD], nodes[node, N_CHILDREN]
        best = LOSS
        for child in range(first, first + count):
            value = proven[child]
            if value == WIN:
                best = WIN
                break
            if value == UNPROVEN:
                best = UNPROVEN
            elif value == DRAW and best == LOSS:
                best = DRAW
        if best == UNPROVEN:
            return
        proven[node] = LOSS if best == WIN else (WIN if best == LOSS else DRAW)


@njit(cache=True)
def _bonus(moments, sums, w, me, y, sign, k, a, shaped):
    """a b(lambda) for one observation y of a game won by w (0 during the warm-up), then the
    update of w's running mean and variance (Welford) and of the sums behind a'.
    ``sign`` = -1 for the Relative Bonus (short is good), +1 for the Qualitative Bonus."""
    count, mean, m2 = moments[w, 0], moments[w, 1], moments[w, 2]
    bonus = 0.0
    if shaped and count > 1 and m2 > 0:
        lam = sign * (y - mean) / math.sqrt(m2 / (count - 1))
        weight = a
        if a == ONLINE:
            n, s, ss, sw, swy = sums[0], sums[1], sums[2], sums[3], sums[4]
            var = ss - s * s / n
            weight = abs((swy - sw * s / n) / var) if var > 0 else 0.0
        bonus = weight * (-1.0 + 2.0 / (1.0 + math.exp(-k * lam)))
    count += 1
    delta = y - mean
    mean += delta / count
    moments[w, 0], moments[w, 1], moments[w, 2] = count, mean, m2 + delta * (y - mean)
    y_w = y if w == me else 0.0
    sums[0] += 1
    sums[1] += y
    sums[2] += y * y
    sums[3] += y_w
    sums[4] += y_w * y
    return bonus


@njit(cache=True)
def _final_action(nodes, stats, proven, rng):
    """A proven-winning root move if any, else the most visited root child not proven losing
    (all children if every one is lost); ties at random."""
    first, count = nodes[0, FIRST_CHILD], nodes[0, N_CHILDREN]
    for child in range(first, first + count):
        if proven[child] == WIN:
            return nodes[child, ACTION]
    all_lost = True
    for child in range(first, first + count):
        all_lost = all_lost and proven[child] == LOSS
    best, ties, pick = -1.0, 0, first
    for child in range(first, first + count):
        if proven[child] == LOSS and not all_lost:
            continue
        n = stats[child, VISITS]
        if n > best:
            best, pick, ties = n, child, 1
        elif n == best:
            ties += 1
            if randint(rng, ties) == 0:
                pick = child
    return nodes[pick, ACTION]


@njit(cache=True)
def _grow(nodes, stats, proven, need):
    """The tree arrays with at least ``need`` rows (capacity doubled)."""
    capacity = nodes.shape[0]
    while capacity < need:
        capacity *= 2
    bigger = np.full((capacity, 4), -1, dtype=np.int64)
    bigger[: nodes.shape[0]] = nodes
    more = np.zeros((capacity, 2))
    more[: stats.shape[0]] = stats
    flags = np.zeros(capacity, dtype=np.int8)
    flags[: proven.size] = proven
    return bigger, more, flags
