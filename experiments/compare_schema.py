"""The TOML schema of a comparison grid: a study file with ``kind = "compare"`` (its layout is
in ``experiments.compare``'s docstring). Every check of a grid file lives here."""

from __future__ import annotations

from pathlib import Path

from .compare_atlas import preset_lists
from .compare_grid import Grid
from .study import read_study_document


def read_grid(path: str | Path) -> Grid:
    """The grid of a study file with ``kind = "compare"`` (module docstring); any problem is a
    one-line ValueError naming the file, the key and the fix."""
    return grid_from_document(read_study_document(path), path)


_GRID_KEYS = {"trees": list, "policies": list, "adjusters": list, "scale": str, "runs": int,
              "trees_per_model": int, "max_budget": int, "epsilon": float, "branching": int,
              "depth": int, "block": int, "preset": str, "baseline": str}


def grid_from_document(document: dict, path: str | Path) -> Grid:
    """The grid of a parsed study file (its [study] and [compare] tables)."""
    unknown = sorted(set(document) - {"study", "compare"})
    if unknown:
        raise ValueError(f"{path}: unknown table [{unknown[0]}] in a compare study: "
                         "use [study] and [compare]")
    settings = document.get("study", {})
    extra = sorted(set(settings) - {"kind", "name", "seed"})
    if extra:
        raise ValueError(f"{path}: [study]: unknown key {extra[0]!r}: use kind, name, seed")
    table = document.get("compare")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: no [compare] table: add one with trees, policies, "
                         "adjusters")
    extra = sorted(set(table) - set(_GRID_KEYS))
    if extra:
        raise ValueError(f"{path}: [compare]: unknown key {extra[0]!r}: use "
                         f"{', '.join(_GRID_KEYS)}")
    values = dict(table)
    for key, kind in _GRID_KEYS.items():
        if key not in values:
            continue
        value = values[key]
        if kind is list and isinstance(value, str):
            value = values[key] = [value]
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              if kind is float else isinstance(value, kind) and not isinstance(value, bool))
        if not ok or (kind is list and not all(isinstance(v, str) for v in value)):
            what = {list: "a list of strings", str: "a string", int: "an integer",
                    float: "a number"}[kind]
            raise ValueError(f"{path}: [compare]: key {key!r} must be {what}, not {value!r}")
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
