"""The indices of an expanded node's children, as the policy's record asks (DESIGN.md §4,
``bandits.hooks``): by the policy's own ``index_children`` hook if it declares one (KL-UCB's
cached roots, Bayes-UCB's cached quantiles, Thompson's draws of the winless children last),
else the policy's index of each child not proven lost (``bandits.policy_value`` over the
view's ``child_arm``); after a backup, the policy's ``after_backup`` hook on the path's
nodes; after a re-scoring, its ``invalidate`` hook on the nodes whose rewards moved. Every
engine's selection calls them through its own children view (``mcts.children``: the synthetic
engine's ``search_tree.ChildrenView``, the games engine's ``game_tree.GameChildren``); the
hooks are chosen at typing time, so a policy's kernel holds none of the others' code.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from bandits import BuiltinPolicy, begin_selection, policy_value
from bandits.bayes_ucb_cache import forget_point, index_by_cached_quantiles
from bandits.hooks import INDEX, child_lost, policy_hooks
from bandits.indexing import ix
from bandits.klucb_cache import forget_root, index_by_cached_roots, solve_after_backup
from bandits.policies import BAYESUCB_KIND, KLUCB_KIND, THOMPSON_KIND
from bandits.thompson import draw_winless_last

from .children import child_arm, child_sibling
from .q_range import sibling_range
from .search_tree import BASE_EPOCH, FIRST_CHILD, ChildrenView, parent_count
from .solver import LOSS, UNPROVEN, WIN


def index_children(view, cached, tables, policy, rng, values):
    """The indices of ``view``'s children into ``values[INDEX]`` (-inf for a child out of the
    choice, ``child_lost``, or ruled out unseen); by the policy's ``index_children`` hook
    unless its columns per child are off (``cached``: the engine keeps none, or
    ``SearchConfig.cache_indices`` is False; None: the engine never keeps any, so the hook is
    not even compiled); returns the highest (compiled code only)."""
    raise NotImplementedError("index_children runs inside compiled kernels only")


@overload(index_children, inline="always", jit_options={"cache": True})
def _index_children(view, cached, tables, policy, rng, values):
    if policy.instance_class is BuiltinPolicy:
        return _builtin_indices(isinstance(cached, types.NoneType))
    hooks = policy_hooks(policy.instance_class)
    own = hooks.index_children
    if own is None:
        return lambda view, cached, tables, policy, rng, values: _indices(view, tables, policy,
                                                                          rng, values)
    if hooks.cache_columns == 0:
        return lambda view, cached, tables, policy, rng, values: own(policy, view, tables, rng,
                                                                     values)
    if isinstance(cached, types.NoneType):  # an engine that keeps no columns: no hook typed
        return lambda view, cached, tables, policy, rng, values: _indices(view, tables, policy,
                                                                          rng, values)

    def by_cache(view, cached, tables, policy, rng, values):
        if cached:
            return own(policy, view, tables, rng, values)
        return _indices(view, tables, policy, rng, values)

    return by_cache


def _builtin_indices(no_columns):
    """The built-ins' ``index_children``: each kind's hook, chosen at run time (``bandits``'
    kinds with hooks: Thompson's draws, and with columns KL-UCB's cached roots and Bayes-UCB's
    cached quantiles, not compiled for an engine that keeps ``no_columns``), else the index
    of each child."""
    if no_columns:
        def uncached(view, cached, tables, policy, rng, values):
            if policy.kind == THOMPSON_KIND:
                return draw_winless_last(policy, view, tables, rng, values)
            return _indices(view, tables, policy, rng, values)

        return uncached

    def by_kind(view, cached, tables, policy, rng, values):
        if policy.kind == THOMPSON_KIND:
            return draw_winless_last(policy, view, tables, rng, values)
        if cached and policy.kind == KLUCB_KIND:
            return index_by_cached_roots(policy, view, tables, rng, values)
        if cached and policy.kind == BAYESUCB_KIND:
            return index_by_cached_quantiles(policy, view, tables, rng, values)
        return _indices(view, tables, policy, rng, values)

    return by_kind


@njit(inline="always")
def _indices(view, tables, policy, rng, values):
    """Every child's index by the policy, into ``values[INDEX]``; returns the highest."""
    best, indices = -np.inf, values[INDEX]
    chooser = sibling_range(begin_selection(policy, rng), _sibling, (view, tables), 0, view.b)
    for k in range(view.b):
        indices[ix(k)] = -np.inf
        if child_lost(view, k):
            continue
        indices[ix(k)] = _index_of(chooser, child_arm(view, k, tables, policy), tables, rng)
        if np.isnan(indices[ix(k)]):
            raise ValueError("the policy's index is NaN (a plug-in's index dividing 0 by 0, or "
                             "a parameter out of its domain?): fix the index")
        best = max(best, indices[ix(k)])
    return best


