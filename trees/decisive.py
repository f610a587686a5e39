"""Decisive instances: a modifier that keeps only trees whose root moves do not all have the
same game value (win, draw or loss for the mover, the outcome at threshold 0), by seeded
rejection. Kocsis & Szepesvari (2006)'s Fig. 2 counts a failure on such trees only, as its
levels that no search moves show (``experiments.papers.kocsis.levels``): on the others every
move is correct and any search succeeds.

The instance drawn so far (the model and the modifiers before this one) is drawn again from
seeds of the modifier's stream until it is decisive, so a tree seed gives the same instance
whatever runs it; ``MAX_DRAWS`` draws without one is a one-line ValueError. pgame(127)'s roots
are decisive in 47% of the trees at B = 2, D = 20 and 62% at B = 8, D = 8 (200 trees each).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .instance import TreeInstance

MAX_DRAWS = 1000


def check_decisive() -> None:
    """The modifier has no parameter."""


def is_decisive(instance: TreeInstance) -> bool:
    """Whether the root's moves do not all have the root's game value."""
    return not bool(np.all(instance.optimal))


def decisive(instance: TreeInstance, rng: np.random.Generator,
             redraw: Callable[[TreeInstance, int], TreeInstance]
             ) -> tuple[np.ndarray, np.ndarray]:
    """(edge_value, terminal) of ``instance`` if it is decisive, else of the first decisive
    instance ``redraw(instance, seed)`` gives (the same spec up to this modifier, drawn from
    ``seed``) for seeds of ``rng``."""
    for _ in range(MAX_DRAWS):
        if is_decisive(instance):
            return instance.edge_value, instance.terminal
        instance = redraw(instance, int(rng.integers(2**62)))
    raise ValueError(f"no decisive instance of {instance.spec.text} in {MAX_DRAWS} draws: its "
                     "root moves always have one game value; drop +decisive")
