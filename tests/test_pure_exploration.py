"""Fixed-budget best-arm identification (``bandits.pure_exploration``): the error of successive
rejects and sequential halving on Bernoulli arms against its exact value, computed here by
enumerating every outcome of every phase (binomial sums, ties split uniformly)."""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import pytest
from scipy import stats

from bandits.arms import parse_arms
from bandits.pure_exploration import (
    check_budget,
    halving_rounds,
    log_bar,
    minimum_budget,
    rejects_schedule,
)
from experiments.plain_bandits.study import baseline_runs

RUNS = 50_000
Z_LIMIT = 3.5  # |z| of each comparison with an exact value


def _kept_sets(values: dict[int, float], keep: int):
    """(kept arms, probability) when the ``keep`` arms of highest value are kept and a tie at
    the cut is split uniformly."""
    ordered = sorted(values.values(), reverse=True)
    cut = ordered[keep - 1]
    above = tuple(a for a, v in values.items() if v > cut)
    tied = [a for a, v in values.items() if v == cut]
    need = keep - len(above)
    chosen = list(itertools.combinations(tied, need))
    return [(tuple(sorted(above + c)), 1 / len(chosen)) for c in chosen]


def exact_wrong(means, phases, fresh: bool) -> float:
    """P(the last arm left has a mean below the best) when phase p pulls each remaining arm
    ``phases[p][0]`` times and keeps the ``phases[p][1]`` of best mean, over that phase's pulls
    alone (``fresh``: sequential halving) or over all (successive rejects)."""
    best = max(means)

    @cache
    def wrong(phase, arms, sums):
        if phase == len(phases):
            return float(means[arms[0]] < best)
        pulls, keep = phases[phase]
        laws = [stats.binom(pulls, means[a]).pmf(np.arange(pulls + 1)) for a in arms]
        total = 0.0
        for draws in itertools.product(range(pulls + 1), repeat=len(arms)):
            weight = math.prod(law[x] for law, x in zip(laws, draws))
            if weight == 0.0:
                continue
            new = tuple(x + (0 if fresh else s) for x, s in zip(draws, sums))
            for kept, share in _kept_sets(dict(zip(arms, new)), keep):
                carried = tuple(new[arms.index(a)] for a in kept)
                total += weight * share * wrong(phase + 1, kept, (0,) * len(kept) if fresh
                                                else carried)
        return total

    k = len(means)
    return wrong(0, tuple(range(k)), (0,) * k)


def rejects_phases(budget, k):
    n = rejects_schedule(budget, k)
    return [(int(n[p] - n[p - 1]), k - p) for p in range(1, k)]


def halving_phases(budget, k):
    rounds, left, phases = halving_rounds(k), k, []
    for _ in range(rounds):
        phases.append((budget // (left * rounds), (left + 1) // 2))
        left = (left + 1) // 2
    return phases


CASES = [  # (algorithm, arms, budget)
    ("successive_rejects", "bernoulli(0.6,0.4)", 12),
    ("sequential_halving", "bernoulli(0.6,0.4)", 11),
    ("successive_rejects", "bernoulli(0.6,0.5,0.45,0.3)", 20),
    ("sequential_halving", "bernoulli(0.6,0.5,0.45,0.3)", 32),
    ("uniform", "bernoulli(0.6,0.5,0.45,0.3)", 16),
]


@pytest.mark.parametrize(("algorithm", "spec", "budget"), CASES)
def test_error_probability_matches_its_exact_value(algorithm, spec, budget):
    arms = parse_arms(spec)
    k = len(arms.means)
    phases = {"successive_rejects": rejects_phases, "sequential_halving": halving_phases,
              "uniform": lambda b, k: [(b // k, 1)]}[algorithm](budget, k)
    exact = exact_wrong(tuple(arms.means), phases, algorithm == "sequential_halving")
    chosen = baseline_runs(algorithm, arms, budget, RUNS, seed=11)
    observed = (arms.means[chosen] < arms.best).mean()
    z = (observed - exact) / math.sqrt(exact * (1 - exact) / RUNS)
    assert 0.05 < exact < 0.6  # a rate the z-test resolves
    assert abs(z) < Z_LIMIT, (observed, exact, z)


def test_the_oracle_tells_the_algorithms_apart():
    """Were sequential halving to reuse earlier rounds' pulls, or successive rejects to forget
    them, the exact error would move by more than (Z_LIMIT + 2.33) standard errors: the z-test
    above would see either mistake with probability >= 0.99."""
    means, detectable = (0.6, 0.5, 0.45, 0.3), (Z_LIMIT + 2.33) * math.sqrt(0.25 / RUNS)
    for phases in (halving_phases(32, 4), rejects_phases(20, 4)):
        fresh, kept = exact_wrong(means, phases, True), exact_wrong(means, phases, False)
        assert abs(fresh - kept) > detectable, (fresh, kept)


def test_schedules_by_hand():
    # Audibert & Bubeck: logbar(4) = 1/2 + 1/2 + 1/3 + 1/4; n_k = ceil(16 / (logbar (5 - k)))
    assert log_bar(4) == pytest.approx(19 / 12)
    assert list(rejects_schedule(20, 4)) == [0, 3, 4, 6]
    # Karnin et al.: 2 rounds on 4 arms, floor(32 / (4 2)) = 4 then floor(32 / (2 2)) = 8 pulls
    assert halving_phases(32, 4) == [(4, 2), (8, 1)]
    assert [minimum_budget(a, 4) for a in ("uniform", "successive_rejects",
                                           "sequential_halving")] == [4, 5, 8]


def test_a_budget_below_one_halving_round_is_refused():
    with pytest.raises(ValueError, match="budget 7 is too small for sequential halving on 4 arms"):
        check_budget("sequential_halving", 7, 4)
    check_budget("sequential_halving", 8, 4)
