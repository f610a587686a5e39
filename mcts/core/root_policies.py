"""Root policies built for the simple regret: the root's child of each playout
chosen by a schedule over the whole budget n, the built-in policy below the root, as a record
``SearchConfig.root`` (``mcts.core.root_specs``: the specs, their records and what each
needs). The plain search's ``NoRoot`` compiles every hook below away, so
its kernel keeps its numbers and its cost per playout; the root policies share one kernel
apart (per policy and b), their kind and parameters read at run time.

- ``sh``: sequential halving at the root (Karnin, Koren & Somekh 2013; at the root of MCTS:
  H-MCTS, Pepels, Cazenave, Winands & Lanctot 2014, and SHOT, Cazenave 2014, there
  recursively), ``bandits.sequential_halving``'s schedule over the root's K children, each
  playout a pull of the child it descends into and its reward the one that child keeps; the
  move played is the last child left. It needs n >= K ceil(log2 K) for one playout per child in
  the first round (:func:`minimum_budget`); below that it runs as Karnin's algorithm does with
  t_r = 0: a round without playouts keeps children drawn uniformly.
- ``gumbel(m=16, c_visit=50, c_scale=1, gumbel_scale=1)``: the Gumbel root of Danihelka et
  al. 2022 (``mcts.core.gumbel_root``), mctx's ``gumbel_muzero_policy``, with a uniform prior
  or a guided search's (``mcts.synthetic.guidance``).

Each kind is a set of compiled steps (start, the child of a playout, its observation, the end
of the schedule, the child played); ``_by_kind`` is the one place the kernels read the kind,
``root_name`` the one place outside them (docs/extending.md, "A new root policy").

The root is expanded before the first playout, so that every playout passes through a child
of the policy's choosing. A root schedule reads n, so a failure curve makes one search per
budget 2^k (``synthetic.run_searches``): about twice the largest budget's playouts. The
solver's rules hold: a root proven ends the search with the solver's move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from bandits.sequential_halving import (
    ARM,
    FINISHED,
    Halving,
    halving_choice,
    halving_observe,
    halving_rounds,
    new_halving,
    start_halving,
)

from .gumbel_root import (
    best_considered,
    considered_visits,
    draw_gumbels,
    gumbel_scores,
    most_root_visits,
)
from .root_specs import GUMBEL, HALVING, RootPolicy
from .search_tree import FIRST_CHILD, VISITS
from .solver import preferred_child


class RootState(NamedTuple):
    """One search's root schedule: sequential halving's, the Gumbel variables, mctx's
    considered visit counts v(s) (int64 [n] for the Gumbel root, else [1]), scratch, the
    root's raw value v of the completed Q (``mcts.core.gumbel_root``: a guided search's
    evaluation of the root, else the middle of the engine's reward range) and a guided
    search's priors of the root's children (``set_root_priors``)."""

    halving: Halving
    gumbels: np.ndarray  # float64 [K]
    considered: np.ndarray
    scores: np.ndarray  # float64 [K]
    root_value: float
    priors: np.ndarray  # float64 [K, or 0 unguided]: pi(a), read by the Gumbel root


def _rooted(root) -> bool:
    """Whether the typed ``root`` is a root policy's record (else :class:`NoRoot`)."""
    return isinstance(root, types.BaseNamedTuple) and root.instance_class is RootPolicy


def has_root(root):
    """Whether a root policy chooses the root's children (compiled code only, as every hook
    below; each is nothing for :class:`NoRoot`, compiled away)."""
    raise NotImplementedError("has_root runs inside compiled kernels only")


# inlined in numba's IR: a constant of the record's type, the plain search pruned on it
@overload(has_root, inline="always", jit_options={"cache": True})
def _has_root(root):
    rooted = _rooted(root)
    return lambda root: rooted


