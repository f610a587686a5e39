"""A backup rule of one's own: a win's reward shrinks by w per move between a node and the
terminal, a loss stays 0, a draw 1/2 (the discount of a reward in [0, 1], as a discount in
mctx acts on rewards of 0 and 1). Run it with
PYTHONPATH=examples mctslab failure-rate --tree "constant(1,3)+end(0.1)" --backup my_backup:rule"""

from typing import NamedTuple

from numba import njit

from mcts.core.backup import Backup


class ShrinkingWins(NamedTuple):
    w: float = 0.9  # the factor per move


@njit
def reward(rule, u, ply, end):
    """The reward the node at ``ply`` keeps of its mover's value ``u`` (1 a win, 1/2 a draw,
    0 a loss) for a playout ending at depth ``end``."""
    return u * rule.w ** (end - ply) if u == 1.0 else u


rule = Backup("shrinking_wins", ShrinkingWins, reward,
              description="a win is worth w^(moves to the terminal)")
