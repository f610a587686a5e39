"""The backup step of the compiled engines (DESIGN.md §3): how one playout's reward reaches the
statistics of the nodes on its path (``back_up``, written once: each engine gives the reward of
a node by its own record, ``node_gain``), and the synthetic engine's plug point for a rule of
one's own.

A playout ends on a terminal at depth L (``end``) with max's value v on the policy's reward
scale (the outcome 1, 1/2 or 0, or seed 000's shaped reward: ``mcts.synthetic.shaping``). The mover
into the node at ply p (max at odd plies) receives u_p = v or 1 - v (negamax), and the backup rule
maps it to the reward the node keeps. The built-in rule is a discount per ply (mctx's
``children_discounts``, on a terminal reward):

    r_p = 1/2 + gamma^(L - p) (u_p - 1/2),

the signed reward 2 u - 1 discounted by gamma for each move between the node and the terminal,
so a win far away is worth less than a near one and a loss far away costs less. gamma = 1
(the default) is seed 001's search: r_p = u_p, bit for bit.

Every node on the path counts one more visit and adds r_p (and r_p^2 for policies reading the
second moment) to its sums. A rule of one's own is a NamedTuple record and a compiled
``reward(rule, u, ply, end) -> float``, registered with :func:`register_backup`
(docs/extending.md); the engine compiles a kernel for its record type, as for a plug-in policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from numba import float64, int64, njit, typeof
from numba.extending import overload

from bandits.indexing import ix
from bandits.plugins import load_plugin

from .search_tree import REWARD_SUM, SQUARE_SUM, VISITS


class Discount(NamedTuple):
    """The built-in rule: gamma in (0, 1] per ply between a node and the playout's terminal
    (1: no discount). A value read at run time: every gamma shares one kernel."""

    gamma: float = 1.0


_RULES: dict[type, object] = {}


def register_backup(record: type, reward) -> None:
    """Make the engine back up with ``reward(rule, u, ply, end)`` (an njit function) for rules
    of the NamedTuple class ``record``."""
    _RULES[record] = reward


@dataclass(frozen=True)
class Backup:
    """A user's backup rule: a name, a NamedTuple ``record`` of its parameters (with defaults)
    and its compiled ``reward(rule, u, ply, end) -> float`` (module docstring)."""

    name: str
    record: type[NamedTuple]
    reward: object
    description: str = ""


def load_backup(spec: str) -> NamedTuple:
    """The record (at its defaults) of the plug-in backup rule ``package.module:object``,
    registered for the engine; any failure is a one-line ValueError."""
    if ":" not in spec:
        raise ValueError(f"backup rule {spec!r} is not of the form package.module:object "
                         "(the built-in rule is --discount; docs/extending.md)")
    _, record, (reward,) = load_plugin(spec, "backup rule", Backup, "mcts.core.backup.Backup",
                                       "--discount", ("reward",))
    register_backup(record, reward)
    rule = record()
    # compiled alone (not run) when it loads: a typing error is numba's error in about a
    # second, not after typing most of a search kernel (the commands' one line names it)
    _first_reward.compile((typeof(rule), float64, int64, int64))
    return rule


@njit
def _discounted(rule, u, ply, end):
    if rule.gamma == 1.0:
        return u
    return 0.5 + rule.gamma ** (end - ply) * (u - 0.5)


register_backup(Discount, _discounted)


def reads_end(rule) -> bool:
    """Whether the rule needs the playout's terminal depth, so the engine may not stop at a
    proven node (whose reward it knows, not the terminal's depth): the discount when gamma < 1,
    a user's rule always."""
    return type(rule) is not Discount or rule.gamma != 1.0


@overload(reads_end, jit_options={"cache": True})
def _reads_end(rule):
    if rule.instance_class is Discount:
        return lambda rule: rule.gamma != 1.0
    return lambda rule: True


def node_reward(rule, u, ply, end):
    """The reward the node at ``ply`` keeps of its mover's value ``u`` for a playout ending at
    depth ``end`` (compiled code only)."""
    raise NotImplementedError("node_reward runs inside compiled kernels only")


@overload(node_reward, jit_options={"cache": True})
def _node_reward(rule, u, ply, end):
    try:
        reward = _RULES[rule.instance_class]
    except KeyError:
        raise TypeError(f"{rule.instance_class.__name__} is not a registered backup rule "
                        "(mcts.core.backup.register_backup)") from None
    return lambda rule, u, ply, end: reward(rule, u, ply, end)


@njit(cache=True)
def _first_reward(rule, u, ply, end):
    return node_reward(rule, u, ply, end)


class PlayoutValue(NamedTuple):
    """What the synthetic engine backs up: max's ``value`` of a playout ending at depth ``end``,
    kept by the nodes of the path as the ``rule`` maps it (module docstring)."""

    value: float
    end: int
    rule: tuple


def node_gain(gains, ply, node):
    """The reward the node at ``ply`` of the path (row ``node``) keeps of one playout, and its
    square on the unit scale [0, 1] (what policies reading the second moment keep): each engine
    gives its own record (compiled code only)."""
    raise NotImplementedError("node_gain runs inside compiled kernels only")


# inlined in numba's IR: per node of a playout's path
@overload(node_gain, inline="always", jit_options={"cache": True})
def _playout_gain(gains, ply, node):
    if gains.instance_class is not PlayoutValue:
        return None

    def gain(gains, ply, node):
        reward = node_reward(gains.rule, gains.value if ply % 2 == 1 else 1.0 - gains.value, ply,
                             gains.end)
        return reward, reward * reward

    return gain


@njit(inline="always")  # once per playout
def back_up(stats, rewards, path, depth, gains, second_moment):
    """The one backup of the compiled engines' trees (``mcts.core.search_tree``'s columns): visits
    +1 along ``path[0..depth]``; each non-root node adds the reward its record ``gains`` gives
    (``node_gain``: negamax of a playout's value here, ``mcts.games.game_tree.GameGains`` in the
    games) and, with ``second_moment``, its square."""
    stats[ix(path[0]), VISITS] += 1
    for ply in range(1, depth + 1):
        node = ix(path[ix(ply)])
        reward, square = node_gain(gains, ply, node)
        stats[node, VISITS] += 1
        rewards[node, REWARD_SUM] += reward
        if second_moment:
            rewards[node, SQUARE_SUM] += square
