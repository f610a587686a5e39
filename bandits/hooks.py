"""What a policy may do beyond its index over one :class:`bandits.Arm` (DESIGN.md §4): keep
float64 columns per child between selections, index one parent's children by its own loop,
update its columns after a backup and drop them when the rewards they summarise move.

A record declares these as ``hooks = PolicyHooks(...)`` on its class (a plug-in in its
:class:`bandits.Policy`); a record without them has the defaults: no columns, the engine's loop
over ``policy_value``, nothing after a backup or on invalidation. Engines read the hooks at
typing time from ``policy.instance_class``, so a kernel holds only its own policy's code.

A hook sees one parent's children through the engine's *children view*, a NamedTuple with at
least the fields ``cache`` (float64 [rows, cache_columns], zeros at the start of a run; a child
k's row is ``first + k``), ``first``, ``b`` (the children) and ``t`` (the parent's t', seed
001, Eqs. 6-8), and read by the accessors below, which each engine implements for its own view
(``numba.extending.overload``); ``k``, a child's place, is a signed integer in [0, b). Hook
signatures (all compiled by ``@njit``, inlined in numba's IR or not):

* ``index_children(policy, view, tables, rng, values) -> float``: the children's indices into
  ``values[INDEX]`` (float64 [3, b]; rows 1 and 2 are scratch), -inf for a child out of the
  choice (``child_lost``) or one that cannot be the best; returns the highest. The engine
  breaks ties among the children at the highest at random.
* ``after_backup(policy, view, k, tables)``: after a playout's backup, once for each node on
  its path whose parent's next selection reads indices; ``k`` is the node's place among
  ``view``'s children.
* ``invalidate(policy, cache, row)``: the rewards of the node at ``row`` moved without a
  visit (``mcts.synthetic.rescoring``): make its columns match no statistics.

Every compiled engine's selection calls them (``mcts.core.child_indices``); the compiled games
engine (``mcts.games``) keeps no columns, so there a policy with columns has its index read
over every child's Arm, as in the Python engine (``mcts.generic``): a policy's hooks must
choose as its index would.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from numba.extending import overload

INDEX = 0  # the row of the selection's scratch values [3, b] that holds the indices

# each hook's parameters, as docs/extending.md and the module's docstring name them
SIGNATURES = {"index_children": ("policy", "view", "tables", "rng", "values"),
              "after_backup": ("policy", "view", "k", "tables"),
              "invalidate": ("policy", "cache", "row")}


@dataclass(frozen=True)
class PolicyHooks:
    """A policy's columns per child and its compiled hooks (None: the engine's default)."""

    cache_columns: int = 0
    index_children: object = None
    after_backup: object = None
    invalidate: object = None


DEFAULT_HOOKS = PolicyHooks()


def policy_hooks(record_class) -> PolicyHooks:
    """The hooks a record class declares (``hooks``), else the defaults."""
    return getattr(record_class, "hooks", DEFAULT_HOOKS)


def cache_columns(policy) -> int:
    """The float64 columns per child that ``policy``'s record keeps (0: none)."""
    return policy_hooks(type(policy)).cache_columns


@overload(cache_columns, jit_options={"cache": True})
def _cache_columns(policy):
    columns = policy_hooks(policy.instance_class).cache_columns
    return lambda policy: columns


def check_hooks(name: str, hooks: PolicyHooks) -> PolicyHooks:
    """``hooks`` of the plug-in ``name`` as declared, or a one-line ValueError naming the
    problem and the fix: whole, non-negative columns; hooks (compiled, as
    ``bandits.plugins.load_plugin`` checks) of their documented parameters; an index hook for
    columns, columns for the other hooks."""
    columns = hooks.cache_columns
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 0:
        raise ValueError(f"plug-in {name}: cache_columns = {columns!r}: declare a whole "
                         "number >= 0 of float64 columns per child, e.g. cache_columns=2")
    for hook, parameters in SIGNATURES.items():
        function = getattr(hooks, hook)
        if function is None:
            continue
        given = tuple(inspect.signature(function.py_func).parameters)
        if len(given) != len(parameters):
            raise ValueError(f"plug-in {name}: its {hook} takes {len(given)} parameters "
                             f"({', '.join(given)}): define it as {hook}"
                             f"({', '.join(parameters)})")
    if columns > 0 and hooks.index_children is None:
        raise ValueError(f"plug-in {name}: cache_columns = {columns} but no index_children "
                         "reads them: give index_children, or drop cache_columns")
    for hook in ("after_backup", "invalidate"):
        if getattr(hooks, hook) is not None and columns == 0:
            raise ValueError(f"plug-in {name}: its {hook} has no columns to update: declare "
                             "cache_columns, or drop the hook")
    return hooks


def child_lost(view, k) -> bool:
    """Whether child ``k`` is out of the choice: proven lost, and the selection skips those
    (some child is not). Compiled code only, as every accessor: each engine implements them."""
    raise NotImplementedError("child_lost runs inside compiled kernels only")


def child_visits(view, k) -> int:
    """T_i: all of child ``k``'s visits (it grows by one per visit: a key for a cache)."""
    raise NotImplementedError("child_visits runs inside compiled kernels only")


def child_count(view, k) -> int:
    """T'_i of seed 001, Eqs. 6-8: child ``k``'s visits since its parent's last snapshot."""
    raise NotImplementedError("child_count runs inside compiled kernels only")


def child_reward_sum(view, k) -> float:
    """The sum of child ``k``'s rewards for its mover, in [0, T_i]."""
    raise NotImplementedError("child_reward_sum runs inside compiled kernels only")


def child_prior(view, k) -> float:
    """P(k): a guided search's prior of child ``k`` (``mcts.synthetic.guidance``), else 1/b."""
    raise NotImplementedError("child_prior runs inside compiled kernels only")


def child_mean(view, k, tables) -> float:
    """Child ``k``'s mean reward in [0, 1], as its :class:`bandits.Arm` reads it."""
    raise NotImplementedError("child_mean runs inside compiled kernels only")
