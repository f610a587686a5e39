"""The verdicts of the seed 003 reproduction: the paper's statements on Figs. 1 and 2 checked
against our numbers, and the equivalent simulations they rest on.

A method's mean score at budget m is matched on base UCT's curve, made non-decreasing by
isotonic regression and interpolated linearly in log2(budget): the ratio m' / m of the matching
budget m' to m says how many times the simulations base UCT needs to do as well (seed 003
states its Fig. 2 results this way). Beyond the ends of the base curve only a bound is known.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .study import PANELS, Panel

ROUGHLY = 1.1  # "roughly" in a ratio statement: its range widened by this factor both ways
CV_CLAIM = "Fig. 2: CV is particularly helpful, and even more effective combined with CRN"
AV_CLAIM = "Fig. 2: AV gives a measurable increase, but less than CV or CRN"
APART_CLAIM = "(ours) UCT+CV+CRN above base UCT with non-overlapping 95% intervals"


def isotonic(values: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence closest to ``values`` in least squares (pool adjacent
    violators, equal weights)."""
    blocks: list[list[float]] = []  # [sum, count]
    for v in np.asarray(values, dtype=float):
        blocks.append([v, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    return np.concatenate([np.full(int(n), s / n) for s, n in blocks])


def equivalent_budget(budgets, base_means, score: float) -> float:
    """The simulations base UCT needs to score ``score`` on average: the first crossing of its
    isotonic curve, linear in log2(budget); 0 below the curve, inf above it."""
    budgets, fit = np.asarray(budgets, dtype=float), isotonic(base_means)
    if score <= fit[0]:
        return budgets[0] if score == fit[0] else 0.0
    for i in range(1, len(fit)):
        if fit[i] >= score:
            t = (score - fit[i - 1]) / (fit[i] - fit[i - 1])
            return float(2 ** ((1 - t) * np.log2(budgets[i - 1]) + t * np.log2(budgets[i])))
    return math.inf


def equivalent_ratios(summary: pd.DataFrame) -> pd.DataFrame:
    """Per panel, method and budget of ``score_summary``: the equivalent-simulations ratio of
    the mean (``ratio``) and of its 95% interval's ends; ``low_bound`` / ``high_bound`` the
    ratios at the ends of the base curve (the bounds when a ratio is 0 or inf)."""
    frames = []
    for _, rows in summary.groupby("panel", sort=False):
        base = rows[rows["method"] == "uct"].sort_values("budget")
        budgets, means = base["budget"].to_numpy(), base["mean"].to_numpy()
        table = rows[["panel", "method", "budget", "mean"]].copy()
        for column, source in (("ratio", "mean"), ("ratio_low", "ci95_low"),
                               ("ratio_high", "ci95_high")):
            table[column] = [equivalent_budget(budgets, means, s) / m
                             for s, m in zip(rows[source], rows["budget"])]
        frames.append(table.assign(low_bound=budgets[0] / table["budget"],
                                   high_bound=budgets[-1] / table["budget"]))
    return pd.concat(frames, ignore_index=True)


def ratio_text(ratio: float, low: float, high: float) -> str:
    if ratio == 0:
        return f"<{low:.2f}"
    return f">{high:.2f}" if math.isinf(ratio) else f"{ratio:.2f}"


def gains(summary: pd.DataFrame) -> pd.DataFrame:
    """Per panel and method: the mean over budgets of (mean score - base UCT's) and its
    standard error (the budgets' games independent)."""
    base = summary.loc[summary["method"] == "uct", ["panel", "budget", "mean", "sd", "games"]]
    rows = summary.merge(base, on=["panel", "budget"], suffixes=("", "_uct"))
    rows = rows.assign(gain=rows["mean"] - rows["mean_uct"],
                       var=rows["sd"] ** 2 / rows["games"] + rows["sd_uct"] ** 2
                       / rows["games_uct"])
    grouped = rows.groupby(["panel", "method"], sort=False)
    return pd.DataFrame({"gain": grouped["gain"].mean(),
                         "se": np.sqrt(grouped["var"].sum()) / grouped.size()}).reset_index()


def _fig1_claims(fig1: pd.DataFrame) -> list[tuple[str, str, str, bool]]:
    base = fig1[fig1["method"] == "uct"]
    roll = base[(base["quantity"] == "roll") & (base["budget"] >= 2)]
    diff = base[(base["quantity"] == "difference") & (base["budget"] >= 2)]
    small = diff[diff["budget"] < 1024]
    return [
        ("Pig", "Fig. 1 left: bias^2 dominates the MSE of the roll estimate",
         (f"bias^2 > variance at {int((roll['bias2'] > roll['variance']).sum())} of "
          f"{len(roll)} budgets 2..{roll['budget'].max()} (bias {roll['bias'].iloc[-1]:+.1f} at"
          " the largest)"),
         bool((roll["bias2"] > roll["variance"]).mean() >= 0.75)),
        ("Pig", ("Fig. 1 right: for roll - stop, variance dominates below 1024 simulations "
                 "and the bias is within +-2"),
         (f"variance > bias^2 at {int((small['variance'] > small['bias2']).sum())} of "
          f"{len(small)} budgets < 1024; max |bias| = {diff['bias'].abs().max():.2f}"),
         bool((small["variance"] > small["bias2"]).all() and diff["bias"].abs().max() <= 2)),
    ]


def _gain_text(gain: pd.Series, se: pd.Series, method: str) -> str:
    return f"{method.removeprefix('uct+')} {gain[method]:+.2f} +- {1.96 * se[method]:.2f}"


def panel_claims(panel: Panel, summary: pd.DataFrame) -> list[tuple[str, str, str, bool]]:
    """(game, statement, measured, holds) for one panel's rows of ``score_summary``."""
    rows = summary[summary["panel"] == panel.game]
    table = gains(rows).set_index("method")
    gain, se = table["gain"], table["se"]
    best = gain.drop("uct").idxmax()
    lo, hi = panel.paper_ratio
    ratios = equivalent_ratios(rows)
    mine = ratios[(ratios["method"] == best) & (ratios["budget"] * lo <= ratios["budget"].max())]
    clipped = mine["ratio"].clip(mine["low_bound"], mine["high_bound"])
    mean_ratio = float(np.exp(np.log(clipped).mean()))
    per_budget = ", ".join(f"{ratio_text(r.ratio, r.low_bound, r.high_bound)} at {r.budget}"
                           for r in mine.itertuples())
    measured = (f"best = {best}; base UCT needs x{mean_ratio:.2f} the simulations (geometric "
                f"mean; {per_budget})")
    found = [(panel.title, f"Fig. 2: {panel.paper_claim}", measured,
              lo / ROUGHLY <= mean_ratio <= hi * ROUGHLY)]
    if not {"cv", "crn"} <= set(panel.techniques):
        return found
    measured = "mean gain over UCT (95%): " + "; ".join(
        _gain_text(gain, se, m) for m in ("uct+cv", "uct+cv+crn"))
    found.append((panel.title, CV_CLAIM, measured,
                  bool(gain["uct+cv"] > 1.96 * se["uct+cv"]
                       and gain["uct+cv+crn"] > gain["uct+cv"])))
    if "av" in panel.techniques:
        measured = "mean gain over UCT (95%): " + "; ".join(
            _gain_text(gain, se, m) for m in ("uct+av", "uct+cv", "uct+crn"))
        found.append((panel.title, AV_CLAIM, measured, bool(
            1.96 * se["uct+av"] < gain["uct+av"] < min(gain["uct+cv"], gain["uct+crn"]))))
    low = rows.pivot(index="budget", columns="method", values="ci95_low")["uct+cv+crn"]
    apart = low > rows.pivot(index="budget", columns="method", values="ci95_high")["uct"]
    measured = (f"at budgets {[int(b) for b in apart.index[apart]]} of "
                f"{[int(b) for b in apart.index]}")
    found.append((panel.title, APART_CLAIM, measured, bool(apart.all())))
    return found


def claims(fig1: pd.DataFrame, fig2: pd.DataFrame) -> list[tuple[str, str, str, bool]]:
    """(game, paper's statement, what we measured, whether it holds), Fig. 1 then each panel."""
    found = _fig1_claims(fig1)
    for panel in PANELS.values():
        if (fig2["panel"] == panel.game).any():
            found += panel_claims(panel, fig2)
    return found
