"""Search engines, each with its entry point (the synthetic engine's names are handed on here;
the others' modules are imported when used, as the games' compiled rules are):

- synthetic trees, compiled, many runs per call: ``run_searches`` (a block of runs' failure
  curves), ``search`` (one run), ``trace_runs``/``trace_search`` (runs watched by ``mctslab
  inspect``), configured by ``SearchConfig`` on ``tree_arrays`` of an instance (``synthetic``);
- the compiled two-player games: ``mcts.games.search`` with a ``GameSearchConfig``, a player's
  spec read by ``mcts.players.parse_player``;
- the one-player chance games (Pig, Can't Stop, Dominion) with seed 003's variance reduction:
  ``mcts.stochastic.search`` and ``play`` with a ``StochasticConfig``;
- OpenSpiel's games, in Python: ``mcts.generic.generic_search``;
- the baselines on synthetic trees, alpha-beta and flat Monte-Carlo:
  ``mcts.baselines.run_baseline``.

The compiled synthetic, games and chance engines run one search loop (``core.search_loop``) and
one selection (``core.child_indices``); the synthetic and games engines share one solver
(``core.solver``) and backup (``core.backup``), the chance engine backing up its own moments:
the package ``core``, which imports no engine; the tie rule (``bandits.ties``) and PUCT's Q
range (``bandits.q_range``) lie below it, shared with the plain bandits.
"""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from . import synthetic
from .synthetic import *  # the synthetic engine's names, as its face lists them

__all__ = synthetic.__all__
