"""Bandit policies as small typed parameter tuples, for compiled engines.

Each built-in policy has a NamedTuple record of its parameters and defaults (the registry's,
``bandits.registry``), and the engines run every one of them as one record of values,
:class:`BuiltinPolicy` (``engine_policy``), so that one kernel per engine serves them all:
``policy_value(policy, arm, tables, rng)``, the index over an :class:`Arm` (the view of one
child's statistics), branches on its ``kind`` at run time. A plug-in's record is a type of its
own, dispatched at compile time to its index, with a kernel of its own. A record may declare
``hooks`` (``bandits.hooks``: columns kept per child and its own ways to index the children)
and ``raw_rewards`` (it reads rewards on the outcome's scale; ``mcts.reward_scale``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from . import bayes_ucb_cache, klucb_cache, thompson
from .bayes_ucb import bayesucb_value
from .epsilon_greedy import egreedy_value, explore_coin
from .hooks import policy_hooks
from .horizon_free import RAW, moss_value, puct_q, puct_range, puct_value
from .klucb import klucb_arm_value
from .ucb1 import depth_power, ucb1_power_value
from .variance_ucb import ucb1tuned_value, ucbv_value


class Arm(NamedTuple):
    """One child's statistics as an index reads them; with the exploration restart (seed 001,
    Eqs. 6-8) the counts are t' and T'_i while the means keep all samples."""

    mean: float  # mean reward in [0, 1] (a draw counts 1/2)
    square_mean: float  # mean squared reward (0 unless the policy reads the second moment)
    visits: int  # T'_i
    parent_visits: int  # t'
    arms: int  # K, the parent's number of children


class UCB1(NamedTuple):
    """Seed 001, Eq. 1: exploration constant c (default sqrt 2). It reads rewards as they are
    (``raw_rewards``): c is set for the outcome's own scale, shaped rewards beyond it.
    ``depth_exponent`` 1 gives the bias Kocsis & Szepesvari's exponent of the node's depth
    (``bandits.ucb1``; 0, the default: the square root everywhere); ``power`` is not a
    parameter but one selection's exponent, set by the engines that know the depth
    (``at_depth``) on the record that indexes the children."""

    c: float = math.sqrt(2.0)
    depth_exponent: float = 0.0
    power: float = 0.5
    raw_rewards = True


class KLUCB(NamedTuple):
    """Seed 001, Eq. 2: the c of ln t + c ln ln t (default 0). Engines keep each child's root
    between selections (``bandits.klucb_cache``)."""

    c: float = 0.0
    hooks = klucb_cache.HOOKS


class Thompson(NamedTuple):
    """Seed 001, Eq. 3: no parameter (``c`` is unused, kept for a uniform layout). Engines draw
    the children without a win last (``bandits.thompson.draw_winless_last``)."""

    c: float = 0.0
    hooks = thompson.HOOKS


class UCB1Tuned(NamedTuple):
    """Auer, Cesa-Bianchi & Fischer 2002, Sect. 4: no parameter (``c`` is unused)."""

    c: float = 0.0
    second_moment = True


class UCBV(NamedTuple):
    """Audibert, Munos & Szepesvari 2009, Eq. 1: exploration E = zeta ln t, weight c."""

    zeta: float = 1.2
    c: float = 1.0
    second_moment = True


class MOSS(NamedTuple):
    """Audibert & Bubeck 2009: no parameter (``c`` is unused); horizon = the parent's visits."""

    c: float = 0.0


class PUCT(NamedTuple):
    """Silver et al. 2018 (mctx): c_init and c_base of the exploration scale, and the Q
    transform (``bandits.horizon_free``: 0 raw, 1 by parent and siblings). ``q_low`` and
    ``q_width`` are not parameters but one selection's range of the transform, set by the
    engines (``with_q_range``) on the record that indexes the children."""

    c_init: float = 1.25
    c_base: float = 19652.0
    qtransform: float = 0.0
    q_low: float = 0.0
    q_width: float = 1.0
    reads_q_range = True


class EpsilonGreedy(NamedTuple):
    """Sutton & Barto 2018, Sect. 2.2: exploration probability epsilon (default 0.1).
    ``explore`` is not a parameter but one selection's coin (1 explores), set by the
    per-selection hook (``begin_selection``) on the record that indexes the children."""

    epsilon: float = 0.1
    explore: float = 0.0


