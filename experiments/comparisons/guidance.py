"""The guidance study's answers (``compare --preset guidance``; ``mcts.synthetic.guidance``), from
a comparison's cells whose policies are guided by a prior and a value of known quality:

- the quality of each cell's guidance, measured on its instances and networks
  (``experiments.curves.guidance_quality``): the prior's top-1 agreement, which names its rung
  of the ladder, and the value's RMSE;
- per tree, search, value noise and budget, the lowest prior agreement at which the guided
  search fails significantly less than the baseline (UCB1 with random playouts), by the
  comparison's own per-budget test (CMH over the instances, Holm within the tree);
- Danihelka et al. 2022's claim, checked: how often PUCT and Gumbel MuZero play a move whose
  exact outcome is worse than the prior's argmax's, at 2, 4, 8 and 16 simulations, with the
  exact values (sigma 0), over the cells' instances and runs;
- which search fails least at each (prior agreement, value noise) and budget (the figure,
  ``plots.guidance``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..curves.curve import Curve
from ..curves.failure import tree_instance
from ..curves.guidance_quality import prior_quality, value_quality
from ..curves.prior_agreement import prior_noise
from ..curves.search_runs import search_runs
from .grid import Grid

SIMULATIONS = (2, 4, 8, 16)  # Danihelka et al. 2022, Sect. 5: few simulations
WORSE_RUNS = 50  # runs per instance of the worse-than-the-prior check


def _sigma(curve: Curve) -> float:
    if not curve.evaluate or not curve.evaluate.startswith("value"):
        return np.nan
    return float(curve.evaluate.partition("sigma=")[2].rstrip(")") or 0.0)


def guided_cells(grid: Grid) -> pd.DataFrame:
    """One row per cell: config, method (``policy+adjuster``, as the tests name it), search
    (the policy's name), prior, sigma (the value's noise; NaN: playouts) and its curve."""
    rows = []
    for curve, (config, policy, adjuster) in grid.labelled():
        rows.append({"config": config, "method": f"{policy}+{adjuster}",
                     "search": curve.policy, "prior": curve.prior, "sigma": _sigma(curve),
                     "guided": bool(curve.prior or curve.evaluate), "curve": curve})
    return pd.DataFrame(rows)


def guidance_tables(grid: Grid, tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The study's tables from a comparison's (``budget_tests``, ``curves``): guidance_quality,
    guidance_wins, guidance_worse and guidance_map; {} when no cell is guided."""
    cells = guided_cells(grid)
    guided = cells[cells.guided]
    if guided.empty:
        return {}
    quality = _quality(guided, grid.seed)
    cells = cells.merge(quality[["config", "search", "prior", "sigma", "top1"]],
                        on=["config", "search", "prior", "sigma"], how="left")
    return {"guidance_quality": quality,
            "guidance_wins": _wins(cells, tables["budget_tests"]),
            "guidance_worse": _worse(cells[cells.guided], grid),
            "guidance_map": _map(cells, tables["curves"])}


