"""Kocsis & Szepesvari (2006), Figs. 2 and 3 read from the paper's PDF, so that anyone can check
the paper's numbers the reproduction is held against.

Both figures are vector graphics (gnuplot), so their points come from the PDF's drawing
operators (``pdfplumber``), not by eye:

- axes: each plot frame (the stroked rectangle) maps its two ends to the tick labels drawn there,
  linearly in the value, or in its log10 on a log axis (decades map linearly onto the frame); an
  axis is log when its inner labels sit where log10 puts them, and every label must sit within
  1 pt of where the mapping puts it;
- legend: the text inside a frame; beside each label, its drawn sample: a marker glyph (the
  paths drawn one after the other around one centre: filled square, filled triangle, square or
  circle with a dot, +, x, + over x), a line sample, and for UCT an error bar;
- series: an entry's markers are the glyphs of the same shape as its sample (the same paths,
  sizes, fill and stroke); its polyline is the connected path (gnuplot's pieces joined end to
  start) whose distance to those markers is least (median over the markers). An entry without
  marker (Fig. 3's reference lines) takes the first path drawn after its line sample: gnuplot
  draws a key sample, then its plot. Every line of both figures is solid black of one width, so
  dash pattern and colour tell nothing apart here.

Fig. 2, ``fig2.csv``: per panel and method, the polyline at t = 2^k within its drawn range (from
its first vertex to the last before it reaches the axis floor 1e-5, a failure rate 0 clipped),
interpolated linearly in log-log space between vertices; and UCT's markers with their 95% error
bars (an end clipped at the floor is empty). Not read: each panel's horizontal line without a
legend entry (about 0.11 at B=2, 0.17 at B=8), and the short spikes up from the floor after a
curve has reached it.

Fig. 3, ``fig3.csv``: per panel every data series at its polyline's vertices (the drawn x), and
the reference lines (drawn as functions) at the x values of the panel's data.

``python -m experiments.papers.kocsis.paper_figures PDF --out DIR`` writes both into DIR;
``experiments/papers/kocsis/data`` holds the ones read from the public PDF.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import math
import re
import statistics
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ...runtime.store import make_folder, write_atomically

SOURCE = ("the public repository wzhe06/Ad-papers, file "
          '"Exploration and Exploitation/Bandit based Monte-Carlo Planning.pdf"')
PAPER = ('Kocsis & Szepesvari (2006), "Bandit based Monte-Carlo planning", ECML, LNCS 4212')
# the paper's legend labels -> the lab's method names
METHODS = {"UCT": "uct", "AB": "alphabeta", "MC": "flatmc", "MMMC": "mmmc"}
CAPTIONS = {"fig2": "Fig.2.", "fig3": "Fig.3."}
SLACK = 1e-3  # relative: a vertex drawn at a frame's end maps there up to rounding
LABEL_TOLERANCE = 1.0  # pt: how far a tick label may sit from where its axis puts it
GLYPH_SIZE = 3.0  # pt: a marker's paths are at most this wide and high
JOIN = 0.01  # pt: a path piece continues the previous one when it starts where that ended
ON_POLYLINE = 1.0  # pt: the median distance of an entry's markers to its polyline, at most
FIG2_COLUMNS = ("panel", "method", "kind", "iterations", "failure_rate", "ci_low", "ci_high")
FIG3_COLUMNS = ("panel", "series", "x", "iterations")


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


def series_name(label: str) -> str:
    """Fig. 3's legend label as a series name: "UCT, err=0.010" -> "uct err=0.01"; a
    reference line keeps its label ("2^(D/2)")."""
    match = re.fullmatch(r"(\w+)\s*,\s*err\s*=\s*([\d.]+)", label)
    if not match:
        return label
    return f"{METHODS.get(match[1], match[1].lower())} err={float(match[2]):g}"


def panel_name(title: str) -> str:
    """A panel's title as a name: "B = 2, D = 4-20" -> "B=2 D=4-20"."""
    return " ".join(re.sub(r"\s*=\s*", "=", title).replace(",", " ").split())


