"""Seed 000 (Pepels et al., quality-based rewards): the matches of Sect. 6, their pooled
verdicts, the report and the k figure, and ``reproduce_pepels`` that runs them all
(``mctslab reproduce pepels``)."""

from .reproduce import announce, reproduce_pepels, run_matches
from .study import (
    COSTS,
    COSTS_SOURCE,
    ENHANCED,
    GAME_NAMES,
    GAMES,
    PAPER,
    PAPER_K,
    SCALES,
    TABLES,
    K,
    Match,
    pepels_matches,
    projected_core_hours,
)
from .verdicts import FINDINGS, comparisons, headline_verdicts

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "ENHANCED",
    "FINDINGS",
    "GAMES",
    "GAME_NAMES",
    "PAPER",
    "PAPER_K",
    "SCALES",
    "TABLES",
    "K",
    "Match",
    "announce",
    "comparisons",
    "headline_verdicts",
    "pepels_matches",
    "projected_core_hours",
    "reproduce_pepels",
    "run_matches",
]

# what it reproduces, for `mctslab reproduce --help` (read without importing this package)
ABOUT = "Pepels et al., quality-based rewards: Tables 1-4 in six games, k figure"
