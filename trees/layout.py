"""The heap layout of a stored uniform tree (DESIGN.md §2, §10).

Nodes are numbered in heap order: the root is 0 and child ``k`` (0-based) of node ``n`` is
``n * b + 1 + k``, so the nodes of ply ``l`` are contiguous from ``(b**l - 1) // (b - 1)`` and
the subtree of a node is contiguous within each ply. The whole tree is stored, so ``b**d`` is
bounded by ``MAX_NODES`` (about 33 million nodes: b=4 up to d=12, b=2 up to d=24).
"""

from __future__ import annotations

import numpy as np

MAX_NODES = 2**25


def node_count(branching: int, depth: int) -> int:
    """Number of nodes of a uniform tree, ``(b**(d+1) - 1) / (b - 1)``."""
    return (branching ** (depth + 1) - 1) // (branching - 1)


def level_start(branching: int, ply: int) -> int:
    """Heap index of the first node at ``ply``."""
    return (branching**ply - 1) // (branching - 1)


def ply_of(nodes: np.ndarray, branching: int, depth: int) -> np.ndarray:
    """int64 [k]: the ply of each node."""
    starts = [level_start(branching, ply) for ply in range(depth + 1)]
    return np.searchsorted(starts, nodes, side="right") - 1


def root_move_of(nodes: np.ndarray, branching: int, depth: int) -> np.ndarray:
    """int64 [k]: the root move above each node (ply >= 1): a ply-l node's index within its
    level, divided by the b**(l-1) nodes of one root move's subtree at that ply."""
    ply = ply_of(nodes, branching, depth)
    starts = (branching**ply - 1) // (branching - 1)
    return (nodes - starts) // branching ** (ply - 1)


def path_sums(edge_value: np.ndarray, branching: int, depth: int) -> np.ndarray:
    """[n_nodes]: the sum of the edge values from the root to node n, in the narrowest signed
    integer type of at least 16 bits that holds every sum: narrow, so the playouts' random
    reads stay in the core's cache (b=4, d=8: 175 KB), and int16 for seed 001's trees and
    pgame(127) alike, since the search compiles a kernel per score type."""
    score = edge_value.astype(np.int64)
    for ply in range(1, depth + 1):
        start, stop = level_start(branching, ply), level_start(branching, ply + 1)
        score[start:stop] += score[(np.arange(start, stop) - 1) // branching]
    low, high = score.min(), score.max()
    narrowest = next(t for t in (np.int16, np.int32, np.int64)
                     if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
    return score.astype(narrowest)


def reachable_nodes(terminal: np.ndarray, branching: int, depth: int) -> np.ndarray:
    """bool [n_nodes]: the nodes no proper ancestor of which ends the game."""
    reachable = np.ones(terminal.shape[0], dtype=bool)
    for ply in range(1, depth + 1):
        start, stop = level_start(branching, ply), level_start(branching, ply + 1)
        parent = (np.arange(start, stop) - 1) // branching
        reachable[start:stop] = reachable[parent] & ~terminal[parent]
    return reachable


def check_shape(branching: int, depth: int) -> None:
    """Raise a one-line ValueError unless b >= 2, d is even and positive, and the tree fits."""
    if branching < 2:
        raise ValueError(f"branching factor {branching} is too small: use --branching 2 or more")
    if depth < 2 or depth % 2:
        raise ValueError(f"depth {depth} must be even and at least 2: use e.g. --depth 8")
    if node_count(branching, depth) > MAX_NODES:
        shallower = [d for d in range(2, depth, 2) if node_count(branching, d) <= MAX_NODES]
        if shallower:
            advice = f"--depth {shallower[-1]}"
        elif _widest(depth) >= 2:
            advice = f"--branching {_widest(depth)}"
        else:
            advice = f"--depth 2 with --branching {_widest(2)}"
        raise ValueError(
            f"depth {depth} with branching {branching} needs {node_count(branching, depth):,} "
            f"nodes, more than the {MAX_NODES:,} stored trees allow: use {advice} or less"
        )


def _widest(depth: int) -> int:
    """The largest branching factor whose tree of ``depth`` is stored (1: none is)."""
    branching = 1
    while node_count(branching + 1, depth) <= MAX_NODES:
        branching += 1
    return branching
