"""The indices of an expanded node's children, as the policy's record asks (DESIGN.md §4).

Generic: the policy's index of each child not proven lost (``bandits.policy_value`` over an
``Arm``). Three policies choose the same way with less work, selected by their records' traits:
KL-UCB (``caches_index``) keeps each child's root between selections and re-solves only those
that could be the best (``_index_by_cached_roots``), choosing exactly as solving every root
would; the nodes a playout visited have theirs solved right after its backup
(``_solve_path_roots``). Bayes-UCB (``caches_quantile``) keeps each child's quantile and its
slope, and computes again only those that could be the best (``_index_by_cached_quantiles``),
choosing exactly as computing every quantile would. Thompson (``draws_index``) draws the
children without a win last, ruling most of them out without their draw
(``_draw_winless_last``), at the law of drawing them all.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from bandits import (
    begin_selection,
    has_trait,
    klucb_constant,
    klucb_level,
    klucb_may_reach,
    klucb_root,
    policy_value,
    thompson_challenger,
    wants_q_range,
    with_q_range,
)
from bandits.bayes_ucb import (
    bayesucb_log_level,
    bayesucb_shapes,
    bayesucb_slope,
    bayesucb_tail,
    bayesucb_value,
)
from bandits.klucb import TOLERANCE

from .search_tree import (
    AT_PARENT,
    AT_VISITS,
    BASE_EPOCH,
    FIRST_CHILD,
    LEVEL,
    LOSS,
    QUANTILE,
    SLOPE,
    SOLVED,
    UNPROVEN,
    VISITS,
    WIN,
    arm_view,
    explore_count,
    ix,
    mean_reward,
    parent_count,
    reward_sum,
)

INDEX, STALE_LEVEL = 0, 1  # rows of the selection's scratch values [2, b]
UPPER = STALE_LEVEL  # Bayes-UCB: a bound on a kept quantile's growth (-inf: none needed)
_PRUNE_MARGIN = 4.0 * TOLERANCE  # a bound must clear the best solved index by this to skip a root
# a bound on a quantile (computed to ~1e-15) must clear the best known one by this to skip it
_QUANTILE_MARGIN = 1e-9

def index_children(tree, first, b, t, skip_losses, restart, tables, policy, rng, values):
    """The indices of the b children from row ``first`` into ``values[INDEX]`` (-inf for a
    child proven lost when ``skip_losses``, or ruled out unseen), given the parent's t';
    returns the highest (compiled code only: the policy's traits choose the code compiled, so
    a policy's kernel holds none of the others' shortcuts)."""
    raise NotImplementedError("index_children runs inside compiled kernels only")


@overload(index_children, inline="always", jit_options={"cache": True})
def _index_children(tree, first, b, t, skip_losses, restart, tables, policy, rng, values):
    if has_trait(policy.instance_class, "caches_quantile"):
        def by_cached_quantiles(tree, first, b, t, skip_losses, restart, tables, policy, rng,
                                values):
            if tree.index_cache.shape[0] > 1:
                return _index_by_cached_quantiles(tree, first, b, t, skip_losses, restart,
                                                  policy.c, tables, values)
            return _indices(tree, first, b, t, skip_losses, restart, tables, policy, rng,
                            values, False)

        return by_cached_quantiles
    if has_trait(policy.instance_class, "caches_index"):
        def by_cached_roots(tree, first, b, t, skip_losses, restart, tables, policy, rng, values):
            if tree.index_cache.shape[0] > 1:
                return _index_by_cached_roots(tree, first, b, t, skip_losses, restart,
                                              klucb_constant(policy), tables, values)
            return _indices(tree, first, b, t, skip_losses, restart, tables, policy, rng,
                            values, False)

        return by_cached_roots
    winless_last = has_trait(policy.instance_class, "draws_index")
    return (lambda tree, first, b, t, skip_losses, restart, tables, policy, rng, values:
            _indices(tree, first, b, t, skip_losses, restart, tables, policy, rng, values,
                     winless_last))


@njit(inline="always")
def _indices(tree, first, b, t, skip_losses, restart, tables, policy, rng, values, winless_last):
    """Every child's index by the policy; with ``winless_last`` (a compile-time constant:
    Thompson) the children without a win are drawn last (``_draw_winless_last``)."""
    best, indices = -np.inf, values[INDEX]
    chooser = with_sibling_range(tree, first, b, skip_losses, restart, tables,
                                 begin_selection(policy, rng))
    for k in range(b):
        child = ix(first + k)
        indices[ix(k)] = -np.inf
        if skip_losses and tree.proven[child] == LOSS:
            continue
        if winless_last and _winless_count(tree, child, restart) > 0:
            continue  # drawn below, once the others' best draw is known
        indices[ix(k)] = policy_value(chooser, arm_view(tree, child, t, b, restart, tables,
                                                        policy), tables, rng)
        if np.isnan(indices[ix(k)]):
            raise ValueError("the policy's index is NaN (a plug-in's index dividing 0 by 0, or "
                             "a parameter out of its domain?): fix the index")
        best = max(best, indices[ix(k)])
    if winless_last:
        best = _draw_winless_last(tree, first, b, skip_losses, restart, rng, indices, best)
    return best


def with_sibling_range(tree, first, b, skip_losses, restart, tables, policy):
    """``policy`` with the range of PUCT's Q transform set (``bandits.with_q_range``) when it
    asks for one: the parent's value, the mean reward of its children over their visits, and
    the lowest and highest means of the children visited since the restart (T' > 0), proven
    losses skipped as the selection skips them. Other records pass as they are (compiled code
    only; nothing of this is compiled into their kernels)."""
    raise NotImplementedError("with_sibling_range runs inside compiled kernels only")


@overload(with_sibling_range, inline="always", jit_options={"cache": True})
def _with_sibling_range(tree, first, b, skip_losses, restart, tables, policy):
    if not has_trait(policy.instance_class, "reads_q_range"):
        return lambda tree, first, b, skip_losses, restart, tables, policy: policy

    def ranged(tree, first, b, skip_losses, restart, tables, policy):
        if not wants_q_range(policy):
            return policy
        total, visits, low, high = 0.0, 0, np.inf, -np.inf
        for k in range(b):
            child = ix(first + k)
            n = tree.stats[child, VISITS]
            if n <= 0 or (skip_losses and tree.proven[child] == LOSS):
                continue
            total += reward_sum(tree, child)
            visits += n
            if explore_count(tree, child, restart) > 0:
                mean = mean_reward(tree, child, tables)
                low, high = min(low, mean), max(high, mean)
        return with_q_range(policy, total / visits if visits > 0 else 0.5, low, high)

    return ranged


def after_backup(tree, path, depth, b, restart, epoch, policy, tables):
    """What the policy does once a playout is backed up: KL-UCB solves the roots on the path
    ahead of the next selection (``_solve_path_roots``); the others nothing (compiled code
    only)."""
    raise NotImplementedError("after_backup runs inside compiled kernels only")


@overload(after_backup, inline="always", jit_options={"cache": True})
def _after_backup(tree, path, depth, b, restart, epoch, policy, tables):
    if (not has_trait(policy.instance_class, "caches_index")
            or has_trait(policy.instance_class, "caches_quantile")):
        return lambda tree, path, depth, b, restart, epoch, policy, tables: None

    def solve_roots(tree, path, depth, b, restart, epoch, policy, tables):
        if tree.index_cache.shape[0] > 1:
            _solve_path_roots(tree, path, depth, b, restart, epoch, klucb_constant(policy),
                              tables)

    return solve_roots


@njit(inline="always")
def _winless_count(tree, child, restart):
    """T'_i of a child with visits (since the snapshot) but no win, else 0."""
    return explore_count(tree, child, restart) if reward_sum(tree, child) == 0 else 0


@njit(inline="always")
def _draw_winless_last(tree, first, b, skip_losses, restart, rng, indices, best):
    """Thompson: the draws of the children without a win, after the others' (whose highest
    draw is ``best``), into ``indices``; returns the new highest. By
    ``bandits.thompson_challenger`` most of them are ruled out (index -inf) without drawing
    their Beta(1, T'+1); a child so ruled out could not have won, so the choice has the law of
    drawing every child's Beta (seed 001, Eq. 3)."""
    for j in range(b):
        k, child = ix(j), ix(first + j)
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
        k, child = ix(j), ix(first + j)
        values[INDEX, k] = values[STALE_LEVEL, k] = -np.inf
        if skip_losses and tree.proven[child] == LOSS:
            continue
        n, n_explore = stats[child, VISITS], explore_count(tree, child, restart)
        if n_explore <= 0:
            values[INDEX, k] = best_low = np.inf
            continue
        level = klucb_level(n_explore, t, c, tables)
        if cache[child, AT_VISITS] != n or level < cache[child, LEVEL]:
            values[INDEX, k] = _solve(tree, child, mean_reward(tree, child, tables), level, n)
        else:
            values[INDEX, k] = cache[child, SOLVED]
            if level != cache[child, LEVEL]:
                values[STALE_LEVEL, k] = level
        best_low = max(best_low, values[INDEX, k])
    best = -np.inf
    for j in range(b):
        k, child = ix(j), ix(first + j)
        if values[STALE_LEVEL, k] >= 0.0:  # a lower bound: solve, or skip if it cannot reach
            mean, level = mean_reward(tree, child, tables), values[STALE_LEVEL, k]
            if not klucb_may_reach(mean, cache[child, SOLVED], level - cache[child, LEVEL],
                                   best_low - _PRUNE_MARGIN):
                values[INDEX, k] = -np.inf
                continue
            values[INDEX, k] = _solve(tree, child, mean, level, stats[child, VISITS])
        best = max(best, values[INDEX, k])
    return best


@njit
def _quantile(tree, child, mean, n_explore, t, visits, c, tables):
    """Bayes-UCB's index of ``child`` at the parent's t', kept with t', the visits T and the
    quantile's slope in ln(1 / tail)."""
    value = bayesucb_value(mean, n_explore, t, c, tables)
    a, b = bayesucb_shapes(mean, n_explore)
    cache = tree.index_cache
    cache[child, QUANTILE] = value
    cache[child, AT_PARENT] = t
    cache[child, AT_VISITS] = visits
    cache[child, SLOPE] = bayesucb_slope(a, b, value, bayesucb_tail(t, c, tables))
    return value


@njit
def _index_by_cached_quantiles(tree, first, b, t, skip_losses, restart, c, tables, values):
    """Bayes-UCB's indices of the children into ``values[INDEX]`` and their maximum, computing
    few quantiles. A child not visited since its quantile q0 was computed at t'_0 <= t' has,
    its tail having shrunk from tail_0 to tail, an index in [q0, q0 + slope ln(tail_0 / tail)]
    (the quantile is concave in ln(1 / tail): ``bandits.bayes_ucb.bayesucb_slope``). A child
    whose interval cannot reach the best lower bound is left out (index -inf); if one child
    alone can, it is the only best and keeps its lower bound as index; otherwise the children
    that can are computed again. The best index and the children that reach it are those
    computing every quantile gives; mostly only the child visited last is computed."""
    stats, cache = tree.stats, tree.index_cache
    level = bayesucb_log_level(t, c, tables)
    best_low = -np.inf
    for j in range(b):
        k, child = ix(j), ix(first + j)
        values[INDEX, k] = values[UPPER, k] = -np.inf
        if skip_losses and tree.proven[child] == LOSS:
            continue
        n, n_explore = stats[child, VISITS], explore_count(tree, child, restart)
        if n_explore <= 0:
            values[INDEX, k] = best_low = np.inf
            continue
        at = cache[child, AT_PARENT]
        kept = cache[child, AT_VISITS] == n and t >= at
        if kept and t > at:  # a lower bound now, and an upper one by the slope
            grown = level - bayesucb_log_level(at, c, tables)
            kept = grown > 0.0  # (a level that fell, c < 0, is computed again)
            values[UPPER, k] = cache[child, QUANTILE] + grown * cache[child, SLOPE]
        if kept:
            values[INDEX, k] = cache[child, QUANTILE]
        else:
            values[UPPER, k] = -np.inf
            values[INDEX, k] = _quantile(tree, child, mean_reward(tree, child, tables),
                                         n_explore, t, n, c, tables)
        best_low = max(best_low, values[INDEX, k])
    threshold = best_low - _QUANTILE_MARGIN
    alive, last = 0, 0
    for j in range(b):
        k = ix(j)
        if max(values[INDEX, k], values[UPPER, k]) >= threshold:
            alive += 1
            last = j
    if alive == 1:  # above every other's upper bound: the only best, whatever its exact index
        return values[INDEX, ix(last)]
    best = -np.inf
    for j in range(b):
        k, child = ix(j), ix(first + j)
        if values[UPPER, k] > -np.inf:
            if values[UPPER, k] < best_low - _QUANTILE_MARGIN:
                values[INDEX, k] = -np.inf
                continue
            values[INDEX, k] = _quantile(tree, child, mean_reward(tree, child, tables),
                                         explore_count(tree, child, restart), t,
                                         stats[child, VISITS], c, tables)
            best_low = max(best_low, values[INDEX, k])
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
        node, parent = ix(path[ix(ply)]), ix(path[ix(ply - 1)])
        if tree.proven[node] != UNPROVEN:
            continue
        if restart and tree.snapshot[parent, BASE_EPOCH] != epoch:
            continue
        if _choice_is_forced(tree, stats[parent, FIRST_CHILD], b):
            continue
        n_explore = explore_count(tree, node, restart)
        if n_explore > 0:
            level = klucb_level(n_explore, parent_count(tree, parent, restart), c, tables)
            _solve(tree, node, mean_reward(tree, node, tables), level, stats[node, VISITS])


@njit(inline="always")
def _choice_is_forced(tree, first, b):
    """Whether ``_select`` chooses among the b children from row ``first`` by the solver
    alone: some child proven won, or all but one proven lost. (``_select`` counts the same in
    its own loop, where the same pass draws the won child; a shared counting helper would
    need a second pass for that draw, which measured slower: commit 8ab996f.)"""
    wins, losses = 0, 0
    for child in range(first, first + b):
        wins += tree.proven[ix(child)] == WIN
        losses += tree.proven[ix(child)] == LOSS
    return wins > 0 or losses == b - 1
