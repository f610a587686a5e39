"""``mctslab reproduce veness``: run (or resume) seed 003's experiments, then draw Fig. 1 (Pig)
and Fig. 2 (one panel per game of ``PANELS``) and write a report that checks the paper's
statements against the numbers.

A method's mean score at budget m is matched on base UCT's curve, made non-decreasing by
isotonic regression and interpolated linearly in log2(budget): the ratio m' / m of the matching
budget m' to m says how many times the simulations base UCT needs to do as well (seed 003
states its Fig. 2 results this way). Beyond the ends of the base curve only a bound is known.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .pool import LOCAL_CLUSTER, default_workers
from .store import write_table
from .veness import PANELS, SCALES, Panel, run_veness, score_summary

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


def _ratio_text(ratio: float, low: float, high: float) -> str:
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
    per_budget = ", ".join(f"{_ratio_text(r.ratio, r.low_bound, r.high_bound)} at {r.budget}"
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


def _table(frame: pd.DataFrame, columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame[columns].itertuples(index=False):
        lines.append("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v)
                                        for v in row) + " |")
    return "\n".join(lines)


def _ratio_table(ratios: pd.DataFrame) -> str:
    cells = ratios.assign(cell=[
        f"{_ratio_text(r.ratio, r.low_bound, r.high_bound)} "
        f"[{_ratio_text(r.ratio_low, r.low_bound, r.high_bound)}, "
        f"{_ratio_text(r.ratio_high, r.low_bound, r.high_bound)}]" for r in ratios.itertuples()])
    wide = cells.pivot(index="method", columns="budget", values="cell")
    wide = wide.loc[[m for m in ratios["method"].unique() if m != "uct"]].reset_index()
    wide.columns = [str(c) for c in wide.columns]
    return _table(wide, list(wide.columns))


def _settings(scale: str, scores: pd.DataFrame) -> str:
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
         "numbers (our settings are argued in `experiments/veness.py` and the games' modules)."),
        (f"Exact values (Pig, expectimax): Q(s1, roll) = {exact['roll']:.4f}, "
         f"Q(s1, roll) - Q(s1, stop) = {exact['difference']:.4f}."),
        "## The paper's statements\n\n| game | statement | measured | holds |\n|---|---|---|---|\n"
        + "\n".join(rows),
        ("A ratio statement holds when the geometric mean, over the budgets m at which base "
         "UCT's curve reaches the stated factor, of the best method's ratio (a bound where the "
         f"curve ends) lies in the stated range widened by {ROUGHLY:g}x both ways. A gain is a "
         "mean over budgets of the difference to base UCT, +- 1.96 standard errors."),
        "## Equivalent simulations\n\n" + __doc__.split("\n\n")[1].replace("\n", " ")
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


def draw(fig1: pd.DataFrame, fig2: pd.DataFrame, out: Path) -> None:
    from plots import new_figure, save
    from plots.veness import plot_bias_variance, plot_scores

    fig, axes = new_figure(1, 2, figsize=(9, 3.5))
    plot_bias_variance(fig1, "roll", ax=axes[0])
    plot_bias_variance(fig1, "difference", ax=axes[1])
    save(fig, out / "fig1_bias_variance.png")
    panels = [p for p in PANELS.values() if (fig2["panel"] == p.game).any()]
    fig, axes = new_figure(1, len(panels), figsize=(4.6 * len(panels), 3.8), squeeze=False)
    for panel, ax in zip(panels, axes[0]):
        plot_scores(fig2[fig2["panel"] == panel.game], title=panel.title, ax=ax)
    save(fig, out / "fig2_scores.png")


def _where(workers: int | None, scheduler: str | None) -> str:
    """Where the points ran, for the report (a pool has at most one worker per point)."""
    if scheduler == LOCAL_CLUSTER:
        return f"a local Dask cluster of up to {workers or default_workers()} worker(s)"
    if scheduler is not None:
        return f"the Dask cluster at {scheduler}"
    return f"up to {workers or default_workers()} worker(s)"


def reproduce_veness(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015) -> Path:
    """Run or resume the study into ``out`` on ``workers`` processes (None: all cores) or a
    Dask cluster (``scheduler``), then write tables, figures and ``report.md``."""
    out = Path(out)
    start = time.perf_counter()
    fig1, scores = run_veness(out, scale, workers=workers, scheduler=scheduler, seed=seed)
    fig2 = score_summary(scores)
    write_table(fig1, out / "fig1_bias_variance.csv")
    write_table(fig2, out / "fig2_scores.csv")
    draw(fig1, fig2, out)
    preamble = (f"Scale `{scale}`, seed {seed}: Fig. 1 from {SCALES[scale].runs} searches per "
                "method on Pig; Fig. 2 as below, the default policies of seed 003 Sect. 4.3; "
                f"{(time.perf_counter() - start) / 60:.1f} min for this run on "
                f"{_where(workers, scheduler)} (stored results are reused).")
    report = out / "report.md"
    report.write_text(report_markdown(fig1, fig2, preamble, _settings(scale, scores)))
    return report
