"""``mctslab reproduce kocsis``: run (or resume) the P-game study of Kocsis & Szepesvari
(2006, Fig. 2), then write its per-tree and per-point tables, the figure and ``report.md``."""

from __future__ import annotations

import time
from pathlib import Path

from ...runtime.store import write_table
from ...studies.execution import run_study
from .report import report_markdown
from .study import PANELS, effort, kocsis_study, over_trees, random_pick_levels, tree_rates

FIGURE = "fig2_pgames"
# Single-thread cost per iteration, ns, by (policy, B): `mctslab reproduce kocsis --scale
# quick` on the 2-core dev machine, 2026-11-28, under load from other jobs (errs high); the
# paper scale's projection multiplies them by its iterations
ITERATION_NS = {("ucb1", 2): 900, ("ucb1", 8): 700, ("alphabeta", 2): 150,
                ("alphabeta", 8): 150, ("flatmc", 2): 300, ("flatmc", 8): 250}
COSTS_SOURCE = "per-iteration costs of a quick run on 2 shared cores, 2026-11-28"


def projected_core_hours(scale: str, seed: int = 2015) -> float:
    """Single-core hours the study's runs take at ``scale`` (every run spends its budget)."""
    study = kocsis_study(scale, seed)
    return sum(curve.total_runs * curve.max_budget * ITERATION_NS[(curve.policy, curve.branching)]
               for curve in study.curves) / 3.6e12


def reproduce_kocsis(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run the study into ``out`` (finished shards are kept), then write
    ``tree_failure_rates.csv``, ``fig2_failure_rates.csv``, the figure (PNG, which the report
    shows, and every other format of ``formats``) and ``report.md``; returns the report."""
    from plots.kocsis import plot_fig2
    from plots.style import save_as

    out = Path(out)
    study = kocsis_study(scale, seed)
    start = time.perf_counter()
    summary = run_study(study, out, workers=workers, scheduler=scheduler, progress=progress)
    rates = tree_rates(out, study)
    table = over_trees(rates)
    write_table(rates, out / "tree_failure_rates.csv")
    write_table(table, out / "fig2_failure_rates.csv")
    levels = [random_pick_levels(panel, effort(scale, panel).trees, seed) for panel in PANELS]
    save_as(plot_fig2(table, {level["panel"]: level["score_level"] for level in levels}),
            out / FIGURE, ("png", *formats))
    sizes = "; ".join(f"{p.name}: {effort(scale, p).trees} trees x {effort(scale, p).runs} runs"
                      f", iterations 2^0..2^{effort(scale, p).max_budget.bit_length() - 1}"
                      for p in PANELS)
    preamble = (f"Scale `{scale}` ({sizes}), study seed {seed}. This run computed "
                f"{summary.computed} of {summary.shards} shards ({summary.playouts:,} "
                f"iterations) in {(time.perf_counter() - start) / 60:.1f} min; the rest were "
                "stored already.")
    report = out / "report.md"
    report.write_text(report_markdown(table, levels, preamble, FIGURE))
    return report
