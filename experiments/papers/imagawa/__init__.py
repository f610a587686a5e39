"""Seed 001 (Imagawa & Kaneko, biased game trees): the study, its verdicts, report and figures,
and ``reproduce_imagawa`` that runs them all (``mctslab reproduce imagawa``)."""

from .reproduce import reproduce_imagawa
from .study import (
    ADJUSTERS,
    ALL_ADJUSTER_TREES,
    CONSTANT_TREES,
    POLICIES,
    RANDOM_TREES,
    SCALES,
    ablation_curves,
    imagawa_study,
    is_default,
)
from .verdicts import SIGNIFICANCE, claims, welch, welch_tests

__all__ = [
    "ADJUSTERS", "ALL_ADJUSTER_TREES", "CONSTANT_TREES", "POLICIES", "RANDOM_TREES", "SCALES",
    "SIGNIFICANCE", "ablation_curves", "claims", "imagawa_study", "is_default",
    "reproduce_imagawa", "welch", "welch_tests",
]

# what it reproduces, for `mctslab reproduce --help` (read without importing this package)
ABOUT = "Imagawa & Kaneko, biased game trees: Figs. 2-9, Welch tests, ablations"
