"""Tree instances as flat arrays in heap order (``trees.layout``), readable from compiled code
(DESIGN.md §2, §10).

``edge_value[n]`` is the value of the move into node ``n`` and ``terminal[n]`` says whether the
game ends at n; a terminal's score is the sum of the edge values on its path. Every node at
ply d ends the game, and nodes below a terminal are unused. The max player moves at even
plies. The optimal root moves come from exact minimax (``trees.minimax``): every move whose
outcome against threshold 0 equals the root's, so ties are allowed and a run fails when it
picks a move outside the set; the moves of best minimax score (``best_score``) are the other
set a failure may be counted against (``mcts.synthetic.tree_arrays``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .layout import level_start, node_count, path_sums, ply_of, reachable_nodes, root_move_of
from .minimax import Minimax, solve_minimax
from .spec import TreeSpec

# |score| of every terminal stays below this, so sums of scores and thresholds stay exact
MAX_SCORE = 2**30


@dataclass(frozen=True, eq=False)
class TreeInstance:
    """One seeded instance of a tree model; ``spec`` has the model's ``model`` and ``text``.
    The arrays are checked on construction (a one-line ValueError names what is wrong)."""

    spec: object
    branching: int
    depth: int
    seed: int
    edge_value: np.ndarray  # int32 [n_nodes]; value of the move into node n (root: 0)
    terminal: np.ndarray  # bool [n_nodes]; the game ends at node n
    optimal_child: np.ndarray | None = None  # seed 001: int32 [n_internal], the optimal move
    # set from the arrays on construction, by their check:
    # ``path_sums`` of the edge values, so a terminal's score at the node (what the compiled
    # search reads, one load per playout), in the narrowest integer type of 16 bits or more
    path_score: np.ndarray = field(init=False, repr=False)
    reachable: np.ndarray = field(init=False, repr=False)  # bool; no terminal lies above

    def __post_init__(self) -> None:
        path_score, reachable = check_arrays(self.edge_value, self.terminal, self.branching,
                                             self.depth)
        object.__setattr__(self, "path_score", path_score)
        object.__setattr__(self, "reachable", reachable)

    @property
    def n_nodes(self) -> int:
        return self.edge_value.shape[0]

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays the search reads, ``path_score`` included: 0.6 MB for b=4,
        d=8; up to 370 MB for b=2, d=24."""
        extra = 0 if self.optimal_child is None else self.optimal_child.nbytes
        return self.edge_value.nbytes + self.terminal.nbytes + self.path_score.nbytes + extra

    @cached_property
    def minimax(self) -> Minimax:
        return solve_minimax(self)

    @cached_property
    def optimal(self) -> np.ndarray:
        """bool [b]: the root moves that keep the root's minimax outcome at threshold 0."""
        optimal = np.zeros(self.branching, dtype=bool)
        optimal[self.minimax.optimal_moves(0.0)] = True
        return optimal

    @cached_property
    def best_score(self) -> np.ndarray:
        """bool [b]: the root moves whose minimax score is the root's (Kocsis & Szepesvari
        2006's correct moves; a subset of ``optimal``)."""
        best = np.zeros(self.branching, dtype=bool)
        best[self.minimax.best_moves()] = True
        return best

    @property
    def optimal_moves(self) -> np.ndarray:
        """int64 [k >= 1]: the optimal root moves, in order."""
        return np.flatnonzero(self.optimal)

    @property
    def optimal_move(self) -> int:
        """The first optimal root move (seed 001's trees have exactly one)."""
        return int(self.optimal_moves[0])

    def terminals(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The reachable terminals below the root: (node, root move above it, weight), int64
        [k] each; a uniformly random playout from root move i ends at a terminal of ply l
        with probability b**-(l-1), here weight / b**(d-1) with weight = b**(d-l)."""
        nodes = np.flatnonzero(self.terminal & self.reachable)
        b, d = self.branching, self.depth
        return nodes, root_move_of(nodes, b, d), b ** (d - ply_of(nodes, b, d))


def check_arrays(edge_value: np.ndarray, terminal: np.ndarray, branching: int,
                 depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Raise a one-line ValueError unless the arrays describe a finite tree of this shape:
    one integer edge value and one terminal flag per node, the root not terminal, every
    reachable node at ply d terminal, and every terminal score within +-MAX_SCORE. Returns
    what the check computed: the path sums and the reachable nodes."""
    n_nodes = node_count(branching, depth)
    fix = "fill edge_value (integers) and terminal (bool) of shape [n_nodes]"
    if edge_value.shape != (n_nodes,) or terminal.shape != (n_nodes,):
        raise ValueError(f"tree arrays of shapes {edge_value.shape} and {terminal.shape} do not "
                         f"fit b={branching} d={depth} ({n_nodes} nodes): {fix}")
    if not np.issubdtype(edge_value.dtype, np.integer) or terminal.dtype != np.bool_:
        raise ValueError(f"tree arrays of types {edge_value.dtype} and {terminal.dtype}: {fix}")
    if terminal[0]:
        raise ValueError("the root is terminal: the game must last at least one move")
    reachable = reachable_nodes(terminal, branching, depth)
    last = slice(level_start(branching, depth), n_nodes)
    if not terminal[last][reachable[last]].all():
        raise ValueError(f"a path reaches ply {depth} without a terminal: mark every node of "
                         f"the last ply terminal")
    path_score = path_sums(edge_value, branching, depth)
    if np.abs(path_score[terminal & reachable].astype(np.int64)).max() >= MAX_SCORE:
        raise ValueError(f"a terminal score exceeds +-{MAX_SCORE}: use smaller edge values")
    return path_score, reachable


def uniform_terminals(branching: int, depth: int) -> np.ndarray:
    """bool [n_nodes]: every node of ply d terminal, no other."""
    terminal = np.zeros(node_count(branching, depth), dtype=bool)
    terminal[level_start(branching, depth) :] = True
    return terminal


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
    return TreeInstance(spec, branching, depth, seed, edge_value,
                        uniform_terminals(branching, depth), optimal_child)
