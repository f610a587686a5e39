"""Synthetic game trees: seed 001's models (Sect. III), the P-game, traps and variable depth,
users' models, the model registry and exact analysis (threshold win rates, minimax)."""

from .analysis import (
    ThresholdAnalysis,
    convolved_pmf,
    enumerated_pmf,
    threshold_analysis,
    win_rates_at,
)
from .instance import MAX_SCORE, TreeInstance, check_arrays, uniform_terminals
from .layout import MAX_NODES, check_shape, level_start, node_count, path_sums
from .minimax import Minimax, solve_minimax
from .models import (
    TREE_MODELS,
    ModelSpec,
    ModifiedSpec,
    TreeModel,
    analyze,
    get_tree_model,
    make_tree,
    parse_tree_spec,
)
from .pgame import PGameSpec, pgame
from .plugins import BlankTree, Model
from .spec import MODELS, TreeSpec

__all__ = [
    "MAX_NODES",
    "MAX_SCORE",
    "MODELS",
    "TREE_MODELS",
    "BlankTree",
    "Minimax",
    "Model",
    "ModelSpec",
    "ModifiedSpec",
    "PGameSpec",
    "ThresholdAnalysis",
    "TreeInstance",
    "TreeModel",
    "TreeSpec",
    "analyze",
    "check_arrays",
    "check_shape",
    "convolved_pmf",
    "enumerated_pmf",
    "get_tree_model",
    "level_start",
    "make_tree",
    "node_count",
    "parse_tree_spec",
    "path_sums",
    "pgame",
    "solve_minimax",
    "threshold_analysis",
    "uniform_terminals",
    "win_rates_at",
]
