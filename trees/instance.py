"""Tree instances as flat arrays, readable from compiled code (DESIGN.md §2).

Nodes are numbered in heap order: the root is 0 and child ``k`` (0-based) of node ``n`` is
``n * b + 1 + k``, so the nodes of ply ``l`` are contiguous from ``(b**l - 1) // (b - 1)``.
``edge_value[n]`` is the value of the move into node ``n``; a terminal's score is the sum of
the edge values on its path. The whole tree is stored, so ``b**d`` is bounded by
``MAX_NODES`` (about 33 million nodes: b=4 up to d=12, b=2 up to d=24).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .spec import TreeSpec

MAX_NODES = 2**25


def node_count(branching: int, depth: int) -> int:
    """Number of nodes of a uniform tree, ``(b**(d+1) - 1) / (b - 1)``."""
    return (branching ** (depth + 1) - 1) // (branching - 1)


def level_start(branching: int, ply: int) -> int:
    """Heap index of the first node at ``ply``."""
    return (branching**ply - 1) // (branching - 1)


def path_sums(edge_value: np.ndarray, branching: int, depth: int) -> np.ndarray:
    """[n_nodes]: the sum of the edge values from the root to node n, in the narrowest signed
    integer type that holds every sum (int8 for seed 001's trees, whose 64K leaves then take
    64 KB), so the playouts' random reads stay in the core's cache."""
    score = edge_value.astype(np.int64)
    for ply in range(1, depth + 1):
        start, stop = level_start(branching, ply), level_start(branching, ply + 1)
        score[start:stop] += score[(np.arange(start, stop) - 1) // branching]
    low, high = score.min(), score.max()
    narrowest = next(t for t in (np.int8, np.int16, np.int32, np.int64)
                     if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
    return score.astype(narrowest)


def check_shape(branching: int, depth: int) -> None:
    """Raise a one-line ValueError unless b >= 2, d is even and positive, and the tree fits."""
    if branching < 2:
        raise ValueError(f"branching factor {branching} is too small: use --branching 2 or more")
    if depth < 2 or depth % 2:
        raise ValueError(f"depth {depth} must be even and at least 2: use e.g. --depth 8")
    if node_count(branching, depth) > MAX_NODES:
        deepest = max(d for d in range(2, 64, 2) if node_count(branching, d) <= MAX_NODES)
        raise ValueError(
            f"depth {depth} with branching {branching} needs {node_count(branching, depth):,} "
            f"nodes, more than the {MAX_NODES:,} stored trees allow: use --depth {deepest} or less"
        )


@dataclass(frozen=True, eq=False)
class TreeInstance:
    """One seeded instance of a tree model. The max player moves at even plies."""

    spec: TreeSpec
    branching: int
    depth: int
    seed: int
    edge_value: np.ndarray  # int32 [n_nodes]; value of the move into node n (root: 0)
    optimal_child: np.ndarray  # int32 [n_internal]; index k of the optimal move at node n

    @property
    def optimal_move(self) -> int:
        """The optimal root move (its game-theoretic value is the root's, a draw at 0)."""
        return int(self.optimal_child[0])

    @property
    def n_nodes(self) -> int:
        return self.edge_value.shape[0]

    @property
    def nbytes(self) -> int:
        """Bytes of its arrays, ``path_score`` included (built here if not yet): 0.5 MB for
        b=4, d=8; up to 335 MB for b=2, d=24."""
        return self.edge_value.nbytes + self.path_score.nbytes + self.optimal_child.nbytes

    @cached_property
    def path_score(self) -> np.ndarray:
        """[n_nodes]: ``path_sums`` of the edge values, so a terminal's score at the leaves
        (what the compiled search reads, one load per playout)."""
        return path_sums(self.edge_value, self.branching, self.depth)

    def leaf_scores(self) -> np.ndarray:
        """Terminal scores of all ``b**d`` leaves in heap order: int64 [b**d]."""
        return self.path_score[level_start(self.branching, self.depth) :].astype(np.int64)


def seed001_tree(spec: TreeSpec, branching: int, depth: int, seed: int) -> TreeInstance:
    """Draw an instance of a seed 001 model: per internal node the optimal child's position
    uniformly, and for random trees each suboptimal value uniformly in its range (seed 001,
    Sect. III). The shape and seed are checked by ``trees.make_tree``."""
    rng = np.random.default_rng(seed)
    n_internal = node_count(branching, depth - 1)
    optimal_child = rng.integers(branching, size=n_internal).astype(np.int32)
    edge_value = np.zeros(node_count(branching, depth), dtype=np.int32)
    for ply in range(depth):
        parents = np.arange(level_start(branching, ply), level_start(branching, ply + 1))
        if spec.model == "random":
            low, high = spec.suboptimal_range(ply)
            values = rng.integers(low, high + 1, size=(parents.size, branching))
        else:
            values = np.full((parents.size, branching), spec.suboptimal_value(ply, depth))
        values[np.arange(parents.size), optimal_child[parents]] = 0
        edge_value[parents[0] * branching + 1 : parents[-1] * branching + 1 + branching] = (
            values.ravel()
        )
    return TreeInstance(spec, branching, depth, seed, edge_value, optimal_child)
