"""The reward scale a policy's index reads, the one place every engine asks it (DESIGN.md §4):
by default rewards mapped onto [0, 1]; a record declaring ``raw_rewards = True`` (UCB1, whose
c is set for the outcome's own scale) reads them as they are: a tree's win 1 and loss 0 with
shaped rewards beyond them (``mcts.synthetic.shaping``), a game's [-1, 1] (``mcts.games``), its c
the game's C (``mcts.players``; halved for the generic engine's [0, 1] returns, ``mcts.generic``).
"""

from __future__ import annotations

from numba.extending import overload

from bandits import has_trait


def reads_raw_rewards(policy) -> bool:
    """Whether ``policy`` (a record, or a record class) reads rewards on the outcome's own
    scale; in compiled code a constant of the record's type."""
    return has_trait(policy if isinstance(policy, type) else type(policy), "raw_rewards")


@overload(reads_raw_rewards, jit_options={"cache": True})
def _reads_raw_rewards(policy):
    answer = has_trait(policy.instance_class, "raw_rewards")
    return lambda policy: answer
