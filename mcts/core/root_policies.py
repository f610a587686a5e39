"""Root policies built for the simple regret: the root's child of each playout chosen by a
schedule over the whole budget n, the selection policy below the root, as mctx's
``switching_action_selection_wrapper`` switches between a root's and an interior's selection.

A root policy is a record class (a NamedTuple: its fields are its spec's parameters, their
defaults the spec's) that declares its compiled steps as ``steps = RootSteps(...)``, registered
by name in ``mcts.core.root_specs`` (which parses the specs): sequential halving
(``mcts.core.halving_root``) and the Gumbel root (``mcts.core.gumbel_root``). The hooks below
read the steps at typing time from the record's class, as the engines read a selection
policy's hooks (``bandits.hooks``): a kernel holds its own root policy's code only, and the
plain search's ``NoRoot`` (no steps) compiles every hook away, so its kernel keeps its numbers
and its cost per playout.

The one search loop (``mcts.core.search_loop``) starts the schedule, lets it observe each
playout's root child, stops when it is spent and asks it for the move; an engine's descent
takes the root's child from :func:`root_pick`. The root is expanded before the first
playout (by the engine, which alone knows its moves), so that every playout passes through a
child of the policy's choosing. A schedule reads n, so a failure curve makes one search per
budget 2^k (``synthetic.run_searches``): about twice the largest budget's playouts. The
solver's rules hold: a root proven ends the search with the solver's move, and the move a
schedule picks is never a proven loss while a child is not (:func:`root_choice`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba.extending import overload

from .backup import node_gain
from .search_tree import FIRST_CHILD, VISITS
from .solver import NO_CHILD, UNPROVEN, preferred_child


@dataclass(frozen=True)
class RootSteps:
    """A root policy's compiled steps (``@njit``; those run per playout inlined in numba's IR),
    each taking the policy's record first and, but for ``new_state``, its own state (a
    NamedTuple of arrays) second:

    - ``new_state(record, branching, budget, root_value, guided)``: the state of a search of
      ``budget`` playouts over ``branching`` children, the rewards centred on ``root_value``
      (a guided search's evaluation of the root, else the middle of the engine's rewards);
    - ``start(record, state, budget, rng)``: once per search, before the first playout;
    - ``child(record, state, stats, rewards, playout)``: the offset in [0, K) of the root child
      that playout ``playout`` (from 1) descends into, from the tree's ``stats`` and
      ``rewards`` (``mcts.core.search_tree``'s columns, as in every engine); asked only while
      ``finished`` is False;
    - ``observe(record, state, child, reward, rng)``: that child's reward of the playout;
    - ``finished(record, state)``: whether the schedule is spent before the budget;
    - ``pick(record, state, stats, rewards)``: the child played, before the solver's rules;
    - ``set_priors(record, state, priors, first)``: a guided search's priors pi(a) of the
      root's children, ``priors[first:first + K]`` (None: the policy reads none).
    """

    new_state: object
    start: object
    child: object
    observe: object
    finished: object
    pick: object
    set_priors: object = None


class RootState(NamedTuple):
    """One search's root schedule: the root's children K and the policy's own state."""

    branching: int
    own: tuple


def _steps(root) -> RootSteps | None:
    """The steps of the typed record ``root``'s class (None: the plain search's ``NoRoot``)."""
    return getattr(getattr(root, "instance_class", None), "steps", None)


def has_root(root):
    """Whether a root policy chooses the root's children (compiled code only, as every hook
    below; each is nothing for ``NoRoot``, compiled away)."""
    raise NotImplementedError("has_root runs inside compiled kernels only")


# inlined in numba's IR: a constant of the record's type, the plain search pruned on it
@overload(has_root, inline="always", jit_options={"cache": True})
def _has_root(root):
    rooted = _steps(root) is not None
    return lambda root: rooted


def new_root_state(root, branching, budget, root_value, guided=False):
    """The state of a search of ``budget`` playouts under ``root`` over the root's
    ``branching`` children (None without a root policy), the rewards centred on
    ``root_value``; a ``guided`` search's priors (:func:`set_root_priors`)."""
    raise NotImplementedError("new_root_state runs inside compiled kernels only")


# once per search: a call
@overload(new_root_state, jit_options={"cache": True})
def _new_root_state(root, branching, budget, root_value, guided=False):
    steps = _steps(root)
    if steps is None:
        return lambda root, branching, budget, root_value, guided=False: None
    new_state = steps.new_state

    def state(root, branching, budget, root_value, guided=False):
        return RootState(branching, new_state(root, branching, budget, float(root_value),
                                              guided))

    return state


def set_root_priors(root, state, priors, first):
    """A guided search's priors pi(a) of the root's children, ``priors[first:first + K]``, into
    ``state`` (nothing without a root policy or for one that reads none)."""
    raise NotImplementedError("set_root_priors runs inside compiled kernels only")


# once per search: a call
@overload(set_root_priors, jit_options={"cache": True})
def _set_root_priors(root, state, priors, first):
    steps = _steps(root)
    if steps is None or steps.set_priors is None:
        return lambda root, state, priors, first: None
    own = steps.set_priors
    return lambda root, state, priors, first: own(root, state.own, priors, first)


def start_root(root, state, budget, rng):
    """Start the schedule of a search of ``budget`` playouts."""
    raise NotImplementedError("start_root runs inside compiled kernels only")


# once per search: a call
@overload(start_root, jit_options={"cache": True})
def _start_root(root, state, budget, rng):
    steps = _steps(root)
    if steps is None:
        return lambda root, state, budget, rng: None
    own = steps.start
    return lambda root, state, budget, rng: own(root, state.own, budget, rng)


def root_pick(root, state, depth, stats, rewards, playout):
    """The offset of the child a descent takes at ``depth`` by the root policy: at the root,
    its child of playout ``playout`` (from 1), from the tree's ``stats`` and ``rewards``
    (``mcts.core.search_tree``'s columns, as in every engine); NO_CHILD below the root or
    without a root policy, where the engine selects (mctx's
    ``switching_action_selection_wrapper``; the switch returns rather than calls the
    selection, since numba calls a function passed into an inlined call instead of inlining
    it, and the engines' selections are inlined)."""
    raise NotImplementedError("root_pick runs inside compiled kernels only")


@overload(root_pick, inline="always", jit_options={"cache": True})  # per node of a descent
def _root_pick(root, state, depth, stats, rewards, playout):
    steps = _steps(root)
    if steps is None:
        return lambda root, state, depth, stats, rewards, playout: NO_CHILD
    own = steps.child

    def pick(root, state, depth, stats, rewards, playout):
        if depth == 0:
            return own(root, state.own, stats, rewards, playout)
        return NO_CHILD

    return pick


def observe_root(root, state, path, stats, gains, rng):
    """The playout's root child (``path[1]``) and its reward, the one the backup gave that node
    (``mcts.core.backup.node_gain`` of the playout's ``gains``)."""
    raise NotImplementedError("observe_root runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(observe_root, inline="always", jit_options={"cache": True})
def _observe_root(root, state, path, stats, gains, rng):
    steps = _steps(root)
    if steps is None:
        return lambda root, state, path, stats, gains, rng: None
    own = steps.observe

    def observe(root, state, path, stats, gains, rng):
        own(root, state.own, path[1] - stats[0, FIRST_CHILD], node_gain(gains, 1, path[1])[0],
            rng)

    return observe


def root_finished(root, state):
    """Whether the schedule is spent before the budget (sequential halving's rounding)."""
    raise NotImplementedError("root_finished runs inside compiled kernels only")


# inlined in numba's IR: per playout
@overload(root_finished, inline="always", jit_options={"cache": True})
def _root_finished(root, state):
    steps = _steps(root)
    if steps is None:
        return lambda root, state: False
    own = steps.finished
    return lambda root, state: own(root, state.own)


def root_choice(root, state, stats, rewards, proven, rng, scratch):
    """The offset of the root child played, NO_CHILD without a root policy or with the root
    proven (the engine's final move then): the policy's pick under the solver's rules
    (``mcts.core.solver.preferred_child``, the other children ranked by visits): a child
    proven won first, and never one proven lost while some child is not. A schedule keeps a
    child it has ranked on means taken before its proof (a trap looks best until its loss is
    proven), so without that rule the root policies played proven losses on the atlas's trap
    tree. ``scratch`` is float64 [K] or more."""
    raise NotImplementedError("root_choice runs inside compiled kernels only")


# once per search: a call
@overload(root_choice, jit_options={"cache": True})
def _root_choice(root, state, stats, rewards, proven, rng, scratch):
    steps = _steps(root)
    if steps is None:
        return lambda root, state, stats, rewards, proven, rng, scratch: NO_CHILD
    own = steps.pick

    def choice(root, state, stats, rewards, proven, rng, scratch):
        if proven[0] != UNPROVEN:
            return NO_CHILD
        b = state.branching
        pick = own(root, state.own, stats, rewards)
        first = stats[0, FIRST_CHILD]
        for k in range(b):
            scratch[k] = stats[first + k, VISITS]
        scratch[pick] = np.inf
        return preferred_child(proven, first, b, rng, scratch)

    return choice
