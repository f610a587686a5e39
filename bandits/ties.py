"""Ties broken uniformly at random, one rule for every engine: among the candidates whose value
equals the best, one is drawn uniformly, by one draw and only when there are several.

Compiled (``mcts.synthetic``, ``mcts.games``, ``mcts.stochastic``, ``mcts.core.solver``,
``mcts.games.playouts``): :func:`pick_best` over an array of values, filled in first (a
selection's indices, the solver's proven values, the root's visits); the plain bandits
(``bandits.flat``) by :func:`pick_highest`, the same rule finding the best as it goes. The
engine's random stream thus does not depend on the order in which values were met, nor on how
many were computed (a policy's cache may leave some at -inf unseen).

Python (``mcts.generic``): the same rule over a numpy array with an ``np.random.Generator``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.indexing import ix
from bandits.rng import randint


@njit(inline="always")  # per selection
def pick_best(values, start, n, best, rng):
    """The index i in [start, start + n) of a value equal to ``best`` (the largest of them, or
    any value to draw among), uniformly among such indices: one ``randint`` of the number of
    them, only when there are several, then the rank-th of them by a scan without branches
    (ties are common, and where they fall is random)."""
    ties, pick = 0, start
    for i in range(start, start + n):
        if values[ix(i)] == best:
            ties += 1
            pick = i
    if ties > 1:
        rank = randint(rng, ties)
        for i in range(start, start + n):
            hit = values[ix(i)] == best
            pick = i if hit & (rank == 0) else pick
            rank -= hit
    return pick


@njit(inline="always")  # per pull of a plain bandit: the hot path
def pick_highest(values, rng):
    """:func:`pick_best` over all of ``values`` with the best found in the same pass, for a
    caller that has not met it (``bandits.flat``, whose pull over a few arms a second pass
    makes measurably dearer): the same index, by the same draw, among values without NaN (a NaN
    is never picked here)."""
    best, ties, pick = -np.inf, 0, 0
    for k in range(values.shape[0]):
        if values[k] > best:
            best, ties, pick = values[k], 1, k
        elif values[k] == best:
            ties += 1
    if ties > 1:
        rank = randint(rng, ties)
        for k in range(values.shape[0]):
            if values[k] == best:
                if rank == 0:
                    return k
                rank -= 1
    return pick


def argmax_at_random(values: np.ndarray, rng: np.random.Generator) -> int:
    """The index of the largest of ``values``, drawn uniformly among the equal largest (no
    draw when one is largest): :func:`pick_best`'s rule in Python."""
    best = np.flatnonzero(values == values.max())
    return int(best[0] if best.size == 1 else rng.choice(best))
