"""The one checker of study-file tables (TOML): a table's keys, and each value's kind and
domain, for the curves of ``experiments.studies.study`` and the grids of ``experiments.comparisons``
alike. Every problem is a one-line ValueError naming the file, the table, the key and what it
must be."""

from __future__ import annotations

from collections.abc import Mapping

from specs import Domain, at_least, check_value

STRING = "a string"
STRINGS = "a list of strings"  # a lone string is read as a list of one
TABLE = "a table of parameters"  # name = value; the registries check the values
FLAG = "true or false"
NUMBER = "a finite number"

SEED = at_least(0, "integer")
COUNT = at_least(1, "integer")
Kind = str | Domain


def describe(kind: Kind) -> str:
    return kind.describe() if isinstance(kind, Domain) else kind


def check_keys(where: str, table, kinds: Mapping[str, Kind], required=()) -> None:
    """``table`` is a table whose keys are among ``kinds`` and hold every ``required`` one."""
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table of keys, not {table!r}")
    unknown = sorted(set(table) - set(kinds))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}: use {', '.join(kinds)}")
    for key in required:
        if key not in table:
            raise ValueError(f"{where}: key {key!r} is missing")


def check_entry(where: str, key: str, value, kind: Kind):
    """One value of kind ``kind`` (a kind name above or a ``specs.Domain``), as it is read."""
    wrong = ValueError(f"{where}: key {key!r} must be {describe(kind)}, not {value!r}")
    if isinstance(kind, Domain):
        try:
            return check_value(where, key, value, kind)
        except ValueError:
            raise wrong from None
    if kind == STRING and not isinstance(value, str):
        raise wrong
    if kind == FLAG and not isinstance(value, bool):
        raise wrong
    if kind == STRINGS:
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise wrong
    if kind == TABLE and not isinstance(value, dict):  # values: the registry's domains
        raise wrong
    return value


def check_table(where: str, table, kinds: Mapping[str, Kind], required=()) -> dict:
    """The table's keys checked (``check_keys``) and each value by its kind."""
    check_keys(where, table, kinds, required)
    return {key: check_entry(where, key, value, kinds[key]) for key, value in table.items()}
