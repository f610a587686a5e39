"""The Gumbel root of Danihelka, Guez, Schrittwieser & Silver 2022 ("Policy improvement by
planning with Gumbel", Sect. 3-4 and Appendix D), as mctx's ``gumbel_muzero_policy`` runs it,
with a uniform prior (every logit 0) and no value network, or a guided search's prior and
value (``mcts.synthetic.guidance``): then the score adds log pi(a), the mixed value weighs the
visited children by pi(a), and v is the oracle's value of the root.

- A Gumbel(0, 1) variable g(a) per root child, drawn once per search.
- Sequential halving over budget n with m' = min(m, K) considered actions: at simulation s
  (the root children's visits so far) the child visited is, among those whose visit count equals
  the considered visit count v(s), the argmax of g(a) + sigma(q-hat(a)) (first on ties).
  v(s) is mctx's ``get_sequence_of_considered_visits(m', n)[s]``: phases of
  max(1, floor(n / (ceil(log2 m') k))) levels over the k considered actions (k = m', then
  max(2, floor(k / 2)) after each phase), a level giving each of them one visit; for m' = 1,
  v(s) = s. In the first level every child's q-hat is the same, so the m' visited are the
  top m' of g: Gumbel-top-k sampling without replacement.
- Completed Q (mctx's ``qtransform_completed_by_mix_value``): q(a) the child's mean reward for
  the root's mover; an unvisited child takes v_mix = (v + N sum_{visited} pi(a) q(a) /
  sum_{visited} pi(a)) / (N + 1) (Appendix D, Eq. 33; pi uniform), N the root children's
  visits and v the root's raw value, the middle of the engine's reward range (no network
  evaluates the root, and no playout is spent on it): 1/2 on the synthetic trees' [0, 1], 0
  on the games' [-R, R]. The completed values are rescaled to
  [0, 1] by their min and max over the children (denominator at least 1e-8), then
  sigma(q-hat) = (c_visit + max_b N(b)) c_scale q-hat.
- The move played: among the most visited children, the argmax of g(a) + sigma(q-hat(a)).

A root policy of ``mcts.core.root_policies``: the record :class:`GumbelRoot` and its steps
(the last in this module). The maths is compiled apart, not inlined in numba's IR, as
``bandits.sequential_halving`` (which says why).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits.rng import uniform

from .root_policies import RootSteps
from .search_tree import FIRST_CHILD, REWARD_SUM, VISITS

_EPSILON = 1e-8  # the least denominator of the rescaling (mctx's epsilon)
_TINY = np.finfo(np.float64).tiny  # mctx's floor of a prior in the mixed value


@njit(cache=True)
def draw_gumbels(gumbels, scale, rng):
    """One Gumbel(0, ``scale``) variable per child, -scale log(-log U) with U uniform in
    (0, 1) (scale 0: none, a deterministic root; the draws are made all the same)."""
    for k in range(gumbels.shape[0]):
        gumbels[k] = -np.log(-np.log(uniform(rng)))
        if scale != 1.0:
            gumbels[k] *= scale


@njit(cache=True)
def considered_visits(considered, budget, out):
    """v(s) for s = 0 .. budget - 1 into ``out`` (int64 [budget]): the module docstring's
    schedule over ``considered`` >= 1 actions."""
    if considered <= 1:
        for s in range(budget):
            out[s] = s
        return
    log2_max = 0
    while (1 << log2_max) < considered:
        log2_max += 1
    s, level, k = 0, 0, considered
    while s < budget:
        levels = max(1, budget // (log2_max * k))
        for _ in range(levels):
            for _ in range(k):
                if s < budget:
                    out[s] = level
                    s += 1
            level += 1
        k = max(2, k // 2)


@njit(cache=True)
def gumbel_scores(stats, rewards, gumbels, c_visit, c_scale, root_value, priors, scores):
    """g(a) + sigma(q-hat(a)) of every root child into ``scores`` (float64 [K]), from the
    tree's ``stats`` and ``rewards`` (``mcts.core.search_tree``'s columns) and v =
    ``root_value``; with a guided search's ``priors`` pi (float64 [K]; [0]: uniform),
    g(a) + log pi(a) + sigma(q-hat(a)), the mixed value weighing the visited by pi."""
    sums, b = rewards[:, REWARD_SUM], gumbels.shape[0]
    first, guided = stats[0, FIRST_CHILD], priors.shape[0] > 0
    total, visited, q_sum, most, weights = 0, 0, 0.0, 0, 0.0
    for k in range(b):
        n = stats[first + k, VISITS]
        if n > 0:
            weight = max(priors[k], _TINY) if guided else 1.0
            total += n
            visited += 1
            q_sum += weight * sums[first + k] / n
            weights += weight
            most = max(most, n)
    mixed = root_value if visited == 0 else (root_value + total * q_sum / weights) / (total + 1)
    low, high = np.inf, -np.inf
    for k in range(b):
        n = stats[first + k, VISITS]
        scores[k] = sums[first + k] / n if n > 0 else mixed
        low, high = min(low, scores[k]), max(high, scores[k])
    scale = (c_visit + most) * c_scale / max(high - low, _EPSILON)
    for k in range(b):
        scores[k] = gumbels[k] + scale * (scores[k] - low)
        if guided:
            scores[k] += np.log(max(priors[k], _TINY))


@njit(cache=True)
def best_considered(stats, scores, visits):
    """The first child of highest score among those of ``visits`` visits (-1: none)."""
    first, best = stats[0, FIRST_CHILD], -1
    for k in range(scores.shape[0]):
        if stats[first + k, VISITS] == visits and (best < 0 or scores[k] > scores[best]):
            best = k
    return best


@njit(cache=True)
def most_root_visits(stats, b):
    """max_b N(b) over the root's children."""
    first, most = stats[0, FIRST_CHILD], 0
    for k in range(b):
        most = max(most, stats[first + k, VISITS])
    return most


