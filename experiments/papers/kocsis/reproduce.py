"""``mctslab reproduce kocsis``: run (or resume) the P-game study of Kocsis & Szepesvari
(2006, Fig. 2), then write its per-tree and per-point tables, the figure and ``report.md``."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from mcts.baselines import is_baseline
from trees import node_count

from ...runtime.store import write_atomically, write_table
from ...studies.execution import run_study
from .fig3 import fig3_markdown, fig3_table, growth_table, paper_fig3
from .figures import draw, draw_fig3
from .levels import readings_markdown, search_free_levels
from .paper_values import beside_by_value, beside_paper, paper_fig2
from .report import report_markdown
from .study import (
    BY_VALUE,
    PANELS,
    curve_method,
    effort,
    kocsis_study,
    over_trees,
    pick_levels,
    tree_rates,
)

# Single-thread CPU ns per iteration, by (method, B), at 2^14 iterations on a tree of the paper
# scale (``benchmarks/bench_kocsis_costs.py``, Fig. 2's shapes; Fig. 3's B = 3..7 priced as
# B = 8, an upper bound: an iteration's cost grows with B), and CPU ns per tree node to ready
# a tree for an MCTS kernel (0.4 s for the B=8 D=8 tree's 19 M nodes) and to draw and solve
# it exactly (2.5 s)
ITERATION_NS = {
    ("uct-paper", 2): 907, ("uct", 2): 847, ("uct+sum", 2): 910, ("uct+episodes", 2): 1005,
    ("uct+stop", 2): 784, ("uct+solver", 2): 830, ("mmmc", 2): 1116, ("alphabeta", 2): 45,
    ("alphabeta-best", 2): 45, ("flatmc", 2): 132,
    ("uct-paper", 8): 1098, ("uct", 8): 898, ("uct+sum", 8): 1011, ("uct+episodes", 8): 1312,
    ("uct+stop", 8): 830, ("uct+solver", 8): 952, ("mmmc", 8): 1404, ("alphabeta", 8): 88,
    ("alphabeta-best", 8): 88, ("flatmc", 8): 116,
}
READY_NS_PER_NODE = 21
DRAW_NS_PER_NODE = 130
# the methods under the reading by game value search as their analogues on every tree do;
# their decisive trees are drawn 1 / (the share of decisive trees) times (47% of the paper
# scale's trees at B = 2, 62% at B = 8: ``levels``)
PRICED_AS = {"value:uct": "uct-paper", "value:uct-unstopped": "uct+episodes",
             "value:mmmc": "mmmc", "value:alphabeta": "alphabeta", "value:flatmc": "flatmc"}
DECISIVE_DRAWS = {2: 1 / 0.47, 8: 1 / 0.62}
COSTS_SOURCE = ("per-iteration and per-shard CPU costs measured by "
                "benchmarks/bench_kocsis_costs.py on 2 idle cores, 2026-11-29")


def projected_core_hours(scale: str, seed: int = 2015) -> float:
    """Single-core hours the study takes at ``scale``: every run spends its budget, every MCTS
    shard readies its tree, every curve draws its trees (compiling not counted)."""
    study = kocsis_study(scale, seed)
    seconds = 0.0
    for curve in study.curves:
        method, panel = curve_method(curve)
        shards = curve.trees * -(-curve.runs // study.block)
        nodes = node_count(panel.branching, panel.depth)
        shape = 2 if panel.branching == 2 else 8
        iteration = ITERATION_NS[(PRICED_AS.get(method, method), shape)]
        draws = DECISIVE_DRAWS[shape] if method in PRICED_AS else 1.0
        seconds += (curve.total_runs * curve.max_budget * iteration
                    + shards * nodes * READY_NS_PER_NODE * (not is_baseline(curve.policy))
                    + curve.trees * draws * nodes * DRAW_NS_PER_NODE) / 1e9
    return seconds / 3600


def announce(scale: str, seed: int = 2015) -> str | None:
    """The line printed before a run at ``scale``: the paper scale's projected core-hours."""
    if scale != "paper":
        return None
    return (f"kocsis at scale paper: 200 trees x 200 runs a point, projected "
            f"{projected_core_hours(scale, seed):,.1f} core-hours ({COSTS_SOURCE}; drawing a "
            "B=8 D=8 tree adds seconds per tree and worker)")


