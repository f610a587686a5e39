"""What the one selection (``mcts.core.child_indices``) reads of a parent's children beyond the
policies' accessors (``bandits.hooks``): each engine's children view implements both for its
own tree (``implements``), so the index loop, the PUCT range and the hooks are
written once for every engine (DESIGN.md §3-4).
"""

from __future__ import annotations

import inspect

from numba import types
from numba.extending import overload


def child_arm(view, k, tables, policy):
    """Child ``k`` as ``policy``'s index reads it: a :class:`bandits.Arm` of its mean on the
    index's scale, its mean squared reward (policies reading the second moment), T'_i, the
    parent's t' and the number of children (compiled code only, as every accessor)."""
    raise NotImplementedError("child_arm runs inside compiled kernels only")


def child_sibling(view, k, tables):
    """Child ``k`` as PUCT's Q range reads it (``bandits.q_range``): its reward sum, visits and
    mean on the index's scale, and whether it counts in the range of the means; a child out of
    the choice (``bandits.hooks.child_lost``) counts for nothing."""
    raise NotImplementedError("child_sibling runs inside compiled kernels only")


def implements(accessor, view_class, inline: bool = True):
    """Register the decorated function as ``accessor`` (a view accessor of ``bandits.hooks`` or
    of this module) for the views of the NamedTuple class ``view_class``; inlined in numba's IR
    unless ``inline`` is False (an accessor with a branch, which inlined inside a hook trips
    numba's scope check: LLVM inlines it instead)."""

    def register(implementation):
        def typer(*types_):
            view = types_[0]
            if isinstance(view, types.BaseNamedTuple) and view.instance_class is view_class:
                return implementation
            return None

        # numba matches the typing function's parameters with the implementation's
        typer.__signature__ = inspect.signature(implementation)
        options = {"inline": "always"} if inline else {}
        overload(accessor, jit_options={"cache": True}, **options)(typer)
        return implementation

    return register