def _quality(guided: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Each cell's guidance measured (``guidance_quality``), the prior's once per tree and
    prior and the value's once per tree and evaluation (searches share them)."""
    priors, values = {}, {}
    rows = []
    for row in guided.itertuples():
        curve = row.curve
        prior_key = (row.config, curve.prior, curve.network)
        value_key = (row.config, curve.evaluate, curve.network)
        if prior_key not in priors:
            priors[prior_key] = prior_quality(curve, seed).iloc[-1]
        if value_key not in values:
            values[value_key] = value_quality(curve, seed)
        prior, (rmse, rank) = priors[prior_key], values[value_key]
        rows.append({"config": row.config, "search": row.search, "prior": row.prior,
                     "sigma": row.sigma, "top1": prior.top1, "optimal_mass": prior.optimal_mass,
                     "value_rmse": rmse, "value_rank_correlation": rank})
    return pd.DataFrame(rows)


def _wins(cells: pd.DataFrame, budget_tests: pd.DataFrame) -> pd.DataFrame:
    """Per config, search, sigma and budget: the lowest measured prior agreement whose cell
    fails significantly less than the baseline (Holm-rejected, odds ratio below 1)."""
    tests = budget_tests.merge(cells[cells.guided][["config", "method", "search", "sigma",
                                                     "top1"]], on=["config", "method"])
    rows = []
    for (config, search, sigma, budget), group in tests.groupby(
            ["config", "search", "sigma", "budget"]):
        better = group[(group.reject.astype(bool)) & (group.odds_ratio < 1)]
        rows.append({"config": config, "search": search, "sigma": sigma, "budget": budget,
                     "baseline_rate": group.baseline_rate.iloc[0],
                     "lowest_agreement_that_wins": better.top1.min() if len(better) else np.nan,
                     "priors_tested": len(group)})
    return pd.DataFrame(rows)


def _worse(guided: pd.DataFrame, grid: Grid) -> pd.DataFrame:
    """Per config, search and prior (exact values only): the share of searches of s
    simulations whose move's exact outcome is below the prior argmax's, over the cells'
    instances (``WORSE_RUNS`` runs each); a PUCT search of s simulations is s + 1 playouts
    (the first evaluates the root)."""
    rows = []
    exact = guided[(guided.sigma == 0) & (guided.prior != "uniform")]
    for row in exact.itertuples():
        curve = row.curve
        for simulations in SIMULATIONS:
            budget = simulations + (0 if curve.root else 1)
            runs = search_runs(curve.tree, _entry(curve), budget=budget, runs=WORSE_RUNS,
                               seed=grid.seed, prior=curve.prior, evaluate=curve.evaluate,
                               trees=grid.trees_per_model, branching=grid.branching,
                               depth=grid.depth, solver=curve.solver)
            worse = _worse_than_argmax(runs, curve, grid)
            rows.append({"config": row.config, "search": row.search, "prior": row.prior,
                         "top1": row.top1, "simulations": simulations, "runs": len(worse),
                         "worse_than_prior_argmax": worse.mean()})
    return pd.DataFrame(rows)


def _entry(curve: Curve) -> str:
    params = ",".join(f"{key}={value!r}" for key, value in curve.policy_params.items())
    return f"{curve.policy}({params})" if params else curve.policy


def _worse_than_argmax(runs: pd.DataFrame, curve: Curve, grid: Grid) -> np.ndarray:
    from mcts.synthetic.guidance import prior_logits

    worse, outcomes = [], {}
    for row in runs.itertuples():
        instance = tree_instance(curve.tree, grid.branching, grid.depth, grid.seed, row.tree)
        if row.tree not in outcomes:
            outcomes[row.tree] = instance.minimax.outcome(0.0)[1:1 + grid.branching]
        outcome = outcomes[row.tree]
        logits = prior_logits(instance, curve.prior, row.network,
                              prior_noise(curve.prior, instance), rows=1)[0]
        worse.append(outcome[row.move] < outcome[np.argmax(logits)])
    return np.array(worse)


def _map(cells: pd.DataFrame, curves: pd.DataFrame) -> pd.DataFrame:
    """Per config, budget, prior agreement and value noise: the failure rates of the baseline
    (the lowest of the unguided cells: UCB1 plain and with MaxFrequency) and each guided
    search, and the search that fails least ("tie" where two share the lowest rate)."""
    rates = curves.assign(method=curves.policy + "+" + curves.adjuster).merge(
        cells[["config", "method", "search", "prior", "sigma", "top1", "guided"]],
        on=["config", "method"])
    base = (rates[~rates.guided].groupby(["config", "budget"]).failure_rate.min()
            .rename("playouts_rate"))
    guided = rates[rates.guided].pivot_table(index=["config", "budget", "prior", "sigma"],
                                             columns="search", values="failure_rate")
    agreement = rates[rates.guided].groupby(["config", "prior"]).top1.mean().rename("top1")
    frame = guided.join(base, on=["config", "budget"]).join(agreement, on=["config", "prior"])
    searches = [*guided.columns, "playouts_rate"]
    frame["winner"] = frame[searches].idxmin(axis=1).replace({"playouts_rate": "playouts"})
    tied = (frame[searches].eq(frame[searches].min(axis=1), axis=0)).sum(axis=1) > 1
    frame.loc[tied, "winner"] = "tie"  # equal rates (mostly all 0): no search is the best
    return frame.reset_index()


GUIDANCE_TEXT = (
    "Guided cells search without playouts: a leaf's value is the exact minimax outcome plus a "
    "noise sigma fixed per node, and PUCT (mctx's muzero_policy) and Gumbel MuZero read an "
    "oracle prior: softmax of the exact outcomes over tau plus a noise fixed per node "
    "(mcts/synthetic/guidance.py). A prior is named by its top-1 agreement with an optimal "
    "move, measured at the decisive nodes of the cell's instances for the networks of its "
    "first runs (uniform: chance). A guided search's budget counts evaluations, as UCB1's "
    "counts playouts. UCB1 with playouts runs plain and with MaxFrequency (seed 001), which "
    "reads playout scores and so guides no value-evaluated search; the tests' baseline is "
    "UCB1 plain, the map's \"playouts\" the better of the two at each budget.")


def guidance_blocks(folder, tables: dict, formats=("png",)) -> list[tuple]:
    """The report's section on the guidance study (``experiments.comparisons.report``'s
    blocks), or none without guided cells."""
    from plots.guidance import winner_map

    from ..runtime.store import write_figures

    if "guidance_map" not in tables:
        return []
    blocks = [("h2", "Guidance of known quality"), ("p", GUIDANCE_TEXT),
              *_quality_tables(tables["guidance_quality"])]
    wins = tables["guidance_wins"]
    blocks += [("p", ("The lowest prior agreement at which the guided search fails "
                      "significantly less than the baseline at each budget (CMH over the "
                      "instances, Holm within the tree; empty: at no agreement):")),
               ("table", _wins_table(wins))]
    worse = tables["guidance_worse"]
    if not worse.empty:
        blocks += [("p", ("How often the move played is worse, in exact outcome, than the "
                          "prior's argmax, with exact values (Danihelka et al. 2022, Sect. 5: "
                          "Gumbel MuZero improves on its prior at any number of "
                          "simulations):")),
                   ("table", worse.assign(top1=worse.top1.round(2))
                    .pivot_table(index=["config", "search", "top1"],
                                               columns="simulations",
                                               values="worse_than_prior_argmax")
                    .round(3).reset_index())]
    figure = winner_map(tables["guidance_map"])
    write_figures(figure, f"{folder}/guidance_map", ("png", *formats))
    blocks.append(("figure", "guidance_map.png",
                   ("Which search fails least at each prior agreement and value noise, per "
                    "tree and budget (the failure rate of the winner in each cell)")))
    return blocks


def _wins_table(wins: pd.DataFrame) -> pd.DataFrame:
    return (wins.pivot_table(index=["config", "search", "sigma"], columns="budget",
                             values="lowest_agreement_that_wins", dropna=False)
            .round(2).reset_index())


def _quality_tables(quality: pd.DataFrame) -> list[tuple]:
    """The guidance measured, once per tree and prior (the searches share it) and once per
    tree and value noise."""
    priors = (quality.groupby(["config", "prior"], sort=False)[["top1", "optimal_mass"]]
              .first().round(3).reset_index())
    values = (quality.groupby(["config", "sigma"], sort=False)
              [["value_rmse", "value_rank_correlation"]].first().round(3).reset_index())
    return [("p", "The priors, measured:"), ("table", priors),
            ("p", "The values, measured:"), ("table", values)]