def new_root_state(root, branching, budget, root_value, guided=False):
    """The arrays of a search of ``budget`` playouts under ``root`` (None without one), the
    rewards centred on ``root_value``; a ``guided`` search's priors (``set_root_priors``)."""
    raise NotImplementedError("new_root_state runs inside compiled kernels only")


@overload(new_root_state, jit_options={"cache": True})
def _new_root_state(root, branching, budget, root_value, guided=False):
    if not _rooted(root):
        return lambda root, branching, budget, root_value, guided=False: None

    def arrays(root, branching, budget, root_value, guided=False):
        return RootState(new_halving(branching), np.zeros(branching),
                         np.zeros(_by_kind(root, _halving_slots, _gumbel_slots, (budget,)),
                                  np.int64),
                         np.zeros(branching), float(root_value),
                         np.zeros(branching if guided else 0))

    return arrays


def set_root_priors(root, state, priors, first):
    """A guided search's priors pi(a) of the root's children, ``priors[first:first + K]``, into
    ``state``: the Gumbel root adds log pi(a) to its scores and weighs its mixed value by
    them (compiled code only; nothing without a root policy)."""
    raise NotImplementedError("set_root_priors runs inside compiled kernels only")


# once per search: a call
@overload(set_root_priors, jit_options={"cache": True})
def _set_root_priors(root, state, priors, first):
    if not _rooted(root):
        return lambda root, state, priors, first: None

    def copy(root, state, priors, first):
        for k in range(state.priors.shape[0]):
            state.priors[k] = priors[first + k]

    return copy


def start_root(root, state, budget, rng):
    """Start the schedule of a search of ``budget`` playouts: sequential halving's first round,
    or the Gumbel variables and v(s)."""
    raise NotImplementedError("start_root runs inside compiled kernels only")


# once per search: a call
@overload(start_root, jit_options={"cache": True})
def _start_root(root, state, budget, rng):
    if not _rooted(root):
        return lambda root, state, budget, rng: None
    return lambda root, state, budget, rng: _by_kind(root, _halving_start, _gumbel_start,
                                                     (state, budget, rng))


