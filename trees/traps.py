"""Shallow search traps (Ramanujan, Sabharwal & Selman 2010, Sect. 3) on any stored tree.

A level-k trap for the player P to move at node n is a move after which the opponent O has a
winning strategy of at most k plies (k odd: O moves k // 2 + 1 times). Here each move that is
strictly suboptimal for its mover (its minimax outcome at threshold 0 is worse than the node's)
becomes such a trap with probability p: below it O has one winning move, and after each of
P's b replies O again has one, the last ending the game with score +1 (O = max) or -1
(O = min), the smallest win. Traps are placed top-down and never inside another trap or below
a terminal, so a trap leaves every node's value outside its own subtree unchanged: the root's
optimal moves stay those of the base tree. A trap must end by ply d.
"""

from __future__ import annotations

import numpy as np

from .instance import TreeInstance
from .layout import level_start


def check_trap(k: int, p: float) -> None:
    """One-line ValueError unless k is a positive odd level and p a probability."""
    if k < 1 or k % 2 == 0:
        raise ValueError(f"bad tree spec trap({k},{p:g}): the level k is odd and >= 1 (the "
                         "opponent moves last), e.g. trap(3,0.2)")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"bad tree spec trap({k},{p:g}): p is a probability in [0, 1]")


def add_traps(instance: TreeInstance, rng: np.random.Generator, k: int,
              p: float) -> tuple[np.ndarray, np.ndarray]:
    """(edge_value, terminal) of ``instance`` with level-``k`` traps on a share ``p`` of the
    strictly suboptimal moves."""
    b, d = instance.branching, instance.depth
    edge_value, terminal = instance.edge_value.copy(), instance.terminal.copy()
    outcome = instance.minimax.outcome(0.0)
    path_score = instance.path_score.astype(np.int64)
    closed = ~instance.reachable  # nodes where no trap may start: unused or inside a trap
    for ply in range(d - k):  # a trap below ply l's move ends at ply l + 1 + k <= d
        parents = np.arange(level_start(b, ply), level_start(b, ply + 1))
        if ply:  # below a trap placed above
            closed[parents] |= closed[(parents - 1) // b]
        children = parents[:, None] * b + 1 + np.arange(b)
        worse = (outcome[children] < outcome[parents, None] if ply % 2 == 0
                 else outcome[children] > outcome[parents, None])
        open_parent = ~closed[parents] & ~terminal[parents]
        traps = children[open_parent[:, None] & worse & (rng.random(children.shape) < p)]
        _build_traps(traps, k, ply + 1, edge_value, terminal, path_score, b, rng)
        closed[traps] = True
    return edge_value, terminal


def _build_traps(nodes, k, ply, edge_value, terminal, path_score, b, rng) -> None:
    """Below each of ``nodes`` (ply ``ply``, O to move) one winning move for O, all b replies
    of P and again one winning move, until O's last move ends the game ``k`` plies below."""
    o_is_max = ply % 2 == 0
    frontier = nodes
    for step in range(k // 2 + 1):
        wins = frontier * b + 1 + rng.integers(b, size=frontier.size)
        terminal[frontier] = False
        if step == k // 2:
            terminal[wins] = True
            edge_value[wins] = (1 if o_is_max else -1) - path_score[(wins - 1) // b]
            return
        terminal[wins] = False
        frontier = (wins[:, None] * b + 1 + np.arange(b)).ravel()
