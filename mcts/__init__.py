"""Search engines: the compiled batched MCTS for synthetic trees."""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from .synthetic import (
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

__all__ = ["STREAM_VERSION", "SearchConfig", "TreeArrays", "memory_per_run", "node_capacity",
           "run_searches", "search", "trace_runs", "trace_search", "tree_arrays"]
