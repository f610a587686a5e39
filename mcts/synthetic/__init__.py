"""The compiled engine for synthetic trees, many runs per call (``engine``), with what only it
reads: the reward of a terminal's score (``score_reward``), seed 000's shaping as an option
(``shaping``), the exact re-scoring ablation (``rescoring``), the watched runs of
``mctslab inspect`` (``tracing``), guidance of known quality (``guidance``, the engine's
steps that read it ``guided_steps``) and a user's networks as guidance (``networks``).
"""

from .engine import (
    FAILURES,
    STREAM_VERSION,
    SearchConfig,
    TreeArrays,
    memory_per_run,
    node_capacity,
    run_searches,
    search,
    trace_runs,
    trace_search,
    tree_arrays,
)
from .networks import NetworkInput, PriorNetwork, ValueNetwork

__all__ = ["FAILURES", "STREAM_VERSION", "NetworkInput", "PriorNetwork", "SearchConfig",
           "TreeArrays", "ValueNetwork", "memory_per_run", "node_capacity", "run_searches",
           "search", "trace_runs", "trace_search", "tree_arrays"]