class BayesUCB(NamedTuple):
    """Kaufmann, Cappe & Garivier 2012, Algorithm 1: the c of the level
    1 - 1 / (t (ln N)^c) (default 0, as in their experiments). Engines keep a bound on each
    child's quantile between selections (``bandits.bayes_ucb_cache``)."""

    c: float = 0.0
    hooks = bayes_ucb_cache.HOOKS


# --- the built-ins as one record of values ------------------------------------------------

# the kinds, one per registry record, in the order of ``RECORDS``
(UCB1_KIND, KLUCB_KIND, THOMPSON_KIND, UCB1TUNED_KIND, UCBV_KIND, MOSS_KIND, PUCT_KIND,
 EGREEDY_KIND, BAYESUCB_KIND) = range(9)
RECORDS = (UCB1, KLUCB, Thompson, UCB1Tuned, UCBV, MOSS, PUCT, EpsilonGreedy, BayesUCB)


class BuiltinPolicy(NamedTuple):
    """Any built-in policy as values, what the engines run (``engine_policy``): ``kind`` (the
    place of its registry record in ``RECORDS``), the parameters of every kind (each record's
    fields; the others at their defaults) and the kind's traits as values: ``moments`` (it
    reads the second moment), ``raw`` (rewards on the outcome's own scale,
    ``mcts.reward_scale``) and ``columns`` (float64 columns per child its hooks keep,
    ``bandits.hooks``). All nine, whatever their parameters, share one kernel per engine: the
    index, the per-selection record and the hooks branch on ``kind`` at run time, where a
    plug-in's record, a type of its own, gets a kernel of its own with only its code."""

    kind: int
    c: float = 0.0
    depth_exponent: float = 0.0
    power: float = 0.5
    zeta: float = 1.2
    c_init: float = 1.25
    c_base: float = 19652.0
    qtransform: float = 0.0
    q_low: float = 0.0
    q_width: float = 1.0
    epsilon: float = 0.1
    explore: float = 0.0
    moments: bool = False
    raw: bool = False
    columns: int = 0
    reads_q_range = True  # PUCT's kind: ``mcts.q_range`` computes the range when asked


def engine_policy(policy: NamedTuple) -> NamedTuple:
    """The record the engines run: a registry record's values as a :class:`BuiltinPolicy`, a
    plug-in's record (or one already converted) as it is."""
    record = type(policy)
    if record not in RECORDS:
        return policy
    return BuiltinPolicy(RECORDS.index(record),
                         **{key: float(value) for key, value in policy._asdict().items()},
                         moments=has_trait(record, "second_moment"),
                         raw=has_trait(record, "raw_rewards"),
                         columns=policy_hooks(record).cache_columns)


@njit
def ucb1_record(c):
    """``engine_policy(UCB1(c))`` in compiled code (numba's constructor takes every field)."""
    return BuiltinPolicy(UCB1_KIND, c, 0.0, 0.5, 1.2, 1.25, 19652.0, 0.0, 0.0, 1.0, 0.1, 0.0,
                         False, True, 0)


def _with_values(policy, power, q_low, q_width, explore):
    """``policy`` with one selection's values: UCB1's exponent, PUCT's range of Q and
    epsilon-greedy's coin (compiled code only)."""
    raise NotImplementedError("_with_values runs inside compiled kernels only")


# Inlined in numba's IR, as the hooks that call it once per selection: a record built in
# registers, where a call returns its 15 fields through memory.
@overload(_with_values, inline="always", jit_options={"cache": True})
def _with_values_record(policy, power, q_low, q_width, explore):
    def replaced(policy, power, q_low, q_width, explore):
        return BuiltinPolicy(policy.kind, policy.c, policy.depth_exponent, power, policy.zeta,
                             policy.c_init, policy.c_base, policy.qtransform, q_low, q_width,
                             policy.epsilon, explore, policy.moments, policy.raw, policy.columns)

    return replaced


# Each kind's index over an Arm: (policy, arm, tables, rng) -> float, the cheap ones inlined
# in numba's IR into the switch below (``_builtin_value``), the costly ones compiled apart.
@njit(inline="always")
def _ucb1(policy, arm, tables, rng):
    return ucb1_power_value(arm.mean, arm.visits, arm.parent_visits, policy.c, policy.power,
                            tables)


