"""Variable-depth trees: any stored tree whose moves each end the game with probability
p_end, so terminals (scored by their path sums, as at ply d) lie at every depth and playout
lengths vary: what the Relative Bonus of seed 000 reads (DESIGN.md §6)."""

from __future__ import annotations

import numpy as np

from .instance import TreeInstance
from .layout import level_start


def check_end(p_end: float) -> None:
    """One-line ValueError unless p_end is a probability below 1."""
    if not 0.0 <= p_end < 1.0:
        raise ValueError(f"bad tree spec end({p_end:g}): p_end is a probability in [0, 1), "
                         "e.g. end(0.1)")


def end_early(instance: TreeInstance, rng: np.random.Generator,
              p_end: float) -> tuple[np.ndarray, np.ndarray]:
    """(edge_value, terminal) of ``instance`` with each node of plies 1 .. d-1 made terminal
    with probability ``p_end``, independently."""
    terminal = instance.terminal.copy()
    inner = slice(1, level_start(instance.branching, instance.depth))
    terminal[inner] |= rng.random(inner.stop - 1) < p_end
    return instance.edge_value, terminal
