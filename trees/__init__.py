"""Synthetic incremental game trees of seed 001 (Sect. III) and their exact analysis."""

from .analysis import ThresholdAnalysis, analyze, convolved_pmf, enumerated_pmf, win_rates_at
from .instance import MAX_NODES, TreeInstance, check_shape, level_start, make_tree, node_count
from .spec import MODELS, TreeSpec, parse_tree_spec

__all__ = [
    "MAX_NODES",
    "MODELS",
    "ThresholdAnalysis",
    "TreeInstance",
    "TreeSpec",
    "analyze",
    "check_shape",
    "convolved_pmf",
    "enumerated_pmf",
    "level_start",
    "make_tree",
    "node_count",
    "parse_tree_spec",
    "win_rates_at",
]
