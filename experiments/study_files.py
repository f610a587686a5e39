"""A study file of either kind: "curves" (``experiments.study``) or "compare", a comparison's
grid (``experiments.compare_schema``), each read as the study it runs."""

from __future__ import annotations

from pathlib import Path

from .compare_schema import read_grid
from .study import Study, read_curves, study_kind

__all__ = ["read_study"]


def read_study(path: str | Path) -> Study:
    """The study of the file ``path``, whatever its kind; any problem is a one-line ValueError
    naming file, key and fix."""
    if study_kind(path) == "compare":
        return read_grid(path).study()
    return read_curves(path)
