"""Threshold adjusters of seed 001 (Sect. II-C and IV-B) as pure compiled functions.

The adjusters' hooks (``.adjusters``) call these after every playout; DESIGN.md §5 fixes the
details. Scores are integers, so only theta's place among them matters:
the *effective* threshold is theta when integral, else floor(theta) + 0.5.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def effective_threshold(theta):
    """theta if it is an integer, else floor(theta) + 0.5."""
    floor = math.floor(theta)
    return theta if theta == floor else floor + 0.5


@njit(cache=True)
def score_situational(theta, mean_excess, s, c):
    """Algorithm 1 (Baudis 2011, Score Situational): theta + rate * mean(score - theta) with
    rate = 1 / (1 + exp(c * phase)) and phase = moves played at the root (0 here) + s."""
    return theta + mean_excess / (1.0 + math.exp(c * s))


@njit(cache=True)
def value_situational(theta, ratchet, win_rate, x_lo, x_hi):
    """Algorithm 2 (Value Situational) with its ratchet: returns (theta, ratchet)."""
    if win_rate < x_lo:
        if theta > 0.0:
            ratchet = theta
        return theta - 1.0, ratchet
    if win_rate > x_hi and theta < ratchet:
        return theta + 1.0, ratchet
    return theta, ratchet


@njit(cache=True)
def maxfreq_observe(histogram, low, mode, score, theta):
    """Algorithm 3: count ``score`` and return the histogram's mode. A score that overtakes
    the mode replaces it; one that ties it replaces it only when strictly nearer theta. This
    equals the mode with ties nearest theta while |offset| <= 0.5 (theta then sits within 0.5
    of the mode)."""
    histogram[score - low] += 1
    count, best = histogram[score - low], histogram[mode - low]
    if score != mode and (
        count > best or (count == best and abs(score - theta) < abs(mode - theta))
    ):
        return score
    return mode


@njit(cache=True)
def maxfreq_threshold(theta, mode, offset):
    """theta = mode + offset; no effect while the mode is 0."""
    return theta if mode == 0 else mode + offset