# --- the Gumbel root as a root policy (``mcts.core.root_policies.RootSteps``) -----------------


class GumbelState(NamedTuple):
    """One search's Gumbel variables g(a), mctx's considered visit counts v(s) (int64 [n]),
    scratch scores, the root's raw value v of the completed Q and a guided search's priors
    pi(a) of the root's children (float64 [K], or [0] unguided)."""

    gumbels: np.ndarray  # float64 [K]
    considered: np.ndarray
    scores: np.ndarray  # float64 [K]
    root_value: float
    priors: np.ndarray


@njit  # once per search: a call
def _new_state(root, branching, budget, root_value, guided):
    return GumbelState(np.zeros(branching), np.zeros(budget, np.int64), np.zeros(branching),
                       root_value, np.zeros(branching if guided else 0))


@njit  # once per search: a call
def _set_priors(root, state, priors, first):
    for k in range(state.priors.shape[0]):
        state.priors[k] = priors[first + k]


@njit  # once per search: a call
def _start(root, state, budget, rng):
    draw_gumbels(state.gumbels, root.gumbel_scale, rng)
    considered_visits(min(root.m, state.gumbels.shape[0]), budget, state.considered)


@njit(inline="always")  # per playout: argmax of g + sigma(q-hat) among the considered
def _child(root, state, stats, rewards, playout):
    gumbel_scores(stats, rewards, state.gumbels, root.c_visit, root.c_scale, state.root_value,
                  state.priors, state.scores)
    return best_considered(stats, state.scores, state.considered[playout - 1])


@njit(inline="always")  # per playout: nothing (the tree's statistics are the Gumbel root's)
def _observe(root, state, child, reward, rng):
    return None


@njit(inline="always")  # per playout: its schedule spends the whole budget
def _finished(root, state):
    return False


@njit  # once per search, a call: among the most visited
def _pick(root, state, stats, rewards):
    gumbel_scores(stats, rewards, state.gumbels, root.c_visit, root.c_scale, state.root_value,
                  state.priors, state.scores)
    return best_considered(stats, state.scores, most_root_visits(stats, state.gumbels.shape[0]))


class GumbelRoot(NamedTuple):
    """The Gumbel root's parameters: m considered actions, c_visit and c_scale of sigma, the
    scale of the Gumbel noise (0: none, mctx's ``gumbel_scale``)."""

    m: int = 16
    c_visit: float = 50.0
    c_scale: float = 1.0
    gumbel_scale: float = 1.0

    steps = RootSteps(_new_state, _start, _child, _observe, _finished, _pick, _set_priors)

    @staticmethod
    def least_budget(branching: int) -> int:
        """One playout."""
        return 1

    @staticmethod
    def state_bytes(branching: int, budget: int) -> int:
        """Bytes of its state: three arrays of K and v(s), one count per playout."""
        return 8 * (3 * branching + 1) + 8 * budget
