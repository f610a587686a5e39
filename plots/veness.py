"""Seed 003's Figs. 1 and 2 from computed results (``experiments.veness``)."""

from __future__ import annotations

import pandas as pd

from .style import new_figure

QUANTITY_TITLES = {"roll": "Estimate of Q(s1, roll)",
                   "difference": "Estimate of Q(s1, roll) - Q(s1, stop)"}


def plot_bias_variance(table: pd.DataFrame, quantity: str, method: str = "uct", ax=None):
    """Fig. 1, one panel: bias^2, variance and MSE of ``quantity`` against simulations."""
    if ax is None:
        ax = new_figure()[1]
    rows = table[(table["quantity"] == quantity) & (table["method"] == method)]
    rows = rows.sort_values("budget")
    for column, label in (("bias2", "bias$^2$"), ("variance", "variance"), ("mse", "MSE")):
        ax.plot(rows["budget"], rows[column], marker="o", markersize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("simulations")
    ax.set_title(f"{QUANTITY_TITLES[quantity]} ({method})")
    ax.legend()
    return ax


def plot_scores(summary: pd.DataFrame, title: str = "Pig", ax=None):
    """Fig. 2, one panel: average score against simulations per method, 95% intervals."""
    if ax is None:
        ax = new_figure()[1]
    for method, rows in summary.groupby("method", sort=False):
        rows = rows.sort_values("budget")
        ax.errorbar(rows["budget"], rows["mean"], yerr=rows["ci95_high"] - rows["mean"],
                    marker="o", markersize=3, capsize=2, label=method.upper())
    ax.set_xscale("log", base=2)
    ax.set_xlabel("simulations")
    ax.set_ylabel("average score")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax
