"""Shared figure helpers: publication defaults and saving to any format matplotlib knows.

Importing ``plots`` leaves matplotlib's backend alone (a notebook keeps its inline one); the
``mctslab`` program chooses the non-interactive one."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt

RC = {"figure.dpi": 120, "savefig.dpi": 200, "axes.grid": True, "grid.alpha": 0.3, "font.size": 9}


def new_figure(rows: int = 1, cols: int = 1, **kwargs):
    with plt.rc_context(RC):
        return plt.subplots(rows, cols, **kwargs)


def save(fig, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` (format from the suffix), creating folders, then close it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with plt.rc_context(RC):
        fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path
