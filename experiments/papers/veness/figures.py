"""The figures of the seed 003 reproduction: Fig. 1 (bias^2 and variance on Pig) and Fig. 2
(one panel of mean scores per game), drawn from the computed tables (``plots.veness``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...runtime.store import write_figures
from .study import PANELS


def draw(fig1: pd.DataFrame, fig2: pd.DataFrame, out: Path, formats=("png", "pdf")) -> None:
    """Fig. 1 and Fig. 2 into ``out``: PNG, which the report shows, and every other format of
    ``formats``."""
    from plots import new_figure
    from plots.veness import plot_bias_variance, plot_scores

    fig, axes = new_figure(1, 2, figsize=(9, 3.5))
    plot_bias_variance(fig1, "roll", ax=axes[0])
    plot_bias_variance(fig1, "difference", ax=axes[1])
    write_figures(fig, out / "fig1_bias_variance", ("png", *formats))
    panels = [p for p in PANELS.values() if (fig2["panel"] == p.game).any()]
    fig, axes = new_figure(1, len(panels), figsize=(4.6 * len(panels), 3.8), squeeze=False)
    for panel, ax in zip(panels, axes[0]):
        plot_scores(fig2[fig2["panel"] == panel.game], title=panel.title, ax=ax)
    write_figures(fig, out / "fig2_scores", ("png", *formats))
