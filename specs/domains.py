"""Parameter domains: what values a parameter of a policy, an adjuster, a tree model, a
shaping bonus or a player spec may take, and the one check that refuses the others.

A :class:`Domain` is a type (number, integer or flag), bounds (each open or closed) and named
values (``online``); numbers are always finite. :func:`check_value` is the one check: the CLI,
study files, compare grids, the Python API and player specs all call it (through the
registries), so a value refused in one place is refused everywhere, with one line such as
``ucb1 parameter c = nan: must be a finite number >= 0``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

_KINDS = ("number", "integer", "flag")


@dataclass(frozen=True)
class Domain:
    """``kind`` "number" (finite float), "integer" or "flag" (true/false, 0/1); ``low`` and
    ``high`` bounds (None: unbounded), excluded when ``low_open``/``high_open``; ``words``
    maps names a user may write to the value they stand for (``(("online", -1.0),)``)."""

    kind: str = "number"
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    words: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"domain kind {self.kind!r}: use one of {', '.join(_KINDS)}")

    def describe(self) -> str:
        """``a finite number >= 0``, ``an integer in [1, 20]``, ``true or false``, ..."""
        if self.kind == "flag":
            return "true or false (1 or 0)"
        noun = "a finite number" if self.kind == "number" else "an integer"
        if self.low is not None and self.high is not None:
            span = (f" in {'(' if self.low_open else '['}{_bound(self.low)}, {_bound(self.high)}"
                    f"{')' if self.high_open else ']'}")
        elif self.low is not None:
            span = f" {'>' if self.low_open else '>='} {_bound(self.low)}"
        elif self.high is not None:
            span = f" {'<' if self.high_open else '<='} {_bound(self.high)}"
        else:
            span = ""
        words = "".join(f" or {word}" for word, _ in self.words)
        return f"{noun}{span}{words}"

    def spell(self, value) -> str:
        """``value`` as a user writes it: the word that stands for it (``playout``), else the
        number (``0.5``)."""
        if isinstance(value, str):
            return value
        word = next((word for word, number in self.words if number == value), None)
        return word if word is not None else format(value, "g")

    def admits(self, value) -> bool:
        """Whether ``value`` (a number, already typed) lies in the domain."""
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or (value < self.high if self.high_open else
                                     value <= self.high)

    def convert(self, value):
        """``value`` as this domain's type, or None when it is not one of its values."""
        if isinstance(value, str):
            named = dict(self.words)
            if value.strip() in named:
                return named[value.strip()]
            if self.kind == "flag" and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
            return None
        if self.kind == "flag":
            return bool(value) if isinstance(value, bool) or value in (0, 1) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if not math.isfinite(value):
            return None
        if self.kind == "integer":
            return int(value) if value == int(value) and self.admits(value) else None
        return float(value) if self.admits(value) else None


def _bound(value: float) -> str:
    """``1048576`` rather than ``1.04858e+06``; ``0.5`` as it is."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


NUMBER = Domain()  # a plug-in's parameters without a declared domain
FLAG = Domain("flag")


def at_least(low: float, kind: str = "number") -> Domain:
    return Domain(kind, low=low)


def above(low: float, kind: str = "number") -> Domain:
    return Domain(kind, low=low, low_open=True)


def between(low: float, high: float, kind: str = "number", *, high_open: bool = False,
            low_open: bool = False) -> Domain:
    return Domain(kind, low, high, low_open=low_open, high_open=high_open)


def _show(value) -> str:
    return repr(value) if isinstance(value, str) else f"{value}"


def check_value(owner: str, name: str, value, domain: Domain = NUMBER):
    """``value`` typed by ``domain``; anything else (NaN, an infinity, out of bounds, a word
    it does not know) is a one-line ValueError naming ``owner``'s parameter, its domain and
    the value: ``ucb1 parameter c = nan: must be a finite number >= 0``."""
    typed = domain.convert(value)
    if typed is None:
        raise ValueError(f"{owner} parameter {name} = {_show(value)}: must be "
                         f"{domain.describe()}")
    return typed


def check_values(owner: str, values: Mapping, domains: Mapping[str, Domain]) -> dict:
    """Every value of ``values`` checked against its parameter's domain; a name that is not a
    parameter of ``owner`` is a one-line ValueError listing the allowed ones."""
    unknown = [key for key in values if key not in domains]
    if unknown:
        raise ValueError(f"unknown {owner} parameter {unknown[0]!r}: allowed "
                         f"{', '.join(domains) or 'none'}")
    return {key: check_value(owner, key, value, domains[key]) for key, value in values.items()}
