"""MCTS-Solver with draws (Winands, Bjornsson & Saito 2008), one for every engine (DESIGN.md §3,
docs/design.md "The solver").

A node's proven value is from the view of the player who moved into it. The engines give the
solver their tree as the ``proven`` flags (int8 [nodes]), each node's first child
(``first_child``: int [nodes], a column of the engine's tree) and its number of children
(``count``: int [nodes], or one int b for a tree of uniform branching); a node's children are
consecutive rows.

- A terminal reached in the search tree is proven with its true outcome (``prove``).
- A node is a proven loss for its mover as soon as one child is a proven win for that child's
  mover; once all its children are proven, it takes the negation of the best of them. Values
  propagate up the path to the root, the root included, and stop at the first node that stays
  unproven or was proven before (a proven value is exact: it cannot change).
- Selection takes a child proven won (uniformly at random among them), skips the children
  proven lost unless all are, and takes the only child not proven lost without indexing it
  (``solver_choice``).
- A search stops once its root is proven: no playout can change the root's value or which
  moves are proven.
- The final move (``final_move``) is the first root child proven won; else the most visited
  root child not proven lost (any child if all are), ties uniformly at random; another rule's
  ranking of the children takes the same exceptions (``preferred_child``,
  ``mcts.core.final_move``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from bandits.indexing import ix
from bandits.ties import pick_best

UNPROVEN, WIN, DRAW, LOSS = 0, 1, 2, 3  # proven values, from the view of the node's mover
NO_CHILD = -1


def children_of(count, node):
    """The number of children of ``node``: ``count[node]``, or ``count`` itself for a uniform
    branching factor (compiled code only)."""
    raise NotImplementedError("children_of runs inside compiled kernels only")


# inlined in numba's IR: per node of a proof; a constant b compiles to itself
@overload(children_of, inline="always", jit_options={"cache": True})
def _children_of(count, node):
    if isinstance(count, types.Integer):
        return lambda count, node: count
    return lambda count, node: count[node]


@njit(inline="always")  # per node of a proof
def value_from_children(proven, first, count):
    """The proven value of a node for its mover from those of its ``count`` children from row
    ``first``: LOSS if one is WIN, else UNPROVEN while one is unproven, else the negation of
    the best of them (WIN if all are LOSS, else DRAW)."""
    best = LOSS
    for child in range(first, first + count):
        value = proven[ix(child)]
        if value == WIN:
            return LOSS
        if value == UNPROVEN:
            best = UNPROVEN
        elif value == DRAW and best == LOSS:
            best = DRAW
    if best == UNPROVEN:
        return UNPROVEN
    return WIN if best == LOSS else DRAW


@njit(inline="always")  # per playout that reaches a terminal
def prove(proven, path, depth, leaf_value, first_child, count):
    """Prove the terminal ``path[depth]`` at ``leaf_value`` and propagate up to the root
    (``path[0]``) while values become known (module docstring)."""
    proven[path[depth]] = leaf_value
    for ply in range(depth - 1, -1, -1):
        node = path[ply]
        if proven[node] != UNPROVEN:
            return
        value = value_from_children(proven, first_child[node], children_of(count, node))
        if value == UNPROVEN:
            return
        proven[node] = value


@njit(inline="always")  # per selection
def solver_choice(proven, first, count, rng):
    """The solver's part of a selection among ``count`` children from row ``first``: a child
    proven won (uniformly at random among them, ``bandits.ties.pick_best``) or NO_CHILD; the
    number of children proven lost; and a child not proven lost (the only one when
    ``count - 1`` are lost)."""
    wins, losses, open_child = 0, 0, NO_CHILD
    for child in range(first, first + count):
        value = proven[ix(child)]
        if value == WIN:
            wins += 1
        elif value == LOSS:
            losses += 1
        else:
            open_child = child
    pick = pick_best(proven, first, count, WIN, rng) if wins > 0 else NO_CHILD
    return pick, losses, open_child


@njit  # once per search: a call
def final_move(proven, visits, first, count, rng, scratch):
    """The move played (its offset among the root's ``count`` children from row ``first``):
    the first child proven won; else the most visited (``visits``: [nodes]) not proven lost,
    or of all children if every one is lost; ties uniformly at random (``bandits.ties``).
    ``scratch`` (float64 [count] or more) takes the candidates' visits."""
    for k in range(count):
        scratch[k] = visits[first + k]
    return preferred_child(proven, first, count, rng, scratch)


@njit  # once per search or recorded budget: a call
def preferred_child(proven, first, count, rng, keys):
    """The offset of the root child played by a rule that ranks the ``count`` children from
    row ``first`` by ``keys`` (float64 [count] or more, finite or +inf; overwritten): the
    first child proven won; else the highest key among the children not proven lost, or of
    all children if every one is lost; ties uniformly at random (``bandits.ties``)."""
    lost = 0
    for k in range(count):
        if proven[first + k] == WIN:
            return k
        lost += proven[first + k] == LOSS
    best = -np.inf
    for k in range(count):
        if lost < count and proven[first + k] == LOSS:
            keys[k] = -np.inf
        best = max(best, keys[k])
    return pick_best(keys, 0, count, best, rng)
