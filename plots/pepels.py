"""Seed 000's bonus slope k: win rate against k from stored match results
(``experiments.papers.pepels``)."""

from __future__ import annotations

import pandas as pd

from .style import new_figure


def plot_win_rate_against_k(rows: pd.DataFrame, *, paper_k: float | None = None,
                            paper: tuple[float, float] | None = None, title: str = "",
                            ax=None):
    """Win rate (%) of the enhanced player against k with its 95% intervals, log2-x.

    ``rows``: one match per k with the columns ``k``, ``win_rate``, ``ci95_low``, ``ci95_high``
    and ``playouts`` (rows of ``results.csv``). ``paper_k`` marks the paper's k, ``paper`` =
    (win %, half-width) its result there.
    """
    if ax is None:
        ax = new_figure(figsize=(4.2, 3.0))[1]
    rows = rows.sort_values("k")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.errorbar(rows["k"], rows["win_rate"],
                yerr=[rows["win_rate"] - rows["ci95_low"], rows["ci95_high"] - rows["win_rate"]],
                marker="o", markersize=4, capsize=3,
                label=f"ours, {int(rows['playouts'].iloc[0]):,} playouts")
    if paper_k is not None and paper is not None:
        ax.errorbar([paper_k], [paper[0]], yerr=[paper[1]], marker="*", markersize=8,
                    color="C3", ls="none", capsize=3, label=f"paper, 1 s, k = {paper_k:g}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(rows["k"]), [f"{k:g}" for k in rows["k"]])
    ax.set_ylim(0, 100)
    ax.set_xlabel("k (slope of the bonus sigmoid, Eq. 5)")
    ax.set_ylabel("win rate against UCT (%)")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7)
    return ax
