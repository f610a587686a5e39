"""Kocsis & Szepesvari (2006), *Bandit based Monte-Carlo planning*: the P-game experiment of
Fig. 2 (UCT with the depth-dependent bias beside alpha-beta and flat Monte-Carlo), its study,
report and figure, and ``reproduce_kocsis`` that runs them all (``mctslab reproduce kocsis``)."""

from .reproduce import COSTS_SOURCE, announce, projected_core_hours, reproduce_kocsis
from .study import (
    METHODS,
    PANELS,
    SCALES,
    Effort,
    Panel,
    kocsis_study,
    over_trees,
    random_pick_levels,
    tree_rates,
)

__all__ = [
    "COSTS_SOURCE", "METHODS", "PANELS", "SCALES", "Effort", "Panel", "announce", "kocsis_study",
    "over_trees", "projected_core_hours", "random_pick_levels", "reproduce_kocsis",
    "tree_rates",
]

# what it reproduces, for `mctslab reproduce --help` (read without importing this package)
ABOUT = "Kocsis & Szepesvari, UCT in P-games: Fig. 2 beside alpha-beta and flat MC"
