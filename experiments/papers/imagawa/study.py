"""Seed 001's study (Imagawa & Kaneko): every curve of Figs. 3-9 and two ablations, at the
paper's scale or a quick one, and the selections of its results the verdicts and figures use."""

from __future__ import annotations

import json

import pandas as pd

from ...curves.curve import Curve
from ...studies.study import Study

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


def curve_rates(frame: pd.DataFrame, tree: str, policy: str, adjuster: str) -> pd.Series:
    """Failure rate by budget of the default curve (tree, policy, adjuster)."""
    rows = frame[is_default(frame) & (frame.tree == tree) & (frame.policy == policy)
                 & (frame.adjuster == adjuster)]
    return rows.set_index("budget")["failure_rate"]


def mean_failure(frame, tree, policy, adjuster, low=2**6, high=2**14) -> float:
    """Mean failure rate over budgets low..high (the area under the log-x curve)."""
    rates = curve_rates(frame, tree, policy, adjuster)
    return float(rates[(rates.index >= low) & (rates.index <= high)].mean())
