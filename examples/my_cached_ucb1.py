"""my_ucb1 keeping each child's index between selections, recomputed only when the child's T or
T' or its parent's t' changed, or its rewards were re-scored. Run it with PYTHONPATH=examples
mctslab failure-rate --tree "constant(1,3)" --policy my_cached_ucb1:policy"""

import numpy as np
from my_ucb1 import MyUCB1, index
from numba import njit

from bandits import Policy, ucb1_value
from bandits.hooks import INDEX, child_count, child_lost, child_mean, child_visits

VALUE, AT_VISITS, AT_COUNT, AT_PARENT = 0, 1, 2, 3  # a child's row: its index, T + 1, T', t'


@njit(inline="always")  # once per selection, over its children: the hot path
def index_children(policy, view, tables, rng, values):
    best, cache, t = -np.inf, view.cache, view.t
    for k in range(view.b):
        values[INDEX, k], row = -np.inf, view.first + k
        if child_lost(view, k):
            continue
        visits, count = child_visits(view, k) + 1, child_count(view, k)  # rows start at 0
        if (cache[row, AT_VISITS] != visits or cache[row, AT_COUNT] != count
                or cache[row, AT_PARENT] != t):
            cache[row, VALUE] = ucb1_value(child_mean(view, k, tables), count, t, policy.c,
                                           tables, rng)
            cache[row, AT_VISITS], cache[row, AT_COUNT], cache[row, AT_PARENT] = visits, count, t
        values[INDEX, k] = cache[row, VALUE]
        best = max(best, values[INDEX, k])
    return best


@njit(inline="always")  # per node whose rewards a re-scoring pass moves
def invalidate(policy, cache, row):  # its rewards moved: match no visits
    cache[row, AT_VISITS] = 0.0


policy = Policy("my_cached_ucb1", MyUCB1, index, description="UCB1 with a cache",
                cache_columns=4, index_children=index_children, invalidate=invalidate)
