"""Enhancements of MCTS: threshold adjusters (seed 001); reward shaping and variance reduction
come with the real games."""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from .adjusters import Builtin, MaxFrequency, Score, Static, Value, engine_adjuster, register_hooks
from .plugins import Adjuster
from .registry import ADJUSTERS, AdjusterInfo, get_adjuster, make_adjuster
from .thresholds import (
    effective_threshold,
    maxfreq_observe,
    maxfreq_threshold,
    score_situational,
    value_situational,
)

__all__ = [
    "ADJUSTERS",
    "Adjuster",
    "AdjusterInfo",
    "Builtin",
    "MaxFrequency",
    "Score",
    "Static",
    "Value",
    "effective_threshold",
    "engine_adjuster",
    "get_adjuster",
    "make_adjuster",
    "maxfreq_observe",
    "maxfreq_threshold",
    "register_hooks",
    "score_situational",
    "value_situational",
]
