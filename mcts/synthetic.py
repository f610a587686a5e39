"""Compiled MCTS on synthetic trees, many independent runs per call (DESIGN.md §3-5).

One iteration (``_playouts``): descend from the root by the bandit policy to a leaf of the
search tree (``_descend``, ``_select``); a leaf visited before is expanded (all b children) and
one child, drawn uniformly, is played out (``_grow``); uniformly random playout to a terminal
(``_playout``), rewarded against the current effective threshold (terminals reached inside the
tree: threshold 0, and proven); negamax backup (``_backup``); MCTS-Solver with draws
(``_prove``); then the threshold adjuster (``_adjust``). After playout t = 2^k the most visited
root child not proven losing is the chosen move (``_chosen_move``). A kernel is compiled per
policy, adjuster and b, the policy's index and the adjuster's hooks inlined; for KL-UCB it keeps
each child's root between selections and re-solves only those that could be the best
(``_index_by_cached_roots``), choosing exactly as solving every root would; the nodes a playout
visited have theirs solved right after its backup (``_solve_path_roots``). For Thompson it
draws the children without a win last, ruling most of them out without their draw
(``_draw_winless_last``), at the law of drawing them all.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import (
    Arm,
    begin_selection,
    caches_index,
    draws_index,
    klucb_constant,
    klucb_level,
    klucb_may_reach,
    klucb_root,
    policy_value,
    reads_second_moment,
    thompson_challenger,
)
from bandits.klucb import TOLERANCE
from bandits.rng import randint, seed_state
from enhancements.adjusters import next_threshold, observe_playout, reads_scores, start_adjuster
from enhancements.thresholds import effective_threshold

# The version of the engine's random streams, stored with every result: a change that moves
# any run's numbers (another draw, another order of draws) bumps it and regenerates
# tests/golden, so that stored results of two versions are never mixed.
STREAM_VERSION = 1
UNPROVEN, WIN, DRAW, LOSS = 0, 1, 2, 3  # proven values, from the view of the node's mover
NO_CHILD = -1


class SearchConfig(NamedTuple):
    """Everything a search needs besides the tree and the policy."""

    # b zeros: b = len(children) is a compile-time constant, so the loops over children unroll;
    # one kernel is compiled per b
    children: tuple
    depth: int
    search_depth: int  # nodes at this depth are never expanded (depth: no limit; 1: one-ply)
    adjuster: tuple  # its typed record (``enhancements.adjusters``): one kernel per adjuster
    restart: bool  # exploration restart of seed 001, Eqs. 6-8
    freeze: int  # playouts under a threshold before it may change
    score_low: int  # bounds of every terminal score
    score_high: int


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


VISITS, HALF_REWARDS, FIRST_CHILD, CHILD_BASE, WINS = 0, 1, 2, 3, 4  # HALF_REWARDS: 2 x reward sum
BASE_EPOCH, PARENT_BASE = 0, 1  # restart: t' = t - PARENT_BASE, T' = T - CHILD_BASE
SOLVED, LEVEL, AT_VISITS = 0, 1, 2  # KL-UCB: a root, its level, and T when it was solved
INDEX, STALE_LEVEL = 0, 1  # rows of the selection's scratch values [2, b]
_PRUNE_MARGIN = 4.0 * TOLERANCE  # a bound must clear the best solved index by this to skip a root


@njit(cache=True)
def node_capacity(branching, budget):
    """Nodes a run can create: the root plus b per playout (one expansion per playout)."""
    return 1 + branching * budget


def memory_per_run(config: SearchConfig, budget: int, policy) -> int:
    """Bytes of working memory one run under the typed ``policy`` allocates."""
    columns = 5 if reads_second_moment(policy) else 4 if config.restart else 3
    per_node = 4 * columns + 1 + (12 if config.restart else 0) + (32 if caches_index(policy) else 0)
    return node_capacity(len(config.children), budget) * per_node + 8 * (
        config.score_high - config.score_low + 1  # at most a histogram of the scores
    )


@njit(cache=True)
def _new_tree(capacity, restart, cached_index, second_moment):
    stats = np.zeros((capacity, 5 if second_moment else 4 if restart else 3), np.int32)
    stats[:, FIRST_CHILD] = NO_CHILD
    index_cache = np.zeros((capacity if cached_index else 1, 4))
    index_cache[:, AT_VISITS] = -1.0
    return SearchTree(stats, np.zeros(capacity, np.int8),
                      np.zeros((capacity if restart else 1, 2), np.int32), index_cache)


@njit(inline="always")
def _max_reward(score, theta):
    """The max player's reward: 1 above theta, 0.5 at it, 0 below."""
    if score > theta:
        return 1.0
    if score < theta:
        return 0.0
    return 0.5