@dataclass(frozen=True)
class Shape:
    """A path the page draws, ``order``-th on the page: its points (PDF points, y up)."""

    order: int
    kind: str  # "line", "rect" or "curve" (pdfminer's LTLine, LTRect, LTCurve)
    points: tuple[tuple[float, float], ...]
    ops: str  # the path's operators, e.g. "mlllh"
    fill: bool
    stroke: bool
    width: float
    dashed: bool

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs, ys = [x for x, _ in self.points], [y for _, y in self.points]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bbox
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def size(self) -> float:
        x0, y0, x1, y1 = self.bbox
        return max(x1 - x0, y1 - y0)

    @property
    def signature(self) -> tuple:
        """What the shape looks like, wherever it is drawn."""
        x0, y0, x1, y1 = self.bbox
        return (self.kind, self.ops, self.fill, self.stroke, round(x1 - x0, 1),
                round(y1 - y0, 1), _orientation(self))


def _orientation(shape: Shape) -> str:
    if len(shape.points) != 2:
        return ""
    (ax, ay), (bx, by) = shape.points
    if abs(bx - ax) < JOIN and abs(by - ay) < JOIN:
        return "."
    if abs(by - ay) < JOIN:
        return "-"
    if abs(bx - ax) < JOIN:
        return "|"
    return "/" if (bx - ax) * (by - ay) > 0 else "\\"


