"""The reward a playout backs up, as a rule of its terminal's score (DESIGN.md §3):
max's reward r(s, theta), in [0, 1] but for ``sum``, of a terminal of score s, under the
effective threshold theta the playout is scored at (0 for a terminal reached inside the search
tree).

- ``outcome`` (the default, seed 001, Sect. III): 1 if s > theta, 1/2 if s = theta, 0 below.
- ``linear`` (seed 001, Sect. II-C: "continuous values in a range [0, 1]", the linearly
  transformed scores of early Go programs): r = (s - s_low) / (s_high - s_low) over the tree's
  terminal scores s_low..s_high (``SearchConfig.score_low``, ``score_high``; 1/2 when they are
  equal). It does not read theta, so a threshold adjuster moves nothing but its own state.
- ``sum`` (Kocsis & Szepesvari 2006, Sect. 3.1: "rewards are computed by first assigning values
  to moves and summing up the values along the path to the terminal state"): r = s, the score
  itself, unscaled and outside [0, 1]; negamax backs up 1 - r for min, so a min node ranks its
  children by -r, the paper's negamax UCT (footnote 7). Only UCB1's index reads rewards of any
  scale (``experiments.Curve`` refuses the other policies), and UCB1 with c = 1 on it is the
  paper's bias c_{t,s} "without a constant" on the paper's reward scale.

All three are values of one record, ``ScoreReward``, read at run time: one kernel serves them. A
rule of one's own is a NamedTuple record and a compiled ``reward(rule, score, theta, low,
high) -> float``, registered with :func:`register_reward` (``load_reward``: a
``package.module:object`` naming a :class:`RewardRule`), checked to stay in [0, 1]
(:func:`check_reward_range`); the engine compiles a kernel for its record type, as for a
backup rule (``mcts.core.backup``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from bandits.plugins import load_plugin

OUTCOME, LINEAR, SUM = 0, 1, 2
REWARDS = {"outcome": OUTCOME, "linear": LINEAR, "sum": SUM}  # the built-in rules, by name


class ScoreReward(NamedTuple):
    """The built-in rules: ``kind`` OUTCOME, LINEAR or SUM (a value read at run time)."""

    kind: int = OUTCOME


_RULES: dict[type, object] = {}


def register_reward(record: type, reward) -> None:
    """Make the engine reward playouts by ``reward(rule, score, theta, low, high)`` (an njit
    function) for rules of the NamedTuple class ``record``."""
    _RULES[record] = reward


@dataclass(frozen=True)
class RewardRule:
    """A user's reward rule: a name, a NamedTuple ``record`` of its parameters (with defaults)
    and its compiled ``reward(rule, score, theta, low, high) -> float`` in [0, 1] (module
    docstring)."""

    name: str
    record: type[NamedTuple]
    reward: object
    description: str = ""


def load_reward(spec: str) -> NamedTuple:
    """The record of the reward rule ``spec``: a built-in name (``REWARDS``) or a plug-in
    ``package.module:object`` (at its defaults, registered for the engine); any failure is a
    one-line ValueError."""
    if spec in REWARDS:
        return ScoreReward(REWARDS[spec])
    if ":" not in spec:
        raise ValueError(f"reward rule {spec!r} is neither built in ({', '.join(REWARDS)}) nor "
                         "of the form package.module:object (docs/extending.md)")
    _, record, (reward,) = load_plugin(spec, "reward rule", RewardRule,
                                       "mcts.synthetic.score_reward.RewardRule", ", ".join(REWARDS),
                                       ("reward",))
    register_reward(record, reward)
    return record()


@njit(inline="always")  # per playout
def max_outcome(score, theta):
    """The max player's outcome: 1 above theta, 0.5 at it, 0 below."""
    if score > theta:
        return 1.0
    if score < theta:
        return 0.0
    return 0.5


@njit(inline="always")  # per playout
def _built_in(rule, score, theta, low, high):
    if rule.kind == OUTCOME:
        return max_outcome(score, theta)
    if rule.kind == SUM:
        return np.float64(score)
    if high == low:
        return 0.5
    return (score - low) / (high - low)


register_reward(ScoreReward, _built_in)


def is_outcome(rule) -> bool:
    """Whether the rule is the outcome, so a proven node's reward is known without its
    terminal (``mcts.synthetic``'s stop at proven nodes)."""
    return type(rule) is ScoreReward and rule.kind == OUTCOME


@overload(is_outcome, jit_options={"cache": True})
def _is_outcome(rule):
    if rule.instance_class is ScoreReward:
        return lambda rule: rule.kind == OUTCOME
    return lambda rule: False


def playout_reward(rule, score, theta, low, high):
    """Max's reward of a terminal of ``score`` under ``theta`` in a tree of terminal scores
    ``low``..``high`` (compiled code only)."""
    raise NotImplementedError("playout_reward runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(playout_reward, inline="always", jit_options={"cache": True})
def _playout_reward(rule, score, theta, low, high):
    try:
        reward = _RULES[rule.instance_class]
    except KeyError:
        raise TypeError(f"{rule.instance_class.__name__} is not a registered reward rule "
                        "(mcts.synthetic.score_reward.register_reward)") from None
    return lambda rule, score, theta, low, high: reward(rule, score, theta, low, high)


@njit(cache=True)
def _first_outside(rule, low, high):
    """(value, score, theta) of the first value of the rule outside [0, 1] (NaN included)
    over every score in low..high and every integer and half-integer theta from low - 1/2 to
    high + 1/2; (0.5, low, 0) if there is none."""
    for score in range(low, high + 1):
        for twice in range(2 * low - 1, 2 * high + 2):
            value = playout_reward(rule, np.int64(score), twice / 2.0, low, high)
            if not 0.0 <= value <= 1.0:
                return value, score, twice / 2.0
    return 0.5, low, 0.0


def check_reward_range(rule, low: int, high: int) -> None:
    """A one-line ValueError unless a user's rule maps every score of ``low``..``high`` to
    [0, 1] at every integer and half-integer threshold from low - 1/2 to high + 1/2 (the
    thresholds an adjuster can set there); the built-in rules are so by construction."""
    if type(rule) is not ScoreReward:
        # keyed by the record's class too: two rules' records of equal fields are equal tuples
        _check_range(type(rule), rule, int(low), int(high))


@lru_cache(maxsize=64)
def _check_range(record: type, rule, low: int, high: int) -> None:
    value, score, theta = _first_outside(rule, low, high)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"reward rule {type(rule).__name__} maps score {score} at threshold "
                         f"{theta:g} to {value!r}, outside [0, 1]: rewards must lie in [0, 1]")
