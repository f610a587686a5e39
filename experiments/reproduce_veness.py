"""``mctslab reproduce veness``: run (or resume) seed 003's Pig experiments, then draw Figs. 1-2
and write a report that checks the paper's statements against the numbers."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from .storage import write_table
from .veness import SCALES, run_veness, score_summary


def _means(summary: pd.DataFrame) -> pd.DataFrame:
    return summary.pivot(index="budget", columns="method", values="mean")


def claims(fig1: pd.DataFrame, fig2: pd.DataFrame) -> list[tuple[str, str, bool]]:
    """(paper's statement, what we measured, whether it holds) for the checkable statements."""
    base = fig1[fig1["method"] == "uct"]
    roll = base[(base["quantity"] == "roll") & (base["budget"] >= 2)]
    diff = base[(base["quantity"] == "difference") & (base["budget"] >= 2)]
    small = diff[diff["budget"] < 1024]
    means = _means(fig2)
    gain = means.sub(means["uct"], axis=0).mean()
    best = gain.idxmax()
    doubled = [(m, means.loc[m, best], means.loc[2 * m, "uct"]) for m in means.index
               if 2 * m in means.index]
    if not doubled:
        doubled = [(m, means.loc[m, best], means.loc[m2, "uct"])
                   for m, m2 in zip(means.index[:-1], means.index[1:])]
    apart = fig2.pivot(index="budget", columns="method", values="ci95_low")["uct+cv+crn"] > \
        fig2.pivot(index="budget", columns="method", values="ci95_high")["uct"]
    return [
        ("Fig. 1 left: bias^2 dominates the MSE of the roll estimate",
         (f"bias^2 > variance at {int((roll['bias2'] > roll['variance']).sum())} of "
          f"{len(roll)} budgets 2..{roll['budget'].max()} (bias {roll['bias'].iloc[-1]:+.1f} at"
          " the largest)"),
         bool((roll["bias2"] > roll["variance"]).mean() >= 0.75)),
        ("Fig. 1 right: for roll - stop, variance dominates below 1024 simulations and the bias"
         + " is within +-2",
         (f"variance > bias^2 at {int((small['variance'] > small['bias2']).sum())} of "
          f"{len(small)} budgets < 1024; max |bias| = {diff['bias'].abs().max():.2f}"),
         bool((small["variance"] > small["bias2"]).all() and diff["bias"].abs().max() <= 2)),
        ("Fig. 2: the best combination beats base UCT even with twice the simulations",
         f"best = {best}; " + "; ".join(f"{best}@{m} {a:.2f} vs uct@next {b:.2f}"
                                        for m, a, b in doubled),
         all(a > b for _, a, b in doubled)),
        ("Fig. 2: AV helps measurably but less than CV or CRN",
         (f"mean gain over UCT: av {gain['uct+av']:+.2f}, cv {gain['uct+cv']:+.2f}, "
          f"crn {gain['uct+crn']:+.2f}"),
         bool(0 < gain["uct+av"] < min(gain["uct+cv"], gain["uct+crn"]))),
        ("Fig. 2: CV is even more effective combined with CRN",
         f"mean gain: cv {gain['uct+cv']:+.2f}, cv+crn {gain['uct+cv+crn']:+.2f}",
         bool(gain["uct+cv+crn"] > gain["uct+cv"])),
        ("UCT+CV+CRN above base UCT with non-overlapping 95% intervals",
         f"at budgets {[int(b) for b in apart.index[apart]]} of {[int(b) for b in apart.index]}",
         bool(apart.all())),
    ]


def _table(frame: pd.DataFrame, columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame[columns].itertuples(index=False):
        lines.append("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v)
                                        for v in row) + " |")
    return "\n".join(lines)


def report_markdown(fig1: pd.DataFrame, fig2: pd.DataFrame, preamble: str) -> str:
    exact = fig1.groupby("quantity")["exact"].first()
    rows = [f"| {a} | {b} | {'yes' if ok else 'no'} |" for a, b, ok in claims(fig1, fig2)]
    base = fig1[fig1["method"] == "uct"]
    return "\n\n".join([
        "# Reproduction of Veness, Lanctot & Bowling: variance reduction in MCTS (seed 003)",
        preamble,
        ("Only Pig solitaire is run (Can't Stop has rules and a search but no Fig. 2 runs yet; "
         "Dominion is not implemented). The paper does not give the number of turns, the "
         "simulation budgets or the plotted values, so the comparison is with its statements, "
         "not with its numbers."),
        (f"Exact values (expectimax): Q(s1, roll) = {exact['roll']:.4f}, "
         f"Q(s1, roll) - Q(s1, stop) = {exact['difference']:.4f}."),
        "## The paper's statements\n\n| statement | measured | holds |\n|---|---|---|\n"
        + "\n".join(rows),
        "## Fig. 1 (base UCT)\n\n![fig1](fig1_bias_variance.png)\n\n"
        + _table(base.sort_values(["quantity", "budget"]),
                 ["quantity", "budget", "mean", "bias", "bias2", "variance", "mse"]),
        "## Fig. 2\n\n![fig2](fig2_scores.png)\n\n"
        + _table(fig2.sort_values(["budget", "method"]),
                 ["method", "budget", "games", "mean", "ci95_low", "ci95_high"]),
        "Fig. 1 for every combination is in `fig1_bias_variance.csv`.",
    ]) + "\n"


def draw(fig1: pd.DataFrame, fig2: pd.DataFrame, out: Path) -> None:
    from plots import new_figure, save
    from plots.veness import plot_bias_variance, plot_scores

    fig, axes = new_figure(1, 2, figsize=(9, 3.5))
    plot_bias_variance(fig1, "roll", ax=axes[0])
    plot_bias_variance(fig1, "difference", ax=axes[1])
    save(fig, out / "fig1_bias_variance.png")
    fig, ax = new_figure(figsize=(5, 3.8))
    plot_scores(fig2, ax=ax)
    save(fig, out / "fig2_scores.png")


def reproduce_veness(out: str | Path, scale: str = "quick", *, workers: int = 1,
                     seed: int = 2011) -> Path:
    """Run or resume the study into ``out``, then write tables, figures and ``report.md``."""
    out = Path(out)
    start = time.perf_counter()
    fig1, scores = run_veness(out, scale, workers=workers, seed=seed)
    fig2 = score_summary(scores)
    write_table(fig1, out / "fig1_bias_variance.csv")
    write_table(fig2, out / "fig2_scores.csv")
    draw(fig1, fig2, out)
    plan = SCALES[scale]
    preamble = (f"Scale `{scale}`: Pig solitaire with {plan.turns} turns, UCB constant 100, "
                f"default policy rolls with p 0.8; Fig. 1 from {plan.fig1_runs} searches per "
                f"method, Fig. 2 from {plan.fig2_games} games per point; seed {seed}; "
                f"{(time.perf_counter() - start) / 60:.1f} min for this run (stored results "
                f"are reused).")
    report = out / "report.md"
    report.write_text(report_markdown(fig1, fig2, preamble))
    return report
