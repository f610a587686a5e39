"""The levels of Kocsis & Szepesvari's Fig. 2 that no search moves, under each reading of its
failure rule: which reading is the paper's is chosen by them, before looking at UCT's curve.

Two numbers of Fig. 2 do not depend on the search: a move picked at random (alpha-beta's flat
start before its search completes, and UCT after one iteration: 0.493 at B=2, 0.801 at B=8 as
read from the PDF) and flat Monte-Carlo's level after many iterations (about 0.11 and 0.16).
On a stored tree both are exact:

- a random pick fails with probability 1 - |C| / B, C the root moves the rule counts correct;
- flat Monte-Carlo with n -> infinity playouts per root move plays the move of best expected
  playout reward: for root move i, E_i = sum over the reachable terminals t below it of
  b^-(l_t - 1) r(t), l_t the terminal's ply (``TreeInstance.terminals``; a uniformly random
  playout), so its limit fails with probability |argmax E \\ C| / |argmax E|, ties drawn
  uniformly. The reward r is the outcome at threshold 0 (1, 1/2, 0: the lab's) or the summed
  score itself (the paper's rewards, Sect. 3.1; ``reward="sum"``).

The readings (``READINGS``): C the moves of best minimax score (the lab's Kocsis rule so far,
``failure="score"``), or the moves of the root's game value, over all trees or over the
decisive trees only, those whose root moves do not all have the same game value.
"""

from __future__ import annotations

import numpy as np

from trees.decisive import is_decisive

from ...curves.failure import tree_instance
from ...runtime.pool import completed
from .study import TREE, Panel, move_set_sizes

# (name, the correct moves, decisive trees only)
READINGS = (("best score, every tree", "score", False),
            ("best score, decisive trees", "score", True),
            ("game value, every tree", "outcome", False),
            ("game value, decisive trees", "outcome", True))


def _failing_share(chosen: np.ndarray, correct: np.ndarray) -> float:
    """The probability that a move drawn uniformly from ``chosen`` (bool [B]) is not
    ``correct``."""
    return float((chosen & ~correct).sum() / chosen.sum())


def flat_limits(instance) -> tuple[np.ndarray, np.ndarray]:
    """float64 [B] each: E_i of a uniformly random playout from each root move, of the outcome
    at threshold 0 and of the summed score (module docstring)."""
    nodes, move, weight = instance.terminals()
    scores = np.asarray(instance.path_score)[nodes].astype(np.float64)
    outcome = np.where(scores > 0, 1.0, np.where(scores == 0, 0.5, 0.0))
    total = float(instance.branching) ** (instance.depth - 1)
    return (np.bincount(move, weight * outcome, instance.branching) / total,
            np.bincount(move, weight * scores, instance.branching) / total)


def instance_levels(branching: int, depth: int, seed: int,
                    tree: int) -> tuple[np.ndarray, tuple[int, int]]:
    """float64 [readings, 4] of the study's tree ``tree``: per reading (``READINGS``' order) the
    random pick's and flat MC's limit's failure (outcome reward, summed score), and 1 where the
    tree counts under the reading (decisive, or any tree); and the sizes of its root's sets of
    best-score and optimal-outcome moves (``study.pick_levels``)."""
    instance = tree_instance(TREE, branching, depth, seed, tree)
    by_outcome, by_score = flat_limits(instance)
    rows = []
    for _, rule, decisive_only in READINGS:
        correct = np.asarray(instance.best_score if rule == "score" else instance.optimal)
        counts = not decisive_only or is_decisive(instance)
        rows.append([1 - correct.mean(), _failing_share(by_outcome == by_outcome.max(), correct),
                     _failing_share(by_score == by_score.max(), correct), float(counts)])
    return np.array(rows), move_set_sizes(instance)


def search_free_levels(panel: Panel, trees: int, seed: int, workers: int | None = 1,
                       scheduler: str | None = None) -> tuple[list[dict], np.ndarray]:
    """Per reading, over the study's trees 0 .. trees - 1 of ``panel`` that count under it
    (drawn once, on ``workers`` processes or the Dask cluster at ``scheduler``): the random
    pick's and flat MC's limits' mean failure with their standard errors over trees, and the
    trees counted; and every tree's root move sets' sizes (float [trees, 2]:
    ``study.pick_levels``)."""
    jobs = [(panel.branching, panel.depth, seed, j) for j in range(trees)]
    levels, sizes = np.zeros((trees, len(READINGS), 4)), np.zeros((trees, 2))
    for j, (found, counts) in completed(instance_levels, jobs, workers, scheduler):
        levels[j], sizes[j] = found, counts
    rows = []
    for r, (name, _, _) in enumerate(READINGS):
        counts = levels[:, r, 3] > 0
        counted, n = levels[counts, r, :3], int(counts.sum())
        mean = counted.mean(axis=0) if n else np.full(3, np.nan)
        se = counted.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(3, np.nan)
        rows.append({"panel": panel.name, "reading": name, "trees": n,
                     "random_pick": mean[0], "random_pick_se": se[0],
                     "flat_outcome": mean[1], "flat_outcome_se": se[1],
                     "flat_score": mean[2], "flat_score_se": se[2]})
    return rows, sizes


def paper_levels(paper, panel: str) -> tuple[float, float]:
    """The paper's two levels on ``panel`` as read from its Fig. 2 (``paper_values``):
    alpha-beta at one iteration (a random pick) and flat MC at its last drawn iteration."""
    curves = paper[(paper["panel"] == panel) & (paper["kind"] == "curve")]
    first = curves[(curves["method"] == "alphabeta") & (curves["iterations"] == 1)]
    flat = curves[curves["method"] == "flatmc"].sort_values("iterations")
    return (float(first["failure_rate"].iloc[0]) if len(first) else np.nan,
            float(flat["failure_rate"].iloc[-1]) if len(flat) else np.nan)


def readings_markdown(readings: list[dict], paper) -> str:
    """The report's section: per panel and reading the two levels (mean +- se over trees)
    beside the paper's, and the reading nearest the paper's (the least summed distance over
    both panels' levels, flat MC by the paper's summed score)."""
    lines = [("| panel | reading | trees | random pick | flat MC limit, outcome reward | "
             "flat MC limit, summed score | the paper's random pick | the paper's flat MC |"),
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    distance = dict.fromkeys([name for name, _, _ in READINGS], 0.0)
    for row in readings:
        pick, flat = paper_levels(paper, row["panel"])
        if not np.isnan(pick + flat):
            distance[row["reading"]] += (abs(row["random_pick"] - pick)
                                         + abs(row["flat_score"] - flat))
        cells = [f"{row[key]:.3f} ± {row[key + '_se']:.3f}"
                 for key in ("random_pick", "flat_outcome", "flat_score")]
        lines.append(f"| {row['panel']} | {row['reading']} | {row['trees']} | "
                     + " | ".join(cells) + f" | {pick:.3f} | {flat:.3f} |")
    table = "\n".join(lines)
    if not any(not np.isnan(sum(paper_levels(paper, row["panel"]))) for row in readings):
        return table + "\n\nThe paper draws no levels for these panels."
    nearest = min(distance, key=distance.get)
    return (table + f"\n\nNearest the paper's levels: **{nearest}** (summed distance "
            + ", ".join(f"{name} {value:.3f}" for name, value in distance.items()) + ").")
