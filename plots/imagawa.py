"""Seed 001's Figs. 3-9 (and the ablations) from a study's stored results.

The figures' layout (which trees, policies and adjusters, in which order) is the paper's and is
fixed here; the rows, and which of them are at their curve's default settings, are the
caller's (``experiments.papers.imagawa.is_default``). Colours and line styles are the lab's
(``plots.style``): a policy's colour (shaded light to dark as the trees' bias grows when the
lines are trees), an adjuster's line style; bands are Wilson 95% intervals.
"""

from __future__ import annotations

import pandas as pd

from bandits import POLICIES as POLICY_REGISTRY
from enhancements import ADJUSTERS as ADJUSTER_REGISTRY

from .style import BAND, band, look, new_figure, shade

POLICIES = ("ucb1", "klucb", "thompson")
ADJUSTERS = ("plain", "static", "score", "value", "maxfreq")
CONSTANT_TREES = ("constant(1,1)", "constant(1,3)", "constant(1,5)", "constant'(1,13)")
RANDOM_TREES = ("random(4,0)", "random(4,1)", "random(4,2)", "random(4,3)")
ABLATION_TREES = ("constant(1,5)", "constant'(1,13)", "random(4,3)")
POLICY_NAMES = {name: info.label for name, info in POLICY_REGISTRY.items()}
ADJUSTER_NAMES = {name: info.label for name, info in ADJUSTER_REGISTRY.items()}

# name -> (title, fixed column values, panel column and values, line column and values)
FIGURES = {
    "fig3_ucb1_constant": ("UCT in Constant trees", {"policy": "ucb1"},
                           ("adjuster", ("plain", "maxfreq")), ("tree", CONSTANT_TREES)),
    "fig4_thompson_constant": ("Thompson sampling in Constant trees", {"policy": "thompson"},
                               ("adjuster", ("plain", "maxfreq")), ("tree", CONSTANT_TREES)),
    "fig4x_klucb_constant": ("KL-UCB in Constant trees (omitted in the paper)",
                             {"policy": "klucb"}, ("adjuster", ("plain", "maxfreq")),
                             ("tree", CONSTANT_TREES)),
    "fig5_constant(1,5)": ("Enhancements in Constant(1,5)", {"tree": "constant(1,5)"},
                           ("policy", POLICIES), ("adjuster", ADJUSTERS)),
    "fig6_constant'(1,13)": ("Enhancements in Constant'(1,13)", {"tree": "constant'(1,13)"},
                             ("policy", POLICIES), ("adjuster", ADJUSTERS)),
    "fig7_ucb1_random": ("UCT in Random trees", {"policy": "ucb1"},
                         ("adjuster", ("plain", "maxfreq")), ("tree", RANDOM_TREES)),
    "fig8_thompson_random": ("Thompson sampling in Random trees", {"policy": "thompson"},
                             ("adjuster", ("plain", "maxfreq")), ("tree", RANDOM_TREES)),
    "fig8x_klucb_random": ("KL-UCB in Random trees (omitted in the paper)", {"policy": "klucb"},
                           ("adjuster", ("plain", "maxfreq")), ("tree", RANDOM_TREES)),
    "fig9_random(4,3)": ("Enhancements in Random(4,3)", {"tree": "random(4,3)"},
                         ("policy", POLICIES), ("adjuster", ADJUSTERS)),
}


def _name(column: str, value: str) -> str:
    return {"policy": POLICY_NAMES, "adjuster": ADJUSTER_NAMES}.get(column, {}).get(value, value)


def plot_curve(ax, rows: pd.DataFrame, label: str, style: dict):
    """One failure-rate curve (budget, failures, runs, failure_rate) with its Wilson 95%
    band, log-x; ``style``: keyword arguments of ``Axes.plot`` (colour, line style, marker)."""
    rows = rows.sort_values("budget")
    ax.plot(rows.budget, rows.failure_rate, lw=1.2, ms=3, label=label, **style)
    band(ax, rows, color=style["color"])
    ax.set_xscale("log", base=2)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("playouts")
    return ax


