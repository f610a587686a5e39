"""Pooled verdicts of the Pepels reproduction on hand-made results: pooling, the paper's pooled
values, power, the verdict rules and the combined-bonus comparison, all checked by hand."""

import math

import pandas as pd
import pytest

from experiments.papers.pepels.verdicts import (
    combined_better,
    headline_verdicts,
    paper_pooled,
    pooled,
    power,
    verdict,
)


def results(game, cells):
    """A ``results.csv`` table: one match per (key, budget index, games, wins, draws)."""
    return pd.DataFrame([{"game": game, "match": key, "budget_index": b, "games": n,
                          "wins": w, "draws": d} for key, b, n, w, d in cells])


def test_pooled_counts_draws_half_and_gives_the_wilson_interval():
    rows = results("breakthrough", [("qb-online", 0, 10, 6, 2), ("qb-0.25", 1, 10, 3, 0)])
    p = pooled(rows)
    assert p["games"] == 20 and p["score"] == 10.0 and p["rate"] == 50.0
    # Wilson at p = 1/2, n = 20: 1.96 sqrt(1/80 + 1.96^2/1600) / (1 + 1.96^2/20) = 0.2007
    assert p["low"] == pytest.approx(29.93, abs=0.01)
    assert p["high"] == pytest.approx(70.07, abs=0.01)


def test_paper_pooled_is_the_mean_rate_with_the_half_width_over_root_cells():
    rate, half = paper_pooled("3", "breakthrough", ("qb-online", "qb-0.25"))
    assert rate == pytest.approx((74.8 + 71.9 + 76.3 + 78.6) / 4)
    assert half == pytest.approx((1.2 + 1.2 + 1.2 + 1.1) / 4 / 2)
    assert paper_pooled("4", "chinesecheckers", ("quality",)) == (48.5, 4.4)
    assert paper_pooled("2", "amazons", ("rb-k2-0.25",)) is None  # not in Table 2


def test_power_by_hand():
    # p = 0.55, n = 40: (0.05 sqrt(40) - 0.98) / sqrt(0.2475) = -1.334 -> 0.091
    assert power(55.0, 40) == pytest.approx(0.091, abs=0.001)
    assert power(45.0, 40) == pytest.approx(power(55.0, 40))
    assert power(75.0, 160) > 0.999
    assert power(50.0, 10_000) < 0.03  # no effect, nothing to detect


@pytest.mark.parametrize("ours, paper, chance, expected", [
    (1, 1, math.nan, "agrees"), (0, 0, math.nan, "agrees"), (-1, -1, 0.3, "agrees"),
    (-1, 1, 0.9, "disagrees"), (0, 1, 0.5, "inconclusive (underpowered)"),
    (0, -1, 0.9, "does not reproduce"), (1, 0, math.nan, "differs")])
def test_verdict_rules(ours, paper, chance, expected):
    assert verdict(ours, paper, chance) == expected


def test_headline_verdicts_pool_weights_and_budgets():
    frame = results("breakthrough", [
        ("qb-online", 0, 20, 15, 0), ("qb-0.25", 0, 20, 15, 0),
        ("qb-online", 1, 20, 15, 0), ("qb-0.25", 1, 20, 15, 0),
        ("rb-online", 0, 20, 10, 0), ("rb-0.25", 1, 20, 9, 2),
        ("quality", 0, 20, 10, 0)])
    v = headline_verdicts(frame).set_index("finding")
    assert list(v.index) == ["RB", "QB", "reward = q"]
    qb = v.loc["QB"]
    assert (qb.cells, qb.games, qb.ours) == (4, 80, 75.0)
    assert qb.ours_significance == 1 and qb.paper_significance == 1 and qb.verdict == "agrees"
    rb = v.loc["RB"]  # 20 of 40: no effect, as the paper's 50.05 +- 0.35
    assert rb.ours == 50.0 and rb.paper_significance == 0 and math.isnan(rb.power)
    assert rb.verdict == "agrees"
    q = v.loc["reward = q"]
    # paper 35.4 +- 4.2 (a loss); 20 games: (0.146 sqrt(20) - 0.98) / sqrt(0.354 x 0.646) -> 25%
    assert q.paper_significance == -1 and q.power == pytest.approx(0.247, abs=0.002)
    assert q.verdict == "inconclusive (underpowered)"


def test_combined_better_needs_both_single_bonuses_beaten():
    cells = [("rb-online", 0, 100, 50, 0), ("qb-online", 0, 100, 60, 0),
             ("rbqb-online", 0, 100, 90, 0)]
    tie = cells[:2] + [("rbqb-online", 0, 100, 60, 0)]
    v = headline_verdicts(pd.concat([results("breakthrough", cells), results("pentalath", tie),
                                     results("cannon", cells[:2])]))
    flags = combined_better(v).set_index("game")
    assert list(flags.index) == ["breakthrough", "pentalath"]  # Cannon has no RB+QB
    # ours 90 vs 60 and 50; the paper's 77.0 +- 0.575 vs QB's 75.4 +- 0.5875: 1.6 > 0.82
    assert flags.loc["breakthrough"].tolist() == [True, True]
    # ours 60 vs QB's 60; the paper's 51.3 +- 0.7 vs RB's 50.125 +- 0.7: 1.175 > 0.99
    assert flags.loc["pentalath"].tolist() == [False, True]
