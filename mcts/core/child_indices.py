"""The indices of an expanded node's children, as the policy's record asks (DESIGN.md §4,
``bandits.hooks``): by the policy's own ``index_children`` hook if it declares one (KL-UCB's
cached roots, Bayes-UCB's cached quantiles, Thompson's draws of the winless children last),
else the policy's index of each child not proven lost (``bandits.policy_value`` over the
view's ``child_arm``); after a backup, the policy's ``after_backup`` hook on the path's
nodes; after a re-scoring, its ``invalidate`` hook on the nodes whose rewards moved. Every
engine's selection calls them through its own children view (``mcts.core.children``: the synthetic
engine's ``search_tree.ChildrenView``, the games engine's ``game_tree.GameChildren``); the
hooks are chosen at typing time, so a policy's kernel holds none of the others' code.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from bandits import begin_selection, policy_value
from bandits.hooks import INDEX, child_lost, policy_hooks
from bandits.indexing import ix
from bandits.q_range import sibling_range

from .children import child_arm, child_sibling
from .search_tree import BASE_EPOCH, FIRST_CHILD, ChildrenView, parent_count
from .solver import LOSS, UNPROVEN, WIN


def index_children(view, cached, tables, policy, rng, values):
    """The indices of ``view``'s children into ``values[INDEX]`` (-inf for a child out of the
    choice, ``child_lost``, or ruled out unseen); by the policy's ``index_children`` hook
    unless its columns per child are off (``cached``: the engine keeps none, or
    ``SearchConfig.cache_indices`` is False; None: the engine never keeps any, so the hook is
    not even compiled); returns the highest (compiled code only)."""
    raise NotImplementedError("index_children runs inside compiled kernels only")


# inlined in numba's IR: per selection; a policy without hooks compiles them away
@overload(index_children, inline="always", jit_options={"cache": True})
def _index_children(view, cached, tables, policy, rng, values):
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


@njit(inline="always")  # per selection: the loop over the children
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
    """``bandits.policy_value`` of one child (compiled code only). Left to LLVM to inline,
    not inlined in numba's IR: there a policy's index (KL-UCB's Newton steps, Bayes-UCB's
    quantile) is typed and optimised again in every engine's selection, which made the games
    engine's kernels take 2-4x longer to compile."""
    raise NotImplementedError("_index_of runs inside compiled kernels only")


@overload(_index_of, jit_options={"cache": True})
def _index_of_record(policy, arm, tables, rng):
    return lambda policy, arm, tables, rng: policy_value(policy, arm, tables, rng)


@njit(inline="always")  # per child of PUCT's range of Q
def _sibling(children, k):
    """Child ``k`` of the view in ``children`` as PUCT's Q range reads it
    (``bandits.q_range``)."""
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


# inlined in numba's IR: per playout; a policy without the hook compiles it away
@overload(after_backup, inline="always", jit_options={"cache": True})
def _after_backup(tree, path, depth, b, restart, cached, epoch, policy, tables):
    hook = policy_hooks(policy.instance_class).after_backup
    if hook is None:
        return lambda tree, path, depth, b, restart, cached, epoch, policy, tables: None

    def on_path(tree, path, depth, b, restart, cached, epoch, policy, tables):
        if not cached:
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
    visit (``mcts.synthetic.rescoring``); nothing for a policy without one (compiled code only)."""
    raise NotImplementedError("invalidate runs inside compiled kernels only")


# inlined in numba's IR: per re-scored node; compiled away without the hook
@overload(invalidate, inline="always", jit_options={"cache": True})
def _invalidate(policy, cache, node):
    hook = policy_hooks(policy.instance_class).invalidate
    if hook is None:
        return lambda policy, cache, node: None
    return lambda policy, cache, node: hook(policy, cache, node)


@njit(inline="always")  # per node of the playout's path
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