def root_child(root, state, stats, rewards, playout):
    """The offset of the root child that playout ``playout`` (from 1) descends into, from the
    tree's ``stats`` and ``rewards`` (``mcts.core.search_tree``'s columns, as in every engine)."""
    raise NotImplementedError("root_child runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(root_child, inline="always", jit_options={"cache": True})
def _root_child(root, state, stats, rewards, playout):
    if not _rooted(root):
        return lambda root, state, stats, rewards, playout: 0
    return lambda root, state, stats, rewards, playout: _by_kind(
        root, _halving_child, _gumbel_child, (state, stats, rewards, playout))


def observe_root(root, state, child, reward, rng):
    """The root child ``child``'s reward of the playout (sequential halving counts it)."""
    raise NotImplementedError("observe_root runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(observe_root, inline="always", jit_options={"cache": True})
def _observe_root(root, state, child, reward, rng):
    if not _rooted(root):
        return lambda root, state, child, reward, rng: None
    return lambda root, state, child, reward, rng: _by_kind(
        root, _halving_observe, _gumbel_observe, (state, child, reward, rng))


def root_finished(root, state):
    """Whether the schedule is spent before the budget (sequential halving's rounding)."""
    raise NotImplementedError("root_finished runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(root_finished, inline="always", jit_options={"cache": True})
def _root_finished(root, state):
    if not _rooted(root):
        return lambda root, state: False
    return lambda root, state: _by_kind(root, _halving_finished, _gumbel_finished, (state,))


def root_choice(root, state, stats, rewards, proven, rng, scratch):
    """The offset of the root child played: the policy's (the last left, or the Gumbel root's
    argmax of g + sigma(q-hat) among the most visited) under the solver's rules
    (``mcts.core.solver.preferred_child``, the other children ranked by visits): a child proven
    won first, and never one proven lost while some child is not. A schedule keeps a child it
    has ranked on means taken before its proof (a trap looks best until its loss is proven),
    so without that rule the root policies played proven losses on the atlas's trap tree.
    ``scratch`` is float64 [K] or more."""
    raise NotImplementedError("root_choice runs inside compiled kernels only")


# once per search: a call
@overload(root_choice, jit_options={"cache": True})
def _root_choice(root, state, stats, rewards, proven, rng, scratch):
    if not _rooted(root):
        return lambda root, state, stats, rewards, proven, rng, scratch: 0

    def choice(root, state, stats, rewards, proven, rng, scratch):
        b = state.gumbels.shape[0]
        pick = _by_kind(root, _halving_pick, _gumbel_pick, (state, stats, rewards))
        first = stats[0, FIRST_CHILD]
        for k in range(b):
            scratch[k] = stats[first + k, VISITS]
        scratch[pick] = np.inf
        return preferred_child(proven, first, b, rng, scratch)

    return choice


# --- each kind's steps, and the one place a kernel reads the kind --------------------------
# A step is ``step(root, args)``, ``args`` the hook's arguments but the record. ``_by_kind``
# takes the steps as functions and is inlined in numba's IR into its hook, so that each step
# is a direct call (a function passed to a call numba does not inline is a pointer, which it
# cannot cache); the steps run per playout are inlined too, the others called.


@njit(inline="always")  # into its hook: its steps are passed as functions (above)
def _by_kind(root, halving, gumbel, args):
    """``halving(root, args)`` or ``gumbel(root, args)``, by ``root.kind``."""
    if root.kind == HALVING:
        return halving(root, args)
    if root.kind == GUMBEL:
        return gumbel(root, args)
    raise ValueError("unknown root policy kind: make the record with parse_root")


@njit  # once per search: a call
def _halving_slots(root, args):
    return 1  # v(s) unused


@njit  # once per search: a call
def _gumbel_slots(root, args):
    return args[0]  # v(s): one a playout


@njit  # once per search: a call
def _halving_start(root, args):
    state, budget, rng = args
    start_halving(state.halving, budget, halving_rounds(state.gumbels.shape[0]), rng)


@njit  # once per search: a call
def _gumbel_start(root, args):
    state, budget, rng = args
    draw_gumbels(state.gumbels, root.gumbel_scale, rng)
    considered_visits(min(root.m, state.gumbels.shape[0]), budget, state.considered)


@njit(inline="always")  # per playout: the arm of the round's turn
def _halving_child(root, args):
    return args[0].halving.step[ARM]


@njit(inline="always")  # per playout: argmax of g + sigma(q-hat) among the considered
def _gumbel_child(root, args):
    state, stats, rewards, playout = args
    gumbel_scores(stats, rewards, state.gumbels, root.c_visit, root.c_scale, state.root_value,
                  state.priors, state.scores)
    return best_considered(stats, state.scores, state.considered[playout - 1])


@njit(inline="always")  # per playout: the pull counted in the round
def _halving_observe(root, args):
    state, child, reward, rng = args
    halving_observe(state.halving, child, reward, rng)


@njit(inline="always")  # per playout: nothing (the tree's statistics are the Gumbel root's)
def _gumbel_observe(root, args):
    return None


@njit(inline="always")  # per playout
def _halving_finished(root, args):
    return args[0].halving.step[ARM] == FINISHED


@njit(inline="always")  # per playout: its schedule spends the whole budget
def _gumbel_finished(root, args):
    return False


@njit  # once per search, a call: the last child left
def _halving_pick(root, args):
    return halving_choice(args[0].halving)


@njit  # once per search, a call: among the most visited
def _gumbel_pick(root, args):
    state, stats, rewards = args
    gumbel_scores(stats, rewards, state.gumbels, root.c_visit, root.c_scale, state.root_value,
                  state.priors, state.scores)
    return best_considered(stats, state.scores, most_root_visits(stats, state.gumbels.shape[0]))
