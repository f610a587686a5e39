"""Gumbel MuZero's selection below the root (Danihelka, Guez, Schrittwieser & Silver 2022,
Sect. 5 and Appendix D; mctx's ``gumbel_muzero_interior_action_selection`` with
``qtransform_completed_by_mix_value``): deterministic, by the improved policy.

At a node of raw value v (its own first evaluation, for its mover) whose children have priors
pi(a), visits N(a) and, when visited, means q(a) (for the node's mover):

    v_mix   = (v + sum_b N(b) sum_{N(a)>0} pi(a) q(a) / sum_{N(a)>0} pi(a)) / (1 + sum_b N(b))
    q-hat(a) = q(a) if N(a) > 0 else v_mix, rescaled onto [0, 1] by its min and max over the
              children (denominator at least 1e-8)                     (Appendix D, Eq. 33)
    sigma(a) = (c_visit + max_b N(b)) c_scale q-hat(a)                          (Eq. 8)
    pi'     = softmax(log pi + sigma)                                          (Eq. 11)
    choose argmax_a pi'(a) - N(a) / (1 + sum_b N(b))                            (Eq. 14)

The root is the Gumbel root (``mcts.core.gumbel_root``) with the same m, c_visit and c_scale,
reading the priors. A guided search's engine gives the node's raw value to the record
(``with_own_evaluation``) and its children's priors to the view (``child_prior``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .hooks import INDEX, PolicyHooks, child_lost, child_mean, child_prior, child_visits

_TINY = np.finfo(np.float64).tiny  # mctx's floor of a prior in the mixed value
_EPSILON = 1e-8  # the least denominator of the rescaling (mctx's epsilon)


@njit  # per selection: a call (it loops over the children three times)
def _improved_policy_indices(policy, view, tables, rng, values):
    """pi'(a) - N(a) / (1 + sum N) of every child into ``values[INDEX]`` (-inf out of the
    choice); rows 1 and 2 are scratch. Returns the highest."""
    b = view.b
    total, most, weighted, weights = 0, 0, 0.0, 0.0
    for k in range(b):
        n = child_visits(view, k)
        if n > 0:
            prior = max(child_prior(view, k), _TINY)
            total += n
            most = max(most, n)
            weighted += prior * child_mean(view, k, tables)
            weights += prior
    mixed = policy.own_value
    if weights > 0:
        mixed = (policy.own_value + total * weighted / weights) / (total + 1)
    completed, logits = values[1], values[2]
    low, high = np.inf, -np.inf
    for k in range(b):
        completed[k] = child_mean(view, k, tables) if child_visits(view, k) > 0 else mixed
        low, high = min(low, completed[k]), max(high, completed[k])
    scale = (policy.c_visit + most) * policy.c_scale / max(high - low, _EPSILON)
    top = -np.inf
    for k in range(b):
        logits[k] = math.log(max(child_prior(view, k), _TINY)) + scale * (completed[k] - low)
        top = max(top, logits[k])
    norm = 0.0
    for k in range(b):
        logits[k] = math.exp(logits[k] - top)
        norm += logits[k]
    best, indices = -np.inf, values[INDEX]
    for k in range(b):
        indices[k] = -np.inf
        if child_lost(view, k):
            continue
        indices[k] = logits[k] / norm - child_visits(view, k) / (1.0 + total)
        best = max(best, indices[k])
    return best


class GumbelMuZero(NamedTuple):
    """Gumbel MuZero (mctx ``gumbel_muzero_policy``'s defaults): m considered root actions
    (Gumbel-top-k, then sequential halving), c_visit and c_scale of sigma, the Gumbel noise's
    scale (0: none, a deterministic search); ``own_value`` and ``own_count`` are not
    parameters but the node's raw value, set by the engine (``with_own_evaluation``)."""

    m: float = 16.0
    c_visit: float = 50.0
    c_scale: float = 0.1
    gumbel_scale: float = 1.0
    own_value: float = 0.0
    own_count: float = 0.0
    reads_prior = True  # its selection reads the children's priors
    root_policy = "gumbel"  # its root is the Gumbel root with its m, c_visit, c_scale
    hooks = PolicyHooks(index_children=_improved_policy_indices)

