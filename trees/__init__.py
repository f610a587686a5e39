"""Synthetic game trees: seed 001's models (Sect. III), the P-game, the model registry and
exact analysis (threshold win rates, minimax)."""

from .analysis import (
    ThresholdAnalysis,
    convolved_pmf,
    enumerated_pmf,
    threshold_analysis,
    win_rates_at,
)
from .instance import MAX_NODES, TreeInstance, check_shape, level_start, node_count, path_sums
from .minimax import Minimax, solve_minimax
from .models import (
    TREE_MODELS,
    TreeModel,
    analyze,
    get_tree_model,
    make_tree,
    parse_spec,
    parse_tree_spec,
)
from .pgame import PGame, PGameSpec, pgame
from .spec import MODELS, TreeSpec

__all__ = [
    "MAX_NODES",
    "MODELS",
    "TREE_MODELS",
    "Minimax",
    "PGame",
    "PGameSpec",
    "ThresholdAnalysis",
    "TreeInstance",
    "TreeModel",
    "TreeSpec",
    "analyze",
    "check_shape",
    "convolved_pmf",
    "enumerated_pmf",
    "get_tree_model",
    "level_start",
    "make_tree",
    "node_count",
    "parse_spec",
    "parse_tree_spec",
    "path_sums",
    "pgame",
    "solve_minimax",
    "threshold_analysis",
    "win_rates_at",
]