@dataclass(frozen=True)
class Word:
    """Text on one line without a gap: its ends and middle height (PDF points, y up)."""

    text: str
    x0: float
    x1: float
    y: float

    @property
    def x(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass(frozen=True)
class Glyph:
    """A marker: the paths drawn one after the other around one centre."""

    center: tuple[float, float]
    shapes: tuple[Shape, ...]

    @property
    def signature(self) -> tuple:
        return tuple(sorted(shape.signature for shape in self.shapes))


@dataclass(frozen=True)
class Entry:
    """A legend entry: its label and drawn sample (marker glyph, line sample, error bar)."""

    label: str
    glyph: Glyph | None
    line: Shape | None
    errorbars: bool


def _pdfplumber():
    try:
        import pdfplumber
    except ImportError:
        raise ValueError("pdfplumber is not installed: pip install pdfplumber "
                         "(or pip install 'mctslab[papers]')") from None
    return pdfplumber


_KINDS = {"LTLine": "line", "LTRect": "rect", "LTCurve": "curve"}


def page_content(layout) -> tuple[list[Shape], list[Word]]:
    """The shapes, in drawing order, and the upright words of a pdfminer page layout."""
    shapes, chars = [], []

    def walk(items):
        for item in items:
            name = type(item).__name__
            if name == "LTFigure":
                walk(item)
            elif name == "LTChar" and item.upright:
                chars.append(item)
            elif name in _KINDS:
                dash = item.dashing_style
                shapes.append(Shape(
                    len(shapes), _KINDS[name], tuple((float(x), float(y)) for x, y in item.pts),
                    "".join(segment[0] for segment in getattr(item, "original_path", []) or []),
                    bool(item.fill), bool(item.stroke), float(item.linewidth),
                    bool(dash and dash[0])))

    walk(layout)
    return shapes, words(chars)


def words(chars) -> list[Word]:
    """The chars (pdfminer's) grouped into words: one line (middles within 0.5 pt), no gap
    wider than 1 pt between neighbours."""
    found, row = [], []

    def flush():
        row.sort(key=lambda c: c.x0)
        start = 0
        for i in range(1, len(row) + 1):
            if i == len(row) or row[i].x0 - row[i - 1].x1 > 1.0:
                text = "".join(c.get_text() for c in row[start:i]).strip()
                if text:
                    found.append(Word(text, row[start].x0, row[i - 1].x1,
                                      statistics.mean((c.y0 + c.y1) / 2 for c in row[start:i])))
                start = i
        row.clear()

    for char in sorted(chars, key=lambda c: (c.y0 + c.y1) / 2):
        if row and (char.y0 + char.y1) / 2 - (row[0].y0 + row[0].y1) / 2 > 0.5:
            flush()
        row.append(char)
    flush()
    return found


def read_pages(pdf: str | Path) -> dict[str, tuple[list[Shape], list[Word]]]:
    """The shapes and words of the pages of Fig. 2 and Fig. 3 (found by their captions)."""
    pdfplumber = _pdfplumber()
    found = {}
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            text = "".join((page.extract_text() or "").split())
            for figure, caption in CAPTIONS.items():
                if caption in text and figure not in found:
                    found[figure] = page_content(page.layout)
    missing = [CAPTIONS[figure] for figure in CAPTIONS if figure not in found]
    if missing:
        raise ValueError(f"{pdf}: no page with the caption {', '.join(missing)}")
    return found


@dataclass(frozen=True)
class Plot:
    """One panel: its name, axes, legend, markers by entry, and polylines by entry label."""

    name: str
    x: Axis
    y: Axis
    entries: tuple[Entry, ...]
    markers: dict[str, list[Glyph]]
    polylines: dict[str, list[tuple[float, float]]]
    data: tuple[Shape, ...]


def frames(shapes: list[Shape]) -> list[Shape]:
    """The plot frames, left to right: stroked unfilled rectangles over 50 pt each way (gnuplot
    draws each twice)."""
    found = {}
    for shape in shapes:
        x0, y0, x1, y1 = shape.bbox
        big = min(x1 - x0, y1 - y0) > 50
        if shape.kind == "rect" and shape.stroke and not shape.fill and big:
            found.setdefault(tuple(round(v, 1) for v in shape.bbox), shape)
    return sorted(found.values(), key=lambda frame: frame.bbox[0])


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def frame_axes(frame: Shape, page_words: list[Word]) -> tuple[Axis, Axis]:
    """The frame's x axis (labels below it) and y axis (labels left of it)."""
    x0, y0, x1, y1 = frame.bbox
    numbers = [(word, _number(word.text)) for word in page_words]
    below = [(w.x, v) for w, v in numbers
             if v is not None and y0 - 8 < w.y < y0 and x0 - 3 <= w.x <= x1 + 3]
    left = [(w.y, v) for w, v in numbers
            if v is not None and x0 - 8 < w.x1 <= x0 and y0 - 3 <= w.y <= y1 + 3]
    return fit_axis(x0, x1, below), fit_axis(y0, y1, left)


def frame_title(frame: Shape, page_words: list[Word]) -> str:
    """The words just above the frame."""
    x0, _, x1, y1 = frame.bbox
    title = [w for w in page_words if y1 < w.y < y1 + 12 and x0 <= w.x <= x1]
    return " ".join(w.text for w in sorted(title, key=lambda w: w.x0))


def glyphs(data: list[Shape]) -> list[Glyph]:
    """Runs of small shapes drawn one after the other around one centre (within 0.3 pt)."""
    found, run = [], []
    for shape in data:
        small = shape.size <= GLYPH_SIZE
        if run and not (small and math.dist(shape.center, run[0].center) <= 0.3):
            found.append(Glyph(centroid(run), tuple(run)))
            run = []
        if small:
            run.append(shape)
    if run:
        found.append(Glyph(centroid(run), tuple(run)))
    return found


def centroid(shapes: list[Shape]) -> tuple[float, float]:
    """The mean of the shapes' distinct points: a marker's centre, also for a triangle (whose
    box is not centred on the point it marks)."""
    points = {(round(x, 3), round(y, 3)): (x, y) for shape in shapes for x, y in shape.points}
    return (statistics.mean(x for x, _ in points.values()),
            statistics.mean(y for _, y in points.values()))


def polylines(data: list[Shape]) -> list[tuple[int, list[tuple[float, float]]]]:
    """(order, vertices) of the connected open paths: pieces joined when one starts where the
    one drawn before it ended (gnuplot cuts long paths)."""
    found = []
    for shape in data:
        if shape.kind == "rect" or shape.fill or "c" in shape.ops or len(shape.points) < 2:
            continue
        if found and math.dist(found[-1][1][-1], shape.points[0]) <= JOIN:
            found[-1][1].extend(shape.points[1:])
        else:
            found.append((shape.order, list(shape.points)))
    return found


def legend(frame: Shape, page_words: list[Word], data: list[Shape],
           marks: list[Glyph]) -> list[Entry]:
    """The legend entries, top to bottom: each label inside the frame and what is drawn up to
    40 pt right of it, level with it (within 1.2 pt)."""
    x0, y0, x1, y1 = frame.bbox
    entries = []
    for word in sorted(page_words, key=lambda w: -w.y):
        if not (x0 <= word.x <= x1 and y0 <= word.y <= y1):
            continue

        def beside(point, word=word):
            return word.x1 < point[0] < word.x1 + 40 and abs(point[1] - word.y) <= 1.2

        line = next((s for s in data if beside(s.center) and _orientation(s) == "-"
                     and s.size > GLYPH_SIZE), None)
        ends = {round(x, 1) for x, _ in line.points} if line else set()
        # the marker sample, not the error bar's end ticks
        glyph = next((g for g in marks if beside(g.center) and round(g.center[0], 1) not in ends),
                     None)
        errorbars = any(beside(s.center) and _orientation(s) == "|"
                        and round(s.points[0][0], 1) in ends for s in data)
        entries.append(Entry(word.text, glyph, line, errorbars))
    return entries


def read_plot(frame: Shape, shapes: list[Shape], page_words: list[Word]) -> Plot:
    """The panel in ``frame``: axes, legend, each entry's markers and polyline (in PDF points)."""
    x0, y0, x1, y1 = frame.bbox
    data = [s for s in shapes if not s.dashed and s.width < frame.width
            and x0 - 3 <= s.bbox[0] and s.bbox[2] <= x1 + 3
            and y0 - 3 <= s.bbox[1] and s.bbox[3] <= y1 + 3]
    marks = glyphs(data)
    entries = legend(frame, page_words, data, marks)
    markers = {e.label: [g for g in marks if g.signature == e.glyph.signature and g is not e.glyph]
               for e in entries if e.glyph}
    paths = polylines(data)
    chosen: dict[str, list[tuple[float, float]]] = {}
    for entry in entries:
        points = entry_polyline(entry, markers.get(entry.label, []), paths)
        if any(points is other for other in chosen.values()):
            raise ValueError(f"{entry.label!r} has the polyline of another entry")
        chosen[entry.label] = points
    x, y = frame_axes(frame, page_words)
    return Plot(panel_name(frame_title(frame, page_words)), x, y, tuple(entries), markers,
                chosen, tuple(data))


def entry_polyline(entry: Entry, marks: list[Glyph],
                   paths: list[tuple[int, list[tuple[float, float]]]]) -> list[tuple[float, float]]:
    """An entry's polyline: the path nearest its markers (median distance, at most
    ``ON_POLYLINE``) or, without marker, the first path drawn after its line sample."""
    if entry.glyph is None:
        return next(points for order, points in paths if order > entry.line.order)
    points = min((points for _, points in paths), key=lambda p: _median_distance(marks, p))
    if _median_distance(marks, points) > ON_POLYLINE:
        raise ValueError(f"no polyline through the markers of {entry.label!r}")
    return points


def _median_distance(marks: list[Glyph], points: list[tuple[float, float]]) -> float:
    if not marks:
        return math.inf
    return statistics.median(polyline_distance(g.center, points) for g in marks)


def read_plots(shapes: list[Shape], page_words: list[Word]) -> list[Plot]:
    """Every panel of a page, left to right."""
    return [read_plot(frame, shapes, page_words) for frame in frames(shapes)]


def to_data(plot: Plot, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """PDF points -> data coordinates on the plot's axes."""
    return [(axis_value(plot.x, px), axis_value(plot.y, py)) for px, py in points]


def error_bar(plot: Plot, glyph: Glyph) -> tuple[float | None, float | None]:
    """(low, high) of the longest vertical line through the marker's centre; an end at the
    frame's floor is None (clipped)."""
    cx, cy = glyph.center
    bars = [s for s in plot.data if _orientation(s) == "|" and abs(s.points[0][0] - cx) <= 0.05
            and s.bbox[1] - 0.05 <= cy <= s.bbox[3] + 0.05 and s not in glyph.shapes]
    if not bars:
        return None, None
    low, high = max(bars, key=lambda s: s.size).bbox[1::2]
    floor = low <= plot.y.lo + 0.01
    return (None if floor else axis_value(plot.y, low)), axis_value(plot.y, high)


def _g(value: float | None, digits: int = 5) -> str:
    return "" if value is None else f"{value:.{digits}g}"


def fig2_rows(plots: list[Plot]) -> list[dict]:
    """Fig. 2's rows: every method's curve at t = 2^k, UCT's markers with error bars."""
    rows = []
    for plot in plots:
        for entry in plot.entries:
            method = METHODS.get(entry.label, entry.label.lower())
            points = to_data(plot, plot.polylines[entry.label])
            for t, rate in curve_at_powers(points, plot.y.lo_value):
                rows.append({"panel": plot.name, "method": method, "kind": "curve",
                             "iterations": t, "failure_rate": _g(rate)})
            if entry.errorbars:
                for glyph in sorted(plot.markers[entry.label], key=lambda g: g.center[0]):
                    (t, rate), = to_data(plot, [glyph.center])
                    low, high = error_bar(plot, glyph)
                    rows.append({"panel": plot.name, "method": method, "kind": "marker",
                                 "iterations": round(t), "failure_rate": _g(rate),
                                 "ci_low": _g(low), "ci_high": _g(high)})
    return rows


def fig3_rows(plots: list[Plot]) -> list[dict]:
    """Fig. 3's rows: each data series at its vertices, each reference line at the data's x."""
    rows = []
    for plot in plots:
        data = {e.label: to_data(plot, plot.polylines[e.label]) for e in plot.entries if e.glyph}
        xs = sorted({float(_g(x, 3)) for points in data.values() for x, _ in points})
        for entry in plot.entries:
            if entry.glyph:
                points = data[entry.label]
            else:
                line = to_data(plot, plot.polylines[entry.label])
                points = [(x, interpolate(line, _clamped(x, line), plot.x.log, plot.y.log))
                          for x in xs]
            rows += [{"panel": plot.name, "series": series_name(entry.label), "x": _g(x, 3),
                      "iterations": _g(y)} for x, y in points]
    return rows


def _clamped(x: float, points: list[tuple[float, float]]) -> float:
    """``x``, or the polyline's nearer end if ``x`` lies beyond it by a relative ``SLACK`` at
    most (a function drawn up to the frame's end, rounded)."""
    lo, hi = points[0][0], points[-1][0]
    return next((end for end in (lo, hi) if x != end and abs(x - end) <= SLACK * abs(x)
                 and not lo <= x <= hi), x)


def _axes_note(plots: list[Plot]) -> str:
    def side(axis):
        scale = "log" if axis.log else "linear"
        return f"{axis.lo_value:g}..{axis.hi_value:g} {scale}"

    return "; ".join(f"{p.name}: x {side(p.x)}, y {side(p.y)}" for p in plots)


def _comment(paragraphs: list[str]) -> list[str]:
    return [line for text in paragraphs
            for line in textwrap.wrap(text, 96, break_on_hyphens=False)]


def _how_read(plots: list[Plot]) -> str:
    return ("How it was read: the figure is vector graphics; the points come from the PDF's "
            "drawing operators (pdfplumber; experiments/papers/kocsis/paper_figures.py), not by "
            "eye. Each axis frame maps its ends to the tick labels drawn there, linearly or, on "
            f"a log axis, by decades: {_axes_note(plots)}.")


def fig2_header(plots: list[Plot]) -> list[str]:
    """The comment lines above ``fig2.csv``."""
    return _comment([
        (f'{PAPER}, Fig. 2: failure rate ("average error") against iterations in P-games, as '
         "drawn in the paper's PDF."),
        f"Source PDF: {SOURCE}.",
        _how_read(plots),
        ("Series by their legend's marker glyphs (filled square UCT, filled triangle AB, square "
         "MC, circle MMMC); a method's polyline is the drawn path through its markers. Methods "
         "by the lab's names: AB -> alphabeta, MC -> flatmc, MMMC -> mmmc."),
        ('Rows "curve": the polyline at t = 2^k within its drawn range (up to where it reaches '
         "the floor 1e-5: failure rate 0, clipped), a linear interpolation in log-log space "
         "between the drawn vertices."),
        ('Rows "marker": UCT\'s markers with their 95% error bars (ci_low, ci_high); an end at '
         "the axis floor is clipped: empty. Each point of the paper: 200 trees x 200 runs."),
    ])


def fig3_header(plots: list[Plot]) -> list[str]:
    """The comment lines above ``fig3.csv``."""
    return _comment([
        (f"{PAPER}, Fig. 3: the iterations UCT needs to reach a failure rate (err) against depth "
         "(B = 2) and branching (D = 8), alpha-beta's to reach 0, and reference lines, as drawn "
         "in the paper's PDF."),
        f"Source PDF: {SOURCE}.",
        _how_read(plots),
        ("Series by their legend: a data series by its marker glyph (filled triangle AB err=0, "
         "filled square UCT err=0, + over x err=0.001, x err=0.01, + err=0.1), its points the "
         "vertices of the drawn path through its markers; a reference line (no marker: 2^D, "
         "2^(D/2), B^8, B^(8/2)) by drawing order, the path drawn right after its legend "
         "sample, read at the panel's data x by interpolation on the axes' scales. x: depth or "
         "branching, to 3 significant digits. Methods by the lab's names: AB -> alphabeta."),
    ])


def write_table(path: Path, header: list[str], columns: tuple[str, ...],
                rows: list[dict]) -> Path:
    """``rows`` as CSV below '#' comment lines."""
    out = io.StringIO()
    out.writelines(f"# {line}\n" for line in header)
    writer = csv.DictWriter(out, columns, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return write_atomically(path, out.getvalue().encode())


def write_tables(pdf: str | Path, out: str | Path) -> list[Path]:
    """``fig2.csv`` and ``fig3.csv`` read from ``pdf``, written into ``out``."""
    pages = read_pages(pdf)
    fig2, fig3 = read_plots(*pages["fig2"]), read_plots(*pages["fig3"])
    out = make_folder(out)
    return [write_table(out / "fig2.csv", fig2_header(fig2), FIG2_COLUMNS, fig2_rows(fig2)),
            write_table(out / "fig3.csv", fig3_header(fig3), FIG3_COLUMNS, fig3_rows(fig3))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.papers.kocsis.paper_figures",
        description="Read Figs. 2 and 3 of Kocsis & Szepesvari (2006) from the paper's PDF.")
    parser.add_argument("pdf", help="the paper's PDF")
    parser.add_argument("--out", default=".", help="folder for fig2.csv and fig3.csv")
    args = parser.parse_args(argv)
    try:
        for path in write_tables(args.pdf, args.out):
            print(path)
    except (ValueError, OSError) as error:
        raise SystemExit(f"error: {error}") from None


if __name__ == "__main__":
    main()
