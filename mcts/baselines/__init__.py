"""Players beside MCTS on synthetic trees, at its budget (Kocsis & Szepesvari 2006, Fig. 2):
flat Monte-Carlo (``flat_mc``) and alpha-beta with iterative deepening (``alphabeta``), named
where a bandit policy is (``registry``).
"""

from .registry import (
    BASELINES,
    Baseline,
    baseline_memory,
    check_baseline,
    is_baseline,
    player_info,
    run_baseline,
)

__all__ = ["BASELINES", "Baseline", "baseline_memory", "check_baseline", "is_baseline",
           "player_info", "run_baseline"]
