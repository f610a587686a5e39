"""A tree model of your own: seed 001's Constant(a,a) (one optimal move of value 0 per node,
suboptimal max moves -a, min moves +a) whose moves from ply 2 on each end the game with
probability 1/8. Run it with
PYTHONPATH=examples mctslab analyze "my_tree:model(3)" --depth 6"""

import numpy as np

from trees import Model


def fill(tree, rng, a):
    """Fill every node's edge value and terminal flag at once (heap order: the children of
    node n are n*b+1 .. n*b+b)."""
    if a < 1:
        raise ValueError(f"a = {a} must be at least 1")
    b, ply = tree.branching, tree.ply
    tree.edge_value[1:] = np.where(ply[1:] % 2 == 1, -a, a)  # max moves lead to odd plies
    parents = np.arange(tree.level(tree.depth).start)  # every node above the last ply
    tree.edge_value[parents * b + 1 + rng.integers(b, size=parents.size)] = 0  # optimal
    tree.terminal |= (ply >= 2) & (rng.random(ply.size) < 1 / 8)


model = Model(fill, params={"a": 1}, description="Constant(a,a), ending early from ply 2",
              citation="docs/extending.md")
