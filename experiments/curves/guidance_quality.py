"""How good a curve's guidance is, measured on the instances and networks its runs use
(``mcts.synthetic.guidance``): the prior's top-1 agreement with an optimal move and its mass
on the optimal moves, by ply, and the value's RMSE against the exact outcome and its rank
correlation with it. A move is optimal at a node when its exact outcome (threshold 0, the
mover's view) is the node's best. The prior is measured at the decisive nodes, those with a
move that is not optimal (elsewhere every move is, and any prior agrees); nodes below a
terminal are never reached and left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy import stats

from mcts.synthetic.guidance import make_guidance, network_key, prior_logits, values

from .curve import Curve
from .failure import run_seeds, tree_instance
from .prior_agreement import prior_agreement, prior_noise

if TYPE_CHECKING:
    import pandas as pd

NETWORKS_MEASURED = 16  # networks per instance measured (the first runs'), a curve's sample


def curve_networks(curve: Curve, seed: int, tree_index: int,
                   limit: int = NETWORKS_MEASURED) -> list[int]:
    """The keys of the networks the first ``limit`` runs of ``curve`` on instance
    ``tree_index`` use (one when the network is the instance's)."""
    guidance = make_guidance(curve.prior, curve.evaluate, curve.network)
    instance = tree_instance(curve.tree, curve.branching, curve.depth, seed, tree_index)
    instance_key = np.uint64(instance.seed % 2**64)
    runs = 1 if curve.network == "instance" else min(limit, curve.runs)
    return sorted({int(network_key(guidance, instance_key, run_seed))
                   for run_seed in run_seeds(seed, tree_index, 0, runs)})


def guidance_quality(curve: Curve, seed: int = 0, tree_seed: int | None = None,
                     networks: int = NETWORKS_MEASURED) -> pd.DataFrame:
    """The guidance's quality on ``curve``'s instances and its first ``networks`` runs'
    networks: one row per ply (``ply``, ``nodes``, ``top1``, ``optimal_mass``) for the
    prior, then a row ``ply`` = "all" with the prior's over every ply and the value's
    ``rmse`` and ``rank_correlation`` (Spearman; NaN without a value)."""
    import pandas as pd

    tree_seed = seed if tree_seed is None else tree_seed
    plies, agreements, masses, errors, ranks = [], [], [], [], []
    for j in range(curve.trees):
        instance = tree_instance(curve.tree, curve.branching, curve.depth, tree_seed, j)
        inner = np.asarray(instance.reachable, bool) & ~np.asarray(instance.terminal, bool)
        outcome = instance.minimax.outcome(0.0)
        for key in curve_networks(curve, seed, j, networks):
            logits = prior_logits(instance, curve.prior or "uniform", key,
                                  prior_noise(curve.prior, instance))
            ply, agreement, mass = prior_agreement(instance, logits)
            plies.append(ply)
            agreements.append(agreement)
            masses.append(mass)
            if curve.evaluate and not curve.evaluate.startswith("playout"):
                value = values(instance, curve.evaluate, key)[inner]
                errors.append(value - outcome[inner])
                ranks.append(stats.spearmanr(value, outcome[inner]).statistic)
    frame = pd.DataFrame({"ply": np.concatenate(plies), "top1": np.concatenate(agreements),
                          "optimal_mass": np.concatenate(masses)})
    by_ply = frame.groupby("ply").agg(nodes=("top1", "size"), top1=("top1", "mean"),
                                      optimal_mass=("optimal_mass", "mean")).reset_index()
    error = np.concatenate(errors) if errors else np.array([np.nan])
    overall = {"ply": "all", "nodes": len(frame), "top1": frame.top1.mean(),
               "optimal_mass": frame.optimal_mass.mean(),
               "rmse": float(np.sqrt(np.mean(error ** 2))),
               "rank_correlation": float(np.mean(ranks)) if ranks else np.nan}
    by_ply["ply"] = by_ply["ply"].astype(object)
    return pd.concat([by_ply, pd.DataFrame([overall])], ignore_index=True)
