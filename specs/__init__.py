"""Specs and parameter domains shared by every package (it imports none of them): the one
grammar of ``name(key=value, ...)`` specs (``specs.grammar``) and the one check of parameter
values (``specs.domains``)."""

from .domains import (
    FLAG,
    NUMBER,
    Domain,
    above,
    at_least,
    between,
    check_value,
    check_values,
)
from .grammar import Part, parse_assignments, parse_kind, parse_spec, parse_value, sweep

__all__ = [
    "FLAG",
    "NUMBER",
    "Domain",
    "Part",
    "above",
    "at_least",
    "between",
    "check_value",
    "check_values",
    "parse_assignments",
    "parse_kind",
    "parse_spec",
    "parse_value",
    "sweep",
]
