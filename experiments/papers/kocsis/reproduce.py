"""``mctslab reproduce kocsis``: run (or resume) the P-game study of Kocsis & Szepesvari
(2006, Fig. 2), then write its per-tree and per-point tables, the figure and ``report.md``."""

from __future__ import annotations

import time
from pathlib import Path

from ...runtime.store import write_table
from ...studies.execution import run_study
from .figures import draw
from .report import report_markdown
from .study import PANELS, effort, kocsis_study, over_trees, random_pick_levels, tree_rates

# Single-thread cost per iteration, ns, by (policy, B), at 2^14 iterations (40 runs on one
# tree of the paper scale, the 2-core dev machine under load from other jobs, 2026-11-28: errs
# high), and seconds per shard readying a tree for the UCT kernel (the B=8 tree's 19 M nodes)
ITERATION_NS = {("ucb1", 2): 1700, ("ucb1", 8): 2200, ("alphabeta", 2): 150,
                ("alphabeta", 8): 170, ("flatmc", 2): 280, ("flatmc", 8): 120}
SHARD_SECONDS = {2: 0.1, 8: 0.65}
# seconds to draw a tree and solve it exactly (B=8: 1-3 s), counted once per curve and tree
DRAW_SECONDS = {2: 0.3, 8: 2.5}
COSTS_SOURCE = "per-iteration and per-shard costs measured on 2 shared cores, 2026-11-28"


def projected_core_hours(scale: str, seed: int = 2015) -> float:
    """Single-core hours the study takes at ``scale``: every run spends its budget, every UCT
    shard readies its tree, every curve draws its trees (compiling not counted)."""
    study = kocsis_study(scale, seed)
    seconds = 0.0
    for curve in study.curves:
        shards = curve.trees * -(-curve.runs // study.block)
        seconds += (curve.total_runs * curve.max_budget
                    * ITERATION_NS[(curve.policy, curve.branching)] / 1e9
                    + shards * SHARD_SECONDS[curve.branching] * (curve.policy == "ucb1")
                    + curve.trees * DRAW_SECONDS[curve.branching])
    return seconds / 3600


def reproduce_kocsis(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run the study into ``out`` (finished shards are kept), then write
    ``tree_failure_rates.csv``, ``fig2_failure_rates.csv``, the figure (PNG, which the report
    shows, and every other format of ``formats``) and ``report.md``; returns the report."""
    out = Path(out)
    study = kocsis_study(scale, seed)
    start = time.perf_counter()
    summary = run_study(study, out, workers=workers, scheduler=scheduler, progress=progress)
    rates = tree_rates(out, study)
    table = over_trees(rates)
    write_table(rates, out / "tree_failure_rates.csv")
    write_table(table, out / "fig2_failure_rates.csv")
    levels = [random_pick_levels(panel, effort(scale, panel).trees, seed, workers, scheduler)
              for panel in PANELS]
    figure = draw(table, levels, out, formats)
    sizes = "; ".join(f"{p.name}: {effort(scale, p).trees} trees x {effort(scale, p).runs} runs"
                      f", iterations 2^0..2^{effort(scale, p).max_budget.bit_length() - 1}"
                      for p in PANELS)
    preamble = (f"Scale `{scale}` ({sizes}), study seed {seed}. This run computed "
                f"{summary.computed} of {summary.shards} shards ({summary.playouts:,} "
                f"iterations) in {(time.perf_counter() - start) / 60:.1f} min; the rest were "
                "stored already.")
    report = out / "report.md"
    report.write_text(report_markdown(table, levels, preamble, figure))
    return report
