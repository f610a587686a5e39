"""Kocsis & Szepesvari (2006), Figs. 2 and 3 read from the paper's PDF, so that anyone can check
the paper's numbers the reproduction is held against.

Both figures are vector graphics (gnuplot), so their points come from the PDF's drawing
operators, not by eye (``experiments.pdf_figures``: the frames' axes, the legends, each
entry's markers and polyline, the error bars). The legend's markers here: filled square,
filled triangle, square or circle with a dot, +, x, + over x; every line of both figures is
solid black of one width, so dash pattern and colour tell nothing apart, and the markers do.

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
import re
import textwrap
from pathlib import Path

from ...pdf_figures.axes import SLACK, curve_at_powers, interpolate
from ...pdf_figures.drawing import Plot, error_bar, read_pages, read_plots, to_data
from ...runtime.store import make_folder, write_atomically

SOURCE = ("the public repository wzhe06/Ad-papers, file "
          '"Exploration and Exploitation/Bandit based Monte-Carlo Planning.pdf"')
PAPER = ('Kocsis & Szepesvari (2006), "Bandit based Monte-Carlo planning", ECML, LNCS 4212')
# the paper's legend labels -> the lab's method names
METHODS = {"UCT": "uct", "AB": "alphabeta", "MC": "flatmc", "MMMC": "mmmc"}
CAPTIONS = {"fig2": "Fig.2.", "fig3": "Fig.3."}
FIG2_COLUMNS = ("panel", "method", "kind", "iterations", "failure_rate", "ci_low", "ci_high")
FIG3_COLUMNS = ("panel", "series", "x", "iterations")


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
    pages = read_pages(pdf, CAPTIONS)
    fig2 = read_plots(*pages["fig2"], panel_name)
    fig3 = read_plots(*pages["fig3"], panel_name)
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
