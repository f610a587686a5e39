"""A study file of either kind: "curves" (``experiments.studies.study``) or "compare", a
comparison's grid (``experiments.comparisons.schema``), each read as the study it runs. It
lives with the comparisons, the upper of the two kinds, as it reads both."""

from __future__ import annotations

from pathlib import Path

from ..studies.study import Study, read_curves, study_kind
from .schema import read_grid

__all__ = ["read_study"]


def read_study(path: str | Path) -> Study:
    """The study of the file ``path``, whatever its kind; any problem is a one-line ValueError
    naming file, key and fix."""
    if study_kind(path) == "compare":
        return read_grid(path).study()
    return read_curves(path)