@njit
def _klucb(policy, arm, tables, rng):
    return klucb_arm_value(arm.mean, arm.visits, arm.parent_visits, policy.c, tables, rng)


@njit
def _thompson(policy, arm, tables, rng):
    return thompson.thompson_value(arm.mean, arm.visits, arm.parent_visits, policy.c, tables,
                                   rng)


@njit(inline="always")
def _ucb1tuned(policy, arm, tables, rng):
    return ucb1tuned_value(arm.mean, arm.square_mean, arm.visits, arm.parent_visits, tables)


@njit(inline="always")
def _ucbv(policy, arm, tables, rng):
    return ucbv_value(arm.mean, arm.square_mean, arm.visits, arm.parent_visits, policy.zeta,
                      policy.c, tables)


@njit(inline="always")
def _moss(policy, arm, tables, rng):
    return moss_value(arm.mean, arm.visits, arm.parent_visits, arm.arms, tables)


@njit(inline="always")
def _puct(policy, arm, tables, rng):
    q = puct_q(arm.mean, arm.visits, policy.qtransform, policy.q_low, policy.q_width)
    return puct_value(q, arm.visits, arm.parent_visits, arm.arms, policy.c_init, policy.c_base)


@njit(inline="always")
def _egreedy(policy, arm, tables, rng):
    return egreedy_value(arm.mean, arm.visits, policy.explore)


@njit
def _bayesucb(policy, arm, tables, rng):
    return bayesucb_value(arm.mean, arm.visits, arm.parent_visits, policy.c, tables)


# Inlined in numba's IR into each engine's loop over the children: the index of the
# policy's kind, one branch per child on a kind the processor predicts. The cheap indices are
# inlined into it; KL-UCB's, Thompson's and Bayes-UCB's are called (their own hooks index the
# children in the synthetic engine, this only where their columns are off).
@njit(inline="always")
def _builtin_value(policy, arm, tables, rng):
    """The index of the built-in ``policy.kind`` over one Arm (NaN for no kind: the engines
    refuse it)."""
    kind = policy.kind
    if kind == UCB1_KIND:
        return _ucb1(policy, arm, tables, rng)
    if kind == UCB1TUNED_KIND:
        return _ucb1tuned(policy, arm, tables, rng)
    if kind == UCBV_KIND:
        return _ucbv(policy, arm, tables, rng)
    if kind == MOSS_KIND:
        return _moss(policy, arm, tables, rng)
    if kind == PUCT_KIND:
        return _puct(policy, arm, tables, rng)
    if kind == EGREEDY_KIND:
        return _egreedy(policy, arm, tables, rng)
    if kind == KLUCB_KIND:
        return _klucb(policy, arm, tables, rng)
    if kind == THOMPSON_KIND:
        return _thompson(policy, arm, tables, rng)
    if kind == BAYESUCB_KIND:
        return _bayesucb(policy, arm, tables, rng)
    return np.nan


_CORES = {BuiltinPolicy: _builtin_value}  # record class -> its index; plug-ins add theirs


def register_index(record: type, index) -> None:
    """Make the compiled engines index ``record``'s policies by ``index(policy, arm, tables,
    rng)`` (a plug-in's, ``bandits.plugins``)."""
    _CORES[record] = index


def policy_value(policy, arm, tables, rng):
    """The index of one :class:`Arm` under ``policy`` (compiled code only; see the cores)."""
    raise NotImplementedError("policy_value runs inside compiled kernels only")


def _core(record_class):
    try:
        return _CORES[record_class]
    except KeyError:
        raise TypeError(f"{record_class.__name__} is not a policy the engines run: pass "
                        "bandits.make_policy's record (or engine_policy of a registry "
                        "record)") from None


# Inlined in numba's IR: left to LLVM, a plug-in's core (as Thompson's, two Gamma draws) was
# called out of line for every child, its index tables passed as ~40 scalar arguments.
@overload(policy_value, inline="always", jit_options={"cache": True})
def _policy_value(policy, arm, tables, rng):
    core = _core(policy.instance_class)

    def impl(policy, arm, tables, rng):
        return core(policy, arm, tables, rng)

    return impl


def begin_selection(policy, rng):
    """The record that indexes one selection's children: ``policy`` itself, or, for
    epsilon-greedy, the record with its coin drawn (one uniform per selection; compiled code
    only)."""
    raise NotImplementedError("begin_selection runs inside compiled kernels only")


