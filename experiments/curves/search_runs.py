"""Single searches seen whole, one row per run: the root's visit counts and the move chosen,
with the key of the network that guided it (``mcts.synthetic.guidance``), so that the very
inputs of a run (``guidance.prior_logits``, ``guidance.values``) can be rerun elsewhere, e.g.
by mctx (benchmarks/peers/)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bandits import make_policy
from bandits.rng import seed_state
from mcts.core.search_tree import FIRST_CHILD, VISITS, chosen_move
from mcts.synthetic import search
from mcts.synthetic.guidance import network_key

from .curve import Curve
from .entries import parse_entry
from .failure import _tables, curve_arrays, run_seeds, search_config, tree_instance

if TYPE_CHECKING:
    import pandas as pd


def search_runs(tree: str, policy: str = "puct", budget: int = 64, runs: int = 1, seed: int = 0,
                *, prior: str = "", evaluate: str = "", network: str = "run",
                tree_seed: int | None = None, trees: int = 1, branching: int = 4,
                depth: int = 8, **options) -> pd.DataFrame:
    """``runs`` searches of ``budget`` playouts on each of ``trees`` instances of ``tree``, as a
    failure curve's runs (same seeds: ``experiments.curves.failure``), one row each: ``tree``
    (the instance's index), ``run``, ``network`` (the key of its network, for
    ``guidance.prior_logits`` and ``guidance.values``), ``move`` (the move played; ties
    broken by a stream of the run's seed; a root policy's own), ``failed`` and ``visits_0``
    .. ``visits_{b-1}`` (the root's children's visits). A guided search's first playout
    evaluates the root, as mctx evaluates it before its simulations: its children's visits
    sum to ``budget`` - 1; under a root policy (Gumbel MuZero's) the root is evaluated
    without a playout, and they sum to ``budget``. A solved root ends a search early.
    ``policy`` is a name or a spec such as ``puct(qtransform=parent_and_siblings)``; other
    options go to :class:`experiments.Curve`."""
    import pandas as pd

    name, params = parse_entry(policy, "policy")
    if budget < 1:
        raise ValueError(f"budget {budget} must be at least 1 playout")
    curve = Curve(tree, name, branching=branching, depth=depth, runs=runs, trees=trees,
                  max_budget=1 << (int(budget) - 1).bit_length(), policy_params=params,
                  prior=prior, evaluate=evaluate, network=network, **options)
    tree_seed = seed if tree_seed is None else tree_seed
    record, tables = make_policy(curve.policy, **curve.policy_params), _tables(int(budget))
    rows = []
    for j in range(trees):
        instance = tree_instance(curve.tree, branching, depth, tree_seed, j)
        game, config = curve_arrays(curve, instance), search_config(curve, instance)
        failed = np.zeros(int(np.log2(budget)) + 1, np.bool_)
        for run, run_seed in enumerate(run_seeds(seed, j, 0, runs)):
            searched = search(game, config, int(budget), run_seed, tables, record, failed)
            move = searched.played[0]  # a root policy's
            if move < 0:
                move = chosen_move(searched, branching, config.final_move,
                                   seed_state(run_seed), np.empty((3, branching)))
            first = searched.stats[0, FIRST_CHILD]
            visits = (np.zeros(branching, np.int64) if first < 0 else
                      searched.stats[first:first + branching, VISITS].astype(np.int64))
            rows.append({"tree": j, "run": run,
                         "network": int(network_key(config.guidance, game.key, run_seed)),
                         "move": int(move), "failed": not bool(game.correct[move]),
                         **{f"visits_{k}": int(v) for k, v in enumerate(visits)}})
    return pd.DataFrame(rows)
