"""The figures of the Kocsis & Szepesvari (2006) reproduction (``plots.kocsis``): Fig. 2's two
panels, its four methods beside the paper's curves under both readings of its failure rule,
and the ablation from the lab's UCT to the paper's, each panel with its exact random-pick
level; Fig. 3, the iterations to a failure rate against depth and branching."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...runtime.store import write_figures
from .levels import READINGS
from .study import BY_VALUE, UCT_VARIANTS

FIGURE = "fig2_pgames"
BY_VALUE_FIGURE = "fig2_by_game_value"
BY_VALUE_READING = READINGS[3][0]  # game value, decisive trees
ABLATION = "fig2_ablation"
FIG3 = "fig3_iterations"


def draw(table: pd.DataFrame, levels: list[dict], readings: list[dict], out: Path,
         paper: pd.DataFrame | None, formats=("png", "pdf")) -> tuple[str, str, str]:
    """Fig. 2 under the best-score rule, under the reading by game value (its random pick
    that of ``readings``, ``levels.search_free_levels``) and the ablation, as PNG and every
    other format of ``formats``; returns their file stems."""
    from plots.kocsis import plot_fig2

    picks = {level["panel"]: level["score_level"] for level in levels}
    curves = None if paper is None else paper[paper["kind"] == "curve"]
    write_figures(plot_fig2(table, picks, curves), out / FIGURE, ("png", *formats))
    decisive = {row["panel"]: row["random_pick"] for row in readings
                if row["reading"] == BY_VALUE_READING}
    faced = None if curves is None else curves[curves["method"].isin(BY_VALUE.values())]
    if faced is not None:
        faced = faced.assign(method=faced["method"].map({v: k for k, v in BY_VALUE.items()}))
    write_figures(plot_fig2(table, decisive, faced, tuple(BY_VALUE),
                            "failure rate (a move of worse game value)"),
                  out / BY_VALUE_FIGURE, ("png", *formats))
    uct = None if curves is None else curves[curves["method"] == "uct-paper"]
    write_figures(plot_fig2(table, picks, uct, UCT_VARIANTS), out / ABLATION, ("png", *formats))
    return FIGURE, BY_VALUE_FIGURE, ABLATION


def draw_fig3(table: pd.DataFrame, paper: pd.DataFrame, out: Path,
              formats=("png", "pdf")) -> str:
    """Fig. 3 as PNG and every other format of ``formats``; returns its file stem."""
    from plots.kocsis import plot_fig3

    from .fig3 import PAPER_SERIES, SERIES

    write_figures(plot_fig3(table, paper, SERIES, PAPER_SERIES), out / FIG3, ("png", *formats))
    return FIG3
