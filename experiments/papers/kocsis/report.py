"""The report of the Kocsis & Szepesvari (2006) P-game reproduction: the set-up beside the
paper's, the paper's Fig. 2 beside ours with a z per budget, the ablation from the lab's UCT to
the paper's, the random-pick level of each correct-move rule, the figures and the tables, as
Markdown. Every number of ours is computed from the stored results or the trees; every number of
the paper's is read from its PDF (``experiments.papers.kocsis.paper_figures``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .paper_values import (
    MARGIN_ABSOLUTE,
    MARGIN_RELATIVE,
    Z_EQUIVALENT,
    Z_LIMIT,
    beside_markdown,
    what_differs,
)
from .study import BY_VALUE, METHODS, PANELS, PAPER_METHODS, UCT_VARIANTS

# (what, the paper's set-up in its words, ours)
SET_UP = (
    ("trees", ("P-games, B = 2 D = 20 and B = 8 D = 8; \"for the moves of MAX the move value "
     "was chosen uniformly from the interval [0; 127] and for MIN from [-127; 0]\" (Sect. 3.1)"),
     "`pgame(127)` at both shapes (`trees.pgame`), drawn per instance from the study seed"),
    ("rewards", ("\"computed by first assigning values to moves and summing up the values along "
     "the path to the terminal state\" (Sect. 3.1)"),
     "`uct-paper`: `reward=sum`, the score itself; the lab's `uct`: the outcome 1, 1/2, 0"),
    ("negamax", "\"in MIN nodes the negative of estimated action-values is used\" (footnote 7)",
     "the lab's backup: the mover's reward, 1 - r for min"),
    ("bias", "c_{t,s} = (ln t / s)^((D+d)/(2D+d)), no constant in front (Sect. 3.1)",
     ("UCB1 `depth_exponent=kocsis`; `uct-paper` c = 1 on the summed scores, `uct` c = sqrt 2 "
     "on rewards in [0, 1]")),
    ("the tree", ("\"built by adding the information gathered during an episode to it\" "
     "(Sect. 2.1)"), "`uct-paper`: `store_episodes`; `uct`: one node a playout"),
    ("episodes", ("\"stop the episodes with probability that is inversely proportional to the "
     "number of visits to the state\" (Sect. 2.1)"),
     "`uct-paper`: `stop_episodes`, probability 1/n at n visits, played out from there"),
    ("final move", ("\"the action with the highest average observed long-term reward\" (Sect. "
     "2.1)"), "`--final-move mean`"),
    ("solver", "none", "none (`solver=off`); `uct+solver`: the lab's outcome solver, an ablation"),
    ("failure", "\"the frequency of choosing the incorrect move\" (Sect. 3.1)",
     ("a move outside the best minimax score's (`--failure score`); the random-pick levels below "
     "show which rule the paper's curves start from")),
    ("alpha-beta", ("\"it would pick a move randomly, if the search has not been completed "
     "within a number of leaf nodes\"; the best-looking move instead \"does not influence the "
     "results\" (footnote 8)"), ("iterative deepening, natural order, budget = leaves "
     "evaluated, horizon leaves scored by one random playout; `alphabeta`: a random move until "
     "the search is exact (`partial=random`); `alphabeta-best`: the best-looking move")),
    ("MC", "\"the actions are sampled uniformly\" (Sect. 2.1)",
     "flat MC: playouts round-robin over the root moves, the best mean"),
    ("MMMC", "\"Monte-Carlo planning with minimax value update\" (Sect. 3.1)",
     "uniform selection, episodes stored, the root move of best minimax value over the means"),
    ("points", "\"averaged over 200 trees, and 200 runs for each tree\" (Sect. 3.1)",
     "`paper` scale the same; intervals over trees (t interval of the per-tree rates)"),
)


def _pct(x: float) -> str:
    return "-" if x is None or np.isnan(x) else f"{x:.4f}"


def levels_markdown(levels: list[dict], summary: pd.DataFrame,
                    paper: pd.DataFrame | None) -> str:
    """The random-pick levels per panel, exactly from the trees under both correct-move rules,
    beside UCT's failure after one iteration (one root move visited, a uniform pick) and the
    paper's alpha-beta at one leaf (a random pick, footnote 8's rule)."""
    lines = [("| panel | trees | best-score moves (mean) | optimal-outcome moves (mean) | "
              "random pick, score failure (exact) | random pick, outcome failure (exact) | "
              "UCT at t=1 (ours, 95%) | the paper's alpha-beta at t=1 |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for level in levels:
        first = summary[(summary["panel"] == level["panel"])
                        & (summary["method"] == "uct-paper") & (summary["budget"] == 1)]
        measured = ("-" if first.empty else f"{first['failure_rate'].iloc[0]:.3f} "
                    f"[{first['ci_low'].iloc[0]:.3f}, {first['ci_high'].iloc[0]:.3f}]")
        theirs = _paper_at(paper, level["panel"], "alphabeta", 1)
        lines.append(f"| {level['panel']} | {level['trees']} | {level['best_moves']:.3f} | "
                     f"{level['optimal_moves']:.3f} | {_pct(level['score_level'])} | "
                     f"{_pct(level['outcome_level'])} | {measured} | {_pct(theirs)} |")
    return "\n".join(lines)


def _paper_at(paper: pd.DataFrame | None, panel: str, method: str, iterations: int) -> float:
    if paper is None:
        return np.nan
    rows = paper[(paper["panel"] == panel) & (paper["method"] == method)
                 & (paper["kind"] == "curve") & (paper["iterations"] == iterations)]
    return float(rows["failure_rate"].iloc[0]) if len(rows) else np.nan


def remaining_markdown(summary: pd.DataFrame, levels: list[dict],
                       paper: pd.DataFrame | None) -> str:
    """What remains between the paper's Fig. 2 and ours, computed: the correct moves a root
    the paper's alpha-beta at one leaf implies (B (1 - its failure)) against ours under both
    rules; and per panel, at our largest budget the paper's curve reaches, each UCT variant's
    failure against the paper's UCT, the closest named."""
    if paper is None:
        return "The paper's values could not be read, so no difference is named."
    lines = []
    for level in levels:
        theirs = _paper_at(paper, level["panel"], "alphabeta", 1)
        if not np.isnan(theirs):
            lines.append(
                f"- {level['panel']}: the paper's alpha-beta at one leaf fails {theirs:.3f}, "
                f"{level['branching'] * (1 - theirs):.2f} correct moves a root; ours "
                f"{level['best_moves']:.2f} by the best score, {level['optimal_moves']:.2f} by "
                "the outcome.")
    for panel in PANELS:
        rows = summary[(summary["panel"] == panel.name) & summary["method"].isin(UCT_VARIANTS)]
        curve = paper[(paper["panel"] == panel.name) & (paper["method"] == "uct-paper")
                      & (paper["kind"] == "curve")]
        common = sorted(set(rows["budget"]) & set(curve["iterations"]))
        if not common:
            continue
        budget = common[-1]
        theirs = float(curve.loc[curve["iterations"] == budget, "failure_rate"].iloc[0])
        at = rows[rows["budget"] == budget].set_index("method")["failure_rate"]
        closest = (at - theirs).abs().idxmin()
        lines.append(f"- {panel.name}, {budget} iterations: the paper's UCT fails {theirs:.4f}; "
                     + ", ".join(f"`{m}` {at[m]:.4f}" for m in UCT_VARIANTS if m in at.index)
                     + f". The closest is `{closest}`.")
    return "\n".join(lines)