def _style(shared, fixed: dict, panel_by: str, panel: str, line_by: str, line: str,
           number: int, count: int) -> dict:
    """A line's look: its policy's colour and its adjuster's line style; lines that are
    trees (one method) take shades of the colour, by the panel's order of trees."""
    where = {**fixed, panel_by: panel, line_by: line}
    style = shared.method(where["policy"], where["adjuster"])
    if line_by == "tree":
        style["color"] = shade(style["color"], number, count)
    return style


def paper_figure(rows: pd.DataFrame, name: str):
    """The figure ``name`` of FIGURES from the rows of curves at their default settings (a
    panel per value of the panel column, a line per value of the line column), or None when
    none of its curves is among them."""
    title, fixed, (panel_by, panels), (line_by, lines) = FIGURES[name]
    for column, value in fixed.items():
        rows = rows[rows[column] == value]
    panels = [p for p in panels if (rows[panel_by] == p).any()]
    if not panels:
        return None
    fig, axes = new_figure(1, len(panels), figsize=(4.0 * len(panels), 3.3), sharey=True,
                           squeeze=False)
    shared = look()
    for letter, (ax, panel) in zip("abcdefgh", zip(axes[0], panels)):
        for number, line in enumerate(lines):
            curve = rows[(rows[panel_by] == panel) & (rows[line_by] == line)]
            if not curve.empty:
                runs = int(curve.runs.iloc[0])
                style = _style(shared, fixed, panel_by, panel, line_by, line, number,
                               len(lines))
                plot_curve(ax, curve, f"{_name(line_by, line)}", style)
        ax.set_title(f"({letter}) {_name(panel_by, panel)}", fontsize=9)
        ax.legend(fontsize=7, title=BAND, title_fontsize=6)
    axes[0][0].set_ylabel("failure rate")
    fig.suptitle(f"{title}  ({runs:,} runs per curve)", fontsize=10)
    fig.tight_layout()
    return fig


def ablation_figure(frame: pd.DataFrame, default: pd.Series):
    """UCT with MaxFrequency: default vs offset -0.5 vs no restart, beside Plain, a panel per
    tree of ABLATION_TREES stored; ``default`` marks the rows of curves at default settings."""
    rows = frame[frame.policy == "ucb1"]
    default = default.loc[rows.index]
    trees = [t for t in ABLATION_TREES if (rows.tree == t).any()]
    if not trees:
        return None
    fig, axes = new_figure(1, len(trees), figsize=(4.0 * len(trees), 3.3), sharey=True,
                           squeeze=False)
    shared = look(adjusters=("maxfreq(offset=-0.5)", "maxfreq(restart=0)"))
    variants = (  # label, adjuster entry, rows
        ("Plain", "plain", lambda r: (r.adjuster == "plain")),
        ("MaxFrequency", "maxfreq", lambda r: (r.adjuster == "maxfreq") & default.loc[r.index]),
        ("offset -0.5", "maxfreq(offset=-0.5)", lambda r: (r.adjuster == "maxfreq")
         & (r.adjuster_params == '{"offset": -0.5}')),
        ("restart off", "maxfreq(restart=0)", lambda r: (r.adjuster == "maxfreq")
         & ~r.restart.astype(bool)),
    )
    for ax, tree in zip(axes[0], trees):
        at = rows[rows.tree == tree]
        for label, adjuster, select in variants:
            curve = at[select(at)]
            if not curve.empty:
                plot_curve(ax, curve, label, shared.method("ucb1", adjuster))
        ax.set_title(tree, fontsize=9)
        ax.legend(fontsize=7, title=BAND, title_fontsize=6)
    axes[0][0].set_ylabel("failure rate")
    fig.suptitle("Ablations of MaxFrequency (UCT)", fontsize=10)
    fig.tight_layout()
    return fig
