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

Ties are broken uniformly at random (``mcts.core.ties``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.indexing import ix

from .solver import LOSS, final_move, preferred_child

MOST_VISITS, BEST_MEAN, ROBUST_MAX = 0, 1, 2
FINAL_MOVES = {"visits": MOST_VISITS, "mean": BEST_MEAN, "robust": ROBUST_MAX}
# a mean below every visited child's (shaped rewards may be negative), above the solver's -inf
# for a child passed over as lost
_UNVISITED = -np.finfo(np.float64).max


@njit  # once per recorded budget: a call
def choose_final(rule, proven, visits, sums, first, count, rng, keys):
    """The offset of the root child played under ``rule`` (module docstring) among the
    ``count`` children from row ``first``, from their ``visits`` and reward ``sums`` ([nodes],
    the mover's); ``keys`` (float64 [count] or more) is scratch."""
    if rule == MOST_VISITS:
        return final_move(proven, visits, first, count, rng, keys)
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
