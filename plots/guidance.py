"""Which search fails least as the guidance's quality varies (``compare --preset guidance``):
a panel per tree and budget, the prior's measured top-1 agreement up, the value's noise
across, each cell coloured by the search of the lowest failure rate (UCB1 with random
playouts, the better of plain and MaxFrequency; PUCT or Gumbel MuZero guided; white: a tie)
and marked with the lowest rate."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import ListedColormap

from .style import new_figure

_COLOURS = {"playouts": "#9e9e9e", "puct": "#1f77b4", "gumbel_muzero": "#ff7f0e",
            "tie": "#ffffff"}
_NAMES = {"playouts": "UCB1 with playouts (plain or MaxFrequency)", "puct": "PUCT (no playout)",
          "gumbel_muzero": "Gumbel MuZero (no playout)", "tie": "a tie"}


def panel_budgets(budgets, count: int = 3) -> list[int]:
    """``count`` budgets spread over the stored ones on a log scale, the largest included."""
    budgets = sorted({int(b) for b in budgets})
    picks = np.unique(np.geomspace(budgets[1] if len(budgets) > 1 else budgets[0],
                                   budgets[-1], count).round())
    return [min(budgets, key=lambda b: abs(np.log2(b) - np.log2(pick))) for pick in picks]


def winner_map(table, budgets=None):
    """The figure of ``table`` (``experiments.comparisons.guidance``'s guidance_map)."""
    configs = list(dict.fromkeys(table.config))
    budgets = budgets or panel_budgets(table.budget)
    searches = list(_COLOURS)
    figure, axes = new_figure(len(configs), len(budgets),
                              figsize=(3.4 * len(budgets), 2.6 * len(configs)), squeeze=False)
    cmap = ListedColormap([_COLOURS[s] for s in searches])
    for i, config in enumerate(configs):
        for j, budget in enumerate(budgets):
            ax, rows = axes[i][j], table[(table.config == config) & (table.budget == budget)]
            agreements = sorted(rows.top1.unique())
            sigmas = sorted(rows.sigma.unique())
            codes = np.full((len(agreements), len(sigmas)), np.nan)
            for row in rows.itertuples():
                y, x = agreements.index(row.top1), sigmas.index(row.sigma)
                codes[y, x] = searches.index(row.winner)
                rate = min(row.playouts_rate,
                           *(getattr(row, name) for name in ("puct", "gumbel_muzero")
                             if hasattr(row, name)))
                ax.text(x, y, f"{rate:.2f}", ha="center", va="center", fontsize=7)
            ax.imshow(codes, cmap=cmap, vmin=-0.5, vmax=len(searches) - 0.5, origin="lower",
                      aspect="auto")
            ax.set_xticks(range(len(sigmas)), [f"{s:g}" for s in sigmas])
            ax.set_yticks(range(len(agreements)), [f"{a:.2f}" for a in agreements])
            ax.set_title(f"{config.split(' ')[0]}, {budget} evaluations", fontsize=8)
            if i == len(configs) - 1:
                ax.set_xlabel("value noise sigma")
            if j == 0:
                ax.set_ylabel("prior top-1 agreement")
    handles = [axes[0][0].scatter([], [], marker="s", s=60, color=_COLOURS[s], label=_NAMES[s],
                                  edgecolors="#555555") for s in searches]
    figure.legend(handles=handles, loc="upper center", ncol=4, frameon=False,
                  bbox_to_anchor=(0.5, 1.0))
    figure.tight_layout(rect=(0, 0, 1, 0.96))
    return figure
