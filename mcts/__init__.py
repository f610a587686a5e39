"""Search engines: the compiled batched MCTS for synthetic trees."""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from .synthetic import SearchConfig, memory_per_run, node_capacity, run_searches, search

__all__ = ["SearchConfig", "memory_per_run", "node_capacity", "run_searches", "search"]
