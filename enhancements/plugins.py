"""A user's threshold adjuster, defined in any importable module and named
``package.module:object`` (docs/extending.md); loaded by ``enhancements.registry``, compiled
and cached as ``bandits.plugins`` does for policies."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from specs import Domain


@dataclass(frozen=True)
class Adjuster:
    """A user's adjuster: a name, a NamedTuple ``record`` of its parameters (with defaults;
    ``reads_scores = True`` on it to observe terminal scores below proven nodes too), and its
    compiled hooks ``start``, ``observe`` and ``threshold`` (``enhancements.adjusters``).
    ``restart``: the exploration restart is on by default with it; ``check(record)`` may raise
    a one-line ValueError for bad values; ``parameters``: the fields a user may set (default
    all); ``domains``: a ``specs.Domain`` per parameter (default: any finite number)."""

    name: str
    record: type[NamedTuple]
    start: object
    observe: object
    threshold: object
    description: str = ""
    citation: str = ""
    label: str | None = None
    parameters: tuple[str, ...] | None = None
    restart: bool = False
    check: Callable[[NamedTuple], None] | None = None
    domains: Mapping[str, Domain] | None = None
