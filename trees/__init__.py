"""Synthetic game trees of seed 001 (Sect. III), the P-game, and their exact analysis
(threshold win rates, minimax)."""

from .analysis import ThresholdAnalysis, analyze, convolved_pmf, enumerated_pmf, win_rates_at
from .instance import (
    MAX_NODES,
    TreeInstance,
    check_shape,
    level_start,
    make_tree,
    node_count,
    path_sums,
)
from .minimax import Minimax, solve_minimax
from .pgame import PGame, PGameSpec, pgame
from .spec import MODELS, TreeSpec, parse_tree_spec

__all__ = [
    "MAX_NODES",
    "MODELS",
    "Minimax",
    "PGame",
    "PGameSpec",
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
    "path_sums",
    "pgame",
    "solve_minimax",
    "win_rates_at",
]
