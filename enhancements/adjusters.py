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

Seed 001's adjusters are records too (``Static``, ``Score``, ``Value``, ``MaxFrequency``: the
registry's), but the engine runs them as one record of values, :class:`Builtin`
(``engine_adjuster``), so that they share one kernel per policy; a plug-in's record keeps its
type and gets a kernel of its own.
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
    even below a proven node (its record's ``reads_scores`` trait; a :class:`Builtin`'s
    ``scores_read``)."""
    if isinstance(adjuster, Builtin):
        return adjuster.scores_read
    return bool(getattr(type(adjuster), "reads_scores", False))


@overload(reads_scores, jit_options={"cache": True})
def _reads_scores(adjuster):
    if adjuster.instance_class is Builtin:
        return lambda adjuster: adjuster.scores_read
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


@overload(observe_playout, jit_options={"cache": True})
def _observe_playout(adjuster, state, score, reward, theta, since_change):
    observe = _hooks(adjuster.instance_class).observe

    def impl(adjuster, state, score, reward, theta, since_change):
        return observe(adjuster, state, score, reward, theta, since_change)

    return impl


@overload(next_threshold, jit_options={"cache": True})
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


# --- the built-in adjusters as data -------------------------------------------------------------

STATIC, SCORE, VALUE, MAXFREQ = 0, 1, 2, 3
_KINDS = {Static: STATIC, Score: SCORE, Value: VALUE, MaxFrequency: MAXFREQ}


class Builtin(NamedTuple):
    """Any of seed 001's adjusters as values the compiled engine reads at run time: ``kind``
    (STATIC, SCORE, VALUE or MAXFREQ) and the parameters of every kind, so that all of them,
    whatever their parameters, share one kernel per policy (a plug-in's record is a type of
    its own, with a kernel of its own). ``scores_read``: the kind observes terminal scores."""

    kind: int
    theta: float = 0.0
    s: float = 0.2
    c: float = 24.0
    interval: int = 1
    x_lo: float = 0.05
    x_hi: float = 0.9
    offset: float = 0.0
    scores_read: bool = False


def engine_adjuster(adjuster: NamedTuple) -> NamedTuple:
    """The record the engine runs: a built-in adjuster's values as a :class:`Builtin`, a
    plug-in's record as it is."""
    kind = _KINDS.get(type(adjuster))
    if kind is None:
        return adjuster
    return Builtin(kind, **adjuster._asdict(), scores_read=reads_scores(adjuster))


@njit
def _builtin_start(adjuster, score_low, score_high):
    """theta, and the state of every kind: Score's sum of (score - theta) and its playouts,
    Value's rewards since the change and its ratchet, MaxFrequency's histogram of the scores
    from score_low, its lowest score and the mode."""
    theta = adjuster.theta if adjuster.kind == STATIC else 0.0
    scores = score_high - score_low + 1 if adjuster.kind == MAXFREQ else 1
    return theta, (0.0, np.int64(0), 0.0, np.inf, np.zeros(scores, np.int64), np.int64(score_low),
                   np.int64(score_low))


@njit
def _builtin_observe(adjuster, state, score, reward, theta, since_change):
    excess, count, wins, ratchet, histogram, low, mode = state
    if adjuster.kind == SCORE:
        excess, count = excess + (score - theta), count + 1
    elif adjuster.kind == VALUE:
        wins = reward if since_change == 1 else wins + reward
    elif adjuster.kind == MAXFREQ:
        mode = maxfreq_observe(histogram, low, mode, score, theta)
    return excess, count, wins, ratchet, histogram, low, mode


@njit
def _builtin_threshold(adjuster, state, theta, since_change):
    excess, count, wins, ratchet, histogram, low, mode = state
    if adjuster.kind == SCORE and count >= adjuster.interval:
        theta = score_situational(theta, excess / count, adjuster.s, adjuster.c)
        excess, count = 0.0, np.int64(0)
    elif adjuster.kind == VALUE and since_change >= adjuster.interval:
        theta, ratchet = value_situational(theta, ratchet, wins / since_change, adjuster.x_lo,
                                           adjuster.x_hi)
    elif adjuster.kind == MAXFREQ:
        theta = maxfreq_threshold(theta, mode, adjuster.offset)
    return theta, (excess, count, wins, ratchet, histogram, low, mode)


register_hooks(Builtin, _builtin_start, _builtin_observe, _builtin_threshold)
