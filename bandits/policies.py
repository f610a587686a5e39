"""Bandit policies as small typed parameter tuples, for compiled engines.

Each policy is its own NamedTuple type, so a kernel taking ``policy`` is compiled (and cached)
once per policy with only that policy's index in its inner loop; ``policy_value(policy, arm,
tables, rng)`` dispatches on the type at compile time to the policy's index over an
:class:`Arm`, the view of one child's statistics. A record may declare ``hooks``
(``bandits.hooks``: columns kept per child and its own ways to index the children) and
``raw_rewards`` (it reads rewards on the outcome's scale; ``mcts.core.reward_scale``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from numba import njit
from numba.extending import overload

from . import bayes_ucb_cache, klucb_cache, thompson
from .bayes_ucb import bayesucb_value
from .epsilon_greedy import egreedy_value, explore_coin
from .gumbel_muzero import GumbelMuZero
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
    prior: float  # P, a guided search's prior of the move (``mcts.synthetic.guidance``); else 1/K


class UCB1(NamedTuple):
    """Seed 001, Eq. 1: exploration constant c (default sqrt 2). It reads rewards as they are
    (``raw_rewards``): c is set for the outcome's own scale, shaped rewards beyond it.
    ``depth_exponent`` 1 gives the bias Kocsis & Szepesvari's exponent of the node's depth and
    the game's length left below it (``bandits.ucb1``; 0, the default: the square root
    everywhere); ``power`` is not a parameter but one selection's exponent, set by the engines
    that know the depth (``at_depth``) on the record that indexes the children."""

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
    # not parameters: a guided search's parent's own evaluation (its raw value for its mover,
    # and 1; 0 and 0 unguided), which mctx's parent value V counts (``with_q_range``)
    own_value: float = 0.0
    own_count: float = 0.0
    reads_q_range = True
    reads_prior = True  # its index reads the Arm's prior (a guided search's, else 1/K)


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


# Each record's index over an Arm: (policy, arm, tables, rng) -> float
def _over_arm(core):
    """The index over an Arm of a seed-001 core ``core(mean, T', t', c, tables, rng)``."""

    @njit(inline="always")  # per child of a selection: the hot path
    def index(policy, arm, tables, rng):
        return core(arm.mean, arm.visits, arm.parent_visits, policy.c, tables, rng)

    return index


@njit(inline="always")  # per child of a selection: the hot path
def _ucb1tuned(policy, arm, tables, rng):
    return ucb1tuned_value(arm.mean, arm.square_mean, arm.visits, arm.parent_visits, tables)


@njit(inline="always")  # per child of a selection: the hot path
def _ucbv(policy, arm, tables, rng):
    return ucbv_value(arm.mean, arm.square_mean, arm.visits, arm.parent_visits, policy.zeta,
                      policy.c, tables)


@njit(inline="always")  # per child of a selection: the hot path
def _moss(policy, arm, tables, rng):
    return moss_value(arm.mean, arm.visits, arm.parent_visits, arm.arms, tables)


@njit(inline="always")  # per child of a selection: the hot path
def _puct(policy, arm, tables, rng):
    q = puct_q(arm.mean, arm.visits, policy.qtransform, policy.q_low, policy.q_width)
    return puct_value(q, arm.visits, arm.parent_visits, arm.prior, policy.c_init, policy.c_base)


@njit(inline="always")  # per child of a selection: the hot path
def _egreedy(policy, arm, tables, rng):
    return egreedy_value(arm.mean, arm.visits, policy.explore)


@njit(inline="always")  # per child of a selection: the hot path
def _bayesucb(policy, arm, tables, rng):
    return bayesucb_value(arm.mean, arm.visits, arm.parent_visits, policy.c, tables)


@njit(inline="always")  # per child of a selection: the hot path
def _ucb1(policy, arm, tables, rng):
    return ucb1_power_value(arm.mean, arm.visits, arm.parent_visits, policy.c, policy.power,
                            tables)


_CORES = {UCB1: _ucb1, KLUCB: _over_arm(klucb_arm_value),
          Thompson: _over_arm(thompson.thompson_value), UCB1Tuned: _ucb1tuned, UCBV: _ucbv,
          MOSS: _moss, PUCT: _puct, EpsilonGreedy: _egreedy, BayesUCB: _bayesucb}


def register_index(record: type, index) -> None:
    """Make the compiled engines index ``record``'s policies by ``index(policy, arm, tables,
    rng)`` (a plug-in's, ``bandits.plugins``)."""
    _CORES[record] = index


def policy_value(policy, arm, tables, rng):
    """The index of one :class:`Arm` under ``policy`` (compiled code only; see the cores)."""
    raise NotImplementedError("policy_value runs inside compiled kernels only")


# Inlined in numba's IR: left to LLVM, the Thompson core (two Gamma draws) is called out of line
# for every child, its index tables passed as ~40 scalar arguments.
@overload(policy_value, inline="always", jit_options={"cache": True})
def _policy_value(policy, arm, tables, rng):
    core = _CORES[policy.instance_class]

    def impl(policy, arm, tables, rng):
        return core(policy, arm, tables, rng)

    return impl


def begin_selection(policy, rng):
    """The record that indexes one selection's children: ``policy`` itself, or, for a record
    class with a ``begin`` hook in ``_BEGINS`` (a per-selection draw, as epsilon-greedy's
    coin), the hook's ``(policy, rng) -> record`` (compiled code only)."""
    raise NotImplementedError("begin_selection runs inside compiled kernels only")


@njit(inline="always")  # per selection: epsilon-greedy's coin
def _egreedy_begin(policy, rng):
    """Epsilon-greedy's coin, one uniform per selection."""
    return EpsilonGreedy(policy.epsilon, explore_coin(policy.epsilon, rng))


_BEGINS = {EpsilonGreedy: _egreedy_begin}  # record class -> its per-selection hook


# inlined in numba's IR: per selection; chosen by type, the identity for a record without a hook
@overload(begin_selection, inline="always", jit_options={"cache": True})
def _begin_selection(policy, rng):
    hook = _BEGINS.get(policy.instance_class)
    if hook is None:
        return lambda policy, rng: policy

    def impl(policy, rng):
        return hook(policy, rng)

    return impl


def wants_q_range(policy) -> bool:
    """Whether one selection's index needs the range of the parent's value and its children's
    means (PUCT with a Q transform; compiled code only): engines compiled for a record with
    the ``reads_q_range`` trait then compute it and give it by ``with_q_range``."""
    raise NotImplementedError("wants_q_range runs inside compiled kernels only")


# inlined in numba's IR: per selection; chosen by type, a constant False for all but PUCT
@overload(wants_q_range, inline="always", jit_options={"cache": True})
def _wants_q_range(policy):
    if policy.instance_class is PUCT:
        return lambda policy: policy.qtransform != RAW
    return lambda policy: False


def with_q_range(policy, reward_sum, visits, low_mean, high_mean):
    """The record indexing one selection given the sum of the rewards and the visits of the
    parent's visited children and their lowest and highest means
    (``bandits.horizon_free.puct_range``): PUCT's with its range set, the parent's value V
    being (own value + reward sum) / (own count + visits) (1/2 when both counts are 0; the
    own evaluation a guided search's, ``with_own_evaluation``), any other record as it is
    (compiled code only)."""
    raise NotImplementedError("with_q_range runs inside compiled kernels only")


# inlined in numba's IR: per selection; chosen by type, the identity for all but PUCT
@overload(with_q_range, inline="always", jit_options={"cache": True})
def _with_q_range(policy, reward_sum, visits, low_mean, high_mean):
    if policy.instance_class is PUCT:
        def ranged(policy, reward_sum, visits, low_mean, high_mean):
            count = policy.own_count + visits
            value = (policy.own_value * policy.own_count + reward_sum) / count if count > 0 \
                else 0.5
            low, width = puct_range(value, low_mean, high_mean)
            return PUCT(policy.c_init, policy.c_base, policy.qtransform, low, width,
                        policy.own_value, policy.own_count)

        return ranged
    return lambda policy, reward_sum, visits, low_mean, high_mean: policy


def with_own_evaluation(policy, value):
    """The record indexing the children of a node of a guided search whose first evaluation
    gave its mover ``value`` (``Guidance``: mctx's parent value counts it, Gumbel MuZero's
    mixed value too): PUCT's and Gumbel MuZero's with it set, any other record as it is
    (compiled code only)."""
    raise NotImplementedError("with_own_evaluation runs inside compiled kernels only")


# inlined in numba's IR: per selection of a guided search; the identity for the others
@overload(with_own_evaluation, inline="always", jit_options={"cache": True})
def _with_own_evaluation(policy, value):
    if policy.instance_class is PUCT:
        return lambda policy, value: PUCT(policy.c_init, policy.c_base, policy.qtransform,
                                          policy.q_low, policy.q_width, value, 1.0)
    if policy.instance_class is GumbelMuZero:
        return lambda policy, value: GumbelMuZero(policy.m, policy.c_visit, policy.c_scale,
                                                  policy.gumbel_scale, value, 1.0)
    return lambda policy, value: policy


def at_depth(policy, depth, plies_left):
    """The record that indexes the children of a node at ``depth`` with ``plies_left`` plies
    of the game left below it: UCB1's with its exponent set when its ``depth_exponent`` is on
    (``bandits.ucb1.depth_power``), any other record as it is (compiled code only)."""
    raise NotImplementedError("at_depth runs inside compiled kernels only")


# inlined in numba's IR: per selection; chosen by type, the identity for all but UCB1
@overload(at_depth, inline="always", jit_options={"cache": True})
def _at_depth(policy, depth, plies_left):
    if policy.instance_class is UCB1:
        def deep(policy, depth, plies_left):
            if policy.depth_exponent == 0.0:
                return policy
            return UCB1(policy.c, policy.depth_exponent, depth_power(depth, plies_left))

        return deep
    return lambda policy, depth, plies_left: policy


def has_trait(record_class, trait: str) -> bool:
    """Whether a policy's record class declares ``trait = True`` (the compiled engines choose
    their code by it at typing time, from ``policy.instance_class``)."""
    return bool(getattr(record_class, trait, False))


def _compiled_trait(function, trait):
    """Give ``function(policy)`` (``has_trait(type(policy), trait)`` in Python) a compiled
    form answering from the policy's type alone, a constant for numba to prune branches on."""

    @overload(function, jit_options={"cache": True})
    def _trait_test(policy):
        answer = has_trait(policy.instance_class, trait)

        def impl(policy):
            return answer

        return impl

    return function


def reads_second_moment(policy) -> bool:
    """Whether the policy's index reads ``Arm.square_mean``, so that engines count each
    child's wins to know it (the other policies pay nothing for it)."""
    return has_trait(type(policy), "second_moment")


_compiled_trait(reads_second_moment, "second_moment")