def reproduce_kocsis(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run the study into ``out`` (finished shards are kept), then write
    ``tree_failure_rates.csv``, ``fig2_failure_rates.csv`` (every shape's points),
    ``fig2_beside_paper.csv``, ``fig3_iterations.csv``, the figures (PNG, which the report
    shows, and every other format of ``formats``) and ``report.md``; returns the report."""
    out = Path(out)
    study = kocsis_study(scale, seed)
    start = time.perf_counter()
    summary = run_study(study, out, workers=workers, scheduler=scheduler, progress=progress)
    rates = tree_rates(out, study)
    table = over_trees(rates)
    write_table(rates, out / "tree_failure_rates.csv")
    write_table(table, out / "fig2_failure_rates.csv")
    levels, readings = [], []
    for panel in PANELS:  # each tree drawn once for both
        rows, sizes = search_free_levels(panel, effort(scale, panel).trees, seed, workers,
                                         scheduler)
        levels.append(pick_levels(panel, sizes))
        readings += rows
    write_table(pd.DataFrame(readings), out / "fig2_readings.csv")
    paper = paper_fig2()
    beside = pd.concat([beside_by_value(table, paper, BY_VALUE), beside_paper(table, paper)],
                       ignore_index=True)
    write_table(beside, out / "fig2_beside_paper.csv")
    figures = draw(table, levels, readings, out, paper, formats)
    fig3, paper3 = fig3_table(table, scale), paper_fig3()
    growths = growth_table(fig3, paper3)
    write_table(fig3, out / "fig3_iterations.csv")
    fig3_figure = draw_fig3(fig3, paper3, out, formats)
    sizes = "; ".join(f"{p.name}: {effort(scale, p).trees} trees x {effort(scale, p).runs} runs"
                      f", iterations 2^0..2^{effort(scale, p).max_budget.bit_length() - 1}"
                      for p in PANELS)
    preamble = (f"Scale `{scale}` ({sizes}), study seed {seed}. This run computed "
                f"{summary.computed} of {summary.shards} shards ({summary.playouts:,} "
                f"iterations) in {(time.perf_counter() - start) / 60:.1f} min; the rest were "
                "stored already.")
    fig2_panels = [panel.name for panel in PANELS]
    text = (report_markdown(table, rates[rates["panel"].isin(fig2_panels)], levels, preamble,
                            figures, paper, beside, readings_report(readings, paper))
            + fig3_report(fig3, growths, paper3, fig3_figure))
    return write_atomically(out / "report.md", text.encode())


def readings_report(readings: list[dict], paper) -> str:
    """The report's section on the failure rule's readings (``levels``)."""
    return f"""## Which failure rule is the paper's: the levels no search moves

Two levels of Fig. 2 do not depend on the search: a random pick (alpha-beta before its search
completes, UCT at one iteration) and flat Monte-Carlo's level after many iterations. Both are
exact on our trees under each reading of "an incorrect move" (`fig2_readings.csv`;
`experiments/papers/kocsis/levels.py` says how): the moves of best minimax score or of the
root's game value (win, draw, loss), over every tree or over the decisive trees only (whose
root moves do not all have the same game value). Flat MC's limit plays the move of best
expected random-playout reward, the outcome or the summed score (the paper's rewards). The
reading nearest the paper's levels is chosen here, before UCT's curves are compared; ± is one
standard error over trees.

{readings_markdown(readings, paper)}
"""


def fig3_report(table, growths, paper, figure: str) -> str:
    """The report's section on Fig. 3."""
    return f"""
## Fig. 3: iterations to a failure rate, against depth and branching

The iterations each method needs to reach a failure rate and stay there (`fig3_iterations.csv`;
`experiments/papers/kocsis/fig3.py` says how), the lab's UCT (`uct`) and alpha-beta with the
paper's rule beside the paper's UCT and alpha-beta, as read from its Fig. 3, and B^(D/2).
"beyond": not reached within this scale's budgets.

{fig3_markdown(table, growths, paper)}

![Fig. 3 beside the paper's]({figure}.png)
"""
