"""Figures of a comparison of policies and adjusters across tree configurations (issue 29).

Every function reads one tidy table of the comparison's statistics; a method is
``f"{policy}+{adjuster}"``, drawn in its policy's colour and its adjuster's line style on every
figure. The tables (all intervals are 95%):

- ``curves``: config, policy, adjuster, budget, runs, failures, failure_rate, ci_low, ci_high
  (Wilson intervals);
- ``to_epsilon``: config, policy, adjuster, epsilon, playouts, low, high, reached (playouts NaN
  when failure <= epsilon is not reached within the largest budget; ``high`` inf when the
  interval reaches past it);
- ``improvement``: method_x, method_y, probability, low, high (P(X beats Y));
- ``profile``: method, tau, fraction;
- ``aggregates``: method, metric ("mean" or "iqm"), estimate, low, high.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.patches import Rectangle

from .style import new_figure

LINE_STYLES = ("-", "--", ":", "-.")
NOT_REACHED = ">T"  # past the largest budget T


def _methods(frame: pd.DataFrame) -> pd.Series:
    return frame["policy"] + "+" + frame["adjuster"]


def _styles(methods) -> dict[str, dict]:
    """Colour by policy, line style by adjuster, in order of first appearance."""
    pairs = [method.split("+", 1) for method in methods]
    policies = list(dict.fromkeys(policy for policy, _ in pairs))
    adjusters = list(dict.fromkeys(adjuster for _, adjuster in pairs))
    return {method: {"color": f"C{policies.index(policy) % 10}",
                     "ls": LINE_STYLES[adjusters.index(adjuster) % len(LINE_STYLES)]}
            for method, (policy, adjuster) in zip(methods, pairs)}


def _playouts(value: float) -> str:
    """A playout count in at most 5 characters (``768``, ``1.5k``, ``12k``, ``2.1M``)."""
    if not math.isfinite(value):
        return NOT_REACHED
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            digits = ".2g" if value < 10 * scale else ".0f"
            return f"{value / scale:{digits}}{suffix}"
    return f"{value:.0f}"


def _text_colour(cmap, fraction: float) -> str:
    red, green, blue, _ = cmap(fraction)
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def epsilon_heatmap(to_epsilon: pd.DataFrame, ax=None, *, epsilon: float | None = None):
    """Tree configurations (rows) x methods (columns), coloured by log2 of the playouts needed
    to reach failure <= epsilon, each cell annotated with the playouts and their interval.

    A configuration a method does not reach epsilon on within the largest budget T is a grey
    hatched cell labelled ">T"; a pair absent from the table stays blank. ``epsilon`` picks one
    when the table holds several.
    """
    epsilons = sorted(to_epsilon["epsilon"].unique())
    if epsilon is None:
        if len(epsilons) != 1:
            raise ValueError(f"the table holds epsilons {epsilons}: choose one with epsilon=")
        epsilon = epsilons[0]
    rows = to_epsilon[to_epsilon["epsilon"] == epsilon].assign(method=_methods)
    configs = list(dict.fromkeys(rows["config"]))
    methods = list(dict.fromkeys(rows["method"]))
    if ax is None:
        _, ax = new_figure(figsize=(1.3 * len(methods) + 2.5, 0.55 * len(configs) + 1.6))
    grid = np.full((len(configs), len(methods)), np.nan)  # [configs, methods] log2 playouts
    reached = rows[rows["reached"].astype(bool)]
    grid[[configs.index(c) for c in reached["config"]],
         [methods.index(m) for m in reached["method"]]] = np.log2(reached["playouts"])
    finite = grid[np.isfinite(grid)]
    low, high = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="viridis", aspect="auto",
                      vmin=low, vmax=max(high, low + 1e-9))
    for row in rows.itertuples():
        y, x = configs.index(row.config), methods.index(row.method)
        if row.reached:
            text = f"{_playouts(row.playouts)}\n[{_playouts(row.low)}, {_playouts(row.high)}]"
            colour = _text_colour(image.cmap, image.norm(grid[y, x]))
        else:
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.85",
                                   edgecolor="0.6", hatch="///", lw=0))
            text, colour = NOT_REACHED, "black"
        ax.text(x, y, text, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(methods)), methods, rotation=30, ha="right")
    ax.set_yticks(range(len(configs)), configs)
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label=f"log2 playouts to failure <= {epsilon:g}")
    ax.set_title(f"Playouts to reach failure <= {epsilon:g} (95% interval; "
                 f"{NOT_REACHED}: not reached)")
    return ax


def failure_panels(curves: pd.DataFrame, fig=None) -> np.ndarray:
    """A panel per tree configuration (up to 3 a row), a line per method: failure rate against
    log2 playouts with its Wilson 95% band. Returns the panels' Axes, in the table's order."""
    curves = curves.assign(method=_methods)
    configs = list(dict.fromkeys(curves["config"]))
    styles = _styles(list(dict.fromkeys(curves["method"])))
    cols = min(3, len(configs))
    rows = math.ceil(len(configs) / cols)
    if fig is None:
        fig, axes = new_figure(rows, cols, figsize=(3.6 * cols, 2.9 * rows + 0.6),
                               sharey=True, squeeze=False, layout="constrained")
    else:
        axes = fig.subplots(rows, cols, sharey=True, squeeze=False)
    for ax in axes.flat[len(configs):]:
        ax.remove()
    panels = axes.flat[:len(configs)]
    for ax, config in zip(panels, configs):
        for method, curve in curves[curves["config"] == config].groupby("method", sort=False):
            curve = curve.sort_values("budget")
            ax.plot(curve["budget"], curve["failure_rate"], lw=1.2, marker=".", ms=3,
                    label=method, **styles[method])
            ax.fill_between(curve["budget"], curve["ci_low"], curve["ci_high"],
                            color=styles[method]["color"], alpha=0.15, lw=0)
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(config, fontsize=9)
        ax.set_xlabel("playouts")
    for ax in axes[:, 0]:
        ax.set_ylabel("failure rate")
    handles, labels = panels[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6),
               fontsize=7)
    return np.asarray(panels)


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
                va="center", fontsize=7, color=_text_colour(image.cmap, row.probability))
    ax.set_xticks(range(len(methods)), methods, rotation=30, ha="right")
    ax.set_yticks(range(len(methods)), methods)
    ax.set_xlabel("Y")
    ax.set_ylabel("X")
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label="P(X beats Y)")
    ax.set_title("Probability of improvement (95% interval)")
    return ax


def performance_profiles(profile: pd.DataFrame, ax=None):
    """A step line per method: the fraction of tree configurations against the normalised
    area under the failure curve tau (rliable's performance profile)."""
    if ax is None:
        _, ax = new_figure(figsize=(4.8, 3.4))
    styles = _styles(list(dict.fromkeys(profile["method"])))
    for method, rows in profile.groupby("method", sort=False):
        rows = rows.sort_values("tau")
        ax.step(rows["tau"], rows["fraction"], where="post", lw=1.2, label=method,
                **styles[method])
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("normalised area under the failure curve tau")
    ax.set_ylabel("fraction of tree configurations")
    ax.set_title("Performance profiles")
    ax.legend(fontsize=7)
    return ax


def aggregate_intervals(aggregates: pd.DataFrame, ax=None):
    """rliable's interval estimates: a bar per method and metric (mean, IQM) spanning its 95%
    interval, with a tick at the estimate; the first method on top."""
    methods = list(dict.fromkeys(aggregates["method"]))
    metrics = list(dict.fromkeys(aggregates["metric"]))
    if ax is None:
        _, ax = new_figure(figsize=(5.0, 0.45 * len(methods) * len(metrics) + 1.2))
    height = 0.8 / len(metrics)
    for number, metric in enumerate(metrics):
        rows = aggregates[aggregates["metric"] == metric]
        y = np.array([methods.index(m) for m in rows["method"]]) + (number + 0.5) * height - 0.4
        ax.barh(y, rows["high"] - rows["low"], left=rows["low"], height=0.85 * height,
                color=f"C{number}", alpha=0.6, label="IQM" if metric == "iqm" else metric)
        ax.vlines(rows["estimate"], y - 0.4 * height, y + 0.4 * height, color="black", lw=1.5)
    ax.set_yticks(range(len(methods)), methods)
    ax.invert_yaxis()
    ax.set_xlabel("normalised area under the failure curve")
    ax.set_title("Aggregates across tree configurations (95% interval)")
    ax.legend(fontsize=7)
    return ax
