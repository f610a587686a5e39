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

NETWORKS_MEASURED = 8  # networks per instance measured (the first runs'), a curve's sample


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


def prior_quality(curve: Curve, seed: int = 0, tree_seed: int | None = None,
                  networks: int = NETWORKS_MEASURED) -> pd.DataFrame:
    """The prior's quality on ``curve``'s instances and its first ``networks`` runs'
    networks: one row per ply (``ply``, ``nodes``, ``top1``, ``optimal_mass``), then a row
    ``ply`` = "all" over every ply."""
    import pandas as pd

    tree_seed = seed if tree_seed is None else tree_seed
    plies, agreements, masses = [], [], []
    for j in range(curve.trees):
        instance = tree_instance(curve.tree, curve.branching, curve.depth, tree_seed, j)
        noise = prior_noise(curve.prior, instance)
        for key in curve_networks(curve, seed, j, networks):
            ply, agreement, mass = prior_agreement(
                instance, prior_logits(instance, curve.prior or "uniform", key, noise))
            plies.append(ply)
            agreements.append(agreement)
            masses.append(mass)
    frame = pd.DataFrame({"ply": np.concatenate(plies), "top1": np.concatenate(agreements),
                          "optimal_mass": np.concatenate(masses)})
    by_ply = frame.groupby("ply").agg(nodes=("top1", "size"), top1=("top1", "mean"),
                                      optimal_mass=("optimal_mass", "mean")).reset_index()
    by_ply["ply"] = by_ply["ply"].astype(object)
    overall = {"ply": "all", "nodes": len(frame), "top1": frame.top1.mean(),
               "optimal_mass": frame.optimal_mass.mean()}
    return pd.concat([by_ply, pd.DataFrame([overall])], ignore_index=True)


def value_quality(curve: Curve, seed: int = 0, tree_seed: int | None = None,
                  networks: int = NETWORKS_MEASURED) -> tuple[float, float]:
    """The value's (RMSE against the exact outcome, mean Spearman correlation with it) over
    the reachable inner nodes of ``curve``'s instances and its first ``networks`` runs'
    networks; NaN for an evaluation by playouts alone."""
    if not curve.evaluate or curve.evaluate.startswith("playout"):
        return np.nan, np.nan
    tree_seed = seed if tree_seed is None else tree_seed
    errors, ranks = [], []
    for j in range(curve.trees):
        instance = tree_instance(curve.tree, curve.branching, curve.depth, tree_seed, j)
        inner = np.asarray(instance.reachable, bool) & ~np.asarray(instance.terminal, bool)
        outcome = instance.minimax.outcome(0.0)[inner]
        for key in curve_networks(curve, seed, j, networks):
            value = values(instance, curve.evaluate, key)[inner]
            errors.append(value - outcome)
            ranks.append(stats.spearmanr(value, outcome).statistic)
    return float(np.sqrt(np.mean(np.concatenate(errors) ** 2))), float(np.mean(ranks))


def guidance_quality(curve: Curve, seed: int = 0, tree_seed: int | None = None,
                     networks: int = NETWORKS_MEASURED) -> pd.DataFrame:
    """:func:`prior_quality`'s rows, the row "all" with :func:`value_quality`'s ``rmse`` and
    ``rank_correlation`` (NaN without a value) beside the prior's."""
    frame = prior_quality(curve, seed, tree_seed, networks)
    rmse, rank = value_quality(curve, seed, tree_seed, networks)
    frame["rmse"], frame["rank_correlation"] = np.nan, np.nan
    frame.loc[frame.index[-1], ["rmse", "rank_correlation"]] = rmse, rank
    return frame
