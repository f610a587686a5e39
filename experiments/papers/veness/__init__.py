"""Seed 003 (Veness, Lanctot & Bowling, variance reduction): the study (Fig. 1 on Pig, Fig. 2
per game), its stored points, verdicts, report and figures, and ``reproduce_veness`` that runs
them all (``mctslab reproduce veness``)."""

from .reproduce import reproduce_veness
from .run import run_veness
from .study import (
    METHODS,
    PANELS,
    SCALES,
    TECHNIQUES,
    Effort,
    Fig1Scale,
    Panel,
    bias_variance,
    first_turn_estimates,
    game_scores,
    score_summary,
)
from .verdicts import claims, equivalent_budget, equivalent_ratios, gains, isotonic

__all__ = [
    "METHODS", "PANELS", "SCALES", "TECHNIQUES", "Effort", "Fig1Scale", "Panel",
    "bias_variance", "claims", "equivalent_budget", "equivalent_ratios", "first_turn_estimates",
    "gains", "game_scores", "isotonic", "reproduce_veness", "run_veness", "score_summary",
]

# what it reproduces, for `mctslab reproduce --help` (read without importing this package)
ABOUT = "Veness, Lanctot & Bowling, variance reduction: Fig. 1 on Pig, Fig. 2 per game"