@njit(inline="always")
def _ix(i):
    """``i`` as an unsigned array index. Numba wraps signed indices around (a negative one counts
    from the end) at a few instructions per access, in the innermost loops; unsigned ones skip
    that. Every index so cast is a valid position."""
    return np.uint64(i)


@njit(inline="always")
def _keeps_roots(tree, policy):
    """Whether the search keeps KL-UCB's roots between selections (a one-row cache, as some
    tests build it, means: solve every root at every selection)."""
    return caches_index(policy) and tree.index_cache.shape[0] > 1


@njit(inline="always")
def _explore_count(tree, node, restart):
    """T'_i of Eqs. 6-8: the visits of ``node`` since its parent's last snapshot (all of them
    without the restart)."""
    n = tree.stats[node, VISITS]
    return n - tree.stats[node, CHILD_BASE] if restart else n


@njit(inline="always")
def _parent_count(tree, parent, restart):
    """t' of Eqs. 6-8: the visits of ``parent`` since its last snapshot (all of them without
    the restart)."""
    t = tree.stats[_ix(parent), VISITS]
    return t - tree.snapshot[parent, PARENT_BASE] if restart else t


@njit(inline="always")
def _select(tree, parent, first, config, epoch, rng, tables, policy, values):
    """Child of an expanded ``parent``, whose children start at row ``first``, by the solver,
    then the policy (ties at random); ``values`` (float64 [2, b]) is scratch, its row INDEX
    the children's indices. A child that is the only one not proven lost is taken without
    its index (for Thompson, one draw saved: same law, another random stream)."""
    b, stats = len(config.children), tree.stats
    wins, losses, pick, open_child = 0, 0, NO_CHILD, NO_CHILD
    for child in range(first, first + b):
        if tree.proven[_ix(child)] == WIN:
            wins += 1
            if randint(rng, wins) == 0:
                pick = child
        elif tree.proven[_ix(child)] == LOSS:
            losses += 1
        else:
            open_child = child
    if wins > 0:
        return pick
    skip_losses = losses < b
    if config.restart and tree.snapshot[parent, BASE_EPOCH] != epoch:
        snapshot = tree.snapshot
        snapshot[parent, BASE_EPOCH] = epoch
        snapshot[parent, PARENT_BASE] = stats[parent, VISITS]
        for child in range(first, first + b):
            stats[child, CHILD_BASE] = stats[child, VISITS]
    if losses == b - 1:
        return open_child
    t = _parent_count(tree, parent, config.restart)
    if _keeps_roots(tree, policy):
        best = _index_by_cached_roots(tree, first, b, t, skip_losses, config.restart,
                                      klucb_constant(policy), tables, values)
        return _pick_best(values[INDEX], first, b, best, rng)
    best, indices, chooser = -np.inf, values[INDEX], begin_selection(policy, rng)
    for k in range(b):
        child = _ix(first + k)
        indices[_ix(k)] = -np.inf
        if skip_losses and tree.proven[child] == LOSS:
            continue
        if draws_index(policy) and _winless_count(tree, child, config.restart) > 0:
            continue  # drawn below, once the others' best draw is known
        indices[_ix(k)] = policy_value(chooser, _arm(tree, child, t, b, config.restart, tables,
                                                     policy), tables, rng)
        best = max(best, indices[_ix(k)])
    if draws_index(policy):
        best = _draw_winless_last(tree, first, b, skip_losses, config.restart, rng, indices, best)
    return _pick_best(indices, first, b, best, rng)


@njit(inline="always")
def _arm(tree, child, t, b, restart, tables, policy):
    """The :class:`bandits.Arm` view of ``child`` for the parent's t'; the mean squared reward,
    (wins + draws / 4) / T = (wins / 2 + half rewards / 4) / T, only for policies reading it."""
    stats = tree.stats
    square_mean = 0.0
    if reads_second_moment(policy):
        square_mean = ((0.5 * stats[child, WINS] + 0.25 * stats[child, HALF_REWARDS])
                       * tables.inverse[_ix(stats[child, VISITS])])
    return Arm(_mean(stats, child, tables), square_mean, _explore_count(tree, child, restart),
               t, b)


