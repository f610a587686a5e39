"""Search engines: the compiled batched MCTS for synthetic trees."""

from .synthetic import SearchConfig, memory_per_run, node_capacity, run_searches, search

__all__ = ["SearchConfig", "memory_per_run", "node_capacity", "run_searches", "search"]
