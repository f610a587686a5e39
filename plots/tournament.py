"""A round robin's ratings: each player's Bradley-Terry Elo with its bootstrap 95% interval, from
an ``experiments.tournaments.ratings.ratings`` table."""

from __future__ import annotations

import pandas as pd

from specs import parse_spec

from .style import look, new_figure

_ALIASES = {"uct": "ucb1"}


def _policy(spec: str) -> str:
    """The selection policy a player spec starts with (``uct`` is ``ucb1``)."""
    name = parse_spec(spec, "player spec")[0].name
    return _ALIASES.get(name, name)


def plot_ratings(table: pd.DataFrame, *, title: str = "", ax=None):
    """Elo (mean 0) per player, best at the top, with the interval ``ci_low``-``ci_high`` as a
    bar; a player takes its selection policy's colour (``plots.style``). Returns the Axes."""
    if ax is None:
        ax = new_figure(figsize=(4.8, 0.9 + 0.35 * len(table)))[1]
    rows = table.sort_values("elo").reset_index(drop=True)
    policies = [_policy(spec) for spec in rows["player"]]
    style = look(dict.fromkeys(policies))
    for y, row in rows.iterrows():
        ax.errorbar([row["elo"]], [y], xerr=[[row["elo"] - row["ci_low"]],
                                            [row["ci_high"] - row["elo"]]],
                    marker="o", markersize=4, capsize=3, color=style.colour(policies[y]))
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), rows["player"])
    ax.set_xlabel("Elo (Bradley-Terry, mean 0; bars: bootstrap 95% intervals)")
    if title:
        ax.set_title(title)
    return ax
