"""Sequential halving (Karnin, Koren & Somekh 2013, Algorithm 1) one pull at a time: the one
schedule of the flat bandits' fixed-budget identification (``bandits.pure_exploration``) and
of the trees' sequential-halving root (``mcts.core.root_policies``: H-MCTS, Pepels, Cazenave,
Winands & Lanctot 2014; SHOT, Cazenave 2014), so that both make the same pulls.

With K arms and budget T: ceil(log2 K) rounds; round r pulls each of the |S_r| remaining arms
t_r = floor(T / (|S_r| ceil(log2 K))) times, in turns (the arms left in index order, t_r
times over), then keeps the ceil(|S_r| / 2) of best average over that round's pulls alone
(p-hat_i^r). The algorithm leaves the order within a round free: for stationary arms any order
gives the same law. At the root of MCTS the arms are not stationary (the tree below grows, and
an adjuster such as MaxFrequency moves the threshold that scores every playout), and a round
pulled arm after arm compares means taken under different thresholds: so pulled, sequential
halving at the root under MaxFrequency failed 0.18-0.23 of its runs at 4,096 playouts on
Constant(1,3..7) (the quick atlas), where UCB1 fails none, and pulled in turns it fails none
either (docs/design.md §3).
Ties are broken by K independent uniform keys drawn at the end of the round (every arm's, in
index order). A round with t_r = 0 (T < K ceil(log2 K)) pulls nothing and keeps arms by the keys
alone. The last arm left is recommended; at most T pulls are made (the rounding may leave some).

Its functions are compiled apart, never inlined in numba's IR (``@njit`` alone): so inlined
into a loop that also inlined ``mcts.synthetic.score_reward.playout_reward``, the kept arms came out
wrong (numba 0.68; tests/test_root_policies.py's flat driver showed it), and a call per pull
costs nothing measurable.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .rng import uniform

# the integers of ``Halving.step``: the arm to pull next (FINISHED after the last round), the
# pulls so far in this round (of t_r |S_r|), t_r, |S_r|, r, T and the number of rounds
ARM, DONE, PER_ARM, LEFT, ROUND, BUDGET, ROUNDS = range(7)
FINISHED = -1


class Halving(NamedTuple):
    """One run of sequential halving over K arms."""

    active: np.ndarray  # bool [K]: S_r
    sums: np.ndarray  # float64 [K]: this round's reward sums (its means at the round's end)
    counts: np.ndarray  # int64 [K]: this round's pulls
    keys: np.ndarray  # float64 [K]: scratch, the tie-breaking keys
    kept: np.ndarray  # bool [K]: scratch, the arms kept
    step: np.ndarray  # int64 [7]: the integers above


@njit(cache=True)
def halving_rounds(arms):
    """ceil(log2 K), the rounds of sequential halving over K >= 1 arms."""
    rounds = 0
    while (1 << rounds) < arms:
        rounds += 1
    return rounds


@njit(cache=True)
def new_halving(arms):
    """The arrays of a run over ``arms`` arms (:func:`start_halving` starts it)."""
    return Halving(np.ones(arms, np.bool_), np.zeros(arms), np.zeros(arms, np.int64),
                   np.zeros(arms), np.zeros(arms, np.bool_), np.zeros(7, np.int64))


@njit(cache=True)
def keep_best(active, means, keep, rng, keys, kept):
    """Keep in ``active`` (bool [K]) the ``keep`` arms of highest ``means``, ties by K uniform
    keys drawn first (into ``keys``; ``kept`` is scratch)."""
    arms = means.shape[0]
    for k in range(arms):
        keys[k] = uniform(rng)
        kept[k] = False
    for _ in range(keep):
        pick = -1
        for k in range(arms):
            if active[k] and not kept[k] and (
                    pick < 0 or means[k] > means[pick]
                    or (means[k] == means[pick] and keys[k] > keys[pick])):
                pick = k
        kept[pick] = True
    for k in range(arms):  # a loop, not a slice: the search loop runs without numba's NRT
        active[k] = kept[k]


@njit(cache=True)
def start_halving(halving, budget, rounds, rng):
    """Start a run of ``budget`` pulls and ``rounds`` (:func:`halving_rounds`) rounds; rounds
    of no pulls are played at once (their keys drawn from ``rng``)."""
    step = halving.step
    for k in range(halving.active.shape[0]):
        halving.active[k], halving.sums[k], halving.counts[k] = True, 0.0, 0
    step[LEFT], step[ROUND], step[BUDGET], step[ROUNDS] = halving.active.shape[0], 0, budget, rounds
    _open_round(halving, rng)


@njit(cache=True)
def halving_observe(halving, arm, reward, rng):
    """Count one pull of ``arm`` (``halving.step[ARM]``) and its ``reward``; move to the next
    arm left (after the last, the first), or end the round (drawing its keys) and open the
    next."""
    step = halving.step
    halving.sums[arm] += reward
    halving.counts[arm] += 1
    step[DONE] += 1
    if step[DONE] < step[PER_ARM] * step[LEFT]:
        step[ARM] = _next_active(halving.active, arm + 1)
        if step[ARM] == FINISHED:
            step[ARM] = _next_active(halving.active, 0)
        return
    step[DONE] = 0
    _close_round(halving, rng)
    _open_round(halving, rng)


@njit(cache=True)
def halving_choice(halving):
    """The recommended arm: the first active one (the only one after the last round)."""
    return np.argmax(halving.active)


@njit(cache=True)
def _next_active(active, start):
    for k in range(start, active.shape[0]):
        if active[k]:
            return k
    return FINISHED


@njit(cache=True)
def _open_round(halving, rng):
    """Open round step[ROUND] (t_r > 0) or, after the last, finish; a round of t_r = 0 is
    closed at once."""
    step = halving.step
    while step[ROUND] < step[ROUNDS]:
        per_arm = step[BUDGET] // (step[LEFT] * step[ROUNDS])
        if per_arm > 0:
            step[PER_ARM], step[DONE] = per_arm, 0
            step[ARM] = _next_active(halving.active, 0)
            return
        _close_round(halving, rng)
    step[ARM] = FINISHED


@njit(cache=True)
def _close_round(halving, rng):
    """Keep the ceil(|S_r| / 2) arms of best mean over the round's pulls (an arm not pulled:
    -inf) and clear the round's sums."""
    step, sums, counts = halving.step, halving.sums, halving.counts
    for k in range(sums.shape[0]):
        sums[k] = sums[k] / counts[k] if counts[k] > 0 else -np.inf
    step[LEFT] = (step[LEFT] + 1) // 2
    keep_best(halving.active, sums, step[LEFT], rng, halving.keys, halving.kept)
    for k in range(sums.shape[0]):
        sums[k], counts[k] = 0.0, 0
    step[ROUND] += 1
