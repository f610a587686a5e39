"""The final move of the synthetic engine, as a rule read at run time (DESIGN.md §3).

Every rule keeps the solver's exceptions (``mcts.core.solver.preferred_child``): a root child proven
won is played; children proven lost are passed over unless all are. Among the others:

- ``visits`` (the default, seed 001; Coulom 2006's robust child): the most visited,
  ``mcts.core.solver.final_move`` itself.
- ``mean``: the best mean reward (Browne et al. 2012, Sect. 3.3.3, max child; the rule of
  Kocsis & Szepesvari 2006's P-game experiment, "the move of best average"); a child never
  visited ranks below every visited one.
- ``robust``: the max-robust child (Coulom 2006; Browne et al. 2012, Sect. 3.3.3): a child
  both most visited and of best mean. When there is none, they would search on until one
  appears; a failure curve's budget is fixed, so the engine takes the child of the largest
  reward sum n_i m_i (the most wins), which weighs both and is the max-robust child whenever
  that exists.
- ``minimax``: the best minimax value over the search tree, its leaves valued by their mean
  reward: the value of a node for its mover is 1 minus the best of its visited children's, its
  mean where it has none (negamax; rewards of either player sum to 1). The final move of
  Kocsis & Szepesvari 2006's MMMC, "Monte-Carlo planning with minimax value update" (Sect.
  3.1): under uniform selection the values steer no episode, so updating them at the end is
  updating them along the way.

Ties are broken uniformly at random (``bandits.ties``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.indexing import ix

from .solver import LOSS, NO_CHILD, final_move, preferred_child

MOST_VISITS, BEST_MEAN, ROBUST_MAX, MINIMAX = 0, 1, 2, 3
FINAL_MOVES = {"visits": MOST_VISITS, "mean": BEST_MEAN, "robust": ROBUST_MAX,
               "minimax": MINIMAX}
# a mean below every visited child's (shaped rewards may be negative), above the solver's -inf
# for a child passed over as lost
_UNVISITED = -np.finfo(np.float64).max


@njit  # once per recorded budget: a call
def choose_final(rule, proven, visits, sums, children, first, count, rng, keys, stack):
    """The offset of the root child played under ``rule`` (module docstring) among the
    ``count`` children from row ``first``, from their ``visits`` and reward ``sums`` ([nodes],
    the mover's) and every node's first child's row (``children``, [nodes]); ``keys`` (float64
    [count] or more) and ``stack`` (``negamax_value``'s) are scratch."""
    if rule == MOST_VISITS:
        return final_move(proven, visits, first, count, rng, keys)
    if rule == MINIMAX:
        for k in range(count):
            row = ix(first + k)
            keys[ix(k)] = (negamax_value(visits, sums, children, count, row, stack)
                           if visits[row] > 0 else _UNVISITED)
        return preferred_child(proven, first, count, rng, keys)
    lost = 0
    for k in range(count):
        lost += proven[ix(first + k)] == LOSS
    most, best_mean = 0, _UNVISITED
    for k in range(count):
        row = ix(first + k)
        n = visits[row]
        keys[ix(k)] = sums[row] / n if n > 0 else _UNVISITED
        if lost == count or proven[row] != LOSS:
            most, best_mean = max(most, n), max(best_mean, keys[ix(k)])
    if rule == ROBUST_MAX:
        for k in range(count):
            row = ix(first + k)
            robust = most > 0 and visits[row] == most and keys[ix(k)] == best_mean
            keys[ix(k)] = np.inf if robust else sums[row]
    return preferred_child(proven, first, count, rng, keys)


@njit(cache=True)
def negamax_value(visits, sums, children, b, node, stack):
    """The negamax value of a visited ``node`` for its mover (module docstring, ``minimax``),
    by a depth-first walk of the stored tree below it; ``stack`` (float64 [depth + 1, 3] or
    more: node, next child, best value of a level) is its scratch. Not a recursion: numba
    0.68 aborted loading a recursive function from its cache, and the engine's kernel, compiled
    without reference counting, may allocate nothing."""
    top = 0
    stack[0, 0], stack[0, 1], stack[0, 2] = node, 0, -np.inf
    while True:
        at = np.int64(stack[top, 0])
        first, k = children[ix(at)], np.int64(stack[top, 1])
        if first != NO_CHILD and k < b:
            stack[top, 1] = k + 1
            if visits[ix(first + k)] > 0:
                top += 1
                stack[top, 0], stack[top, 1], stack[top, 2] = first + k, 0, -np.inf
            continue
        best = stack[top, 2]
        value = sums[ix(at)] / visits[ix(at)] if best == -np.inf else 1.0 - best
        if top == 0:
            return value
        top -= 1
        stack[top, 2] = max(stack[top, 2], value)