def ablation_markdown(summary: pd.DataFrame) -> str:
    """Per panel, the UCT variants' failure rates at every fourth budget: the lab's UCT, each of
    the paper's options alone, and all of them (the paper's UCT)."""
    lines = []
    for panel in PANELS:
        rows = summary[(summary["panel"] == panel.name) & summary["method"].isin(UCT_VARIANTS)]
        if rows.empty:
            continue
        wide = rows.pivot(index="budget", columns="method", values="failure_rate")
        shown = [m for m in UCT_VARIANTS if m in wide.columns]
        budgets = [b for i, b in enumerate(wide.index) if i % 4 == 0 or b == wide.index[-1]]
        lines += [f"### {panel.name}", "", "| iterations | " + " | ".join(shown) + " |",
                  "|---:|" + "---:|" * len(shown)]
        lines += [f"| {int(b)} | " + " | ".join(_pct(wide.at[b, m]) for m in shown) + " |"
                  for b in budgets]
        lines.append("")
    return "\n".join(lines)


def method_tests(rates: pd.DataFrame) -> pd.DataFrame:
    """Per panel, at its largest budget: the paper's UCT against each other method of Fig. 2
    and the lab's UCT, paired by tree (every method searches the same trees; the unit is the
    tree): the mean difference of the per-tree failure rates and the Wilcoxon signed-rank test's
    p (two-sided; 1 where every tree ties), Holm-adjusted within the panel."""
    from statsmodels.stats.multitest import multipletests

    rows = []
    for panel, frame in rates.groupby("panel", sort=False):
        top = frame[frame["budget"] == frame["budget"].max()]
        wide = top.pivot(index="tree", columns="method", values="rate")
        others = [m for m in (*PAPER_METHODS, "uct") if m != "uct-paper" and m in wide.columns]
        if "uct-paper" not in wide.columns or not others:
            continue
        tests = []
        for method in others:
            pair = wide[["uct-paper", method]].dropna()
            difference = pair["uct-paper"] - pair[method]
            p = (1.0 if not difference.any() else
                 stats.wilcoxon(difference, zero_method="zsplit").pvalue)
            tests.append((panel, int(top["budget"].iloc[0]), method, len(pair),
                          difference.mean(), p))
        adjusted = multipletests([t[-1] for t in tests], method="holm")[1]
        rows += [(*t, a) for t, a in zip(tests, adjusted)]
    return pd.DataFrame(rows, columns=["panel", "budget", "method", "trees", "difference", "p",
                                       "p_holm"])


