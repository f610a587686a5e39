"""The report of the seed 003 reproduction: the paper's statements and their verdicts
(``verdicts``), the equivalent simulations, Fig. 1's and Fig. 2's tables, as Markdown."""

from __future__ import annotations

import pandas as pd

from . import verdicts
from .study import PANELS
from .verdicts import ROUGHLY, claims, equivalent_ratios, ratio_text


def _table(frame: pd.DataFrame, columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame[columns].itertuples(index=False):
        lines.append("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v)
                                        for v in row) + " |")
    return "\n".join(lines)


def _ratio_table(ratios: pd.DataFrame) -> str:
    cells = ratios.assign(cell=[
        f"{ratio_text(r.ratio, r.low_bound, r.high_bound)} "
        f"[{ratio_text(r.ratio_low, r.low_bound, r.high_bound)}, "
        f"{ratio_text(r.ratio_high, r.low_bound, r.high_bound)}]" for r in ratios.itertuples()])
    wide = cells.pivot(index="method", columns="budget", values="cell")
    wide = wide.loc[[m for m in ratios["method"].unique() if m != "uct"]].reset_index()
    wide.columns = [str(c) for c in wide.columns]
    return _table(wide, list(wide.columns))


def settings_markdown(scale: str, scores: pd.DataFrame) -> str:
    seconds = scores.groupby(["panel", "method", "budget"])["cpu_seconds"].first() \
        .groupby("panel").sum()
    rows = []
    for p in PANELS.values():
        config, effort = p.config("uct"), p.effort(scale)
        rows.append(f"| {p.title} | {p.turns} | {config.c:g} | {config.cv_offline:g} | "
                    f"{', '.join(map(str, effort.budgets))} | {effort.games} | "
                    f"{len(p.methods)} | {seconds.get(p.game, 0.0) / 60:.1f} |")
    return ("| game | turns | UCB c | CV offline c | simulations | games per point | methods | "
            "CPU min (Fig. 2) |\n|---|---|---|---|---|---|---|---|\n"
            + "\n".join(rows))


def report_markdown(fig1: pd.DataFrame, fig2: pd.DataFrame, preamble: str,
                    settings: str) -> str:
    exact = fig1.groupby("quantity")["exact"].first()
    rows = [f"| {g} | {a} | {b} | {'yes' if ok else 'no'} |" for g, a, b, ok in claims(fig1, fig2)]
    base = fig1[fig1["method"] == "uct"]
    ratios = equivalent_ratios(fig2)
    sections = [
        "# Reproduction of Veness, Lanctot & Bowling: variance reduction in MCTS (seed 003)",
        preamble, settings,
        (f"Fig. 2 has a panel for {', '.join(p.title for p in PANELS.values())}. The paper "
         "does not give the number of turns, the simulation budgets, how Can't Stop is scored "
         "or the plotted values, so the comparison is with its statements, not with its "
         "numbers (our settings are argued in `experiments/papers/veness/study.py` and the "
         "games' modules)."),
        (f"Exact values (Pig, expectimax): Q(s1, roll) = {exact['roll']:.4f}, "
         f"Q(s1, roll) - Q(s1, stop) = {exact['difference']:.4f}."),
        "## The paper's statements\n\n| game | statement | measured | holds |\n|---|---|---|---|\n"
        + "\n".join(rows),
        ("A ratio statement holds when the geometric mean, over the budgets m at which base "
         "UCT's curve reaches the stated factor, of the best method's ratio (a bound where the "
         f"curve ends) lies in the stated range widened by {ROUGHLY:g}x both ways. A gain is a "
         "mean over budgets of the difference to base UCT, +- 1.96 standard errors."),
        "## Equivalent simulations\n\n" + verdicts.__doc__.split("\n\n")[1].replace("\n", " ")
        + " Cells: the ratio of the mean score [of the 95% interval's ends].",
    ]
    for panel in PANELS.values():
        mine = ratios[ratios["panel"] == panel.game]
        if len(mine):
            sections.append(f"### {panel.title}\n\n" + _ratio_table(mine))
    sections += [
        "## Fig. 1 (Pig, base UCT)\n\n![fig1](fig1_bias_variance.png)\n\n"
        + _table(base.sort_values(["quantity", "budget"]),
                 ["quantity", "budget", "mean", "bias", "bias2", "variance", "mse"]),
        "Fig. 1 for every combination is in `fig1_bias_variance.csv`.",
        "## Fig. 2\n\n![fig2](fig2_scores.png)",
    ]
    for panel in PANELS.values():
        mine = fig2[fig2["panel"] == panel.game]
        if len(mine):
            sections.append(f"### {panel.title}\n\n" + _table(
                mine.sort_values(["budget", "method"]),
                ["method", "budget", "games", "mean", "ci95_low", "ci95_high"]))
    return "\n\n".join(sections) + "\n"
