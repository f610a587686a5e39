"""Exact minimax over a stored tree, vectorised bottom-up over the heap levels.

``value[n]`` is the terminal score reached from node n when both players play perfectly for
the score (max at even plies maximises, min at odd plies minimises), the path from the root
included; a terminal's value is its score, so ``value[0]`` is the game's minimax score.
Against a threshold theta the max player's outcome is 1 if the score is > theta, 0.5 if equal,
0 if below (DESIGN.md §2); it is monotone in the score, so the minimax outcome of a node is the
outcome of its minimax score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .layout import level_start


@dataclass(frozen=True, eq=False)
class Minimax:
    """Minimax values of every node of one tree, and its optimal root moves."""

    branching: int
    depth: int
    value: np.ndarray  # int64 [n_nodes]; minimax terminal score below node n

    def outcome(self, theta: float = 0.0) -> np.ndarray:
        """float64 [n_nodes]: the max player's minimax outcome at n against ``theta``."""
        return np.where(self.value > theta, 1.0, np.where(self.value == theta, 0.5, 0.0))

    @property
    def root_children(self) -> np.ndarray:
        """int64 [b]: the minimax scores of the root's moves."""
        return self.value[1 : 1 + self.branching]

    def optimal_moves(self, theta: float = 0.0) -> np.ndarray:
        """int64 [k >= 1]: the root moves whose outcome against ``theta`` equals the root's
        (every move that keeps the game-theoretic value; ties allowed)."""
        outcome = self.outcome(theta)
        return np.flatnonzero(outcome[1 : 1 + self.branching] == outcome[0])

    def best_moves(self) -> np.ndarray:
        """int64 [k >= 1]: the root moves whose minimax score equals the root's."""
        return np.flatnonzero(self.root_children == self.value[0])


def solve_minimax(tree) -> Minimax:
    """Minimax of a tree with ``branching``, ``depth``, ``path_score`` and ``terminal``
    [n_nodes] in heap order (a ``TreeInstance``): terminals take their path score, and every
    other node the max (even ply) or min (odd ply) over its row of b children. Values of
    nodes below a terminal are computed too but never read."""
    b, d = tree.branching, tree.depth
    value = np.asarray(tree.path_score, dtype=np.int64).copy()
    for ply in range(d - 1, -1, -1):
        start, stop = level_start(b, ply), level_start(b, ply + 1)
        children = value[stop : level_start(b, ply + 2)].reshape(stop - start, b)
        best = children.max(axis=1) if ply % 2 == 0 else children.min(axis=1)
        value[start:stop] = np.where(tree.terminal[start:stop], value[start:stop], best)
    return Minimax(b, d, value)
