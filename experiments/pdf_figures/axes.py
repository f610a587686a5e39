"""A plot frame's axes and the curves drawn on them (``experiments.pdf_figures``): each frame
maps its two ends to the tick labels drawn there, linearly in the value, or in its log10 on a
log axis (decades map linearly onto the frame); an axis is log when its inner labels sit where
log10 puts them, and every label must sit within ``LABEL_TOLERANCE`` of where the mapping puts
it. Curves are read at chosen abscissae by interpolation, and points measured against
polylines."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

SLACK = 1e-3  # relative: a vertex drawn at a frame's end maps there up to rounding
LABEL_TOLERANCE = 1.0  # pt: how far a tick label may sit from where its axis puts it


@dataclass(frozen=True)
class Axis:
    """An axis of a plot frame: its ends ``lo``, ``hi`` (PDF points) show ``lo_value`` and
    ``hi_value``; on a log axis the decades map linearly onto the frame."""

    lo: float
    hi: float
    lo_value: float
    hi_value: float
    log: bool


def _scaled(value: float, log: bool) -> float:
    return math.log10(value) if log else value


def _unscaled(value: float, log: bool) -> float:
    return 10 ** value if log else value


def axis_value(axis: Axis, point: float) -> float:
    """The value drawn at ``point`` (PDF points) on ``axis``."""
    lo, hi = _scaled(axis.lo_value, axis.log), _scaled(axis.hi_value, axis.log)
    return _unscaled(lo + (point - axis.lo) / (axis.hi - axis.lo) * (hi - lo), axis.log)


def axis_point(axis: Axis, value: float) -> float:
    """Where ``value`` is drawn on ``axis`` (PDF points): the inverse of ``axis_value``."""
    lo, hi = _scaled(axis.lo_value, axis.log), _scaled(axis.hi_value, axis.log)
    return axis.lo + (_scaled(value, axis.log) - lo) / (hi - lo) * (axis.hi - axis.lo)


def fit_axis(lo: float, hi: float, labels: list[tuple[float, float]]) -> Axis:
    """The axis of a frame from ``lo`` to ``hi`` (PDF points) with tick ``labels`` (position,
    value): the labels nearest the ends give the ends' values, log if the inner labels sit where
    log10 puts them; every label must sit within ``LABEL_TOLERANCE`` of its place."""
    if len(labels) < 3:
        raise ValueError(f"{len(labels)} tick labels on the frame {lo:.2f} .. {hi:.2f}: "
                         "3 or more tell a linear axis from a log one")
    first = min(labels, key=lambda label: abs(label[0] - lo))
    last = min(labels, key=lambda label: abs(label[0] - hi))
    if max(abs(first[0] - lo), abs(last[0] - hi)) > LABEL_TOLERANCE:
        raise ValueError(f"no tick label at the ends of the frame {lo:.2f} .. {hi:.2f}")
    fits = [Axis(lo, hi, first[1], last[1], False)]
    if min(value for _, value in labels) > 0:
        fits.append(Axis(lo, hi, first[1], last[1], True))

    def misfit(axis):
        return max(abs(axis_point(axis, value) - point) for point, value in labels)

    best = min(fits, key=misfit)
    if misfit(best) > LABEL_TOLERANCE:
        raise ValueError(f"the tick labels of the frame {lo:.2f} .. {hi:.2f} fit no axis")
    return best


def interpolate(points: list[tuple[float, float]], x: float, xlog: bool = True,
                ylog: bool = True) -> float:
    """y at ``x`` on the polyline through ``points`` ((x, y), x not decreasing), linear in
    log10 on log axes: between two vertices of a log-log plot, a power law."""
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x0 <= x <= x1 and x1 > x0:
            u = ((_scaled(x, xlog) - _scaled(x0, xlog))
                 / (_scaled(x1, xlog) - _scaled(x0, xlog)))
            return _unscaled(_scaled(y0, ylog) + u * (_scaled(y1, ylog) - _scaled(y0, ylog)),
                             ylog)
    for px, py in points:
        if px == x:
            return py
    raise ValueError(f"x = {x:g} is off the polyline ({points[0][0]:g} .. {points[-1][0]:g})")


def above_floor(points: list[tuple[float, float]], floor: float) -> list[tuple[float, float]]:
    """The polyline's vertices before it first reaches ``floor``, the lowest value of its log
    axis, where a failure rate 0 is clipped."""
    drawn = []
    for x, y in points:
        if y <= floor * (1 + SLACK):
            break
        drawn.append((x, y))
    return drawn


def powers_of_two(lo: float, hi: float) -> list[int]:
    """The t = 2^k, k >= 0, from ``lo`` to ``hi`` (up to a relative ``SLACK`` at both ends)."""
    k = max(0, math.ceil(math.log2(lo * (1 - SLACK))))
    powers = []
    while 2 ** k <= hi * (1 + SLACK):
        powers.append(2 ** k)
        k += 1
    return powers


def curve_at_powers(points: list[tuple[float, float]], floor: float) -> list[tuple[int, float]]:
    """(t, y) at t = 2^k within the drawn range of a log-log polyline (``above_floor``)."""
    drawn = above_floor(points, floor)
    if not drawn:
        return []
    lo, hi = drawn[0][0], drawn[-1][0]
    return [(t, interpolate(drawn, min(max(t, lo), hi))) for t in powers_of_two(lo, hi)]


def segment_distance(point: tuple[float, float], a: tuple[float, float],
                     b: tuple[float, float]) -> float:
    """The distance from ``point`` to the segment from ``a`` to ``b``."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    u = 0.0 if length == 0 else min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - u * dx, py - ay - u * dy)


def polyline_distance(point: tuple[float, float], points: list[tuple[float, float]]) -> float:
    """The distance from ``point`` to the polyline through ``points``."""
    if len(points) == 1:
        return math.dist(point, points[0])
    return min(segment_distance(point, a, b) for a, b in itertools.pairwise(points))
