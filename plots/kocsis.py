"""Kocsis & Szepesvari (2006), Fig. 2 from computed results (``experiments.papers.kocsis``):
one panel per P-game shape, failure rate against iterations on log-log axes, each method with
its 95% interval over trees, the paper's curve of the same method dashed beside it (read from
the paper's PDF), and the random-pick level as a dotted line."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .style import new_figure

# method -> (label, colour, marker)
METHOD_STYLE = {
    "uct-paper": ("UCT, the paper's set-up", "C0", "o"),
    "alphabeta": ("alpha-beta (playout leaves)", "C3", "s"),
    "alphabeta-best": ("alpha-beta, the best-looking move", "C9", "s"),
    "flatmc": ("Monte-Carlo (flat)", "C2", "^"),
    "mmmc": ("MMMC", "C4", "v"),
    "uct": ("UCT, the lab's", "C1", "o"),
    "uct+sum": ("+ summed scores, c = 1", "C5", "D"),
    "uct+episodes": ("+ episodes stored", "C6", "P"),
    "uct+stop": ("+ episodes stopped", "C8", "X"),
    "uct+solver": ("+ outcome solver", "C7", "x"),
    "value:uct": ("UCT (outcome rewards)", "C0", "o"),
    "value:uct-unstopped": ("UCT, outcome rewards, episodes not stopped", "C1", "o"),
    "value:alphabeta": ("alpha-beta (playout leaves)", "C3", "s"),
    "value:flatmc": ("Monte-Carlo (flat)", "C2", "^"),
    "value:mmmc": ("MMMC", "C4", "v"),
}
FIG2_METHODS = ("uct-paper", "alphabeta", "flatmc", "mmmc", "alphabeta-best")
BEST_SCORE = "failure rate (not a best-score move)"


def plot_panel(table: pd.DataFrame, title: str, random_pick: float | None = None, ax=None,
               methods=FIG2_METHODS, paper: pd.DataFrame | None = None,
               ylabel: str = BEST_SCORE):
    """One panel (one shape's rows of ``over_trees``): failure rate against iterations for
    ``methods``; ``paper`` (rows method, iterations, failure_rate of the paper's curves) dashed
    in the same colours. Rates of 0 cannot show on a log axis and are left out of the lines."""
    if ax is None:
        ax = new_figure()[1]
    for method in methods:
        label, colour, marker = METHOD_STYLE[method]
        rows = table[table["method"] == method].sort_values("budget")
        rows = rows[rows["failure_rate"] > 0]
        if not rows.empty:
            ax.plot(rows["budget"], rows["failure_rate"], "-", marker=marker, markersize=3,
                    color=colour, label=label)
            low = np.maximum(rows["ci_low"], rows["failure_rate"] / 10)  # a log axis has no 0
            ax.fill_between(rows["budget"], low, rows["ci_high"], color=colour, alpha=0.12,
                            lw=0)
        theirs = None if paper is None else paper[paper["method"] == method]
        if theirs is not None and not theirs.empty:
            ax.plot(theirs["iterations"], theirs["failure_rate"], "--", color=colour, lw=1.2,
                    label=f"{label}: the paper's")
    if random_pick is not None:
        ax.axhline(random_pick, color="grey", ls=":", lw=1, label="random pick (exact)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("iterations (playouts; alpha-beta: leaves evaluated)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax


def plot_fig2(summary: pd.DataFrame, levels: dict[str, float], paper: pd.DataFrame | None = None,
              methods=FIG2_METHODS, ylabel: str = BEST_SCORE):
    """Both panels side by side, in the order of ``levels`` (panel name -> random-pick level),
    with the paper's curves (``paper``: rows panel, method, iterations, failure_rate)."""
    fig, axes = new_figure(1, len(levels), figsize=(5.5 * len(levels), 4.5), squeeze=False)
    for (panel, level), ax in zip(levels.items(), axes[0]):
        theirs = None if paper is None else paper[paper["panel"] == panel]
        plot_panel(summary[summary["panel"] == panel], f"P-game {panel}", level, ax=ax,
                   methods=methods, paper=theirs, ylabel=ylabel)
    return fig


# (method, level) -> (label, colour, marker) of Fig. 3's series
LEVEL_STYLE = {("uct", 0.1): ("UCT, 0.1", "C0", "+"), ("uct", 0.01): ("UCT, 0.01", "C1", "x"),
               ("uct", 0.0): ("UCT, 0", "C2", "s"),
               ("alphabeta", 0.0): ("alpha-beta, 0", "C3", "^")}


def plot_fig3(table: pd.DataFrame, paper: pd.DataFrame, series_panels: dict[str, str],
              paper_series: dict[tuple[str, float], str]):
    """Fig. 3: per series (``table``'s ``series``: depth, branching), the iterations to reach
    each level against the shape, ours solid, the paper's dashed (``paper``: panel, series, x,
    iterations; ``series_panels`` names its panel of each series, ``paper_series`` its series
    of each (method, level)), B^(D/2) dotted grey. Levels not reached within the budgets are
    left out."""
    fig, axes = new_figure(1, 2, figsize=(11, 4.5), squeeze=False)
    for ax, (series, rows) in zip(axes[0], table.groupby("series", sort=False)):
        for key, (label, colour, marker) in LEVEL_STYLE.items():
            ours = rows[(rows["method"] == key[0]) & (rows["level"] == key[1])].dropna(
                subset=["iterations"])
            if not ours.empty:
                ax.plot(ours["x"], ours["iterations"], "-", marker=marker, color=colour,
                        label=f"{label} (ours)")
            theirs = paper[(paper["panel"] == series_panels[series])
                           & (paper["series"] == paper_series[key])]
            if not theirs.empty:
                ax.plot(theirs["x"], theirs["iterations"], "--", color=colour, lw=1,
                        label=f"{label}: the paper's")
        reference = rows.drop_duplicates("x").sort_values("x")
        ax.plot(reference["x"], reference["reference"], ":", color="grey", label="B^(D/2)")
        ax.set_yscale("log")
        if series == "branching":
            ax.set_xscale("log", base=2)
        ax.set_xlabel("depth D (B = 2)" if series == "depth" else "branching B (D = 8)")
        ax.set_ylabel("iterations to reach the failure rate")
        ax.set_title(f"P-game {series_panels[series]}")
        ax.legend(fontsize=6, ncol=2)
    return fig
