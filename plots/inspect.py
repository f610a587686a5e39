"""One run seen from inside, and the anatomy of a curve's failures, drawn from the
tables of ``experiments.inspect``: a run's trace (``trace_frame``), its playout log
(``log_frame``) and a failure anatomy (``failure_anatomy``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import LogLocator

from .style import COLOURS, new_figure, power_of_two


def _log_x(ax, frame: pd.DataFrame, column: str) -> None:
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2))
    ax.xaxis.set_major_formatter(lambda value, _: power_of_two(value))
    ax.set_xlim(max(frame[column].min(), 1), frame[column].max())


def _shade_failures(ax, points: pd.DataFrame) -> None:
    """Grey between a grid point where the run fails and the next one."""
    playouts, failed = points["playouts"].to_numpy(), points["failed"].to_numpy()
    for k in np.flatnonzero(failed):
        right = playouts[k + 1] if k + 1 < playouts.size else playouts[k] * 1.05
        ax.axvspan(playouts[k], right, color="0.85", lw=0, zorder=0)


def plot_trace(frame: pd.DataFrame, log: pd.DataFrame | None = None, axes=None, title=""):
    """The root's children against playouts (log-x): visit shares, a colour per move, optimal
    moves thick; beneath, max's mean rewards on an axis fitted to them (the moves' means often
    differ by hundredths, which a 0-1 axis hides); beneath, the effective threshold (per
    playout from ``log`` when given, else at the grid points); grey where the run would fail
    if stopped there. Returns the three Axes (a new figure's when ``axes`` is None)."""
    if axes is None:
        _, axes = new_figure(3, 1, sharex=True, figsize=(6.4, 6.4),
                             gridspec_kw={"height_ratios": [3, 2, 1.2]})
    top, middle, bottom = axes
    points = frame.drop_duplicates("playouts").sort_values("playouts")
    for move, rows in frame.groupby("move"):
        rows = rows.sort_values("playouts")
        optimal = bool(rows["optimal"].iloc[0])
        colour = COLOURS[int(move) % len(COLOURS)]
        label = f"move {move}" + (" (optimal)" if optimal else "")
        width = 2.2 if optimal else 1.2
        top.plot(rows["playouts"], rows["share"], color=colour, lw=width, label=label)
        middle.plot(rows["playouts"], rows["mean"], color=colour, lw=width)
    for ax in axes:
        _shade_failures(ax, points)
    top.set_ylim(-0.02, 1.02)
    top.set_ylabel("visit share")
    means = frame["mean"].dropna()
    if len(means):
        low, high = float(means.min()), float(means.max())
        pad = max(0.05 * (high - low), 0.002)
        middle.set_ylim(max(low - pad, 0.0), min(high + pad, 1.0))
    middle.set_ylabel("mean reward (max)")
    top.legend(fontsize=7, title="grey: the run fails\nif stopped there", title_fontsize=7,
               loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        top.set_title(title, fontsize=8)
    if log is not None and len(log):
        bottom.step(log["playout"], log["threshold"], where="post", color="C3", lw=1)
    else:
        bottom.step(points["playouts"], points["threshold"], where="post", color="C3", lw=1)
    bottom.set_ylabel("threshold")
    bottom.set_xlabel("playouts")
    _log_x(bottom, frame, "playouts")
    top.figure.tight_layout()
    return top, middle, bottom


def plot_anatomy(table: pd.DataFrame, runs: int, ax=None, title=""):
    """The failing runs at each budget (log-x) stacked by the wrong move they chose, over all
    ``runs`` runs. A move's legend gives its gap, its uniform-playout win rate less the optimal
    move's, at the failing runs' own mean threshold where it fails most (seed 001's Eq. 5
    terms at the threshold the run plays at: 0 for the plain search, its adjuster's
    otherwise); a move of gap > 0 there (it looks better: the bias) is hatched, the others
    plain (too little search). Returns the Axes."""
    if ax is None:
        _, ax = new_figure(figsize=(6.4, 3.6))
    budgets = np.sort(table["budget"].unique()) if len(table) else np.array([1])
    bottom = pd.Series(0.0, index=budgets)
    for (tree_index, move), rows in table.groupby(["tree_index", "move"]):
        counts = rows.groupby("budget")["failures"].sum().reindex(budgets, fill_value=0)
        most = rows.loc[rows["failures"].idxmax()]
        gap = most["win_rate_at_threshold"] - most["optimal_win_rate_at_threshold"]
        biased = bool(gap > 0)
        label = f"move {move}" + (f" (tree {tree_index})" if table["tree_index"].nunique() > 1
                                  else "")
        label += f": gap {gap:+.2g} at threshold {most['threshold']:.3g}"
        ax.bar(budgets, counts / runs, width=budgets * 0.6, bottom=bottom / runs, align="center",
               color=COLOURS[int(move) % len(COLOURS)], hatch="//" if biased else None,
               edgecolor="white", lw=0.5, label=label)
        bottom += counts
    ax.set_ylabel("failure rate, by wrong move chosen")
    ax.set_ylim(0, max(1e-3, float(bottom.max()) / runs) * 1.1)
    ax.set_xlabel("playouts")
    _log_x(ax, pd.DataFrame({"budget": budgets}), "budget")
    ax.set_xlim(budgets.min() / 1.5, budgets.max() * 1.5)
    if len(table):
        ax.legend(fontsize=7, title="hatched: gap > 0 at the runs'\nthreshold (looks "
                  "better: bias)", title_fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0))
    if title:
        ax.set_title(title, fontsize=8)
    ax.figure.tight_layout()
    return ax


def plot_position(frame: pd.DataFrame, width: int = 4, axes=None, title=""):
    """One position's search of a real game (``experiments.inspect.position``) against
    playouts (log-x): the visit shares of the ``width`` root moves most visited at the largest
    budget (the others summed, grey), and beneath their mean values (the mover's); the move
    the largest search plays thick, a proven value in its label. Returns the two Axes."""
    if axes is None:
        _, axes = new_figure(2, 1, sharex=True, figsize=(6.4, 5.2),
                             gridspec_kw={"height_ratios": [3, 1.6]})
    top, bottom = axes
    last = frame[frame["playouts"] == frame["playouts"].max()]
    shown = last.sort_values("visits", ascending=False, kind="stable")["action"][:width]
    for k, action in enumerate(shown):
        rows = frame[frame["action"] == action].sort_values("playouts")
        end = rows.iloc[-1]
        colour = COLOURS[k % len(COLOURS)]
        label = f"{end['move']}" + (f" ({end['proven']})" if end["proven"] else "")
        lw = 2.2 if end["chosen"] else 1.2
        top.plot(rows["playouts"], rows["share"], color=colour, lw=lw,
                 label=label + (" (played)" if end["chosen"] else ""))
        bottom.plot(rows["playouts"], rows["value"], color=colour, lw=lw)
    rest = frame[~frame["action"].isin(shown)]
    if len(rest):
        others = rest.groupby("playouts")["share"].sum()
        top.plot(others.index, others.to_numpy(), color="0.6", lw=1, ls=":",
                 label=f"{rest['action'].nunique()} other moves")
    top.set_ylim(-0.02, 1.02)
    top.set_ylabel("visit share")
    top.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        top.set_title(title, fontsize=8)
    bottom.axhline(0, color="0.8", lw=0.8, zorder=0)
    bottom.set_ylabel("mean value\n(the mover's)")
    bottom.set_xlabel("playouts")
    _log_x(bottom, frame, "playouts")
    top.figure.tight_layout()
    return top, bottom
