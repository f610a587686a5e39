"""Sequential halving at the root (Karnin, Koren & Somekh 2013; at the root of MCTS: H-MCTS,
Pepels, Cazenave, Winands & Lanctot 2014, and SHOT, Cazenave 2014, there recursively):
``bandits.sequential_halving``'s schedule over the root's K children, each playout a pull of the
child it descends into and its reward the one that child keeps; the move played is the last
child left. It needs n >= K ceil(log2 K) for one playout per child in the first round
(:meth:`HalvingRoot.least_budget`); below that it runs as Karnin's algorithm does with
t_r = 0: a round without playouts keeps children drawn uniformly.

A root policy of ``mcts.core.root_policies``: the record :class:`HalvingRoot` and its steps.
"""

from __future__ import annotations

from typing import NamedTuple

from numba import njit

from bandits.sequential_halving import (
    ARM,
    FINISHED,
    halving_choice,
    halving_observe,
    halving_rounds,
    new_halving,
    start_halving,
)

from .root_policies import RootSteps


@njit  # once per search: a call
def _new_state(root, branching, budget, root_value, guided):
    return new_halving(branching)


@njit  # once per search: a call
def _start(root, halving, budget, rng):
    start_halving(halving, budget, halving_rounds(halving.active.shape[0]), rng)


@njit(inline="always")  # per playout: the arm of the round's turn
def _child(root, halving, stats, rewards, playout):
    return halving.step[ARM]


@njit(inline="always")  # per playout: the pull counted in the round
def _observe(root, halving, child, reward, rng):
    halving_observe(halving, child, reward, rng)


@njit(inline="always")  # per playout
def _finished(root, halving):
    return halving.step[ARM] == FINISHED


@njit  # once per search, a call: the last child left
def _pick(root, halving, stats, rewards):
    return halving_choice(halving)


class HalvingRoot(NamedTuple):
    """Sequential halving at the root (no parameters). Its record equals ``NoRoot()`` as a
    tuple (both are empty): tell them apart by their type, as the lab does."""

    steps = RootSteps(_new_state, _start, _child, _observe, _finished, _pick)

    @staticmethod
    def least_budget(branching: int) -> int:
        """K ceil(log2 K): one playout per child in the first round."""
        return branching * halving_rounds(branching)

    @staticmethod
    def state_bytes(branching: int, budget: int) -> int:
        """Bytes of its state: ``bandits.sequential_halving.Halving``'s arrays."""
        return 8 * (5 * branching + 7)
