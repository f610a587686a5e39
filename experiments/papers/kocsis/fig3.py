"""Kocsis & Szepesvari (2006), Fig. 3: the iterations a search needs to reach a failure rate,
as the depth D of a B = 2 P-game and the branching B of a D = 8 one grow, against B^(D/2),
the leaves alpha-beta examines in the best case (Knuth & Moore 1975).

The iterations to reach a level e on a curve: the least budget 2^k from which the failure rate
over trees stays <= e at every larger budget of the curve (none: beyond the curve's budgets).
The growth: the least-squares slope of log2(iterations) against D (B = 2), per ply, where
B^(D/2) rises by 1/2, and against log2 B (D = 8), where it rises by D/2 = 4, over every shape
whose level is reached, with its 95% interval (t with n - 2 degrees of freedom); not fitted on
fewer than three shapes, where a line has no interval. The paper's points (``data/fig3.csv``)
are fitted the same way, over the same shapes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .paper_values import DATA
from .study import FIG3_METHODS, fig3_panels

MIN_POINTS = 3  # a line through two points has no interval
LEVELS = (0.1, 0.01, 0.0)  # the paper's err = 0.1, 0.01 (and 0.001) and 0
# the paper's panels of Fig. 3 by what varies, and its series names by (method, level)
SERIES = {"depth": "B=2 D=4-20", "branching": "B=2-8 D=8"}
PAPER_SERIES = {("uct", 0.1): "uct err=0.1", ("uct", 0.01): "uct err=0.01",
                ("uct", 0.0): "uct err=0", ("alphabeta", 0.0): "alphabeta err=0"}


def iterations_to_reach(rates: pd.Series, level: float) -> float:
    """The least budget (the index of ``rates``, increasing) from which every failure rate is
    <= ``level``; NaN if the last is above it."""
    above = np.flatnonzero(rates.to_numpy() > level)
    if len(above) == 0:
        return float(rates.index[0])
    if above[-1] == len(rates) - 1:
        return np.nan
    return float(rates.index[above[-1] + 1])


def fig3_table(summary: pd.DataFrame, scale: str) -> pd.DataFrame:
    """Per series (depth, branching), shape, method of Fig. 3 and level: the iterations to reach
    it (NaN: beyond the curve's budgets) and the reference B^(D/2)."""
    rows = []
    for series, panels in (("depth", [p for p in fig3_panels(scale) if p.branching == 2]),
                           ("branching", [p for p in fig3_panels(scale) if p.depth == 8])):
        for panel in panels:
            for method in FIG3_METHODS:
                curve = summary[(summary["panel"] == panel.name)
                                & (summary["method"] == method)]
                if curve.empty:
                    continue
                rates = curve.set_index("budget")["failure_rate"].sort_index()
                for level in LEVELS:
                    if (method, level) in PAPER_SERIES:
                        rows.append({"series": series, "branching": panel.branching,
                                     "depth": panel.depth,
                                     "x": panel.depth if series == "depth" else panel.branching,
                                     "method": method, "level": level,
                                     "iterations": iterations_to_reach(rates, level),
                                     "reference": panel.branching ** (panel.depth / 2)})
    return pd.DataFrame(rows)


def paper_fig3(path=DATA / "fig3.csv") -> pd.DataFrame:
    """Fig. 3 as read from the PDF: panel, series, x, iterations."""
    return pd.read_csv(path, comment="#")


def growth(x: np.ndarray, iterations: np.ndarray, series: str) -> tuple[float, float, int]:
    """The slope of log2(iterations) against D (``series="depth"``) or log2 B over the points
    reached, the half-width of its 95% interval and the points fitted; NaN slope and interval
    with fewer than three points."""
    reached = np.isfinite(iterations)
    points = int(reached.sum())
    if points < MIN_POINTS:
        return np.nan, np.nan, points
    abscissa = x[reached] if series == "depth" else np.log2(x[reached])
    fit = stats.linregress(abscissa, np.log2(iterations[reached]))
    return float(fit.slope), float(stats.t.ppf(0.975, points - 2) * fit.stderr), points


def growth_table(table: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Per series, method and level: our growth with its interval's half-width and the shapes
    fitted, the paper's over the same shapes, and B^(D/2)'s (1/2 per ply at B = 2; D/2 = 4 per
    doubling of B at D = 8)."""
    rows = []
    for (series, method, level), ours in table.groupby(["series", "method", "level"],
                                                         sort=False):
        theirs = paper[(paper["panel"] == SERIES[series])
                       & (paper["series"] == PAPER_SERIES[(method, level)])]
        reached = ours[np.isfinite(ours["iterations"])]
        theirs = theirs[theirs["x"].round().isin(reached["x"])]
        slope, half, points = growth(ours["x"].to_numpy(float), ours["iterations"].to_numpy(),
                                     series)
        their_slope, their_half, _ = growth(theirs["x"].round().to_numpy(float),
                                            theirs["iterations"].to_numpy(float), series)
        rows.append({"series": series, "method": method, "level": level, "points": points,
                     "ours": slope, "ours_half": half, "paper": their_slope,
                     "paper_half": their_half,
                     "reference": 0.5 if series == "depth" else 4.0})
    return pd.DataFrame(rows)


def fig3_markdown(table: pd.DataFrame, growths: pd.DataFrame, paper: pd.DataFrame) -> str:
    """The iterations to each level beside the paper's, per series, and the growths."""
    lines = []
    for series, rows in table.groupby("series", sort=False):
        wide = rows.pivot_table(index="x", columns=["method", "level"], values="iterations",
                                dropna=False)
        columns = [c for c in PAPER_SERIES if c in wide.columns]
        theirs = paper[paper["panel"] == SERIES[series]]
        lines += [f"### Against {'depth, B = 2' if series == 'depth' else 'branching, D = 8'}",
                  "", "| " + series + " | " + " | ".join(
                      f"`{m}` to {lvl:g} (ours; the paper's)" for m, lvl in columns)
                  + " | B^(D/2) |", "|---:|" + "---:|" * (len(columns) + 1)]
        for x in wide.index:
            cells = []
            for method, level in columns:
                ours = wide.at[x, (method, level)]
                mark = theirs[(theirs["series"] == PAPER_SERIES[(method, level)])
                              & (theirs["x"].round() == x)]["iterations"]
                cells.append(("beyond" if np.isnan(ours) else f"{ours:,.0f}") + "; "
                             + (f"{mark.iloc[0]:,.0f}" if len(mark) else "-"))
            reference = rows[rows["x"] == x]["reference"].iloc[0]
            lines.append(f"| {x:g} | " + " | ".join(cells) + f" | {reference:,.0f} |")
        lines.append("")
    lines += [("Growth (slope of log2 iterations per ply at B = 2, per doubling of B at D = 8;"
               " B^(D/2): 0.5 and 4), over the shapes where our curve reaches the level, with "
               "95% intervals; \"-\": fewer than three shapes, not fitted:"), "",
              "| series | method | level | shapes | ours | the paper's, same shapes |",
              "|---|---|---:|---:|---:|---:|"]
    lines += [f"| {g.series} | `{g.method}` | {g.level:g} | {g.points} | "
              f"{_slope(g.ours, g.ours_half)} | {_slope(g.paper, g.paper_half)} |"
              for g in growths.itertuples()]
    return "\n".join(lines)


def _slope(value: float, half: float) -> str:
    return "-" if np.isnan(value) else f"{value:.2f} ± {half:.2f}"

