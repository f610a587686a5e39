"""Ties broken uniformly at random, one way for the compiled engines and one for Python.

Compiled (``mcts.solver``, ``mcts.games``, ``mcts.stochastic``): a running choice over
candidates met one at a time, by reservoir sampling of size one. ``reservoir`` keeps the m-th
candidate of a set with probability 1/m (one ``bandits.rng.randint(rng, m)`` per candidate,
the first included), so each of the candidates seen is kept with probability 1/m.
``offer`` is the argmax built on it: a value above the best restarts the set at that
candidate, a value equal to the best joins it. Each engine's random stream depends on this
exact order of draws (the golden pins hold it).

Python (``mcts.generic``): the argmax over an array of values, one
``np.random.Generator.choice`` among the maxima when there are several, none for one.

The synthetic engine (``mcts.synthetic._pick_best``) draws differently: the children's indices
are all known first, so one ``randint`` picks among the tied ones, and only for a tie.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint


@njit(inline="always")
def reservoir(candidate, pick, seen, rng):
    """(pick, seen) after meeting ``candidate``, the (seen + 1)-th of a set: it replaces
    ``pick`` with probability 1 / (seen + 1)."""
    seen += 1
    if randint(rng, seen) == 0:
        pick = candidate
    return pick, seen


@njit(inline="always")
def offer(value, candidate, best, pick, ties, rng):
    """(best, pick, ties) of an argmax after ``candidate`` of ``value``: it becomes the pick
    if ``value`` beats ``best``, and joins the ``ties`` candidates of value ``best`` (kept by
    ``reservoir``) if it equals it. Start from best = -inf (or below any value), ties = 0."""
    if value > best:
        best, pick, ties = value, candidate, 1
    elif value == best:
        pick, ties = reservoir(candidate, pick, ties, rng)
    return best, pick, ties


def argmax_at_random(values: np.ndarray, rng: np.random.Generator) -> int:
    """The index of the largest of ``values``, drawn uniformly among the equal largest (no
    draw when one is largest)."""
    best = np.flatnonzero(values == values.max())
    return int(best[0] if best.size == 1 else rng.choice(best))
