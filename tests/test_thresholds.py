"""Threshold adjusters of seed 001 on scripted inputs (Algorithms 1-3, DESIGN.md §5)."""

import math

import numpy as np
import pytest

from enhancements import (
    effective_threshold,
    maxfreq_observe,
    maxfreq_threshold,
    score_situational,
    value_situational,
)
from experiments import Curve
from experiments.curves.failure import search_config, tree_instance
from trees import analyze


@pytest.mark.parametrize("theta, effective", [(0.0, 0.0), (0.3, 0.5), (0.9, 0.5), (-0.3, -0.5),
                                              (2.0, 2.0), (12.5, 12.5), (-1.0, -1.0)])
def test_effective_threshold(theta, effective):
    assert effective_threshold(theta) == effective


def test_score_situational_converges_to_a_constant_score():
    """theta <- theta + rate (7 - theta) with rate = 1/(1 + e^(24 * 0.2)): the gap shrinks by
    (1 - rate) per update, so the mean playout score relative to theta tends to 0."""
    rate = 1.0 / (1.0 + math.exp(24 * 0.2))
    theta = 0.0
    for _ in range(1000):
        theta = score_situational(theta, 7.0 - theta, 0.2, 24.0)
    assert theta == pytest.approx(7.0 * (1 - (1 - rate) ** 1000), rel=1e-12)
    assert abs(theta - 7.0) < 0.01


def test_value_situational_ratchet():
    """Algorithm 2: raise while the max player wins > 90%, lower below 5% and remember a
    positive threshold that was too high as the ratchet: raising stops once theta reaches it.
    Lowering from theta <= 0 leaves the ratchet alone."""
    theta, ratchet = 0.0, math.inf
    trajectory = []
    for win_rate in [0.95, 0.95, 0.95, 0.5, 0.01, 0.95, 0.95, 0.01, 0.01, 0.01, 0.95, 0.01,
                     0.01]:
        theta, ratchet = value_situational(theta, ratchet, win_rate, 0.05, 0.9)
        trajectory.append((theta, ratchet))
    assert trajectory == [(1, math.inf), (2, math.inf), (3, math.inf), (3, math.inf), (2, 3),
                          (3, 3), (3, 3), (2, 3), (1, 2), (0, 1), (1, 1), (0, 1), (-1, 1)]


def test_maxfreq_mode_of_a_known_histogram():
    histogram = np.zeros(21, np.int64)
    low, mode, theta = -10, -10, 0.0
    for score in [3, 3, 5, 5, 5, -2, -2, -2, -2, 5]:
        mode = maxfreq_observe(histogram, low, mode, score, theta)
    assert histogram[3 - low] == 2 and histogram[5 - low] == 4 and histogram[-2 - low] == 4
    # -2 overtook 5 with a fourth count; 5 then drew level but lies farther from theta = 0
    assert mode == -2
    assert maxfreq_threshold(theta, mode, -0.5) == -2.5
    assert maxfreq_threshold(1.5, 0, -0.5) == 1.5  # no effect while the mode is 0


def test_maxfreq_ties_keep_the_incumbent_at_equal_distance():
    histogram = np.zeros(11, np.int64)
    mode = maxfreq_observe(histogram, -5, -5, 2, 0.0)
    mode = maxfreq_observe(histogram, -5, mode, -2, 0.0)
    assert mode == 2  # same count, same distance to theta: the incumbent stays
    mode = maxfreq_observe(histogram, -5, mode, 1, 0.0)
    assert mode == 1  # same count, nearer theta


@pytest.mark.parametrize("spec, seed", [("constant'(1,13)", 0), ("random(4,3)", 7)])
def test_static_threshold_is_the_exact_oracle(spec, seed):
    curve = Curve(spec, adjuster="static")
    instance = tree_instance(curve.tree, 4, 8, seed, 0)
    assert search_config(curve, instance).adjuster.theta == analyze(instance).static_threshold
