"""A PDF page's drawing read as plots (``experiments.pdf_figures``): its paths and words, the
plot frames (stroked rectangles), each frame's axes (``axes``), title and legend (the text
inside a frame and, beside each label, its drawn sample: a marker glyph, a line sample, an error
bar), each entry's markers (the glyphs of its sample's shape) and polyline (the connected path
nearest those markers; without marker, the first path drawn after its line sample: gnuplot
draws a key sample, then its plot), and a marker's error bar."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .axes import Axis, axis_value, fit_axis, polyline_distance

GLYPH_SIZE = 3.0  # pt: a marker's paths are at most this wide and high
JOIN = 0.01  # pt: a path piece continues the previous one when it starts where that ended
ON_POLYLINE = 1.0  # pt: the median distance of an entry's markers to its polyline, at most


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


def read_pages(pdf: str | Path,
               captions: dict[str, str]) -> dict[str, tuple[list[Shape], list[Word]]]:
    """The shapes and words of the page of each figure of ``captions`` (figure -> its
    caption's start, blanks removed: ``{"fig2": "Fig.2."}``), found by its caption."""
    pdfplumber = _pdfplumber()
    found = {}
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            text = "".join((page.extract_text() or "").split())
            for figure, caption in captions.items():
                if caption in text and figure not in found:
                    found[figure] = page_content(page.layout)
    missing = [captions[figure] for figure in captions if figure not in found]
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


def read_plot(frame: Shape, shapes: list[Shape], page_words: list[Word],
              name: Callable[[str], str] = str) -> Plot:
    """The panel in ``frame``: axes, legend, each entry's markers and polyline (in PDF points),
    named ``name(its title)``."""
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
    return Plot(name(frame_title(frame, page_words)), x, y, tuple(entries), markers, chosen,
                tuple(data))


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


def read_plots(shapes: list[Shape], page_words: list[Word],
               name: Callable[[str], str] = str) -> list[Plot]:
    """Every panel of a page, left to right (``read_plot``)."""
    return [read_plot(frame, shapes, page_words, name) for frame in frames(shapes)]


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
