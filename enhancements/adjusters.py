"""Threshold adjusters as typed records, for the compiled engine (seed 001, Sect. II-C and IV-B;
DESIGN.md §5).

An adjuster is a frozen NamedTuple of its parameters (the compiled engine's dispatch key, as a
policy's record is) with three compiled hooks, registered by :func:`register_hooks`:

* ``start(adjuster, score_low, score_high) -> (theta, state)``: the first threshold and the
  adjuster's state (a value or tuple of its choosing, arrays allocated here), given the bounds
  of every terminal score;
* ``observe(adjuster, state, score, reward, theta, since_change) -> state``: after every
  playout, its terminal score (0 below a proven node unless the record declares
  ``reads_scores = True``), the max player's reward, the current theta, and the playouts run
  under the current effective threshold, this one included (1 right after a change);
* ``threshold(adjuster, state, theta, since_change) -> (theta, state)``: the new theta, asked
  only once ``since_change`` reaches the engine's freeze.

The freeze, the effective threshold (``thresholds.effective_threshold``) and the exploration
restart are the engine's rules for every adjuster.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from .thresholds import maxfreq_observe, maxfreq_threshold, score_situational, value_situational


class AdjusterHooks(NamedTuple):
    start: object
    observe: object
    threshold: object


_HOOKS: dict[type, AdjusterHooks] = {}


def register_hooks(record: type, start, observe, threshold) -> None:
    """Make the compiled engine run ``record``'s adjusters by these njit hooks."""
    _HOOKS[record] = AdjusterHooks(start, observe, threshold)


def _hooks(record_class: type) -> AdjusterHooks:
    try:
        return _HOOKS[record_class]
    except KeyError:
        raise TypeError(f"{record_class.__name__} is not a registered adjuster record") from None


def reads_scores(adjuster) -> bool:
    """Whether the adjuster observes terminal scores, so the engine must descend to a terminal
    even below a proven node (its record's ``reads_scores`` trait)."""
    return bool(getattr(type(adjuster), "reads_scores", False))


@overload(reads_scores, jit_options={"cache": True})
def _reads_scores(adjuster):
    answer = bool(getattr(adjuster.instance_class, "reads_scores", False))
    return lambda adjuster: answer


def start_adjuster(adjuster, score_low, score_high):
    """(theta, state) of a new search (compiled code only)."""
    raise NotImplementedError("start_adjuster runs inside compiled kernels only")


def observe_playout(adjuster, state, score, reward, theta, since_change):
    """The state after one more playout (compiled code only)."""
    raise NotImplementedError("observe_playout runs inside compiled kernels only")


def next_threshold(adjuster, state, theta, since_change):
    """(theta, state) once the threshold may change (compiled code only)."""
    raise NotImplementedError("next_threshold runs inside compiled kernels only")


@overload(start_adjuster, jit_options={"cache": True})
def _start_adjuster(adjuster, score_low, score_high):
    start = _hooks(adjuster.instance_class).start
    return lambda adjuster, score_low, score_high: start(adjuster, score_low, score_high)


@overload(observe_playout, inline="always", jit_options={"cache": True})
def _observe_playout(adjuster, state, score, reward, theta, since_change):
    observe = _hooks(adjuster.instance_class).observe

    def impl(adjuster, state, score, reward, theta, since_change):
        return observe(adjuster, state, score, reward, theta, since_change)

    return impl


@overload(next_threshold, inline="always", jit_options={"cache": True})
def _next_threshold(adjuster, state, theta, since_change):
    threshold = _hooks(adjuster.instance_class).threshold

    def impl(adjuster, state, theta, since_change):
        return threshold(adjuster, state, theta, since_change)

    return impl


# --- seed 001's adjusters ---------------------------------------------------------------------

class Static(NamedTuple):
    """A fixed threshold: the tree's Static threshold, argmax Delta(theta) by exact analysis
    (seed 001, Sect. IV-A), set per tree instance; ``plain`` is its theta = 0 (seed 001,
    Sect. V), so both share one compiled kernel."""

    theta: float = 0.0


class Score(NamedTuple):
    """Score Situational (seed 001, Algorithm 1): every ``interval`` playouts,
    theta += mean(score - theta) / (1 + exp(c s))."""

    s: float = 0.2
    c: float = 24.0
    interval: int = 1
    reads_scores = True


class Value(NamedTuple):
    """Value Situational (seed 001, Algorithm 2): once ``interval`` playouts ran under the
    threshold, theta -= 1 if the win rate X since the change is below x_lo (the ratchet taking
    a positive theta), theta += 1 if X > x_hi and theta is below the ratchet."""

    x_lo: float = 0.05
    x_hi: float = 0.9
    interval: int = 10


class MaxFrequency(NamedTuple):
    """Maximum Frequency (seed 001, Algorithm 3): theta = the mode of all playout scores +
    offset, no effect while the mode is 0."""

    offset: float = 0.0
    reads_scores = True


@njit(inline="always")
def _fixed_observe(adjuster, state, score, reward, theta, since_change):
    return state


@njit(inline="always")
def _fixed_threshold(adjuster, state, theta, since_change):
    return theta, state


@njit(inline="always")
def _static_start(adjuster, score_low, score_high):
    return adjuster.theta, 0


@njit(inline="always")
def _score_start(adjuster, score_low, score_high):
    return 0.0, (0.0, 0)  # the sum of (score - theta) and the playouts since the last update


@njit(inline="always")
def _score_observe(adjuster, state, score, reward, theta, since_change):
    excess, count = state
    return excess + (score - theta), count + 1


@njit(inline="always")
def _score_threshold(adjuster, state, theta, since_change):
    excess, count = state
    if count < adjuster.interval:
        return theta, state
    return score_situational(theta, excess / count, adjuster.s, adjuster.c), (0.0, 0)


@njit(inline="always")
def _value_start(adjuster, score_low, score_high):
    return 0.0, (0.0, np.inf)  # max's rewards since the threshold changed, the ratchet


@njit(inline="always")
def _value_observe(adjuster, state, score, reward, theta, since_change):
    wins, ratchet = state
    return (reward if since_change == 1 else wins + reward), ratchet


@njit(inline="always")
def _value_threshold(adjuster, state, theta, since_change):
    wins, ratchet = state
    if since_change < adjuster.interval:
        return theta, state
    theta, ratchet = value_situational(theta, ratchet, wins / since_change, adjuster.x_lo,
                                       adjuster.x_hi)
    return theta, (wins, ratchet)


@njit
def _maxfreq_start(adjuster, score_low, score_high):
    # the histogram of scores from score_low, its lowest score, and the mode
    return 0.0, (np.zeros(score_high - score_low + 1, np.int64), np.int64(score_low),
                 np.int64(score_low))


@njit(inline="always")
def _maxfreq_observe(adjuster, state, score, reward, theta, since_change):
    histogram, low, mode = state
    return histogram, low, maxfreq_observe(histogram, low, mode, score, theta)


@njit(inline="always")
def _maxfreq_threshold(adjuster, state, theta, since_change):
    return maxfreq_threshold(theta, state[2], adjuster.offset), state


register_hooks(Static, _static_start, _fixed_observe, _fixed_threshold)
register_hooks(Score, _score_start, _score_observe, _score_threshold)
register_hooks(Value, _value_start, _value_observe, _value_threshold)
register_hooks(MaxFrequency, _maxfreq_start, _maxfreq_observe, _maxfreq_threshold)
