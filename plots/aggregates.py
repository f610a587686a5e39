"""Figures of a comparison's rliable-style aggregates across tree configurations
(``experiments.comparisons.aggregates``), each from one tidy table (all intervals 95%), a method
drawn as in ``plots.compare``:

- ``improvement``: method_x, method_y, probability, low, high (P(X beats Y));
- ``profile``: method, tau, fraction (of a method's (configuration, instance) pairs);
- ``aggregates``: method, metric ("mean" or "iqm"), estimate, low, high.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from .compare import text_colour
from .style import look_of, new_figure


def improvement_matrix(improvement: pd.DataFrame, ax=None):
    """The probability that the row's method beats the column's across tree configurations,
    each cell annotated with it and its interval; the diagonal and absent pairs stay blank."""
    methods = list(dict.fromkeys([*improvement["method_x"], *improvement["method_y"]]))
    if ax is None:
        _, ax = new_figure(figsize=(1.1 * len(methods) + 2.5, 0.8 * len(methods) + 1.4))
    grid = np.full((len(methods), len(methods)), np.nan)  # [X, Y] P(X beats Y)
    for row in improvement.itertuples():
        grid[methods.index(row.method_x), methods.index(row.method_y)] = row.probability
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    for row in improvement.itertuples():
        ax.text(methods.index(row.method_y), methods.index(row.method_x),
                f"{row.probability:.2f}\n[{row.low:.2f}, {row.high:.2f}]", ha="center",
                va="center", fontsize=7, color=text_colour(image.cmap, row.probability))
    ax.set_xticks(range(len(methods)), methods, rotation=30, ha="right")
    ax.set_yticks(range(len(methods)), methods)
    ax.set_xlabel("Y")
    ax.set_ylabel("X")
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label="P(X beats Y)")
    ax.set_title("Probability of improvement (95% interval)")
    return ax


def performance_profiles(profile: pd.DataFrame, ax=None, *, look=None):
    """A step line per method: the fraction of its (tree configuration, instance) pairs whose
    normalised area under the failure curve is at most tau (rliable's performance profile;
    higher is better)."""
    if ax is None:
        _, ax = new_figure(figsize=(4.8, 3.4))
    look = look or look_of(profile)
    groups = dict(list(profile.groupby("method", sort=False)))
    for method in sorted(groups, key=lambda m: look.rank(*m.split("+", 1))):  # legend order
        rows = groups[method].sort_values("tau")
        style = look.method(*method.split("+", 1))
        ax.step(rows["tau"], rows["fraction"], where="post", lw=1.2, label=method,
                color=style["color"], ls=style["ls"])
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("normalised area under the failure curve tau")
    ax.set_ylabel("fraction of (configuration, instance)\npairs with area <= tau")
    ax.set_title("Performance profiles")
    ax.legend(fontsize=7)
    return ax


_METRIC_ALPHA = {"iqm": 0.85, "mean": 0.35}  # the IQM solid, the mean light


def _best_first(aggregates: pd.DataFrame, look) -> list[str]:
    """The methods by their IQM (else their first metric), lowest (best) first, ties in the
    look's order."""
    metrics = list(dict.fromkeys(aggregates["metric"]))
    ranked = aggregates[aggregates["metric"] == ("iqm" if "iqm" in metrics else metrics[0])]
    value = dict(zip(ranked["method"], ranked["estimate"]))
    return sorted(dict.fromkeys(aggregates["method"]),
                  key=lambda m: (value.get(m, np.inf), look.rank(*m.split("+", 1))))


def aggregate_intervals(aggregates: pd.DataFrame, ax=None, *, look=None):
    """rliable's interval estimates: a bar per method and metric (mean, IQM) spanning its 95%
    interval, filled in its policy's colour (IQM solid, mean light) and edged in its
    adjuster's line style, with a tick at the estimate; the methods by their IQM, the lowest
    (best) on top."""
    look = look or look_of(aggregates)
    methods = _best_first(aggregates, look)
    metrics = list(dict.fromkeys(aggregates["metric"]))
    if ax is None:
        _, ax = new_figure(figsize=(5.0, 0.45 * len(methods) * len(metrics) + 1.2))
    height = 0.8 / len(metrics)
    for number, metric in enumerate(metrics):
        rows = aggregates[aggregates["metric"] == metric]
        y = np.array([methods.index(m) for m in rows["method"]]) + (number + 0.5) * height - 0.4
        bars = ax.barh(y, rows["high"] - rows["low"], left=rows["low"], height=0.85 * height,
                       alpha=_METRIC_ALPHA.get(metric, 0.35), edgecolor="black", lw=0.8)
        for bar, method in zip(bars, rows["method"]):
            policy, adjuster = method.split("+", 1)
            bar.set_facecolor(look.colour(policy))
            bar.set_linestyle(look.line(adjuster)[0])
        ax.vlines(rows["estimate"], y - 0.4 * height, y + 0.4 * height, color="black", lw=1.5)
    ax.set_yticks(range(len(methods)), methods)
    ax.invert_yaxis()
    ax.set_xlabel("normalised area under the failure curve")
    ax.set_title("Aggregates across tree configurations (95% interval)")
    ax.legend(handles=[Patch(color="0.3", alpha=_METRIC_ALPHA.get(metric, 0.35),
                             label="IQM" if metric == "iqm" else metric) for metric in metrics],
              fontsize=7)
    return ax
