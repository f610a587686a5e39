"""A game tuning's figure: the tuned player's win rate against its constant, drawn from the
tuning's games and its last fit (``experiments.tuning.games``): binned observed win rates
with Wilson 95% intervals, the fitted curve with its pointwise 95% band, the chosen constant
and the interval of constants not shown worse."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from specs import parse_spec

from .style import look, new_figure

_ALIASES = {"uct": "ucb1"}


def binned(games: pd.DataFrame, bins: int = 12, log: bool = True) -> pd.DataFrame:
    """The games (columns ``constant``, ``score``: win 1, draw 1/2, loss 0) in ``bins`` bins
    of equal width on the constant's scale (log or linear), empty bins dropped: per bin the
    mean constant on that scale, games, mean score and its Wilson 95% interval (a draw counts
    half a win)."""
    x = np.log(games["constant"]) if log else games["constant"].astype(float)
    edges = np.linspace(x.min(), x.max(), bins + 1)
    which = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, bins - 1)
    grouped = pd.DataFrame({"x": x, "score": games["score"], "bin": which}).groupby("bin")
    rows = grouped.agg(x=("x", "mean"), games=("score", "size"), score=("score", "mean"))
    low, high = proportion_confint(rows["score"] * rows["games"], rows["games"], alpha=0.05,
                                   method="wilson")
    return pd.DataFrame({"constant": np.exp(rows["x"]) if log else rows["x"],
                         "games": rows["games"], "score": rows["score"], "ci_low": low,
                         "ci_high": high}).reset_index(drop=True)


def plot_game_tuning(games: pd.DataFrame, curve: pd.DataFrame, *, chosen: float | None,
                     interval: tuple[float, float], log: bool = True, parameter: str = "c",
                     player: str = "", against: str = "", bins: int = 12, title: str = "",
                     ax=None):
    """Win rate against the constant: ``binned`` games as points with Wilson intervals, the
    fitted ``curve`` (columns constant, win_rate, ci_low, ci_high) with its band in the tuned
    policy's colour (``plots.style``), the ``chosen`` constant as a line (None: nothing was
    chosen, the legend says so) and ``interval`` shaded. Returns the Axes."""
    if ax is None:
        ax = new_figure(figsize=(5.4, 3.4))[1]
    policy = parse_spec(player, "player spec")[0].name if player else ""
    colour = look([_ALIASES.get(policy, policy)] if policy else []).colour(
        _ALIASES.get(policy, policy))
    ax.axvspan(*interval, color=colour, alpha=0.08, lw=0,
               label=f"{parameter} not shown worse ({interval[0]:.3g}-{interval[1]:.3g})")
    ax.fill_between(curve["constant"], curve["ci_low"], curve["ci_high"], color=colour,
                    alpha=0.2, lw=0)
    ax.plot(curve["constant"], curve["win_rate"], color=colour, label="fit (band: 95%)")
    points = binned(games, bins, log)
    ax.errorbar(points["constant"], points["score"],
                yerr=[points["score"] - points["ci_low"], points["ci_high"] - points["score"]],
                fmt="o", color="0.25", markersize=3.5, capsize=2, lw=0.8,
                label=f"games in {len(points)} bins (Wilson 95%)")
    if chosen is None:
        ax.plot([], [], ls="none", label=f"no {parameter} chosen: none shown worse")
    else:
        ax.axvline(chosen, color=colour, ls="--", lw=1.2,
                   label=f"chosen {parameter} = {chosen:.3g}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(f"{parameter} of {player}" if player else parameter)
    ax.set_ylabel(f"win rate against {against}" if against else "win rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2,
              frameon=False)
    if title:
        ax.set_title(title)
    return ax
