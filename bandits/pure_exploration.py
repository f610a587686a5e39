"""Best-arm identification at a fixed budget T: three allocation rules that spend
exactly T pulls (or fewer, by rounding) on the arms of ``bandits.arms`` and recommend one arm.

* uniform: arm t mod K at pull t (each arm floor(T / K) or one more pulls), then the arm of best
  empirical mean;
* successive rejects (Audibert & Bubeck 2010, Sect. 3): logbar(K) = 1/2 + sum_{i=2..K} 1/i,
  n_k = ceil((T - K) / (logbar(K) (K + 1 - k))) for k = 1..K-1 (n_0 = 0); phase k pulls each
  remaining arm n_k - n_{k-1} times, then rejects the one of lowest empirical mean over all
  its pulls; the last one left is recommended;
* sequential halving (Karnin, Koren & Somekh 2013, Algorithm 1): ceil(log2 K) rounds; round r
  pulls each of the |S_r| remaining arms t_r = floor(T / (|S_r| ceil(log2 K))) times and keeps
  the ceil(|S_r| / 2) of best average over that round's pulls (their p-hat_i^r); the last one
  left is recommended. Its schedule is ``bandits.sequential_halving``, which the trees'
  sequential-halving root (``mcts.core.root_policies``) runs too.

Every comparison breaks ties uniformly at random: the arms are ranked by (empirical mean, an
independent uniform key), which orders each group of equal means uniformly. Each run owns one
xoshiro256** stream (rewards and keys) seeded from its seed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .arms import draw_reward
from .rng import seed_state
from .sequential_halving import (
    ARM,
    FINISHED,
    halving_choice,
    halving_observe,
    halving_rounds,
    keep_best,
    new_halving,
    start_halving,
)

UNIFORM, SUCCESSIVE_REJECTS, SEQUENTIAL_HALVING = 0, 1, 2
ALGORITHMS = {"uniform": UNIFORM, "successive_rejects": SUCCESSIVE_REJECTS,
              "sequential_halving": SEQUENTIAL_HALVING}
LABELS = {"uniform": "uniform allocation", "successive_rejects": "successive rejects",
          "sequential_halving": "sequential halving"}


def log_bar(arms: int) -> float:
    """logbar(K) = 1/2 + sum_{i=2..K} 1/i (Audibert & Bubeck 2010)."""
    return 0.5 + sum(1.0 / i for i in range(2, arms + 1))


def rejects_schedule(budget: int, arms: int) -> np.ndarray:
    """int64 [K]: n_0 = 0, n_1, ..., n_{K-1} of successive rejects (the module docstring)."""
    bar = log_bar(arms)
    return np.array([0] + [math.ceil((budget - arms) / (bar * (arms + 1 - k)))
                           for k in range(1, arms)], np.int64)


def minimum_budget(algorithm: str, arms: int) -> int:
    """The smallest budget at which ``algorithm`` pulls every arm: K for uniform allocation,
    K + 1 for successive rejects (n_1 >= 1), K ceil(log2 K) for sequential halving (t_1 >= 1)."""
    return {"uniform": arms, "successive_rejects": arms + 1,
            "sequential_halving": arms * halving_rounds(arms)}[algorithm]


def check_budget(algorithm: str, budget: int, arms: int) -> None:
    """A one-line ValueError for a budget below :func:`minimum_budget`."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown pure-exploration algorithm {algorithm!r}: use one of "
                         f"{', '.join(ALGORITHMS)}")
    low = minimum_budget(algorithm, arms)
    if budget < low:
        what = {"uniform": "one pull of each arm",
                "successive_rejects": "one pull of each arm in the first phase",
                "sequential_halving": "one pull of each arm in the first halving round"}
        raise ValueError(f"budget {budget} is too small for {LABELS[algorithm]} on {arms} "
                         f"arms: it needs at least {low} ({what[algorithm]})")


@njit  # once per phase of a run: a call
def _keep_best(active, means, keep, rng):
    """``sequential_halving.keep_best`` with scratch of its own."""
    arms = means.shape[0]
    keep_best(active, means, keep, rng, np.empty(arms), np.empty(arms, np.bool_))


@njit  # once per phase of a run (the pulls loop inside): a call
def _pull_active(active, times, family, laws, sums, counts, rng):
    for k in range(active.shape[0]):
        if active[k]:
            for _ in range(times):
                sums[k] += draw_reward(family, laws[k], rng)
            counts[k] += times


@njit  # once per phase of a run: a call
def _means(sums, counts):
    means = np.empty(sums.shape[0])
    for k in range(sums.shape[0]):
        means[k] = sums[k] / counts[k] if counts[k] > 0 else -np.inf
    return means


@njit  # once per run: a call
def _one_run(algorithm, family, laws, budget, schedule, rounds, rng):
    arms = laws.shape[0]
    sums, counts = np.zeros(arms), np.zeros(arms, np.int64)
    active = np.ones(arms, np.bool_)
    if algorithm == UNIFORM:
        for t in range(budget):
            k = t % arms
            sums[k] += draw_reward(family, laws[k], rng)
            counts[k] += 1
        _keep_best(active, _means(sums, counts), 1, rng)
    elif algorithm == SUCCESSIVE_REJECTS:
        for phase in range(1, arms):
            _pull_active(active, schedule[phase] - schedule[phase - 1], family, laws, sums,
                         counts, rng)
            _keep_best(active, _means(sums, counts), arms - phase, rng)
    else:
        halving = new_halving(arms)
        start_halving(halving, budget, rounds, rng)
        while halving.step[ARM] != FINISHED:
            arm = halving.step[ARM]
            halving_observe(halving, arm, draw_reward(family, laws[arm], rng), rng)
        return halving_choice(halving)
    return np.argmax(active)


@njit(cache=True, nogil=True)
def pure_exploration_runs(algorithm, family, laws, budget, schedule, rounds, seeds):
    """The arm recommended (int64 [R]) by ``algorithm`` (``ALGORITHMS``) at ``budget`` in one
    run per seed (uint64 [R]) on the arms (``family``, ``laws`` float64 [K, 2]);
    ``schedule`` is :func:`rejects_schedule` and ``rounds`` :func:`halving_rounds`. The GIL is
    released."""
    recommended = np.empty(seeds.shape[0], np.int64)
    for r in range(seeds.shape[0]):
        recommended[r] = _one_run(algorithm, family, laws, budget, schedule, rounds,
                                  seed_state(seeds[r]))
    return recommended
