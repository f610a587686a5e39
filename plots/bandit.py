"""Figures of the plain-bandit study (``experiments.plain_bandits.study``), drawn from its tidy
table: cumulative regret against time (log-x) beside the Lai-Robbins rate and UCB1's bound, and the
probability of recommending a wrong arm. A policy keeps its colour (``plots.style``); the
bounds are black and grey, the pure-exploration baselines dark tones with their own lines."""

from __future__ import annotations

import pandas as pd

from .style import look, new_figure

REGRET_BAND = "bands: Student-t 95% intervals over runs"
WRONG_BAND = "bands: Wilson 95% intervals"
_BOUNDS = {"Lai-Robbins": ("black", "--"), "UCB1 bound (Auer et al.)": ("0.5", ":")}
_BASELINES = {"uniform": ("#444444", (0, (1, 1))), "successive_rejects": ("#7a0177", "-."),
              "sequential_halving": ("#005a32", (0, (6, 2)))}
_RULES = {"wrong_most_pulled": ("-", "most pulled"), "wrong_best_mean": ("--", "best mean")}


def _look(frame: pd.DataFrame):
    return look(list(dict.fromkeys(frame.loc[frame["kind"] == "policy", "method"])))


def _draw(ax, rows, label, colour, ls):
    rows = rows.sort_values("t")
    ax.plot(rows["t"], rows["estimate"], color=colour, ls=ls, lw=1.2, label=label)
    if rows["ci_low"].notna().any():
        ax.fill_between(rows["t"], rows["ci_low"], rows["ci_high"], color=colour, alpha=0.15,
                        lw=0)


def plot_regret(frame: pd.DataFrame, problem: str, ax=None, *, bounds=True):
    """Mean cumulative regret of every policy on ``problem`` against t (log-x) with its band,
    and the bounds; returns the Axes."""
    if ax is None:
        _, ax = new_figure(figsize=(5.2, 3.6))
    rows = frame[(frame["problem"] == problem) & (frame["measure"] == "regret")]
    styles = _look(frame)
    for method, group in rows[rows["kind"] == "policy"].groupby("method", sort=False):
        _draw(ax, group, method, styles.colour(method), "-")
    if bounds:
        for method, group in rows[rows["kind"] == "bound"].groupby("method", sort=False):
            _draw(ax, group, method, *_BOUNDS.get(method, ("0.3", "-.")))
    top = rows.loc[rows["kind"] == "policy", "ci_high"].max()
    ax.set_ylim(0, 1.15 * top if top > 0 else 1)
    ax.set_xscale("log")
    ax.set_xlabel("t (pulls)")
    ax.set_ylabel("cumulative regret")
    ax.set_title(problem, fontsize=8)
    ax.legend(fontsize=7, title=REGRET_BAND, title_fontsize=7)
    return ax


def plot_identification(frame: pd.DataFrame, problem: str, ax=None, *, kind: str = "policy"):
    """The probability of recommending a wrong arm after t pulls on ``problem`` (log-x): with
    ``kind`` "policy" every policy by each rule (a line style per rule), with "baseline" every
    pure-exploration baseline at its budgets; returns the Axes."""
    if ax is None:
        _, ax = new_figure(figsize=(5.2, 3.6))
    rows = frame[(frame["problem"] == problem) & (frame["kind"] == kind)]
    styles = _look(frame)
    if kind == "policy":
        for (method, measure), group in rows.groupby(["method", "measure"], sort=False):
            if measure in _RULES:
                ls, rule = _RULES[measure]
                _draw(ax, group, f"{method}, {rule}", styles.colour(method), ls)
    else:
        for method, group in rows.groupby("method", sort=False):
            _draw(ax, group, method.replace("_", " "), *_BASELINES.get(method, ("0.2", "-")))
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("t (pulls)" if kind == "policy" else "budget (pulls)")
    ax.set_ylabel("P(wrong arm recommended)")
    ax.set_title(f"{problem}: {'policies' if kind == 'policy' else 'fixed-budget baselines'}",
                 fontsize=8)
    if rows.empty:
        ax.text(0.5, 0.5, f"no {kind}", transform=ax.transAxes, ha="center")
    else:
        ax.legend(fontsize=6, title=WRONG_BAND, title_fontsize=7)
    return ax


def identification_figure(frame: pd.DataFrame, problem: str):
    """Two panels side by side, sharing their axes: the policies' rules, then the baselines."""
    fig, axes = new_figure(1, 2, figsize=(9.6, 3.6), sharex=True, sharey=True)
    for ax, kind in zip(axes, ("policy", "baseline")):
        plot_identification(frame, problem, ax, kind=kind)
    fig.tight_layout()
    return fig
