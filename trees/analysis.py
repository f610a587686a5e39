"""Exact threshold analysis of a tree instance, no sampling (seed 001, Sect. IV-A, Eq. 5).

For each root move i, the distribution of terminal scores reached by a uniformly random playout
that starts with move i; the max player's win rate
    mu_i(theta) = P(S_i > theta) + 0.5 * P(S_i = theta);
the gap Delta(theta) = max_{i in O} mu_i - max_{i not in O} mu_i over the set O of optimal root
moves (seed 001's one optimal move *: mu_* - max_{i != *} mu_i); and the Static threshold
argmax Delta (ties: the one nearest 0, then the lower). When every root move is optimal no run
can fail: Delta is undefined (NaN) and the Static threshold is 0. Beside the optimal moves it
gives the root moves of best minimax score (``best_score_moves``, a subset of them), the set
Kocsis & Szepesvari (2006) count a failure against, for every tree model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .instance import TreeInstance
from .spec import TreeSpec


@dataclass(frozen=True, eq=False)
class ThresholdAnalysis:
    tree: str
    branching: int
    depth: int
    tree_seed: int
    optimal_moves: np.ndarray  # int64 [k >= 1]; the optimal root moves
    best_score_moves: np.ndarray  # int64 [k >= 1]; the root moves of best minimax score
    support: np.ndarray  # int64 [n_scores]; every integer from the lowest to the highest score
    pmf: np.ndarray  # float64 [b, n_scores]; P(S_i = support[j])
    thresholds: np.ndarray  # float64 [n_thresholds]; integers and half-integers
    win_rates: np.ndarray  # float64 [b, n_thresholds]; mu_i(theta)

    @property
    def optimal_move(self) -> int:
        """The first optimal root move (seed 001's trees have exactly one)."""
        return int(self.optimal_moves[0])

    @property
    def win_rate_optimal(self) -> np.ndarray:
        """Best win rate among the optimal root moves, per threshold."""
        return self.win_rates[self.optimal_moves].max(axis=0)

    @property
    def win_rate_suboptimal(self) -> np.ndarray:
        """Best win rate among the other root moves, per threshold (NaN if there are none)."""
        others = np.delete(self.win_rates, self.optimal_moves, axis=0)
        return others.max(axis=0) if others.size else np.full(self.thresholds.size, np.nan)

    @property
    def delta(self) -> np.ndarray:
        return self.win_rate_optimal - self.win_rate_suboptimal

    @property
    def static_threshold(self) -> float:
        """argmax_theta Delta(theta); ties go to the threshold nearest 0, then the lower one."""
        delta = self.delta
        if np.isnan(delta).all():
            return 0.0
        best = np.flatnonzero(np.isclose(delta, delta.max(), rtol=0.0, atol=1e-12))
        candidates = self.thresholds[best]
        return float(candidates[np.lexsort((candidates, np.abs(candidates)))[0]])

    def win_rate(self, move: int, theta: float) -> float:
        """mu_move(theta) for any threshold, including ones off the grid."""
        return float(win_rates_at(self.support, self.pmf[move : move + 1], np.array([theta]))[0, 0])

    def to_json(self) -> dict:
        return {
            "tree": self.tree,
            "branching": self.branching,
            "depth": self.depth,
            "tree_seed": self.tree_seed,
            "optimal_move": self.optimal_move,
            "optimal_moves": self.optimal_moves.tolist(),
            "best_score_moves": self.best_score_moves.tolist(),
            "thresholds": self.thresholds.tolist(),
            "win_rate_optimal": self.win_rate_optimal.tolist(),
            "win_rate_suboptimal": _nan_to_none(self.win_rate_suboptimal),
            "delta": _nan_to_none(self.delta),
            "static_threshold": self.static_threshold,
        }


def _nan_to_none(values: np.ndarray) -> list:
    return [None if np.isnan(value) else value for value in values.tolist()]


def win_rates_at(support: np.ndarray, pmf: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """mu(theta) = P(S > theta) + 0.5 P(S = theta) for pmf [m, n_scores] on consecutive integer
    ``support``; returns [m, n_thresholds]."""
    cdf = np.concatenate([np.zeros((pmf.shape[0], 1)), np.cumsum(pmf, axis=1)], axis=1)
    below_or_at = np.clip(np.floor(thresholds) - support[0] + 1, 0, support.size).astype(np.int64)
    p_at_most = cdf[:, below_or_at]
    is_integer = thresholds == np.floor(thresholds)
    at = np.clip(thresholds - support[0], 0, support.size - 1).astype(np.int64)
    inside = is_integer & (thresholds >= support[0]) & (thresholds <= support[-1])
    p_equal = np.where(inside, pmf[:, at], 0.0)
    return 1.0 - p_at_most + 0.5 * p_equal


def enumerated_pmf(instance: TreeInstance) -> tuple[np.ndarray, np.ndarray]:
    """(support, pmf [b, n_scores]) by enumerating every reachable terminal: under uniform
    playouts a terminal at ply l below root move i has probability b**-(l-1)
    (``TreeInstance.terminals``), summed in integers so that the pmf is exact up to one
    division."""
    nodes, move, weight = instance.terminals()
    scores = instance.path_score[nodes].astype(np.int64)
    low, high = int(scores.min()), int(scores.max())
    counts = np.zeros((instance.branching, high - low + 1), dtype=np.int64)
    np.add.at(counts, (move, scores - low), weight)
    return np.arange(low, high + 1), counts / instance.branching ** (instance.depth - 1)


def convolved_pmf(spec: TreeSpec, branching: int, depth: int, optimal_move: int):
    """(support, pmf [b, n_scores]) of a constant tree by convolution: below the root move the
    score adds one independent step per ply, 0 w.p. 1/b and the suboptimal value otherwise."""
    low, pmf = 0, np.ones(1)
    for ply in range(1, depth):
        value = spec.suboptimal_value(ply, depth)
        step = np.zeros(abs(value) + 1)
        step[0 if value > 0 else -1] += 1.0 / branching
        step[-1 if value > 0 else 0] += (branching - 1) / branching
        pmf = np.convolve(pmf, step)
        low += min(value, 0)
    root_value = spec.suboptimal_value(0, depth)
    support = np.arange(low + root_value, low + pmf.size)
    rows = np.zeros((branching, support.size))
    for move in range(branching):
        shift = 0 if move == optimal_move else root_value
        rows[move, shift - root_value : shift - root_value + pmf.size] = pmf
    return support, rows


def threshold_analysis(instance: TreeInstance, support: np.ndarray,
                       pmf: np.ndarray) -> ThresholdAnalysis:
    """The analysis of ``instance`` from its root moves' exact score pmf [b, n_scores] on the
    consecutive integer ``support``, at every integer and half-integer threshold."""
    thresholds = np.arange(2 * support[0] - 1, 2 * support[-1] + 2) / 2.0
    return ThresholdAnalysis(
        tree=instance.spec.text,
        branching=instance.branching,
        depth=instance.depth,
        tree_seed=instance.seed,
        optimal_moves=instance.optimal_moves,
        best_score_moves=np.flatnonzero(instance.best_score),
        support=support,
        pmf=pmf,
        thresholds=thresholds,
        win_rates=win_rates_at(support, pmf, thresholds),
    )

