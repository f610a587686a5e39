"""The paper's Fig. 2 beside ours: its curves as read from the PDF's drawing operators
(``data/fig2.csv``, written by ``experiments.papers.kocsis.paper_figures``), a z per budget
between its point and ours, each point's verdict, and the verdicts as the report writes them.

The paper's standard error at a budget: UCT's from its 95% error bars (mean +- 1.96 SE over 200
trees; their upper halves, as a bar's lower end may be clipped at the axis floor), interpolated
in log-log between the drawn markers. The other methods have no bars, so the binomial
sqrt(p (1 - p) / 40,000) of its 200 x 200 runs stands in: a lower bound (the rates vary between
trees too), which makes |z| an upper bound. Ours: the sd of the per-tree rates over
sqrt(trees). z = (ours - theirs) / sqrt(se_ours^2 + se_theirs^2).

A point's verdict is an equivalence, not a failure to reject. With d = ours - theirs and
s = sqrt(se_ours^2 + se_theirs^2): "agrees" when d +- 1.645 s (the two one-sided tests at
5%) lies inside +-MARGIN(p) = +-(0.01 + 0.1 p), p the paper's rate (a point of failure rate
and a tenth of the paper's); "agrees at every budget" needs no correction for the budgets
(an intersection-union test). "differs" when d +- Z_LIMIT s excludes 0 and the point does not
agree (3: Bonferroni over a panel's up to 13 budgets, so that "differs at some budget" holds
at 5%). Otherwise "not resolved": too few trees or runs to tell, or the paper's own standard
error alone too wide for the margin (1.645 se_theirs >= MARGIN: no reproduction could agree
there; ``paper_limits``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .study import BY_VALUE, PAPER_METHODS

DATA = Path(__file__).parent / "data"
PAPER_RUNS = 200 * 200  # Sect. 3.1: "200 trees, and 200 runs for each tree"
Z_LIMIT = 3.0  # "differs": the interval's half-width in standard errors (module docstring)
Z_EQUIVALENT = 1.645  # "agrees": the two one-sided tests at 5%
MARGIN_ABSOLUTE, MARGIN_RELATIVE = 0.01, 0.1
# the paper's names of the methods of its Fig. 2, as fig2.csv spells them, by the lab's
LAB_NAMES = {"uct": "uct-paper", "alphabeta": "alphabeta", "flatmc": "flatmc", "mmmc": "mmmc"}


def paper_fig2(path: Path = DATA / "fig2.csv") -> pd.DataFrame:
    """Fig. 2 as read from the PDF: panel, method (the lab's names), kind (curve | marker),
    iterations, failure_rate, ci_low, ci_high."""
    table = pd.read_csv(path, comment="#")
    return table.assign(method=table["method"].map(LAB_NAMES))


def paper_standard_error(paper: pd.DataFrame, panel: str, method: str,
                         iterations: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """The paper's standard error at ``iterations`` (module docstring)."""
    markers = paper[(paper["panel"] == panel) & (paper["method"] == method)
                    & (paper["kind"] == "marker")].dropna(subset=["ci_high"])
    floor = np.sqrt(rates * (1 - rates) / PAPER_RUNS)
    if len(markers) < 2:
        return floor
    markers = markers.sort_values("iterations")
    # the upper half of a bar: the lower end of the last is clipped at the axis floor
    se = (markers["ci_high"] - markers["failure_rate"]).to_numpy() / 1.96
    interpolated = np.exp(np.interp(np.log(iterations), np.log(markers["iterations"]),
                                    np.log(np.maximum(se, 1e-12))))
    return np.maximum(interpolated, floor)


def beside_paper(summary: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Per panel, method of Fig. 2 and budget the paper's curve reaches: ours with its standard
    error, the paper's with its own, and z (module docstring)."""
    curves = paper[paper["kind"] == "curve"]
    rows = []
    for (panel, method), theirs in curves.groupby(["panel", "method"], sort=False):
        ours = summary[(summary["panel"] == panel) & (summary["method"] == method)]
        joined = ours.merge(theirs[["iterations", "failure_rate"]], left_on="budget",
                            right_on="iterations", suffixes=("", "_paper"))
        if joined.empty:
            continue
        their_rate = joined["failure_rate_paper"].to_numpy()
        their_se = paper_standard_error(paper, panel, method, joined["budget"].to_numpy(float),
                                        their_rate)
        our_se = (joined["sd"] / np.sqrt(joined["trees"])).to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            z = (joined["failure_rate"].to_numpy() - their_rate) / np.hypot(our_se, their_se)
        rows.append(pd.DataFrame({
            "panel": panel, "method": method, "budget": joined["budget"],
            "ours": joined["failure_rate"], "ours_se": our_se, "paper": their_rate,
            "paper_se": their_se, "z": z}))
    if not rows:
        return pd.DataFrame(columns=["panel", "method", "budget", "ours", "ours_se", "paper",
                                     "paper_se", "z", "low", "high", "margin",
                                     "paper_limits", "verdict"])
    return with_verdicts(pd.concat(rows, ignore_index=True))


def with_verdicts(beside: pd.DataFrame) -> pd.DataFrame:
    """``beside`` with each point's equivalence interval (low, high), its margin, whether the
    paper's own error alone exceeds the margin (paper_limits) and its verdict: agrees, differs
    or not resolved (module docstring)."""
    difference = beside["ours"] - beside["paper"]
    se = np.hypot(beside["ours_se"], beside["paper_se"])
    low, high = difference - Z_EQUIVALENT * se, difference + Z_EQUIVALENT * se
    margin = MARGIN_ABSOLUTE + MARGIN_RELATIVE * beside["paper"]
    agrees = (low > -margin) & (high < margin)
    apart = (difference - Z_LIMIT * se > 0) | (difference + Z_LIMIT * se < 0)
    verdict = np.where(agrees, "agrees", np.where(apart, "differs", "not resolved"))
    return beside.assign(low=low, high=high, margin=margin,
                         paper_limits=Z_EQUIVALENT * beside["paper_se"] >= margin,
                         verdict=verdict)


def beside_by_value(summary: pd.DataFrame, paper: pd.DataFrame,
                    faces: dict[str, str]) -> pd.DataFrame:
    """``beside_paper`` for the methods of another reading of the failure rule, each set
    beside the paper's curve it ``faces`` (ours -> the lab's name of the paper's method)."""
    ours = summary[summary["method"].isin(faces)]
    beside = beside_paper(ours.assign(method=ours["method"].map(faces)), paper)
    return beside.assign(method=beside["method"].map({v: k for k, v in faces.items()}))


def _paper_name(method: str) -> str:
    return PAPER_METHODS[BY_VALUE.get(method, method)]


def _budgets(rows: pd.DataFrame) -> str:
    return ", ".join(str(int(b)) for b in rows["budget"])


def beside_markdown(beside: pd.DataFrame) -> str:
    """Per panel and method of Fig. 2: every budget's ours and the paper's, the difference's
    interval, its margin and its verdict (``paper_values``), and the panel's verdict."""
    if beside.empty:
        return "No budget of ours meets a point of the paper's curves."
    lines = []
    for (panel, method), rows in beside.groupby(["panel", "method"], sort=False):
        lines += [f"**{panel}, {_paper_name(method)} (`{method}`)**: {_verdict(rows)}.", "",
                  ("| iterations | ours | se | the paper's | se | difference [interval] | "
                  "margin | verdict |"), "|---:|---:|---:|---:|---:|---|---:|---|"]
        lines += [f"| {int(r.budget)} | {r.ours:.4f} | {r.ours_se:.4f} | {r.paper:.4f} | "
                  f"{r.paper_se:.4f} | {r.ours - r.paper:+.4f} [{r.low:+.4f}, {r.high:+.4f}] "
                  f"| {r.margin:.4f} | {r.verdict} |" for r in rows.itertuples()]
        lines.append("")
    return "\n".join(lines)


def _verdict(rows: pd.DataFrame) -> str:
    """A panel's verdict: agrees at every budget, or where it differs and where it is not
    resolved (and where the paper's own error bar is wider than the margin)."""
    if (rows["verdict"] == "agrees").all():
        return f"agrees at every budget ({len(rows)})"
    parts = [f"{verdict} at {_budgets(rows[rows['verdict'] == verdict])}"
             for verdict in ("differs", "not resolved") if (rows["verdict"] == verdict).any()]
    limited = rows[(rows["verdict"] == "not resolved") & rows["paper_limits"].astype(bool)]
    if len(limited):
        parts.append(f"the paper's own error wider than the margin at {_budgets(limited)}")
    agreed = int((rows["verdict"] == "agrees").sum())
    return f"agrees at {agreed} of {len(rows)} budgets; " + "; ".join(parts)


def what_differs(beside: pd.DataFrame) -> str:
    """Every panel and method of Fig. 2, under either reading, that differs from the paper's
    at some budget or is not resolved, with the budgets."""
    if beside.empty:
        return "- No budget of ours meets a point of the paper's curves."
    lines = []
    for (panel, method), rows in beside.groupby(["panel", "method"], sort=False):
        if not (rows["verdict"] == "agrees").all():
            lines.append(f"- {panel}, {_paper_name(method)} (`{method}`): {_verdict(rows)}.")
    return "\n".join(lines) or "- Nothing: every point agrees within its margin."