def ordering_markdown(summary: pd.DataFrame, tests: pd.DataFrame) -> str:
    """Per panel, at the largest budget: the methods of Fig. 2 and the lab's UCT with their
    intervals, then the paper's UCT against each (``method_tests``)."""
    shown = [m for m in (*PAPER_METHODS, "uct") if m in METHODS]
    lines = ["| panel | budget | " + " | ".join(shown) + " |",
             "|---|---:|" + "---:|" * len(shown)]
    for panel in PANELS:
        rows = summary[summary["panel"] == panel.name]
        if rows.empty:
            continue
        budget = int(rows["budget"].max())
        top = rows[rows["budget"] == budget].set_index("method")
        cells = [f"{top.at[m, 'failure_rate']:.3f} [{top.at[m, 'ci_low']:.3f}, "
                 f"{top.at[m, 'ci_high']:.3f}]" if m in top.index else "-" for m in shown]
        lines.append(f"| {panel.name} | {budget} | " + " | ".join(cells) + " |")
    lines += ["", ("| panel | budget | the paper's UCT against | trees | mean difference | "
              "Wilcoxon p | Holm p |"), "|---|---:|---|---:|---:|---:|---:|"]
    lines += [f"| {t.panel} | {t.budget} | `{t.method}` | {t.trees} | {t.difference:+.4f} | "
              f"{t.p:.3g} | {t.p_holm:.3g} |" for t in tests.itertuples()]
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


def _fig2_section(paper: pd.DataFrame | None, beside: pd.DataFrame, figure: str,
                  by_value: str) -> str:
    """Fig. 2 beside the paper's, point by point, under both readings, with how a point's
    verdict is reached (``paper_values``)."""
    read = ("The paper's values are read from its PDF's drawing operators "
            "(`experiments/papers/kocsis/data/fig2.csv`; `python -m "
            "experiments.papers.kocsis.paper_figures PDF --out DIR` reads them again)."
            if paper is not None else "The paper's values could not be read (no fig2.csv).")
    return f"""## The paper's Fig. 2 beside ours

{read} Each point of ours is set beside the paper's at the same budget: the difference
ours - the paper's, s the two standard errors combined. The paper's standard errors are UCT's
error bars (+-1.96 se over its 200 trees) and, for the methods drawn without bars, the
binomial se of its 200 x 200 runs, a lower bound; ours are the sd of the per-tree rates over
sqrt(trees) (`experiments/papers/kocsis/paper_values.py`). A point **agrees** when the
difference +-{Z_EQUIVALENT:g} s (the interval shown; two one-sided tests at 5%) lies inside
+-({MARGIN_ABSOLUTE:g} + {MARGIN_RELATIVE:g} x the paper's rate); "agrees at every budget"
needs no correction for the budgets (an intersection-union test). A point **differs** when
the difference +-{Z_LIMIT:g} s excludes 0 (Bonferroni over a panel's budgets), and is **not
resolved** otherwise: too few trees or runs to tell, or the paper's own error bar alone wider
than the margin, where no reproduction could agree.

### Under the reading by game value, on decisive trees

The reading the search-free levels choose (above): a failure is a root move of worse game
value than the root's, on the trees whose root moves do not all have the same game value
(`pgame(127)+decisive`). `value:uct` is the paper's UCT with outcome rewards (c = 1, the
paper's bias exponent, the episodes stored and stopped, the best mean);
`value:uct-unstopped` the same without stopping; `value:mmmc`, `value:alphabeta` and
`value:flatmc` the paper's other methods on those trees.

{beside_markdown(beside[beside["method"].isin(BY_VALUE)])}

![Fig. 2 under the reading by game value, beside the paper's]({by_value}.png)

### Under the best-score rule, on every tree

{beside_markdown(beside[~beside["method"].isin(BY_VALUE)])}

![Fig. 2 beside the paper's]({figure}.png)
"""