@njit(inline="always")
def _pick_best(values, first, b, best, rng):
    """``first + k`` for k drawn uniformly among the children whose value is ``best`` (one draw,
    and only for a tie, so the random stream does not depend on which values were computed)."""
    ties, pick = 0, 0
    for k in range(b):
        if values[_ix(k)] == best:
            ties += 1
            pick = k
    if ties > 1:  # the rank-th of them, by a scan without branches (ties are common and random)
        rank = randint(rng, ties)
        for k in range(b):
            hit = values[_ix(k)] == best
            pick = k if hit & (rank == 0) else pick
            rank -= hit
    return first + pick


@njit(inline="always")
def _winless_count(tree, child, restart):
    """T'_i of a child with visits (since the snapshot) but no win, else 0."""
    return _explore_count(tree, child, restart) if tree.stats[child, HALF_REWARDS] == 0 else 0


@njit(inline="always")
def _draw_winless_last(tree, first, b, skip_losses, restart, rng, indices, best):
    """Thompson: the draws of the children without a win, after the others' (whose highest
    draw is ``best``), into ``indices``; returns the new highest. By
    ``bandits.thompson_challenger`` most of them are ruled out (index -inf) without drawing
    their Beta(1, T'+1); a child so ruled out could not have won, so the choice has the law of
    drawing every child's Beta (seed 001, Eq. 3)."""
    for j in range(b):
        k, child = _ix(j), _ix(first + j)
        if skip_losses and tree.proven[child] == LOSS:
            continue
        count = _winless_count(tree, child, restart)
        if count > 0:
            indices[k] = thompson_challenger(count, best, rng)
            best = max(best, indices[k])
    return best


@njit(inline="always")
def _solve(tree, child, mean, level, visits):
    """KL-UCB's root for ``child`` at ``level``, kept with its level and the visits."""
    value = klucb_root(mean, level)
    tree.index_cache[child, SOLVED] = value
    tree.index_cache[child, LEVEL] = level
    tree.index_cache[child, AT_VISITS] = visits
    return value


@njit(inline="always")
def _index_by_cached_roots(tree, first, b, t, skip_losses, restart, c, tables, values):
    """KL-UCB's indices of the children into ``values[INDEX]`` and their maximum, solving few
    roots. A child not visited since its root q0 was solved at level L0 has, at its level
    L >= L0, an index in [q0, q0 + slope (L - L0)] (``bandits.klucb_may_reach``); it is solved
    again only if that interval reaches the best lower bound, otherwise its index is left at
    -inf: the best index and the children that reach it are those solving every root gives.
    Mostly only the child visited last is solved."""
    stats, cache = tree.stats, tree.index_cache
    best_low = -np.inf
    for j in range(b):
        k, child = _ix(j), _ix(first + j)
        values[INDEX, k] = values[STALE_LEVEL, k] = -np.inf
        if skip_losses and tree.proven[child] == LOSS:
            continue
        n, n_explore = stats[child, VISITS], _explore_count(tree, child, restart)
        if n_explore <= 0:
            values[INDEX, k] = best_low = np.inf
            continue
        level = klucb_level(n_explore, t, c, tables)
        if cache[child, AT_VISITS] != n or level < cache[child, LEVEL]:
            values[INDEX, k] = _solve(tree, child, _mean(stats, child, tables), level, n)
        else:
            values[INDEX, k] = cache[child, SOLVED]
            if level != cache[child, LEVEL]:
                values[STALE_LEVEL, k] = level
        best_low = max(best_low, values[INDEX, k])
    best = -np.inf
    for j in range(b):
        k, child = _ix(j), _ix(first + j)
        if values[STALE_LEVEL, k] >= 0.0:  # a lower bound: solve, or skip if it cannot reach
            mean, level = _mean(stats, child, tables), values[STALE_LEVEL, k]
            if not klucb_may_reach(mean, cache[child, SOLVED], level - cache[child, LEVEL],
                                   best_low - _PRUNE_MARGIN):
                values[INDEX, k] = -np.inf
                continue
            values[INDEX, k] = _solve(tree, child, mean, level, stats[child, VISITS])
        best = max(best, values[INDEX, k])
    return best


