"""Kocsis & Szepesvari (2006), Fig. 2 from computed results (``experiments.papers.kocsis``):
one panel per P-game shape, failure rate against iterations on log-log axes, each method with
its 95% interval over trees, and the random-pick level as a dashed line."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .style import new_figure

METHOD_STYLE = {"uct": ("UCT", "C0", "o"), "uct+solver": ("UCT + outcome solver", "C0", "x"),
                "alphabeta": ("alpha-beta (playout leaves)", "C3", "s"),
                "flatmc": ("flat Monte-Carlo", "C2", "^")}


def plot_panel(table: pd.DataFrame, title: str, random_pick: float | None = None, ax=None):
    """One panel (one shape's rows of ``over_trees``): failure rate against iterations; rates
    of 0 cannot show on a log axis and are left out of the lines."""
    if ax is None:
        ax = new_figure()[1]
    for method, (label, colour, marker) in METHOD_STYLE.items():
        rows = table[table["method"] == method].sort_values("budget")
        rows = rows[rows["failure_rate"] > 0]
        if rows.empty:
            continue
        dashed = "--" if method == "uct+solver" else "-"
        ax.plot(rows["budget"], rows["failure_rate"], dashed, marker=marker, markersize=3,
                color=colour, label=label)
        low = np.maximum(rows["ci_low"], rows["failure_rate"] / 10)  # a log axis has no 0
        ax.fill_between(rows["budget"], low, rows["ci_high"], color=colour, alpha=0.12, lw=0)
    if random_pick is not None:
        ax.axhline(random_pick, color="grey", ls=":", lw=1, label="random pick (exact)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("iterations (playouts; alpha-beta: leaves evaluated)")
    ax.set_ylabel("failure rate (not a best-score move)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax


def plot_fig2(summary: pd.DataFrame, levels: dict[str, float]):
    """Both panels side by side, in the order of ``levels`` (panel name -> random-pick level)."""
    fig, axes = new_figure(1, len(levels), figsize=(5 * len(levels), 4), squeeze=False)
    for (panel, level), ax in zip(levels.items(), axes[0]):
        plot_panel(summary[summary["panel"] == panel], f"P-game {panel}", level, ax=ax)
    return fig