def _index_of(policy, arm, tables, rng):
    """``bandits.policy_value`` of one child (compiled code only): a built-in's inlined in
    numba's IR (a switch on its kind, the cheap indices in it: called, the switch kept them
    out of line, 3x the cost of a playout); a plug-in's left to LLVM to inline, as typing a
    policy's index afresh in every engine's selection made the games engine's kernels take
    2-4x longer to compile."""
    raise NotImplementedError("_index_of runs inside compiled kernels only")


@overload(_index_of, inline="always", jit_options={"cache": True})
def _index_of_builtin(policy, arm, tables, rng):
    if policy.instance_class is BuiltinPolicy:
        return lambda policy, arm, tables, rng: policy_value(policy, arm, tables, rng)
    return None


@overload(_index_of, jit_options={"cache": True})
def _index_of_record(policy, arm, tables, rng):
    if policy.instance_class is BuiltinPolicy:
        return None
    return lambda policy, arm, tables, rng: policy_value(policy, arm, tables, rng)


@njit(inline="always")
def _sibling(children, k):
    """Child ``k`` of the view in ``children`` as PUCT's Q range reads it (``mcts.q_range``)."""
    view, tables = children
    return child_sibling(view, k, tables)


def after_backup(tree, path, depth, b, restart, cached, epoch, policy, tables):
    """The policy's ``after_backup`` hook, when it declares one and its columns are
    ``cached``, on each unproven node of the playout's ``path`` whose parent's next selection
    reads indices: neither visit count changes before it (a threshold change in between
    opens a new epoch, and a hook's columns must then be checked again there), and it is
    skipped where that selection needs no index (a sibling proven won, or all but one proven
    lost: both final). The others: nothing (compiled code only)."""
    raise NotImplementedError("after_backup runs inside compiled kernels only")


@overload(after_backup, inline="always", jit_options={"cache": True})
def _after_backup(tree, path, depth, b, restart, cached, epoch, policy, tables):
    builtin = policy.instance_class is BuiltinPolicy
    # the built-ins': KL-UCB's roots solved after the backup (``bandits.klucb_cache``)
    hook = solve_after_backup if builtin else policy_hooks(policy.instance_class).after_backup
    if hook is None:
        return lambda tree, path, depth, b, restart, cached, epoch, policy, tables: None

    def on_path(tree, path, depth, b, restart, cached, epoch, policy, tables):
        if not cached or (builtin and policy.kind != KLUCB_KIND):
            return
        stats = tree.stats
        for ply in range(1, depth + 1):
            node, parent = ix(path[ix(ply)]), ix(path[ix(ply - 1)])
            if tree.proven[node] != UNPROVEN:
                continue
            if restart and tree.snapshot[parent, BASE_EPOCH] != epoch:
                continue
            first = stats[parent, FIRST_CHILD]
            if _choice_is_forced(tree, first, b):
                continue
            view = ChildrenView(tree, tree.index_cache, first, b,
                                parent_count(tree, parent, restart), restart, False)
            hook(policy, view, np.int64(node) - first, tables)

    return on_path


def invalidate(policy, cache, node):
    """The policy's ``invalidate`` hook on ``node``'s columns, whose rewards moved without a
    visit (``mcts.rescoring``); nothing for a policy without one (compiled code only)."""
    raise NotImplementedError("invalidate runs inside compiled kernels only")


@overload(invalidate, inline="always", jit_options={"cache": True})
def _invalidate(policy, cache, node):
    if policy.instance_class is BuiltinPolicy:
        def by_kind(policy, cache, node):
            if policy.kind == KLUCB_KIND:
                forget_root(policy, cache, node)
            elif policy.kind == BAYESUCB_KIND:
                forget_point(policy, cache, node)

        return by_kind
    hook = policy_hooks(policy.instance_class).invalidate
    if hook is None:
        return lambda policy, cache, node: None
    return lambda policy, cache, node: hook(policy, cache, node)


@njit(inline="always")
def _choice_is_forced(tree, first, b):
    """Whether ``_select`` chooses among the b children from row ``first`` by the solver
    alone: some child proven won, or all but one proven lost. (``_select`` counts the same in
    its own loop, where the same pass draws the won child; a shared counting helper would
    need a second pass for that draw, which measured slower: commit 8ab996f.)"""
    wins, losses = 0, 0
    for child in range(first, first + b):
        wins += tree.proven[ix(child)] == WIN
        losses += tree.proven[ix(child)] == LOSS
    return wins > 0 or losses == b - 1
