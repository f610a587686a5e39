"""Seed 003's Figs. 1 and 2 from computed results (``experiments.papers.veness``); Fig. 2 is
drawn one panel (game) at a time, each method in the same colour on every panel."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from .style import new_figure

# base UCT, then UCT with each combination of control variates, common random numbers and
# antithetic variates: the order (and colour) of the methods on every panel
METHODS = ("uct", "uct+cv", "uct+crn", "uct+av", "uct+cv+crn", "uct+cv+av", "uct+crn+av",
           "uct+cv+crn+av")
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
    """Fig. 2, one panel (one game's rows of ``score_summary``): average score against
    simulations per method, 95% intervals."""
    if ax is None:
        ax = new_figure()[1]
    order = {method: i for i, method in enumerate(METHODS)}  # others after them, by name
    groups = sorted(summary.groupby("method", sort=False),
                    key=lambda g: (order.get(g[0], len(order)), g[0]))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (method, rows) in enumerate(groups):
        rows = rows.sort_values("budget")
        shift = 2 ** (0.03 * (i - (len(groups) - 1) / 2))  # side by side, so the bars show
        ax.errorbar(rows["budget"] * shift, rows["mean"], yerr=rows["ci95_high"] - rows["mean"],
                    marker="o", markersize=3, capsize=2, label=method.upper(),
                    color=colours[order.get(method, i) % len(colours)])
    ax.set_xscale("log", base=2)
    ax.set_xlabel("simulations")
    ax.set_ylabel("average score")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax
