"""Failure-rate curves (seed 001, Figs. 3-9) drawn from any table of curves the lab returns.

The input is a tidy table with a row per curve and budget: ``experiments.failure_rate(...)``'s
frame, a study's ``experiments.studies.study.load_results``, the file ``mctslab failure-rate --out``
writes, or a comparison's ``curves`` table. It needs ``budget``, ``runs``, ``failure_rate``
(or ``failures``), ``policy`` and ``adjuster``; a curve is a ``curve_key`` when the table has
one, else a distinct (config or tree, policy, adjuster, parameters) and ``label`` names it when
present. Colours follow the policy and line styles the adjuster (``plots.style``); every band is
the Wilson 95% interval of failures / runs.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter

import pandas as pd

from .style import BAND, band, look_of, methods, new_figure, shade

# the columns that tell curves apart when the table has no curve_key, in label order
IDENTITY = ("config", "tree", "branching", "depth", "policy", "policy_params", "adjuster",
            "adjuster_params", "restart", "rescore", "terminals_at_threshold", "shaping", "freeze",
            "search_depth")
_LEGEND_SIZE = 7  # points


def _split_labels(labels: list[str]) -> tuple[str, list[str]]:
    """The words all ``labels`` share (a title) and what is left of each (a legend entry)."""
    words = [label.split() for label in labels]
    common = [w for w in words[0] if all(w in other for other in words[1:])]
    if len(labels) == 1:
        return " ".join(common), labels
    rest = [" ".join(w for w in split if w not in common) or "defaults" for split in words]
    return " ".join(common), rest


def _wrapped(text: str, ax, size: float) -> str:
    """``text`` broken into lines about as wide as ``ax`` at font ``size`` (in points; a
    character taken as 0.55 of it, about DejaVu Sans' mean width)."""
    inches = ax.get_position().width * ax.figure.get_figwidth()
    return textwrap.fill(text, max(10, int(inches * 72 / (0.55 * size))))


def curves_of(frame: pd.DataFrame) -> list[pd.DataFrame]:
    """The table's curves, each sorted by budget with ``failures`` and a ``label``, in the
    order of the table."""
    keys = ["curve_key"] if "curve_key" in frame else [c for c in IDENTITY if c in frame]
    if "failures" not in frame:
        frame = frame.assign(failures=(frame["failure_rate"] * frame["runs"]).round())
    if "failure_rate" not in frame:
        frame = frame.assign(failure_rate=frame["failures"] / frame["runs"])
    curves = []
    for _, curve in frame.groupby(keys, sort=False, dropna=False):
        if "label" not in curve:
            policy, adjuster = methods(curve.iloc[:1])[0]
            where = curve["config"] if "config" in curve else curve.get("tree", pd.Series([""]))
            curve = curve.assign(label=" ".join(str(part) for part in
                                                (where.iloc[0], policy, adjuster) if part))
        curves.append(curve.sort_values("budget"))
    return curves


def plot_failure_curves(frame: pd.DataFrame, ax=None, *, look=None):
    """Failure rate against playouts (log-x), a line per curve with its Wilson 95% band, in its
    policy's colour and its adjuster's line style; returns the Axes (a new figure's when
    ``ax`` is None). ``look`` (``plots.style.look``) fixes the colours, by default the
    registries' order.

    The title holds what all curves share, the legend what sets each apart, both in lines as
    wide as the Axes; a curve whose runs are not all stored yet says how many are. Curves of one
    method (e.g. of several trees) are told apart by shade, light to dark in the table's order.
    """
    if ax is None:
        _, ax = new_figure()
    look = look or look_of(frame)
    curves = curves_of(frame)
    title, names = _split_labels([curve["label"].iloc[0] for curve in curves])
    kinds = [methods(curve.iloc[:1])[0] for curve in curves]
    counts, seen = Counter(kinds), Counter()
    for curve, name, kind in zip(curves, names, kinds):
        if "planned_runs" in curve and curve["runs"].iloc[0] < curve["planned_runs"].iloc[0]:
            name = f"{name} ({curve['runs'].iloc[0]}/{curve['planned_runs'].iloc[0]} runs)"
        style = look.method(*kind)
        if counts[kind] > 1:
            style["color"] = shade(style["color"], seen[kind], counts[kind])
        seen[kind] += 1
        ax.plot(curve["budget"], curve["failure_rate"], lw=1.2, ms=3,
                label=_wrapped(name, ax, _LEGEND_SIZE), **style)
        band(ax, curve, color=style["color"])
    ax.set_xscale("log", base=2)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("playouts")
    ax.set_ylabel("failure rate")
    ax.set_title(_wrapped(title, ax, ax.title.get_fontsize()))
    ax.legend(fontsize=_LEGEND_SIZE, title=BAND, title_fontsize=_LEGEND_SIZE)
    return ax


def failure_figures(frame: pd.DataFrame) -> dict[str, object]:
    """One figure per tree model and shape (tree, branching, depth) with a panel per policy,
    keyed by a file-name-safe name such as ``constant(1,5)_b4_d8``; one look for all. The
    panels' titles wrap to their width and the layout is constrained, so they never overlap."""
    figures = {}
    look = look_of(frame)
    for (tree, branching, depth), group in frame.groupby(["tree", "branching", "depth"],
                                                         sort=False):
        policies = list(dict.fromkeys(group["policy"]))
        fig, axes = new_figure(1, len(policies), figsize=(4.2 * len(policies), 3.4),
                               sharey=True, squeeze=False, layout="constrained")
        for ax, policy in zip(axes[0], policies):
            plot_failure_curves(group[group["policy"] == policy], ax, look=look)
        for ax in axes[0, 1:]:
            ax.set_ylabel("")  # the y axis is shared: labelled once
        name = f"{tree}_b{branching}_d{depth}".replace("'", "prime")
        figures[re.sub(r"[^A-Za-z0-9(),.-]+", "_", name)] = fig
    return figures