@njit(inline="always")
def _solve_path_roots(tree, path, depth, b, restart, epoch, c, tables):
    """KL-UCB: after a backup, solve the root of each unproven node on the path at the level
    the next selection at its parent will use (neither visit count changes before it; a
    threshold change in between only makes the cached root inexact, and then it is solved
    again there), unless that selection needs no index (a sibling proven won, or all of them
    proven lost: both final). Independent of one another, these solves overlap in the
    processor, where at selection each would wait for the descent before it: the same roots,
    sooner."""
    stats = tree.stats
    for ply in range(1, depth + 1):
        node, parent = _ix(path[_ix(ply)]), _ix(path[_ix(ply - 1)])
        if tree.proven[node] != UNPROVEN:
            continue
        if restart and tree.snapshot[parent, BASE_EPOCH] != epoch:
            continue
        if _choice_is_forced(tree, stats[parent, FIRST_CHILD], b):
            continue
        n_explore = _explore_count(tree, node, restart)
        if n_explore > 0:
            level = klucb_level(n_explore, _parent_count(tree, parent, restart), c, tables)
            _solve(tree, node, _mean(stats, node, tables), level, stats[node, VISITS])


@njit(inline="always")
def _choice_is_forced(tree, first, b):
    """Whether ``_select`` chooses among the b children from row ``first`` by the solver
    alone: some child proven won, or all but one proven lost. (``_select`` counts the same in
    its own loop, where the same pass draws the won child; a shared counting helper would
    need a second pass for that draw, which measured slower: commit 8ab996f.)"""
    wins, losses = 0, 0
    for child in range(first, first + b):
        wins += tree.proven[_ix(child)] == WIN
        losses += tree.proven[_ix(child)] == LOSS
    return wins > 0 or losses == b - 1


@njit(inline="always")
def _mean(stats, node, tables):
    """The mean reward of the move into ``node`` for its mover."""
    return 0.5 * stats[_ix(node), HALF_REWARDS] * tables.inverse[_ix(stats[_ix(node), VISITS])]


@njit(inline="always")
def _expand(tree, node, n_nodes, b, epoch):
    """Add all b children of ``node`` after the ``n_nodes`` existing ones; return the new count.
    Children born after a threshold change have no earlier exploration to forget."""
    tree.stats[node, FIRST_CHILD] = n_nodes
    if tree.snapshot.shape[0] > 1:
        tree.snapshot[node, BASE_EPOCH] = epoch
        tree.snapshot[node, PARENT_BASE] = 0
    return n_nodes + b


@njit(inline="always")
def _playout(path_score, tree_node, depth, b, d, rng):
    """Uniformly random moves from ``tree_node`` at ``depth`` to a terminal (none when it is
    one); its score (int64, whatever integer type ``path_score`` has)."""
    for _ in range(depth, d):
        tree_node = tree_node * b + 1 + randint(rng, b)
    return np.int64(path_score[_ix(tree_node)])


@njit(inline="always")
def _backup(tree, path, depth, max_reward, second_moment):
    """Visits +1 along the path; each move's mover adds its reward (negamax), in half points,
    and with ``second_moment`` counts it in WINS when it is 1."""
    half = int(2.0 * max_reward)
    tree.stats[_ix(path[0]), VISITS] += 1
    for ply in range(1, depth + 1):
        node = _ix(path[_ix(ply)])
        mover_half = half if ply % 2 == 1 else 2 - half
        tree.stats[node, VISITS] += 1
        tree.stats[node, HALF_REWARDS] += mover_half
        if second_moment:
            tree.stats[node, WINS] += mover_half == 2


@njit(inline="always")
def _prove(tree, path, depth, score, b):
    """Mark the terminal at the end of ``path`` with its true value and propagate upwards:
    a node is lost for its mover if some child is won for that child's mover, and once all
    children are proven it takes the negation of the best of them (MCTS-Solver with draws)."""
    max_moved = depth % 2 == 1
    if score == 0:
        tree.proven[path[depth]] = DRAW
    else:
        tree.proven[path[depth]] = WIN if (score > 0) == max_moved else LOSS
    for ply in range(depth - 1, 0, -1):
        node = path[ply]
        first = tree.stats[node, FIRST_CHILD]
        best = LOSS
        for child in range(first, first + b):
            value = tree.proven[child]
            if value == WIN:
                best = WIN
                break
            if value == UNPROVEN:
                best = UNPROVEN
            elif value == DRAW and best == LOSS:
                best = DRAW
        if best == UNPROVEN or tree.proven[node] != UNPROVEN:
            return
        tree.proven[node] = LOSS if best == WIN else WIN if best == LOSS else DRAW


