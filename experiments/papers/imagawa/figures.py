"""The figures of the seed 001 reproduction: Fig. 2's threshold analysis, Figs. 3-9 and the
ablations, drawn from the study's stored results (``plots.imagawa``)."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from ...runtime.store import write_figures
from .study import is_default


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name.replace("'", "prime")).strip("-")


def draw(frame, out: Path, formats=("png", "pdf")) -> list[str]:
    """Every figure of the study that has results, as PNG and every other format of
    ``formats``; returns the file stems. Each figure is drawn when its turn comes and closed
    once written, so one is open at a time."""
    from plots import plot_threshold_analysis
    from plots.imagawa import FIGURES, ablation_figure, paper_figure
    from trees import analyze

    default = is_default(frame)
    figures = {"fig2_constant'(1,13)": lambda: plot_threshold_analysis(
                   analyze("constant'(1,13)")),
               **{name: partial(paper_figure, frame[default], name) for name in FIGURES},
               "ablations_maxfreq": lambda: ablation_figure(frame, default)}
    stems = []
    for name, drawing in figures.items():
        fig = drawing()
        if fig is None:
            continue
        stem = _file_name(name)
        write_figures(fig, out / stem, ("png", *formats))
        stems.append(stem)
    return stems
