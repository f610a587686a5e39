"""KL-UCB's roots kept per child between selections (``bandits.hooks``): each child's root with
its level and the visits it was solved at, re-solved only for the children that could be the
best (``index_by_cached_roots``), which chooses exactly as solving every root would; the
nodes a playout visited have theirs solved right after its backup (``solve_after_backup``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hooks import (
    INDEX,
    PolicyHooks,
    child_count,
    child_lost,
    child_mean,
    child_visits,
)
from .indexing import ix
from .klucb import TOLERANCE, klucb_level, klucb_may_reach, klucb_root

# columns of a child's row: a root, its level, T when it was solved (0: never, a child being
# solved only once visited), and a pad (rows of 32 bytes, aligned to the cache lines)
SOLVED, LEVEL, AT_VISITS = 0, 1, 2
COLUMNS = 4
STALE_LEVEL = 1  # row of the selection's scratch values: a child's level, its root not solved
_PRUNE_MARGIN = 4.0 * TOLERANCE  # a bound must clear the best solved index by this to skip a root


@njit(inline="always")  # per root solved at a selection or after a backup
def _solve(cache, row, mean, level, visits):
    """KL-UCB's root for the child at ``row`` at ``level``, kept with its level and visits."""
    value = klucb_root(mean, level)
    cache[row, SOLVED] = value
    cache[row, LEVEL] = level
    cache[row, AT_VISITS] = visits
    return value


@njit(inline="always")  # per selection: KL-UCB's loop over the children
def index_by_cached_roots(policy, view, tables, rng, values):
    """KL-UCB's indices of the children into ``values[INDEX]`` and their maximum, solving few
    roots. A child not visited since its root q0 was solved at level L0 has, at its level
    L >= L0, an index in [q0, q0 + slope (L - L0)] (``bandits.klucb_may_reach``); it is solved
    again only if that interval reaches the best lower bound, otherwise its index is left at
    -inf: the best index and the children that reach it are those solving every root gives.
    Mostly only the child visited last is solved."""
    cache, t, c = view.cache, view.t, policy.c
    best_low = -np.inf
    for j in range(view.b):
        k, row = ix(j), ix(view.first + j)
        values[INDEX, k] = values[STALE_LEVEL, k] = -np.inf
        if child_lost(view, j):
            continue
        n, n_explore = child_visits(view, j), child_count(view, j)
        if n_explore <= 0:
            values[INDEX, k] = best_low = np.inf
            continue
        level = klucb_level(n_explore, t, c, tables)
        if cache[row, AT_VISITS] != n or level < cache[row, LEVEL]:
            values[INDEX, k] = _solve(cache, row, child_mean(view, j, tables), level, n)
        else:
            values[INDEX, k] = cache[row, SOLVED]
            if level != cache[row, LEVEL]:
                values[STALE_LEVEL, k] = level
        best_low = max(best_low, values[INDEX, k])
    best = -np.inf
    for j in range(view.b):
        k, row = ix(j), ix(view.first + j)
        if values[STALE_LEVEL, k] >= 0.0:  # a lower bound: solve, or skip if it cannot reach
            mean, level = child_mean(view, j, tables), values[STALE_LEVEL, k]
            if not klucb_may_reach(mean, cache[row, SOLVED], level - cache[row, LEVEL],
                                   best_low - _PRUNE_MARGIN):
                values[INDEX, k] = -np.inf
                continue
            values[INDEX, k] = _solve(cache, row, mean, level, child_visits(view, j))
        best = max(best, values[INDEX, k])
    return best


# Called, not inlined: inlined into the engine's loop over the path it slowed every playout
# (the loop's code around it compiled worse; docs/performance.md).
@njit
def solve_after_backup(policy, view, k, tables):
    """After a backup, the root of the path's child ``k`` at the level the next selection at
    its parent will use (neither visit count changes before it; a threshold change in between
    only makes the cached root inexact, and then it is solved again there). Independent of one
    another, these solves overlap in the processor, where at selection each would wait for
    the descent before it: the same roots, sooner."""
    n_explore = child_count(view, k)
    if n_explore > 0:
        level = klucb_level(n_explore, view.t, policy.c, tables)
        _solve(view.cache, ix(view.first + k), child_mean(view, k, tables), level,
               child_visits(view, k))


@njit(inline="always")  # per re-scored node: a single store
def forget_root(policy, cache, row):
    """A root solved for other rewards matches no visits."""
    cache[row, AT_VISITS] = -1.0


HOOKS = PolicyHooks(COLUMNS, index_by_cached_roots, solve_after_backup, forget_root)