@njit(inline="always")
def _chosen_move(tree, b, rng):
    """Most visited root child not proven losing (ties at random); random before expansion."""
    first = tree.stats[0, FIRST_CHILD]
    if first == NO_CHILD:
        return randint(rng, b)
    losing = 0
    for child in range(first, first + b):
        losing += tree.proven[child] == LOSS
    best, pick, ties = -1, 0, 0
    for k in range(b):
        if losing < b and tree.proven[first + k] == LOSS:
            continue
        n = tree.stats[first + k, VISITS]
        if n > best:
            best, pick, ties = n, k, 1
        elif n == best:
            ties += 1
            if randint(rng, ties) == 0:
                pick = k
    return pick


@njit(inline="always")
def _proven_reward(value, depth):
    """The max player's reward of a node proven ``value`` for the mover into it at ``depth``."""
    if value == DRAW:
        return 0.5
    return 1.0 if (value == WIN) == (depth % 2 == 1) else 0.0


@njit(inline="always")
def _settled_move(tree, b):
    """The root move once every root child is proven and just one is not lost, else -1: from
    then on the chosen move cannot change, so the remaining playouts need not run."""
    first, settled = tree.stats[0, FIRST_CHILD], -1
    for k in range(b):
        value = tree.proven[first + k]
        if value == UNPROVEN or (value != LOSS and settled >= 0):
            return -1
        if value != LOSS:
            settled = k
    return settled


@njit(inline="always")
def _descend(tree, path, config, epoch, rng, tables, policy, values, stop_at_proven):
    """Select from the root down to a leaf of the search tree, or with ``stop_at_proven`` to
    the first proven node, keeping the path; returns the node, its depth and its place in the
    game tree."""
    b = len(config.children)
    node, depth, tree_node = 0, 0, 0
    while tree.stats[_ix(node), FIRST_CHILD] != NO_CHILD:
        first = tree.stats[_ix(node), FIRST_CHILD]
        node = _select(tree, node, first, config, epoch, rng, tables, policy, values)
        tree_node = tree_node * b + 1 + (node - first)
        depth += 1
        path[_ix(depth)] = node
        if stop_at_proven and tree.proven[_ix(node)] != UNPROVEN:
            break
    return node, depth, tree_node


@njit(inline="always")
def _grow(tree, path, node, depth, tree_node, n_nodes, config, epoch, rng):
    """Expand a leaf visited before (above the search depth) and step to one of its children,
    drawn uniformly, where the playout starts: (node, depth, place, nodes in the tree)."""
    if depth < config.search_depth and tree.stats[node, VISITS] >= 1:
        b = len(config.children)
        n_nodes = _expand(tree, node, n_nodes, b, epoch)
        move = randint(rng, b)
        node = tree.stats[node, FIRST_CHILD] + move
        tree_node = tree_node * b + 1 + move
        depth += 1
        path[depth] = node
    return node, depth, tree_node, n_nodes


@njit(inline="always")
def _adjust(adjuster, state, theta, theta_eff, since_change, epoch, score, reward, freeze):
    """The adjuster observes one playout and, once the effective threshold has held ``freeze``
    playouts, sets theta; a change of the effective threshold opens a new epoch (t_c of
    Eqs. 6-8). Returns (theta, state, effective threshold, playouts under it, epoch)."""
    since_change += 1
    state = observe_playout(adjuster, state, score, reward, theta, since_change)
    if since_change >= freeze:
        theta, state = next_threshold(adjuster, state, theta, since_change)
        if effective_threshold(theta) != theta_eff:
            return theta, state, effective_threshold(theta), 0, epoch + 1
    return theta, state, theta_eff, since_change, epoch