# Inlined in numba's IR (once per selection): see ``_with_values``.
@overload(begin_selection, inline="always", jit_options={"cache": True})
def _begin_selection(policy, rng):
    if policy.instance_class is not BuiltinPolicy:
        return lambda policy, rng: policy

    def begin(policy, rng):
        if policy.kind != EGREEDY_KIND:
            return policy
        return _with_values(policy, policy.power, policy.q_low, policy.q_width,
                            explore_coin(policy.epsilon, rng))

    return begin


def wants_q_range(policy) -> bool:
    """Whether one selection's index needs the range of the parent's value and its children's
    means (PUCT with a Q transform; compiled code only): engines compiled for a record with
    the ``reads_q_range`` trait then compute it and give it by ``with_q_range``."""
    raise NotImplementedError("wants_q_range runs inside compiled kernels only")


@overload(wants_q_range, inline="always", jit_options={"cache": True})
def _wants_q_range(policy):
    if policy.instance_class is BuiltinPolicy:
        return lambda policy: policy.kind == PUCT_KIND and policy.qtransform != RAW
    return lambda policy: False


def with_q_range(policy, parent_value, low_mean, high_mean):
    """The record indexing one selection given the parent's value and the lowest and highest
    means of its visited children (``bandits.horizon_free.puct_range``): PUCT's with its range
    set, any other record as it is (compiled code only)."""
    raise NotImplementedError("with_q_range runs inside compiled kernels only")


@overload(with_q_range, inline="always", jit_options={"cache": True})
def _with_q_range(policy, parent_value, low_mean, high_mean):
    if policy.instance_class is not BuiltinPolicy:
        return lambda policy, parent_value, low_mean, high_mean: policy

    def ranged(policy, parent_value, low_mean, high_mean):
        if policy.kind != PUCT_KIND:
            return policy
        low, width = puct_range(parent_value, low_mean, high_mean)
        return _with_values(policy, policy.power, low, width, policy.explore)

    return ranged


def at_depth(policy, depth, game_depth):
    """The record that indexes the children of a node at ``depth`` in a game of length
    ``game_depth``: UCB1's with its exponent set when its ``depth_exponent`` is on
    (``bandits.ucb1.depth_power``), any other record as it is (compiled code only)."""
    raise NotImplementedError("at_depth runs inside compiled kernels only")


@overload(at_depth, inline="always", jit_options={"cache": True})
def _at_depth(policy, depth, game_depth):
    if policy.instance_class is not BuiltinPolicy:
        return lambda policy, depth, game_depth: policy

    def deep(policy, depth, game_depth):
        if policy.kind != UCB1_KIND or policy.depth_exponent == 0.0:
            return policy
        return _with_values(policy, depth_power(depth, game_depth), policy.q_low,
                            policy.q_width, policy.explore)

    return deep


def has_trait(record_class, trait: str) -> bool:
    """Whether a policy's record class declares ``trait = True`` (the compiled engines choose
    their code by it at typing time, from ``policy.instance_class``)."""
    return bool(getattr(record_class, trait, False))


def reads_second_moment(policy) -> bool:
    """Whether the policy's index reads ``Arm.square_mean``, so that engines count each
    child's wins to know it (a plug-in's record class declares ``second_moment``; in compiled
    code a constant of a plug-in's type, the built-ins' field ``moments``)."""
    if isinstance(policy, BuiltinPolicy):
        return policy.moments
    return has_trait(type(policy), "second_moment")


@overload(reads_second_moment, jit_options={"cache": True})
def _reads_second_moment(policy):
    if policy.instance_class is BuiltinPolicy:
        return lambda policy: policy.moments
    answer = has_trait(policy.instance_class, "second_moment")
    return lambda policy: answer


def cache_columns(policy) -> int:
    """The float64 columns per child that ``policy``'s hooks keep (0: none; a plug-in's
    ``PolicyHooks.cache_columns``, the built-ins' field ``columns``)."""
    if isinstance(policy, BuiltinPolicy):
        return policy.columns
    return policy_hooks(type(policy)).cache_columns


@overload(cache_columns, jit_options={"cache": True})
def _cache_columns(policy):
    if policy.instance_class is BuiltinPolicy:
        return lambda policy: policy.columns
    columns = policy_hooks(policy.instance_class).cache_columns
    return lambda policy: columns
