"""The k figure of the Pepels reproduction: win rate of the Qualitative Bonus against its k in
Breakthrough, beside the paper's k (``plots.pepels``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...runtime.store import write_figures
from .study import GAME_NAMES, K_FIGURE_GAME, PAPER, PAPER_K

K_FIGURE = "fig_k_qb_breakthrough"


def k_figure(frame: pd.DataFrame, out: Path, formats=("png", "pdf")) -> str | None:
    """Draw the k figure from the k matches of ``frame`` into ``out`` (PNG, which the report
    shows, and every other format of ``formats``); return a paragraph on it for the report, or
    None without k matches."""
    from plots.pepels import plot_win_rate_against_k
    rows = frame[frame.part == "k"].sort_values("k")
    if rows.empty:
        return None
    paper_k = PAPER_K[K_FIGURE_GAME][1]
    paper = PAPER["3"][K_FIGURE_GAME][1]  # 1 s, a = 0.25
    ax = plot_win_rate_against_k(rows, paper_k=paper_k, paper=paper[:2],
                                 title=f"QB (a = 0.25) in {GAME_NAMES[K_FIGURE_GAME]}")
    write_figures(ax.figure, out / K_FIGURE, ("png", *formats))
    best = rows.loc[rows.win_rate.idxmax()]
    at_paper = rows[rows.k == paper_k]
    flat = bool((rows.ci95_high >= best.ci95_low).all())
    text = (f"Win rate of `uct+qb(k, a=0.25)` against `uct` in {GAME_NAMES[K_FIGURE_GAME]} at "
            f"{int(rows.playouts.iloc[0]):,} playouts, {int(rows.games.iloc[0])} games per k. "
            f"Highest at k = {best.k:g}: {best.win_rate:.1f}% "
            f"[{best.ci95_low:.1f}, {best.ci95_high:.1f}]")
    if not at_paper.empty:
        r = at_paper.iloc[0]
        text += (f"; at the paper's k = {paper_k:g}: {r.win_rate:.1f}% "
                 f"[{r.ci95_low:.1f}, {r.ci95_high:.1f}] (paper, 1 s, a = 0.25: "
                 f"{paper[0]:.1f} ± {paper[1]:.1f})")
    text += (". " + ("Every k's interval overlaps the best k's: at this sample size no k is "
                     "clearly worse." if flat else "At least one k's interval lies wholly below "
                     "the best k's."))
    return f"![win rate against k]({K_FIGURE}.png)\n\n{text}"
