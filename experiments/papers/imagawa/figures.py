"""The figures of the seed 001 reproduction: Fig. 2's threshold analysis, Figs. 3-9 and the
ablations, drawn from the study's stored results (``plots.imagawa``)."""

from __future__ import annotations

import re
from pathlib import Path

from .study import is_default


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name.replace("'", "prime")).strip("-")


def draw(frame, out: Path, formats=("png", "pdf")) -> list[str]:
    """Every figure of the study that has results, as PNG and every other format of
    ``formats``; returns the file stems."""
    from plots import plot_threshold_analysis
    from plots.imagawa import FIGURES, ablation_figure, paper_figure
    from ...runtime.store import write_figures
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
        write_figures(fig, out / stem, ("png", *formats))
        stems.append(stem)
    return stems
