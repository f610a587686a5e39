"""The reproduction of seed 001 (Imagawa & Kaneko): every curve of Figs. 3-9, two ablations,
Welch t-tests against Plain, and a report that checks the paper's claims on our numbers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from scipy import stats

from .curve import Curve
from .study import Study

POLICIES = ("ucb1", "klucb", "thompson")
ADJUSTERS = ("plain", "static", "score", "value", "maxfreq")
CONSTANT_TREES = ("constant(1,1)", "constant(1,3)", "constant(1,5)", "constant'(1,13)")
RANDOM_TREES = ("random(4,0)", "random(4,1)", "random(4,2)", "random(4,3)")
ALL_ADJUSTER_TREES = ("constant(1,5)", "constant'(1,13)", "random(4,3)")
# runs per curve: constant trees `runs` seeds on one instance; random trees `trees` x `runs`
SCALES = {
    "paper": {"constant": (1, 1000), "random": (200, 200)},
    "quick": {"constant": (1, 50), "random": (50, 40)},
}
SIGNIFICANCE = 0.05


def _curve(tree: str, policy: str, adjuster: str, scale: str, **options) -> Curve:
    trees, runs = SCALES[scale]["random" if tree.startswith("random") else "constant"]
    return Curve(tree, policy, adjuster, runs=runs, trees=trees, **options)


def ablation_curves(scale: str) -> list[Curve]:
    """MaxFrequency with offset -0.5 (the paper's 't = s - 0.5') and without the exploration
    restart, for UCT on the three trees of Figs. 5, 6 and 9."""
    return [
        _curve(tree, "ucb1", "maxfreq", scale, **options)
        for tree in ALL_ADJUSTER_TREES
        for options in ({"adjuster_params": {"offset": -0.5}}, {"restart": False})
    ]


def imagawa_study(scale: str = "quick", seed: int = 2015) -> Study:
    """Plain and MaxFrequency for every policy on every tree of Figs. 3, 4, 7 and 8; all five
    adjusters for every policy on the trees of Figs. 5, 6 and 9; the ablations."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}: use quick or paper")
    curves = [
        _curve(tree, policy, adjuster, scale)
        for tree in CONSTANT_TREES + RANDOM_TREES
        for policy in POLICIES
        for adjuster in (ADJUSTERS if tree in ALL_ADJUSTER_TREES else ("plain", "maxfreq"))
    ]
    return Study(tuple(curves + ablation_curves(scale)), seed=seed, block=50,
                 name=f"imagawa-{scale}")


def is_default(frame: pd.DataFrame) -> pd.Series:
    """Rows of curves with the adjuster's default parameters and restart (not ablations)."""
    defaults = {a: Curve("constant(1,1)", adjuster=a) for a in ADJUSTERS}
    params = frame.adjuster.map({a: _params_json(c) for a, c in defaults.items()})
    restart = frame.adjuster.map({a: c.restart for a, c in defaults.items()})
    return (frame.adjuster_params == params) & (frame.restart.astype(bool) == restart)


def _params_json(curve: Curve) -> str:
    return json.dumps(curve.adjuster_params, sort_keys=True)


def welch(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Two-tailed Welch t-test, row by row, of curve rows ``a`` against aligned rows ``b``
    (columns failure_rate, std, runs): (t, p). Where neither varies the rates are exact: p is 1
    when they are equal and 0 when they differ."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t, p = stats.ttest_ind_from_stats(
            *(rows[column].to_numpy(float) for rows in (a, b)
              for column in ("failure_rate", "std", "runs")), equal_var=False)
    exact = (a["std"].to_numpy() == 0) & (b["std"].to_numpy() == 0)
    same = a["failure_rate"].to_numpy() == b["failure_rate"].to_numpy()
    return np.where(exact, 0.0, t), np.where(exact, np.where(same, 1.0, 0.0), p)


def welch_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Every default enhancement against Plain with the same tree and policy, per budget:
    two-tailed Welch t-test on the per-run failure indicators (significance 0.05)."""
    main = frame[is_default(frame)]
    keys = ["tree", "policy", "budget"]
    pairs = main[main.adjuster != "plain"].merge(main[main.adjuster == "plain"], on=keys,
                                                 suffixes=("", "_plain"))
    plain = pairs[["failure_rate_plain", "std_plain", "runs_plain"]].set_axis(
        ["failure_rate", "std", "runs"], axis=1)
    t, p = welch(pairs, plain)
    return pd.DataFrame({
        "tree": pairs.tree, "policy": pairs.policy, "adjuster": pairs.adjuster,
        "budget": pairs.budget, "plain": pairs.failure_rate_plain,
        "enhanced": pairs.failure_rate,
        "difference": pairs.failure_rate - pairs.failure_rate_plain,
        "t": t, "p": p, "significant": p < SIGNIFICANCE,
    })


def welch_markdown(tests: pd.DataFrame) -> str:
    """One table per (tree, policy): a row per budget, a column per enhancement with its
    failure rate and the difference to Plain, starred where Welch's test rejects at 0.05."""
    blocks = []
    for (tree, policy), group in tests.groupby(["tree", "policy"], sort=False):
        adjusters = [a for a in ADJUSTERS if a in set(group.adjuster)]
        lines = [f"#### {tree}, {policy}", "",
                 "| budget | plain | " + " | ".join(adjusters) + " |",
                 "|---:|---:|" + "---:|" * len(adjusters)]
        for budget, at in group.groupby("budget"):
            cells = []
            for adjuster in adjusters:
                row = at[at.adjuster == adjuster]
                if row.empty:
                    cells.append("")
                    continue
                row = row.iloc[0]
                star = "*" if row["significant"] else ""
                cells.append(f"{row['enhanced']:.3f} ({row['difference']:+.3f}{star})")
            lines.append(f"| {budget} | {at['plain'].iloc[0]:.3f} | " + " | ".join(cells) + " |")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def curve_rates(frame: pd.DataFrame, tree: str, policy: str, adjuster: str) -> pd.Series:
    """Failure rate by budget of the default curve (tree, policy, adjuster)."""
    rows = frame[is_default(frame) & (frame.tree == tree) & (frame.policy == policy)
                 & (frame.adjuster == adjuster)]
    return rows.set_index("budget")["failure_rate"]


def mean_failure(frame, tree, policy, adjuster, low=2**6, high=2**14) -> float:
    """Mean failure rate over budgets low..high (the area under the log-x curve)."""
    rates = curve_rates(frame, tree, policy, adjuster)
    return float(rates[(rates.index >= low) & (rates.index <= high)].mean())


def significant_share(tests: pd.DataFrame, tree: str, policy: str, adjuster: str,
                      better: bool = True, low: int = 2**8) -> tuple[int, int]:
    """(budgets >= low where the enhancement is significantly better (or worse), budgets)."""
    rows = tests[(tests.tree == tree) & (tests.policy == policy) & (tests.adjuster == adjuster)
                 & (tests.budget >= low)]
    sign = rows.difference < 0 if better else rows.difference > 0
    return int((rows.significant & sign).sum()), len(rows)

