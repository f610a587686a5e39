"""``mctslab reproduce imagawa``: run (or resume) the seed 001 study, then draw its figures,
the Welch tables and the report into the output folder."""

from __future__ import annotations

import re
import time
from pathlib import Path

from .execution import run_study
from .imagawa import imagawa_study, is_default, welch_tests
from .imagawa_report import report_markdown
from .study import load_results


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name.replace("'", "prime")).strip("-")


def draw(frame, out: Path) -> list[str]:
    """Every figure of the study that has results, as PNG and PDF; returns the file stems."""
    from plots import plot_threshold_analysis, save
    from plots.imagawa import FIGURES, ablation_figure, paper_figure
    from trees import analyze

    figures = {"fig2_constant'(1,13)": plot_threshold_analysis(analyze("constant'(1,13)"))}
    default = is_default(frame)
    figures.update({name: paper_figure(frame[default], name) for name in FIGURES})
    figures["ablations_maxfreq"] = ablation_figure(frame, default)
    stems = []
    for name, fig in figures.items():
        if fig is None:
            continue
        stem = _file_name(name)
        fig.savefig(out / f"{stem}.pdf", bbox_inches="tight")
        save(fig, out / f"{stem}.png")
        stems.append(stem)
    return stems


def reproduce_imagawa(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                      scheduler: str | None = None, seed: int = 2015,
                      progress: bool | None = None) -> Path:
    """Run the study into ``out`` (finished shards are kept), then write figures, Welch tests
    (CSV) and ``report.md``. Returns the report's path."""
    out = Path(out)
    study = imagawa_study(scale, seed)
    start = time.perf_counter()
    summary = run_study(study, out, workers=workers, scheduler=scheduler, progress=progress)
    frame = load_results(out)
    tests = welch_tests(frame)
    tests.to_csv(out / "welch_tests.csv", index=False)
    stems = draw(frame, out)
    minutes = (time.perf_counter() - start) / 60
    preamble = (
        f"Scale `{scale}`: {len(study.curves)} curves, b=4, d=8, budgets 2^0..2^14, "
        f"{study.curves[0].total_runs:,} runs per constant-tree curve and "
        f"{max(c.total_runs for c in study.curves):,} (trees x runs) per random-tree curve; "
        f"study seed {seed}. This run computed {summary.computed} of {summary.shards} shards "
        f"({summary.playouts:,} playouts) in {minutes:.1f} min; the rest were stored already."
    )
    report = out / "report.md"
    report.write_text(report_markdown(frame, tests, "Reproduction of Imagawa & Kaneko: biased "
                                      "game trees (seed 001)", stems, preamble))
    return report