def _remaining_section(summary: pd.DataFrame, levels: list[dict], paper: pd.DataFrame | None,
                       beside: pd.DataFrame) -> str:
    """What differs from the paper's Fig. 2, under both readings, and why as far as known."""
    return f"""## What remains

Every method and panel of Fig. 2 that differs from the paper's at some budget, or that this
scale does not resolve, under either reading:

{what_differs(beside)}

Under the reading by game value the lab's UCT follows the paper's from a few dozen
iterations on (the tables above), but at 2-8 iterations the paper's falls below the random
pick faster than ours: one random playout per root move says little of a 20-ply game's value,
and summed-score rewards there leave ours where outcome rewards do (measured at the paper's
size, docs/results.md). How the paper's UCT gains at its first iterations is not known.

Under the best-score rule:

{remaining_markdown(summary, levels, paper)}

Read with the ablation: the summed scores with c = 1 (`uct+sum`) leave the bias of order 1
beside differences of means of tens of points, so UCT turns greedy and its failure stays
near its level after a few hundred iterations; the outcome rewards (`uct` and the other
variants) cannot tell a winning move of best score from another winning move, so their
failure levels off near the share of roots with more than one winning move. The paper's
curve goes on falling to 0, so its rewards see the score and its exploration is of the
scale of its rewards' differences; the text does not give that scale. `alphabeta` keeps a
random move until its search is exact, as the paper's; `alphabeta-best` plays the last
complete iteration's move, which footnote 8 says changes nothing: the tables below say
whether it does here.
"""


def report_markdown(summary: pd.DataFrame, rates: pd.DataFrame, levels: list[dict],
                    preamble: str, figures: tuple[str, str], paper: pd.DataFrame | None,
                    beside: pd.DataFrame, readings: str) -> str:
    """The report (module docstring); ``paper`` and ``beside`` are the paper's Fig. 2 and its
    comparison with ours under both readings (``paper_values``), None and empty when the data
    is missing; ``readings`` the section that chooses the reading (``levels``)."""
    figure, by_value, ablation = figures
    return f"""# Reproduction of Kocsis & Szepesvari (2006): UCT in P-games (Fig. 2)

{preamble}

## Set-up

| | the paper | here |
|---|---|---|
{chr(10).join(f"| {what} | {theirs} | {ours} |" for what, theirs, ours in SET_UP)}

Why the solver is off: the lab's MCTS-Solver proves nodes by their outcome at threshold 0. A
root child proven won is played and a proven root ends the search, so under the best-score
failure a search that proves a win may settle on a winning move that is not of best score
(docs/design.md). The paper's UCT had no solver; the `uct+solver` curve shows what the lab's
solver does to the lab's UCT.

{readings}
{_fig2_section(paper, beside, figure, by_value)}
## From the lab's UCT to the paper's, one option at a time

`uct` is the lab's UCT with the paper's bias exponent, final move and no solver. Each column
after it switches on one of the paper's options alone: `uct+sum` the summed scores with
c = 1, `uct+episodes` every state of an episode stored, `uct+stop` the episodes stopped;
`uct+solver` the lab's outcome solver; `uct-paper` all of the paper's options together.

{ablation_markdown(summary)}
![The ablation]({ablation}.png)

{_remaining_section(summary, levels, paper, beside)}
## Which moves count as correct

A move drawn uniformly at the root fails with probability 1 - (correct moves) / B on a tree;
its mean over the study's trees is exact (no search), under the best-score rule and under the
lab's default outcome rule (every move of the optimal outcome). The paper's alpha-beta at one
leaf picks at random (footnote 8), so its first point is the random pick of the paper's rule.

{levels_markdown(levels, summary, paper)}

## The methods at the largest budget (95% intervals over trees)

{ordering_markdown(summary, method_tests(rates))}

## The outcome solver under the best-score failure

{solver_markdown(summary)}

## Failure rates (mean over trees)

{table_markdown(summary)}
Every point with its interval and its count of trees and runs: `fig2_failure_rates.csv`;
per tree: `tree_failure_rates.csv`; beside the paper's: `fig2_beside_paper.csv`.
"""
