"""Shaped rewards on synthetic trees (seed 000, Sect. 4-5; DESIGN.md §6): the Relative and the
Qualitative Bonus of the game engine (``mcts.core.rewards``, seed 000 Eqs. 4-10) as an option of the
synthetic engine (``mcts.synthetic``).

A playout that max (w = 0) or min (w = 1) wins has
- d = its length from the root: the depth of the node it starts from + its moves, i.e. the
  depth of the terminal it reaches (Relative Bonus, Eq. 4: lambda_r = (mean_D[w] - d) /
  sd_D[w], short wins are good);
- q = the winner's margin |score - theta| / (score_high - score_low + 1), theta the threshold
  the playout was scored at (0 for a terminal inside the search tree), so q lies in (0, 1) while
  theta lies among the scores (Qualitative Bonus, Eq. 7: lambda_q = (q - mean_Q[w]) / sd_Q[w]).
  lambda and the online weight a' are invariant to the scale of q and d, so the normaliser
  only keeps q where seed 000 has it.
The winner's reward is ``mcts.core.rewards.bonus_reward`` = 1 + a b(lambda) per bonus (Eqs. 5, 6,
8), a fixed or online (a' of Eqs. 9-10, the searching player being max), the statistics per
winner, updated after use, per search (one run); the first ``WARMUP`` share of the run's
budget is not shaped (statistics still collected): on a failure curve, budgets below
``WARMUP * max_budget`` show a search not yet shaping. A draw has no bonus and leaves the
statistics alone. So max's reward is r' = +-(1 + bonuses) or 0, in [-R, R] (R =
``mcts.core.rewards.bonus_bound``).

Scale: the plain engine backs up max's reward (r + 1) / 2 in {0, 1/2, 1} (r in {-1, 0, 1}).
Shaped, it backs up (``mcts.core.backup``; the same map as the game engine's):
- for a policy whose record declares ``raw_rewards`` (UCB1): (r' + 1) / 2, the seed's scale:
  a plain win is still 1 and a loss 0, the bonus moves them by +-a b / 2, and c keeps its
  meaning (the game engine's UCT also reads the raw r');
- every other policy (rewards in [0, 1]): p = (r' + R) / (2R) (``mcts.core.rewards.unit_mean``,
  clipped to [0, 1] for an online a' > 1), so a draw is 1/2 and a plain win 1/2 + 1/(2R).
The mover into a min node gets 1 minus max's value.

Shaping is data: ``SearchConfig.shaping`` is a ``Bonuses`` record (``engine_shaping``; both k = 0
without shaping), read at run time, so shaped and plain searches share one kernel. With
shaping the descent never stops at a proven node (d and q need the terminal). Specs: ``rb``,
``qb(k=2,a=online)``, ``rb(k=8)+qb(k=2,a=0.5)`` (k > 0, default 2; a >= 0 or ``online``,
default 0.25); ``""`` or ``none``: no shaping.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from specs import Domain, above, check_values, parse_spec, parse_value

from ..core.reward_scale import UNIT_OUTCOMES, on_index_scale
from ..core.rewards import ONLINE, WARMUP, bonus_bound, bonus_reward

__all__ = ["BONUS_DOMAINS", "Bonuses", "NoShaping", "engine_shaping", "max_value",
           "parse_shaping", "shapes", "shaping_spec", "start_shaping"]

MAX = 0  # winner index of the max player, the searching player of Eq. 10
_DEFAULT_K, _DEFAULT_A = 2.0, 0.25
# the domains of a bonus's parameters (rb and qb alike), read by shaping and player specs
BONUS_DOMAINS = {"k": above(0), "a": Domain(low=0, words=(("online", ONLINE),))}


class NoShaping(NamedTuple):
    """Rewards are the outcome, in half points (the default)."""


class Bonuses(NamedTuple):
    """Relative (rb) and Qualitative (qb) Bonus of seed 000; k = 0 leaves a bonus out."""

    rb_k: float = 0.0  # slope k of b(lambda), Eq. 5
    rb_a: float = _DEFAULT_A  # weight a, or ONLINE (a', Eq. 10)
    qb_k: float = 0.0
    qb_a: float = _DEFAULT_A


def parse_shaping(spec: str) -> NoShaping | Bonuses:
    """The record a spec (module docstring) stands for (``specs.parse_spec``, values checked
    against ``BONUS_DOMAINS``); one-line ``ValueError`` otherwise."""
    if spec is None or (isinstance(spec, str) and "".join(spec.split()) in ("", "none")):
        return NoShaping()
    values, seen = {}, set()
    for part in parse_spec(spec, "shaping"):
        if part.name not in ("rb", "qb") or part.args:
            raise ValueError(f"bad shaping {spec!r}: write rb, qb or rb(k=8)+qb(k=2,a=online) "
                             "(parts rb and qb, parameters k and a as key=value)")
        if part.name in seen:
            raise ValueError(f"bad shaping {spec!r}: {part.name} is given twice; give it once")
        seen.add(part.name)
        given = {key: parse_value(value) for key, value in part.kwargs}
        checked = check_values(f"shaping {part.name}",
                               {"k": _DEFAULT_K, "a": _DEFAULT_A, **given}, BONUS_DOMAINS)
        values.update({f"{part.name}_{key}": float(value) for key, value in checked.items()})
    return Bonuses(**values)


def shaping_spec(shaping: NoShaping | Bonuses) -> str:
    """The canonical spec of a record ("" for none): equal records, equal specs."""
    parts = []
    for name in ("rb", "qb"):
        k = getattr(shaping, f"{name}_k", 0.0)
        if k > 0:
            a = getattr(shaping, f"{name}_a")
            parts.append(f"{name}(k={k:g},a={'online' if a == ONLINE else format(a, 'g')})")
    return "+".join(parts)


def engine_shaping(shaping: NoShaping | Bonuses) -> Bonuses:
    """The record the engine reads: no shaping is ``Bonuses`` with both k = 0, so shaped and
    plain searches share one kernel."""
    return shaping if isinstance(shaping, Bonuses) else Bonuses()


@njit(cache=True)
def shapes(shaping):
    """Whether an engine ``Bonuses`` record shapes rewards (some k > 0)."""
    return shaping.rb_k > 0.0 or shaping.qb_k > 0.0


@njit(cache=True)
def start_shaping(shaping):
    """A search's statistics: moments [2 bonuses, 2 winners, 3] and sums [2 bonuses, 5] of
    ``mcts.core.rewards``."""
    return np.zeros((2, 2, 3)), np.zeros((2, 5))


@njit(cache=True)
def shaped_reward(shaping, state, reward, q, d, shaped):
    """Max's shaped reward r' in [-R, R] for max's outcome ``reward`` (1, 1/2 or 0), updating
    the statistics ``state`` (a draw: 0, statistics untouched)."""
    if reward == 0.5:
        return 0.0
    moments, sums = state
    w = MAX if reward == 1.0 else 1 - MAX
    gain = bonus_reward(shaping, moments, sums, w, MAX, d, q, shaped)
    return gain if w == MAX else -gain


@njit(inline="always")  # per playout
def max_value(shaping, state, policy, reward, margin, span, d, played, budget):
    """Max's value of a playout on the scale ``policy`` reads (module docstring): its outcome
    ``reward`` (1, 1/2, 0) without shaping; shaped, with the winner's normalised margin
    q = |margin| / ``span`` (score minus the threshold it was scored at, over the score range)
    and the playout's length ``d``, not shaped while ``played`` < WARMUP x ``budget``."""
    if not shapes(shaping):
        return reward
    gain = shaped_reward(shaping, state, reward, abs(margin) / span, d,
                         played >= WARMUP * budget)
    return on_index_scale(policy, gain,
                          bonus_bound(shaping.rb_k, shaping.rb_a, shaping.qb_k, shaping.qb_a),
                          UNIT_OUTCOMES)
