"""The report of the Kocsis & Szepesvari (2006) P-game reproduction: the set-up beside the
paper's, what of the paper could (not) be read here, the computed comparisons, the figure and
the table, as Markdown. Every number is computed from the stored results or the trees."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .study import METHODS, PANELS

# The random-pick level at B=2 quoted for the paper's Fig. 2 (alpha-beta's flat line). It was
# not read from the paper here (neither its figure nor its text was in any corpus this lab
# could search): a quoted number, compared with the level our trees give exactly.
QUOTED_RANDOM_PICK_B2 = 0.493
# the searches that found neither the paper's Fig. 2 nor its text (the ``search`` tool,
# corpora pages, docs and code, 2026-11-27 and 2026-11-28)
SEARCHED = ('"Bandit based Monte-Carlo planning" P-game UCT failure rate alpha-beta; '
            "Kocsis Szepesvari 2006 P-game experiment B=2 D=20; P-game trees UCT alpha-beta "
            "Monte Carlo error rate")

# (what, the paper's set-up as /work/shared/REFERENCES.md states it, ours)
SET_UP = (
    ("trees", ("P-games B=2 D=20 and B=8 D=8, move values uniform in [0, 127] (max) and "
     "[-127, 0] (min)"), ("`pgame(127)` at both shapes (`trees.pgame`), drawn per instance from "
     "the study seed")),
    ("UCT's bias", "(ln t / s)^((D+d)/(2D+d)) at depth d",
     "UCB1 `depth_exponent=kocsis`, c = UCB1's default"),
    ("final move", "best average reward", "`--final-move mean`"),
    ("failure", "a move not optimal by minimax score",
     "`--failure score` (`TreeInstance.best_score`)"),
    ("solver", "none", ("none (`solver=off`); `uct+solver`: the lab's outcome solver, an "
     "ablation")),
    ("reward", "not stated in what we could read", ("the outcome: 1, 1/2, 0 for a max win, "
     "draw, loss")),
    ("alpha-beta", "at the same number of iterations", ("iterative deepening, natural order, "
     "budget = leaves evaluated, horizon leaves scored by one random playout")),
    ("Monte-Carlo", "plain Monte-Carlo", ("flat MC: playouts round-robin over the root moves, "
     "best mean")),
    ("points", "200 trees x 200 runs, 95% intervals", ("`paper` scale the same; intervals over "
     "trees (t interval of the per-tree rates)")),
)


def _pct(x: float) -> str:
    return "-" if np.isnan(x) else f"{x:.4f}"


def quoted_b2_markdown(level: dict) -> str:
    """Our B=2 level beside the quoted 0.493, which means a tie of the two root moves' best
    scores on q = 2 (0.5 - 0.493) = 1.4% of the trees: how likely our count of ties is if q
    is the true tie rate (binomial tails)."""
    trees = level["trees"]
    ties = level["tied_roots"]
    rate = 2 * (0.5 - QUOTED_RANDOM_PICK_B2)
    low, high = stats.binom.cdf(ties, trees, rate), stats.binom.sf(ties - 1, trees, rate)
    return (f"{QUOTED_RANDOM_PICK_B2} (ours - it = "
            f"{level['score_level'] - QUOTED_RANDOM_PICK_B2:+.4f}; {ties} ties in {trees} "
            f"roots; at its tie rate {rate:.3f}, P(<= {ties}) = {low:.2f}, "
            f"P(>= {ties}) = {high:.2f})")


def levels_markdown(levels: list[dict], summary: pd.DataFrame) -> str:
    """The random-pick levels per panel, exactly from the trees, beside the failure of UCT
    after one iteration (one root move visited, so a uniform pick) and, at B=2, the quoted
    0.493."""
    lines = [("| panel | trees | best-score moves (mean) | optimal-outcome moves (mean) | "
              "random pick, score failure (exact) | random pick, outcome failure (exact) | "
              "UCT at t=1 (measured, 95%) | the quoted value |"),
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for level in levels:
        first = summary[(summary["panel"] == level["panel"]) & (summary["method"] == "uct")
                        & (summary["budget"] == 1)]
        measured = ("-" if first.empty else f"{first['failure_rate'].iloc[0]:.3f} "
                    f"[{first['ci_low'].iloc[0]:.3f}, {first['ci_high'].iloc[0]:.3f}]")
        quoted = quoted_b2_markdown(level) if level["branching"] == 2 else "-"
        lines.append(f"| {level['panel']} | {level['trees']} | {level['best_moves']:.3f} | "
                     f"{level['optimal_moves']:.3f} | {_pct(level['score_level'])} | "
                     f"{_pct(level['outcome_level'])} | {measured} | {quoted} |")
    return "\n".join(lines)


def ordering_markdown(summary: pd.DataFrame) -> str:
    """Per panel, at the largest budget: each method's failure rate and interval, and which
    pairs' intervals do not overlap."""
    lines = ["| panel | budget | " + " | ".join(METHODS) + " |",
             "|---|---:|" + "---:|" * len(METHODS)]
    for panel in PANELS:
        rows = summary[summary["panel"] == panel.name]
        if rows.empty:
            continue
        budget = int(rows["budget"].max())
        top = rows[rows["budget"] == budget].set_index("method")
        cells = [f"{top.at[m, 'failure_rate']:.3f} [{top.at[m, 'ci_low']:.3f}, "
                 f"{top.at[m, 'ci_high']:.3f}]" if m in top.index else "-" for m in METHODS]
        lines.append(f"| {panel.name} | {budget} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def solver_markdown(summary: pd.DataFrame) -> str:
    """UCT with and without the outcome solver, per panel: the budgets where their intervals
    do not overlap, and the largest difference."""
    lines = []
    for panel in PANELS:
        rows = summary[summary["panel"] == panel.name]
        off = rows[rows["method"] == "uct"].set_index("budget")
        on = rows[rows["method"] == "uct+solver"].set_index("budget")
        if off.empty or on.empty:
            continue
        apart = [int(b) for b in off.index if b in on.index
                 and (on.at[b, "ci_low"] > off.at[b, "ci_high"]
                      or on.at[b, "ci_high"] < off.at[b, "ci_low"])]
        difference = (on["failure_rate"] - off["failure_rate"]).dropna()
        worst = difference.abs().idxmax()
        lines.append(f"- {panel.name}: largest difference (solver - none) "
                     f"{difference[worst]:+.4f} at {int(worst)} iterations; intervals apart at "
                     f"{apart or 'no budget'}.")
    return "\n".join(lines)


def table_markdown(summary: pd.DataFrame) -> str:
    wide = summary.assign(cell=[f"{r.failure_rate:.4f}" for r in summary.itertuples()])
    lines = []
    for panel in PANELS:
        rows = wide[wide["panel"] == panel.name]
        if rows.empty:
            continue
        table = rows.pivot(index="budget", columns="method", values="cell")
        methods = [m for m in METHODS if m in table.columns]
        lines += [f"### {panel.name}", "", "| iterations | " + " | ".join(methods) + " |",
                  "|---:|" + "---:|" * len(methods)]
        lines += [f"| {budget} | " + " | ".join(table.loc[budget, methods]) + " |"
                  for budget in table.index]
        lines.append("")
    return "\n".join(lines)


def report_markdown(summary: pd.DataFrame, levels: list[dict], preamble: str,
                    figure: str) -> str:
    return f"""# Reproduction of Kocsis & Szepesvari (2006): UCT in P-games (Fig. 2)

{preamble}

## Set-up

| | the paper (as /work/shared/REFERENCES.md states it) | here |
|---|---|---|
{chr(10).join(f"| {what} | {theirs} | {ours} |" for what, theirs, ours in SET_UP)}

Why the solver is off: the lab's MCTS-Solver proves nodes by their outcome at threshold 0. A
root child proven won is played and a proven root ends the search, so under the best-score
failure a search that proves a win may settle on a winning move that is not of best score
(docs/design.md). Kocsis & Szepesvari's UCT had no solver, so `uct` runs without one; the
`uct+solver` curve shows what the lab's solver does to the same search.

## The paper's values

**The paper's values are not available here.** Neither its Fig. 2 nor its text could be read:
the searches ({SEARCHED}) found no copy of the paper or of a later paper quoting its P-game
numbers. So this report puts no number of the paper beside ours and makes no claim about what
the paper's figure shows. What can be computed is below.

## Computed comparisons

### The random-pick level

A move drawn uniformly at the root fails with probability 1 - (best-score moves) / B on a tree;
its mean over the study's trees is exact (no search). The paper's curves are quoted as starting
from 0.493 at B=2 (one best-score move per tree but for about 1.4% ties); that value is a
quotation, not read here; the table gives how likely our count of tied roots would be at the
tie rate it implies. UCT after one iteration has visited one root move, drawn uniformly, so
it picks at random: its measured failure must agree with the exact level.

{levels_markdown(levels, summary)}

The outcome failure (the lab's default) accepts every move of the root's optimal outcome: more
moves, so a lower random-pick level; this is why UCT's failure rates under the lab's default
rules sit below curves that count failures by the best score.

### The methods at the largest budget (95% intervals over trees)

{ordering_markdown(summary)}

### The outcome solver under the best-score failure

{solver_markdown(summary)}

## Figure

![Fig. 2 reproduced]({figure}.png)

## Failure rates (mean over trees)

{table_markdown(summary)}
Every point with its interval and its count of trees and runs: `fig2_failure_rates.csv`;
per tree: `tree_failure_rates.csv`.
"""
