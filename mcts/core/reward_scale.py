"""The reward scale a policy's index reads, and every map onto it, in one place (DESIGN.md §4).

Every engine values an outcome as a signed reward r in [-R, R] for the player it is valued for
(R = 1 plain; with seed 000's bonuses ``mcts.core.rewards.bonus_bound``). A policy reads it

- on [0, 1] by default: p = (r + R) / (2R), clipped (``mcts.core.rewards.unit_mean``);
- on the outcome's own scale when its record declares ``raw_rewards = True`` (UCB1, whose c is
  set for that scale): the synthetic trees' [0, 1] (seed 001: a win 1, a loss 0, so
  (r + 1) / 2, bonuses beyond them unclipped) or the games' [-1, 1] (seed 000's UCT: r as it
  is, unclipped), its c the game's C (``mcts.players``), halved on OpenSpiel's returns, which
  the generic engine reads on [0, 1].

An engine names its outcome scale (``UNIT_OUTCOMES`` or ``SIGNED_OUTCOMES``); it does not map.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from bandits import has_trait

from .rewards import unit_mean

# an engine's outcome scale, the one a raw_rewards policy reads: [0, 1] or [-1, 1]
UNIT_OUTCOMES, SIGNED_OUTCOMES = True, False


def reads_raw_rewards(policy) -> bool:
    """Whether ``policy`` (a record, or a record class) reads rewards on the outcome's own
    scale; in compiled code a constant of the record's type."""
    return has_trait(policy if isinstance(policy, type) else type(policy), "raw_rewards")


@overload(reads_raw_rewards, jit_options={"cache": True})
def _reads_raw_rewards(policy):
    answer = has_trait(policy.instance_class, "raw_rewards")
    return lambda policy: answer


def on_index_scale(policy, signed, bound, unit_outcomes):
    """The signed reward (or mean) ``signed`` in [-``bound``, ``bound``] as ``policy``'s index
    reads it: on the engine's outcome scale for a ``raw_rewards`` record ((r + 1) / 2 under
    ``UNIT_OUTCOMES``, r under ``SIGNED_OUTCOMES``), else on [0, 1] (compiled code only)."""
    raise NotImplementedError("on_index_scale runs inside compiled kernels only")


@overload(on_index_scale, inline="always", jit_options={"cache": True})  # per child, per playout
def _on_index_scale(policy, signed, bound, unit_outcomes):
    if not has_trait(policy.instance_class, "raw_rewards"):
        return lambda policy, signed, bound, unit_outcomes: unit_mean(signed, bound)

    def raw(policy, signed, bound, unit_outcomes):
        return 0.5 * (signed + 1.0) if unit_outcomes else signed

    return raw


def reward_clip(policy, bound: float) -> float:
    """The largest |r| a game search keeps: ``bound`` for a policy on [0, 1] (whose map clips
    there anyway), none for a ``raw_rewards`` policy (UCT's rewards as they are)."""
    return np.inf if reads_raw_rewards(policy) else bound


def on_unit_returns(policy):
    """``policy`` for an engine whose returns are on [0, 1] rather than the games' [-1, 1]
    (``mcts.generic``): a ``raw_rewards`` record's c halved, the same index up to scale."""
    if reads_raw_rewards(policy) and "c" in policy._fields:
        return policy._replace(c=policy.c / 2)
    return policy
