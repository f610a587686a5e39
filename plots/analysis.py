"""Seed 001's Fig. 2: the histogram of terminal scores with Delta(theta) beneath it."""

from __future__ import annotations

from matplotlib.ticker import MaxNLocator

from trees import ThresholdAnalysis

from .style import new_figure


def plot_score_histogram(analysis: ThresholdAnalysis, ax=None):
    """Probability of each terminal score: all leaves vs the optimal root move's subtree."""
    if ax is None:
        _, ax = new_figure()
    all_leaves = analysis.pmf.mean(axis=0)
    optimal = analysis.pmf[analysis.optimal_move]
    ax.bar(analysis.support, all_leaves, width=0.9, color="0.7", label="all leaves")
    ax.bar(analysis.support, optimal / analysis.branching, width=0.5, color="C0",
           label="optimal root move's subtree")
    ax.axvline(analysis.static_threshold, color="C3", ls="--", lw=1,
               label=f"max Delta at {analysis.static_threshold:g}")
    ax.set_ylabel("share of leaves")
    ax.set_title(f"{analysis.tree}, b={analysis.branching}, d={analysis.depth}")
    ax.legend(fontsize=7)
    return ax


def plot_delta(analysis: ThresholdAnalysis, ax=None):
    """Win rates mu_*(theta), max_{i != *} mu_i(theta) and their gap Delta(theta)."""
    if ax is None:
        _, ax = new_figure()
    theta = analysis.thresholds
    ax.plot(theta, analysis.win_rate_optimal, color="C0", lw=1, label="optimal move")
    ax.plot(theta, analysis.win_rate_suboptimal, color="0.5", lw=1, label="best other move")
    ax.plot(theta, analysis.delta, color="C3", lw=1.5, label="Delta")
    ax.axvline(analysis.static_threshold, color="C3", ls="--", lw=1)
    ax.set_xlabel("threshold theta")
    ax.set_ylabel("max player's win rate")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)
    return ax


def plot_threshold_analysis(analysis: ThresholdAnalysis):
    """Histogram above, Delta(theta) below, sharing the score axis."""
    fig, (top, bottom) = new_figure(2, 1, sharex=True, figsize=(6, 5.5),
                                    gridspec_kw={"height_ratios": [3, 2]})
    plot_score_histogram(analysis, top)
    plot_delta(analysis, bottom)
    bottom.set_xlim(analysis.support[0] - 1, analysis.support[-1] + 1)
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    return fig
