"""The figures of the Kocsis & Szepesvari (2006) reproduction (``plots.kocsis``): Fig. 2's two
panels, its four methods beside the paper's curves, and the ablation from the lab's UCT to the
paper's, each panel with its exact random-pick level; Fig. 3, the iterations to a failure rate
against depth and branching."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...runtime.store import write_figures
from .study import UCT_VARIANTS

FIGURE = "fig2_pgames"
ABLATION = "fig2_ablation"
FIG3 = "fig3_iterations"


def draw(table: pd.DataFrame, levels: list[dict], out: Path, paper: pd.DataFrame | None,
         formats=("png", "pdf")) -> tuple[str, str]:
    """Fig. 2 and the ablation as PNG and every other format of ``formats``; returns their file
    stems."""
    from plots.kocsis import plot_fig2

    picks = {level["panel"]: level["score_level"] for level in levels}
    curves = None if paper is None else paper[paper["kind"] == "curve"]
    write_figures(plot_fig2(table, picks, curves), out / FIGURE, ("png", *formats))
    uct = None if curves is None else curves[curves["method"] == "uct-paper"]
    write_figures(plot_fig2(table, picks, uct, UCT_VARIANTS), out / ABLATION, ("png", *formats))
    return FIGURE, ABLATION


def draw_fig3(table: pd.DataFrame, paper: pd.DataFrame, out: Path,
              formats=("png", "pdf")) -> str:
    """Fig. 3 as PNG and every other format of ``formats``; returns its file stem."""
    from plots.kocsis import plot_fig3

    from .fig3 import PAPER_SERIES, SERIES

    write_figures(plot_fig3(table, paper, SERIES, PAPER_SERIES), out / FIG3, ("png", *formats))
    return FIG3
