"""Enhancements of MCTS: threshold adjusters (seed 001); reward shaping and variance reduction
come with the real games."""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from .registry import ADJUSTERS, AdjusterInfo, get_adjuster
from .thresholds import (
    MAXFREQ,
    PLAIN,
    SCORE,
    STATIC,
    VALUE,
    effective_threshold,
    maxfreq_observe,
    maxfreq_threshold,
    score_situational,
    value_situational,
)

__all__ = [
    "ADJUSTERS",
    "MAXFREQ",
    "PLAIN",
    "SCORE",
    "STATIC",
    "VALUE",
    "AdjusterInfo",
    "effective_threshold",
    "get_adjuster",
    "maxfreq_observe",
    "maxfreq_threshold",
    "score_situational",
    "value_situational",
]
