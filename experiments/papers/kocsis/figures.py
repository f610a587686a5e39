"""The figure of the Kocsis & Szepesvari (2006) reproduction: Fig. 2's two panels drawn from
the points over trees, each with its exact random-pick level (``plots.kocsis``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

FIGURE = "fig2_pgames"


def draw(table: pd.DataFrame, levels: list[dict], out: Path, formats=("png", "pdf")) -> str:
    """Fig. 2 as PNG and every other format of ``formats``; returns the file stem."""
    from plots.kocsis import plot_fig2
    from plots.style import save_as

    figure = plot_fig2(table, {level["panel"]: level["score_level"] for level in levels})
    save_as(figure, out / FIGURE, ("png", *formats))
    return FIGURE
