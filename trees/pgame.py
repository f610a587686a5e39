"""The P-game of Kocsis & Szepesvari (2006, Sect. 4): a random leaf-sum minimax tree.

In a uniform tree of branching b and depth d, every max move (from an even ply) adds and every
min move subtracts an independent uniform integer in [0, m]; a leaf's score is the sum along
its path, a win for max when > 0, a draw at 0 (threshold 0, DESIGN.md §2). Unlike seed 001's
models, no move is optimal by construction: the root's value and its optimal moves (a set,
ties allowed) come from minimax (``trees.minimax``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .instance import TreeInstance, uniform_terminals
from .layout import check_shape, level_start, node_count

MAX_PGAME_M = 2**20


@dataclass(frozen=True)
class PGameSpec:
    """``pgame(m)``: move values uniform in [0, m] (Kocsis & Szepesvari use m = 127)."""

    m: int = 127
    model: ClassVar[str] = "pgame"

    def __post_init__(self) -> None:
        if not 1 <= self.m <= MAX_PGAME_M:
            raise ValueError(f"bad tree spec {self.text}: pgame(m) needs 1 <= m <= {MAX_PGAME_M}")

    @property
    def text(self) -> str:
        return f"pgame({self.m})"

    def __str__(self) -> str:
        return self.text


def pgame_edge_values(m: int, branching: int, depth: int,
                      rng: np.random.Generator) -> np.ndarray:
    """int32 [n_nodes]: the move into a node of ply l + 1 is +U{0..m} when l is even (max
    moves), -U{0..m} when l is odd (min moves), drawn level by level in heap order."""
    edge_value = np.zeros(node_count(branching, depth), dtype=np.int32)
    for ply in range(depth):
        start, stop = level_start(branching, ply + 1), level_start(branching, ply + 2)
        sign = 1 if ply % 2 == 0 else -1
        edge_value[start:stop] = sign * rng.integers(0, m + 1, size=stop - start)
    return edge_value


def pgame(m: int | PGameSpec = 127, branching: int = 4, depth: int = 8,
          seed: int = 0) -> TreeInstance:
    """Draw the P-game ``pgame(m)`` of shape (b, d) from ``np.random.default_rng(seed)``."""
    spec = m if isinstance(m, PGameSpec) else PGameSpec(int(m))
    check_shape(branching, depth)
    if seed < 0:
        raise ValueError(f"tree seed {seed} is negative: use a seed >= 0")
    rng = np.random.default_rng(seed)
    return TreeInstance(spec, branching, depth, seed,
                        pgame_edge_values(spec.m, branching, depth, rng),
                        uniform_terminals(branching, depth))
