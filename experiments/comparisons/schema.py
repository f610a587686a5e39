"""The TOML schema of a comparison grid: a study file with ``kind = "compare"`` (its layout is
in ``experiments.comparisons``'s docstring). Every check of a grid file lives here."""

from __future__ import annotations

from pathlib import Path

from specs import Domain

from ..studies.study import read_study_document
from ..studies.tables import COUNT, SEED, STRING, STRINGS, check_keys, check_table
from .atlas import preset_lists
from .grid import Grid


def read_grid(path: str | Path) -> Grid:
    """The grid of a study file with ``kind = "compare"`` (module docstring); any problem is a
    one-line ValueError naming the file, the key and the fix."""
    return grid_from_document(read_study_document(path), path)


_GRID_KEYS = {"trees": STRINGS, "policies": STRINGS, "adjusters": STRINGS, "scale": STRING,
              "runs": COUNT, "trees_per_model": COUNT, "max_budget": COUNT,
              "epsilon": Domain(low=0, high=1, low_open=True, high_open=True),
              "branching": COUNT, "depth": COUNT, "block": COUNT, "preset": STRING,
              "baseline": STRING}
_STUDY_KEYS = {"kind": STRING, "name": STRING, "seed": SEED}


def grid_from_document(document: dict, path: str | Path) -> Grid:
    """The grid of a parsed study file (its [study] and [compare] tables)."""
    unknown = sorted(set(document) - {"study", "compare"})
    if unknown:
        raise ValueError(f"{path}: unknown table [{unknown[0]}] in a compare study: "
                         "use [study] and [compare]")
    settings = check_table(f"{path}: [study]", document.get("study", {}), _STUDY_KEYS)
    table = document.get("compare")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: no [compare] table: add one with trees, policies, "
                         "adjusters")
    check_keys(f"{path}: [compare]", table, _GRID_KEYS)
    values = check_table(f"{path}: [compare]", table, _GRID_KEYS)
    for key in ("name", "seed"):
        if key in settings:
            values[key] = settings[key]
    try:
        preset = values.pop("preset", None)
        if preset is not None:
            values = {**preset_lists(preset), **values}
        missing = [key for key in ("trees", "policies", "adjusters") if key not in values]
        if missing:
            raise ValueError(f"[compare]: key {missing[0]!r} is missing: add e.g. "
                             f"{missing[0]} = [...] or preset = \"atlas\"")
        lists = [values.pop(key) for key in ("trees", "policies", "adjusters")]
        return Grid.from_scale(*lists, values.pop("scale", "quick"), **values)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None
