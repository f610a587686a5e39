"""``mctslab reproduce imagawa``: run (or resume) the seed 001 study, then draw its figures,
the Welch tables and the report into the output folder."""

from __future__ import annotations

import time
from pathlib import Path

from ...runtime.store import write_atomically, write_table
from ...studies.execution import run_study
from ...studies.study import load_results
from .figures import draw
from .report import report_markdown
from .study import imagawa_study
from .verdicts import welch_tests


def reproduce_imagawa(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                      scheduler: str | None = None, seed: int = 2015,
                      progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run the study into ``out`` (finished shards are kept), then write figures (PNG, which
    the report shows, and every other format of ``formats``), Welch tests (CSV) and
    ``report.md``. Returns the report's path."""
    out = Path(out)
    study = imagawa_study(scale, seed)
    start = time.perf_counter()
    summary = run_study(study, out, workers=workers, scheduler=scheduler, progress=progress)
    frame = load_results(out)
    tests = welch_tests(frame)
    write_table(tests, out / "welch_tests.csv")
    stems = draw(frame, out, formats)
    minutes = (time.perf_counter() - start) / 60
    preamble = (
        f"Scale `{scale}`: {len(study.curves)} curves, b=4, d=8, budgets 2^0..2^14, "
        f"{study.curves[0].total_runs:,} runs per constant-tree curve and "
        f"{max(c.total_runs for c in study.curves):,} (trees x runs) per random-tree curve; "
        f"study seed {seed}. This run computed {summary.computed} of {summary.shards} shards "
        f"({summary.playouts:,} playouts) in {minutes:.1f} min; the rest were stored already."
    )
    return write_atomically(out / "report.md", report_markdown(
        frame, tests, "Reproduction of Imagawa & Kaneko: biased game trees (seed 001)", stems,
        preamble).encode())
