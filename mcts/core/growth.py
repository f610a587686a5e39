"""Arrays of rows that the game engines (``mcts.games``, ``mcts.stochastic``) grow as their
trees do, by doubling.

The engines keep each array of their tree in a variable of its own rather than in a record of
arrays: with the tree a NamedTuple built inside the kernel, numba 0.68 dropped the backup's
writes ``tree.stats[at, VISITS] += 1.0`` from the games engine's kernel without a word. Its
dead-code elimination takes ``tree.stats`` for a temporary array that nothing reads, since
``numba.core.ir_utils.find_potential_aliases`` ties an attribute to its record only when the
record is an argument of the function.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def grown(array, need, fill):
    """``array`` with at least ``need`` rows, its capacity doubled until it has: its rows
    copied, the new ones set to ``fill``."""
    capacity = array.shape[0]
    while capacity < need:
        capacity *= 2
    bigger = np.full((capacity,) + array.shape[1:], fill, dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger
