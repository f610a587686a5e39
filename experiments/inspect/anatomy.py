"""The anatomy of a curve's failures: of the runs that fail at budget t, which root
move they chose, what it is worth exactly, and how its subtree's win rate under uniform
playouts compares with the optimal move's (seed 001, Eq. 5's Delta, move by move): a wrong
move whose win rate is above the optimal one's is chosen by the bias of the playouts, one
below it for want of search.

The runs are the curve's own (``experiments.curves.failure``: same instances, seeds and
configuration), watched (``mcts.synthetic.trace_runs``) at the curve's budgets, so the failures
counted here are the curve's, budget by budget.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import pandas as pd

from mcts import tree_arrays
from trees import analyze, solve_minimax, win_rates_at

from ..curves.curve import Curve
from ..curves.failure import CHUNK_RUNS, tree_instance
from .traced import RunTrace, trace_block

COLUMNS = ("budget", "tree_index", "move", "failures", "runs", "share", "minimax", "outcome",
           "win_rate", "optimal_win_rate", "gap", "threshold", "win_rate_at_threshold",
           "optimal_win_rate_at_threshold", "visit_share", "failing_runs")
SHOWN_RUNS = 5  # the failing runs a row names; the rest are counted


def _moves_of(curve: Curve, tree_index: int, seed: int, grid: np.ndarray,
              tree_seed: int | None):
    """(chosen int64 [runs, budgets], effective threshold [runs, budgets], chosen move's share
    of the root's visits [runs, budgets]) of the curve's runs on one tree, in blocks of
    ``CHUNK_RUNS`` over numba's threads."""
    blocks = [(r, min(CHUNK_RUNS, curve.runs - r)) for r in range(0, curve.runs, CHUNK_RUNS)]

    def block(span):
        root = trace_block(curve, tree_index, span[0], span[1], seed, grid, tree_seed)
        visits = root.visits.astype(np.float64)
        picked = np.take_along_axis(visits, root.chosen[..., None], axis=2)[..., 0]
        with np.errstate(invalid="ignore"):
            return root.chosen, root.threshold, picked / visits.sum(axis=2)

    with ThreadPoolExecutor(min(numba.get_num_threads(), len(blocks))) as pool:
        parts = list(pool.map(block, blocks))
    return tuple(np.concatenate([part[i] for part in parts]) for i in range(3))


def failing_runs(indices: np.ndarray) -> str:
    """The first ``SHOWN_RUNS`` run indices, e.g. "3 17 42", and "+k" for the rest: each a
    ``mctslab inspect --run R`` (with ``--tree-index J``) that watches a failing run."""
    shown = " ".join(str(int(r)) for r in indices[:SHOWN_RUNS])
    return shown + (f" +{len(indices) - SHOWN_RUNS}" if len(indices) > SHOWN_RUNS else "")


def _mean_seen(values: np.ndarray) -> float:
    """The mean of the values that are not NaN (NaN if none: the root not yet expanded)."""
    seen = values[~np.isnan(values)]
    return float(seen.mean()) if seen.size else float("nan")


def failure_anatomy(curve: Curve, seed: int = 0, tree_seed: int | None = None) -> pd.DataFrame:
    """One row per budget, tree instance and wrong root move chosen by some failing run:
    ``COLUMNS``. failures: the runs failing with it (they add up to the curve's failures at
    every budget); runs: the runs on the instance; share: failures / the instance's failures
    at the budget; minimax: the move's exact score; outcome: its exact value at threshold 0
    (1, 1/2, 0 for max); win_rate and optimal_win_rate: mu of the move and the best optimal
    mu at threshold 0 (Eq. 5's terms), gap their difference (> 0: the move looks better than
    the optimal one); threshold: the failing runs' mean effective threshold at the budget,
    and the mean mu of the move and of the optimal ones at each run's threshold; visit_share:
    the mean share of the root's visits the move had; failing_runs: the indices of the first
    of those runs on the instance (:func:`failing_runs`). The trees are ``tree_seed``'s when given
    (a comparison cell's runs: ``seed`` its cell's seed, ``tree_seed`` its grid's), else
    ``seed``'s."""
    grid = np.asarray(curve.budgets, np.int64)
    rows = []
    for j in range(curve.trees):
        instance = tree_instance(curve.tree, curve.branching, curve.depth,
                                 seed if tree_seed is None else tree_seed, j)
        analysis, minimax = analyze(instance), solve_minimax(instance)
        optimal = np.asarray(tree_arrays(instance, curve.failure).correct, bool)
        chosen, threshold, visit_share = _moves_of(curve, j, seed, grid, tree_seed)
        at_zero = win_rates_at(analysis.support, analysis.pmf, np.array([0.0]))[:, 0]
        best_optimal = at_zero[optimal].max()
        outcome = minimax.outcome(0.0)[1:1 + curve.branching]
        for k, budget in enumerate(grid):
            wrong = ~optimal[chosen[:, k]]
            if not wrong.any():
                continue
            for move in np.unique(chosen[wrong, k]):
                runs = wrong & (chosen[:, k] == move)
                thetas = threshold[runs, k]
                rates = win_rates_at(analysis.support, analysis.pmf, thetas)
                rows.append((int(budget), j, int(move), int(runs.sum()), curve.runs,
                             runs.sum() / wrong.sum(), int(minimax.root_children[move]),
                             float(outcome[move]), float(at_zero[move]), float(best_optimal),
                             float(at_zero[move] - best_optimal), float(thetas.mean()),
                             float(rates[move].mean()), float(rates[optimal].max(axis=0).mean()),
                             _mean_seen(visit_share[runs, k]),
                             failing_runs(np.flatnonzero(runs))))
    return pd.DataFrame(rows, columns=list(COLUMNS))


TIE = 0.01  # a gap of uniform-playout win rates within this is "about 0"


def failure_reason(traced: RunTrace) -> str:
    """Why the watched run plays what it plays at its last playout, in a sentence, from the
    exact analysis of its instance (seed 001, Eq. 5): its move's win rate under uniform
    playouts at the run's effective threshold against the best optimal move's. Above it, the
    playouts' bias draws the search to the wrong move; within ``TIE`` of it, the search cannot
    tell them apart; below it, the search was too short. Each names the static threshold,
    where the optimal move leads most (the oracle ``--adjuster static``; MaxFrequency seeks
    it)."""
    move, threshold = int(traced.root.chosen[-1]), float(traced.root.threshold[-1])
    optimal = np.asarray(tree_arrays(traced.instance, traced.curve.failure).correct, bool)
    played = int(traced.root.played[-1])
    if optimal[move]:
        return (f"After {played} playouts the run plays move {move}, an optimal move: it "
                "does not fail.")
    analysis = analyze(traced.instance)
    rates = win_rates_at(analysis.support, analysis.pmf, np.array([threshold]))[:, 0]
    wrong, best = float(rates[move]), float(rates[optimal].max())
    gap = wrong - best
    static = (f"at the static threshold {analysis.static_threshold:g} the optimal move leads "
              f"by {analysis.delta.max():.3f} (--adjuster static, the oracle; maxfreq seeks it)")
    said = (f"After {played} playouts the run plays move {move}, not an optimal move "
            f"({', '.join(map(str, np.flatnonzero(optimal)))}): at its threshold {threshold:g}, "
            f"uniform playouts from move {move} win {wrong:.3f} against {best:.3f} from the best "
            "optimal move, ")
    if gap > TIE:
        return said + f"so the playouts' bias draws the search to it; {static}."
    if gap >= -TIE:
        return said + f"a gap of about 0 that the search cannot tell apart; {static}."
    return (said + f"so the optimal move leads by {-gap:.3f} there and the run was too short "
            f"to see it: more playouts, or more exploration ({static}).")


# the columns of the anatomy the page shows (the CSV keeps them all)
PAGE_COLUMNS = ("budget", "tree_index", "move", "failures", "share", "minimax", "outcome", "gap",
                "threshold", "gap_at_threshold", "visit_share", "failing_runs")


def page_table(table: pd.DataFrame) -> pd.DataFrame:
    """The anatomy as the page shows it, narrow enough not to scroll: ``PAGE_COLUMNS``, the gap
    at the failing runs' threshold their win rates' difference."""
    gap = table["win_rate_at_threshold"] - table["optimal_win_rate_at_threshold"]
    return table.assign(gap_at_threshold=gap)[list(PAGE_COLUMNS)]
