"""The range of PUCT's Q transform by parent and siblings (``bandits.horizon_free``; mctx's
``qtransform_by_parent_and_siblings``), one for every engine and the plain bandits.

Over the children j of one selection with visits n_j > 0 (children proven lost are left out by
the engines that skip them): the parent's value V = sum_j S_j / sum_j n_j, S_j the sum of
child j's rewards (the visit-weighted mean of the children's means; 1/2 when no child is
visited), and the lowest and highest mean of the children the engine puts in the range (those
visited since the exploration restart, seed 001 Eqs. 6-8); a guided search's parent counts
its own first evaluation in V too (``bandits.with_q_range``). Each engine reads its own layout by
a compiled ``read(children, child) -> (S_j, n_j, mean_j, in_range)``, ``children`` being the
arrays and options it needs, a child counting for nothing when n_j <= 0.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from .policies import has_trait, wants_q_range, with_q_range


def sibling_range(policy, read, children, first, count):
    """``policy`` with the Q transform's range (``bandits.with_q_range``) over the ``count``
    children from row ``first`` when it asks for one, read by ``read`` (module docstring);
    other records as they are, nothing of this compiled into their kernels (compiled code
    only)."""
    raise NotImplementedError("sibling_range runs inside compiled kernels only")


# inlined in numba's IR: per selection; compiled away for policies without the trait
@overload(sibling_range, inline="always", jit_options={"cache": True})
def _sibling_range(policy, read, children, first, count):
    if not has_trait(policy.instance_class, "reads_q_range"):
        return lambda policy, read, children, first, count: policy

    def ranged(policy, read, children, first, count):
        if not wants_q_range(policy):
            return policy
        total, visits, low, high = 0.0, 0.0, np.inf, -np.inf
        for child in range(first, first + count):
            reward_sum, n, mean, in_range = read(children, child)
            if n <= 0:
                continue
            total, visits = total + reward_sum, visits + n
            if in_range:
                low, high = min(low, mean), max(high, mean)
        return with_q_range(policy, total, visits, low, high)

    return ranged
