"""``mctslab reproduce veness``: run (or resume) seed 003's experiments (``run``), then draw
Fig. 1 (Pig) and Fig. 2 (one panel per game of ``PANELS``; ``figures``) and write a report that
checks the paper's statements against the numbers (``verdicts``, ``report``)."""

from __future__ import annotations

import time
from pathlib import Path

from ...runtime.pool import LOCAL_CLUSTER, default_workers
from ...runtime.store import write_atomically, write_table
from .figures import draw
from .report import report_markdown, settings_markdown
from .run import run_veness
from .study import SCALES, score_summary


def _where(workers: int | None, scheduler: str | None) -> str:
    """Where the points ran, for the report (a pool has at most one worker per point)."""
    if scheduler == LOCAL_CLUSTER:
        return f"a local Dask cluster of up to {workers or default_workers()} worker(s)"
    if scheduler is not None:
        return f"the Dask cluster at {scheduler}"
    return f"up to {workers or default_workers()} worker(s)"


def reproduce_veness(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run or resume the study into ``out`` on ``workers`` processes (None: all cores) or a
    Dask cluster (``scheduler``), a progress bar on a terminal (``progress`` None) or as
    said, then write tables, figures (PNG, which the report shows, and every other format of
    ``formats``) and ``report.md``."""
    out = Path(out)
    start = time.perf_counter()
    fig1, scores = run_veness(out, scale, workers=workers, scheduler=scheduler, seed=seed,
                              progress=progress)
    fig2 = score_summary(scores)
    write_table(fig1, out / "fig1_bias_variance.csv")
    write_table(fig2, out / "fig2_scores.csv")
    draw(fig1, fig2, out, formats)
    preamble = (f"Scale `{scale}`, seed {seed}: Fig. 1 from {SCALES[scale].runs} searches per "
                "method on Pig; Fig. 2 as below, the default policies of seed 003 Sect. 4.3; "
                f"{(time.perf_counter() - start) / 60:.1f} min for this run on "
                f"{_where(workers, scheduler)} (stored results are reused).")
    return write_atomically(out / "report.md", report_markdown(
        fig1, fig2, preamble, settings_markdown(scale, scores)).encode())