@njit(cache=True)
def search(path_score, optimal_move, config, budget, seed, tables, policy, failed):
    """One run of ``budget`` playouts on the tree whose ``TreeInstance.path_score`` is given;
    ``failed[k]`` is set after playout 2^k. ``policy`` is a typed bandit policy
    (``bandits.make_policy``); ``tables`` cover counts up to ``budget``. Returns the search
    tree (for inspection); its root's visits are the playouts simulated."""
    tree, path, values, (theta, state) = _workspace(config, budget, caches_index(policy),
                                                    reads_second_moment(policy))
    _playouts(tree, path, values, theta, state, seed_state(seed), path_score, optimal_move,
              config, budget, tables, policy, failed)
    return tree


@njit(cache=True)
def _workspace(config, budget, cached_index, second_moment):
    """What one run of ``budget`` playouts needs: a new tree (with KL-UCB's root cache if
    ``cached_index``, a WINS column if ``second_moment``), the selection path, the selection
    scratch, and the adjuster's first threshold and state."""
    tree = _new_tree(node_capacity(len(config.children), budget), config.restart, cached_index,
                     second_moment)
    path = np.zeros(config.depth + 1, np.int64)
    adjuster = start_adjuster(config.adjuster, config.score_low, config.score_high)
    return tree, path, np.empty((2, len(config.children))), adjuster


# Compiled without reference counting (numba's private ``_nrt`` flag): it allocates nothing, and
# the increfs numba's pruning leaves in its loops are pure cost.
@njit(cache=True, _nrt=False, error_model="numpy")
def _playouts(tree, path, values, theta, state, rng, path_score, optimal_move, config, budget,
              tables, policy, failed):
    """The playouts of :func:`search` into its preallocated tree, path and selection scratch,
    from the adjuster's first ``theta`` and ``state``."""
    b, d, adjuster = len(config.children), config.depth, config.adjuster
    theta_eff = effective_threshold(theta)
    since_change, epoch = 0, 0
    n_nodes, record, next_record = 1, 0, 1
    # Below a proven node the search follows proven wins and avoids proven losses down to a
    # terminal of exactly the proven value, so its reward is known at the node: stop there
    # (same rewards and root statistics in distribution). Adjusters that read scores need the
    # terminal's score, so for them the descent goes on.
    stop_at_proven = not reads_scores(adjuster)
    for t in range(1, budget + 1):
        node, depth, tree_node = _descend(tree, path, config, epoch, rng, tables, policy, values,
                                          stop_at_proven)
        score = 0  # the terminal's, once one is reached
        stopped = stop_at_proven and tree.proven[_ix(node)] != UNPROVEN
        if stopped:
            reward = _proven_reward(tree.proven[node], depth)
        else:
            node, depth, tree_node, n_nodes = _grow(tree, path, node, depth, tree_node, n_nodes,
                                                    config, epoch, rng)
            score = _playout(path_score, tree_node, depth, b, d, rng)
            reward = _max_reward(score, 0.0 if depth == d else theta_eff)  # terminal in the tree: 0
        _backup(tree, path, depth, reward, reads_second_moment(policy))
        if not stopped and depth == d:
            _prove(tree, path, depth, score, b)
            settled = _settled_move(tree, b)
            if settled >= 0:
                failed[record:] = settled != optimal_move
                return
        if _keeps_roots(tree, policy):
            _solve_path_roots(tree, path, depth, b, config.restart, epoch,
                              klucb_constant(policy), tables)
        theta, state, theta_eff, since_change, epoch = _adjust(
            adjuster, state, theta, theta_eff, since_change, epoch, score, reward, config.freeze)
        if t == next_record:
            failed[record] = _chosen_move(tree, b, rng) != optimal_move
            record += 1
            next_record *= 2


@njit(cache=True, nogil=True)
def run_searches(path_score, optimal_move, config, budget, seeds, tables, policy):
    """Independent runs, one per seed, one after another: failures bool
    [runs, log2(budget) + 1] and playouts simulated int64 [runs] (fewer once a root is solved).
    The GIL is released, so callers spread blocks of seeds over threads."""
    n_budgets = int(np.log2(budget)) + 1
    failed = np.zeros((seeds.shape[0], n_budgets), np.bool_)
    played = np.zeros(seeds.shape[0], np.int64)
    for run in range(seeds.shape[0]):
        tree = search(path_score, optimal_move, config, budget, seeds[run], tables, policy,
                      failed[run])
        played[run] = tree.stats[0, VISITS]
    return failed, played
