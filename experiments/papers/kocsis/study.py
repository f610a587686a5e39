"""Kocsis & Szepesvari (2006), the P-game experiment of Fig. 2: the study, its per-tree
failure rates with 95% intervals over trees, and the exact random-pick level of each panel.

Each panel is a P-game shape (B, D) with move values uniform in [0, 127] (``pgame(127)``,
``trees.pgame``), searched by:

- ``uct``: UCB1 with the depth exponent, bias c (ln t / s)^((D + d) / (2D + d)) at depth d
  (``depth_exponent=kocsis``), the final move of best mean, no solver (their UCT had none);
- ``uct+solver``: the same with the lab's outcome MCTS-Solver, an ablation that shows what the
  solver does to the best-score failure (docs/design.md);
- ``alphabeta``: iterative deepening at the same budget of leaves evaluated, horizon leaves
  scored by one random playout (``mcts.baselines``);
- ``flatmc``: flat Monte-Carlo, playouts round-robin over the root moves, the best mean.

A failure is a root move outside the moves of best minimax score (``failure="score"``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ...curves.curve import Curve
from ...curves.failure import tree_instance
from ...runtime.pool import completed
from ...studies.shards import plan_shards
from ...studies.store import read_shard
from ...studies.study import Study

TREE = "pgame(127)"


@dataclass(frozen=True)
class Panel:
    """One panel of Fig. 2: the P-game's branching B and depth D."""

    branching: int
    depth: int

    @property
    def name(self) -> str:
        return f"B={self.branching} D={self.depth}"


@dataclass(frozen=True)
class Effort:
    """Trees x runs per tree at every point, budgets 2^0 .. ``max_budget``."""

    trees: int
    runs: int
    max_budget: int

    @property
    def points(self) -> int:
        return self.trees * self.runs


PANELS = (Panel(2, 20), Panel(8, 8))
# quick: about a tenth of the paper's trees (a B=8, D=8 instance is 19 M nodes, seconds to draw)
# and 2^12 iterations; paper: Sect. 4's 200 trees x 200 runs a point
SCALES = {
    "quick": {2: Effort(40, 10, 2**12), 8: Effort(16, 25, 2**12)},
    "paper": {2: Effort(200, 200, 2**14), 8: Effort(200, 200, 2**14)},
}
# runs per shard: quick, one shard per tree (a B=8 shard readies its 19 M-node tree for the
# engine in about 0.6 s, which more shards would repeat); paper, two per tree
BLOCKS = {"quick": 25, "paper": 100}
# method -> (policy, policy parameters, final move, solver)
METHODS = {
    "uct": ("ucb1", {"depth_exponent": 1}, "mean", False),
    "uct+solver": ("ucb1", {"depth_exponent": 1}, "mean", True),
    "alphabeta": ("alphabeta", {"leaf": "playout"}, "visits", True),
    "flatmc": ("flatmc", {}, "visits", True),
}


def effort(scale: str, panel: Panel) -> Effort:
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}: use quick or paper")
    return SCALES[scale][panel.branching]


def method_curve(method: str, panel: Panel, scale: str) -> Curve:
    """The curve of ``method`` on ``panel`` at ``scale`` (best-score failure throughout)."""
    policy, params, final_move, solver = METHODS[method]
    size = effort(scale, panel)
    return Curve(TREE, policy, "plain", branching=panel.branching, depth=panel.depth,
                 runs=size.runs, trees=size.trees, max_budget=size.max_budget,
                 policy_params=params, final_move=final_move, failure="score", solver=solver)


def kocsis_study(scale: str = "quick", seed: int = 2015) -> Study:
    """Every method on every panel, ``BLOCKS[scale]`` runs per shard."""
    curves = [method_curve(m, p, scale) for p in PANELS for m in METHODS]
    return Study(tuple(curves), seed=seed, block=BLOCKS[scale], name=f"kocsis-{scale}")


def curve_method(curve: Curve) -> tuple[str, Panel]:
    """(method, panel) of a curve of the study."""
    panel = Panel(curve.branching, curve.depth)
    for method, (policy, _, _, solver) in METHODS.items():
        if curve.policy == policy and (policy != "ucb1" or curve.solver == solver):
            return method, panel
    raise ValueError(f"{curve.label} is not a curve of the Kocsis study")


def tree_rates(folder, study: Study) -> pd.DataFrame:
    """Failure rate per (panel, method, tree instance, budget) over the runs stored on that
    tree (trees with no stored run are left out)."""
    rows = []
    for curve in study.curves:
        method, panel = curve_method(curve)
        for tree in range(curve.trees):
            failures, runs = np.zeros(len(curve.budgets), np.int64), 0
            for shard in plan_shards(curve, study.block, study.seed):
                if shard.tree_index == tree:
                    counts = read_shard(folder, shard)
                    if counts is not None:
                        failures, runs = failures + counts, runs + shard.n_runs
            if runs:
                rows.append(pd.DataFrame({"panel": panel.name, "method": method, "tree": tree,
                                          "budget": curve.budgets, "failures": failures,
                                          "runs": runs}))
    frame = pd.concat(rows, ignore_index=True)
    return frame.assign(rate=frame["failures"] / frame["runs"])


def over_trees(rates: pd.DataFrame) -> pd.DataFrame:
    """Per (panel, method, budget): the mean over trees of the per-tree failure rate and its
    95% interval mean +- t_{n-1, 0.975} sd / sqrt(n), n trees (clipped to [0, 1]); with equal
    runs per tree the mean is the pooled failure rate."""
    grouped = rates.groupby(["panel", "method", "budget"], sort=False)
    table = pd.DataFrame({"trees": grouped.size(), "runs": grouped["runs"].sum(),
                          "failure_rate": grouped["rate"].mean(),
                          "sd": grouped["rate"].std()}).reset_index()
    n = table["trees"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(n > 1, stats.t.ppf(0.975, np.maximum(n - 1, 1)) * table["sd"]
                        / np.sqrt(n), np.nan)
    return table.assign(ci_low=np.clip(table["failure_rate"] - half, 0, 1),
                        ci_high=np.clip(table["failure_rate"] + half, 0, 1))


def root_move_sets(branching: int, depth: int, seed: int, tree: int) -> tuple[int, int]:
    """(best-score moves, optimal-outcome moves) at the root of the study's tree ``tree``."""
    instance = tree_instance(TREE, branching, depth, seed, tree)
    return int(instance.best_score.sum()), int(instance.optimal.sum())


def random_pick_levels(panel: Panel, trees: int, seed: int, workers: int | None = 1,
                       scheduler: str | None = None) -> dict:
    """The failure rate of a move drawn uniformly at the root, exactly, on the study's tree
    instances 0 .. trees - 1 of ``panel`` (drawn on ``workers`` processes or the Dask cluster
    at ``scheduler``): mean over trees of 1 - |best-score moves| / B (the best-score failure)
    and of 1 - |optimal-outcome moves| / B (the lab's outcome failure), with the mean sizes of
    both sets and the count of roots with more than one best-score move."""
    jobs = [(panel.branching, panel.depth, seed, j) for j in range(trees)]
    sizes = np.zeros((trees, 2))
    for j, found in completed(root_move_sets, jobs, workers, scheduler):
        sizes[j] = found
    best, optimal = sizes[:, 0], sizes[:, 1]
    level = 1 - best / panel.branching
    return {"panel": panel.name, "branching": panel.branching, "trees": trees,
            "score_level": level.mean(),
            "tied_roots": int((best > 1).sum()),
            "outcome_level": (1 - optimal / panel.branching).mean(),
            "best_moves": best.mean(), "optimal_moves": optimal.mean()}
