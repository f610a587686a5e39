"""Bandit policies as small typed parameter tuples, for compiled engines.

Each policy is its own NamedTuple type, so a kernel taking ``policy`` is compiled (and cached)
once per policy with only that policy's index in its inner loop; ``policy_value(policy, ...)``
dispatches on the type at compile time to the policy's scalar core.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from numba.extending import overload

from .klucb import klucb_arm_value
from .thompson import thompson_value
from .ucb1 import ucb1_value


class UCB1(NamedTuple):
    """Seed 001, Eq. 1: exploration constant c (default sqrt 2)."""

    c: float = math.sqrt(2.0)


class KLUCB(NamedTuple):
    """Seed 001, Eq. 2: the c of ln t + c ln ln t (default 0)."""

    c: float = 0.0


class Thompson(NamedTuple):
    """Seed 001, Eq. 3: no parameter (``c`` is unused, kept for a uniform layout)."""

    c: float = 0.0


_CORES = {UCB1: ucb1_value, KLUCB: klucb_arm_value, Thompson: thompson_value}


def make_policy(name: str, **params) -> NamedTuple:
    """``make_policy("ucb1", c=0.5)``: the typed record of a registered policy
    (``bandits.registry``); unknown names or parameters are a one-line ValueError."""
    from .registry import get_policy  # the registry names the records defined here

    info = get_policy(name)
    unknown = sorted(set(params) - set(info.parameters))
    if unknown:
        raise ValueError(f"unknown {name} parameter {unknown[0]!r}: allowed "
                         f"{', '.join(info.parameters) or 'none'}")
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} parameter {key} = {value!r} must be a number, "
                             f"e.g. {key}={info.defaults[key]}")
    return info.record(**{key: float(value) for key, value in params.items()})


def policy_value(policy, mean, count, parent_count, tables, rng):
    """The index of one arm under ``policy`` (compiled code only; see the cores)."""
    raise NotImplementedError("policy_value runs inside compiled kernels only")


# Inlined in numba's IR: left to LLVM, the Thompson core (two Gamma draws) was called out of line
# for every child, its index tables passed as ~40 scalar arguments (Thompson runs 1.27x slower).
@overload(policy_value, inline="always", jit_options={"cache": True})
def _policy_value(policy, mean, count, parent_count, tables, rng):
    core = _CORES[policy.instance_class]

    def impl(policy, mean, count, parent_count, tables, rng):
        return core(mean, count, parent_count, policy.c, tables, rng)

    return impl


def _compiled_kind_test(function, kind):
    """Give ``function(policy)`` (``isinstance(policy, kind)`` in Python) a compiled form that
    answers from the policy's type alone, a constant for numba to prune branches on."""

    @overload(function, jit_options={"cache": True})
    def _is_kind(policy):
        answer = policy.instance_class is kind

        def impl(policy):
            return answer

        return impl

    return function


def caches_index(policy) -> bool:
    """Whether engines keep each child's index between selections to skip re-solving it
    (KL-UCB, whose index is a root; see ``mcts.synthetic``)."""
    return isinstance(policy, KLUCB)


def draws_index(policy) -> bool:
    """Whether the index is a random draw (Thompson), so that engines may draw the arms without
    a win last, by ``bandits.thompson_challenger`` (see ``mcts.synthetic``)."""
    return isinstance(policy, Thompson)


_compiled_kind_test(caches_index, KLUCB)
_compiled_kind_test(draws_index, Thompson)
