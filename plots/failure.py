"""Failure-rate curves (seed 001, Figs. 3-9) drawn from a study's stored results.

The input is the tidy table of ``experiments.study.load_results``: a row per curve and budget
with ``curve_key``, ``label``, ``budget``, ``failure_rate``, ``stderr``, ``runs`` and
``planned_runs``.
"""

from __future__ import annotations

import re

import pandas as pd

from .style import new_figure


def _split_labels(labels: list[str]) -> tuple[str, list[str]]:
    """The words all ``labels`` share (a title) and what is left of each (a legend entry)."""
    words = [label.split() for label in labels]
    common = [w for w in words[0] if all(w in other for other in words[1:])]
    if len(labels) == 1:
        return " ".join(common), labels
    rest = [" ".join(w for w in split if w not in common) or "defaults" for split in words]
    return " ".join(common), rest


def plot_failure_curves(frame: pd.DataFrame, ax=None):
    """Failure rate against playouts (log-x), one line per curve with a +-1 standard-error band.

    The title holds what all curves share, the legend what sets each apart; a curve whose runs
    are not all stored yet says how many are.
    """
    if ax is None:
        _, ax = new_figure()
    curves = [group for _, group in frame.groupby("curve_key", sort=False)]
    title, names = _split_labels([curve["label"].iloc[0] for curve in curves])
    for number, (curve, name) in enumerate(zip(curves, names)):
        runs, planned = curve["runs"].iloc[0], curve["planned_runs"].iloc[0]
        if runs < planned:
            name = f"{name} ({runs}/{planned} runs)"
        colour = f"C{number % 10}"
        ax.plot(curve["budget"], curve["failure_rate"], color=colour, lw=1.2, marker=".",
                label=name)
        ax.fill_between(curve["budget"], curve["failure_rate"] - curve["stderr"],
                        curve["failure_rate"] + curve["stderr"], color=colour, alpha=0.2, lw=0)
    ax.set_xscale("log", base=2)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("playouts")
    ax.set_ylabel("failure rate")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return ax


def failure_figures(frame: pd.DataFrame) -> dict[str, object]:
    """One figure per tree model and shape (tree, branching, depth) with a panel per policy,
    keyed by a file-name-safe name such as ``constant(1,5)_b4_d8``."""
    figures = {}
    for (tree, branching, depth), group in frame.groupby(["tree", "branching", "depth"],
                                                         sort=False):
        policies = list(dict.fromkeys(group["policy"]))
        fig, axes = new_figure(1, len(policies), figsize=(4.2 * len(policies), 3.4),
                               sharey=True, squeeze=False)
        for ax, policy in zip(axes[0], policies):
            plot_failure_curves(group[group["policy"] == policy], ax)
        fig.tight_layout()
        name = f"{tree}_b{branching}_d{depth}".replace("'", "prime")
        figures[re.sub(r"[^A-Za-z0-9(),.-]+", "_", name)] = fig
    return figures
