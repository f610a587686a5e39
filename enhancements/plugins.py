"""A user's threshold adjuster, defined in any importable module and named
``package.module:object`` (docs/extending.md); compiled and cached as ``bandits.plugins``
does for policies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from bandits.plugins import compiled_record, load_object, settable_parameters

from .adjusters import register_hooks


@dataclass(frozen=True)
class Adjuster:
    """A user's adjuster: a name, a NamedTuple ``record`` of its parameters (with defaults;
    ``reads_scores = True`` on it to observe terminal scores below proven nodes too), and its
    compiled hooks ``start``, ``observe`` and ``threshold`` (``enhancements.adjusters``).
    ``restart``: the exploration restart is on by default with it; ``check(record)`` may raise
    a one-line ValueError for bad values; ``parameters``: the fields a user may set (default
    all)."""

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


_LOADED: dict[str, object] = {}


def load_adjuster(spec: str):
    """The :class:`enhancements.registry.AdjusterInfo` of plug-in ``spec`` (loaded once a
    process)."""
    if spec not in _LOADED:
        from .registry import AdjusterInfo

        plugin = load_object(spec, "adjuster", Adjuster, "enhancements.Adjuster")
        record = compiled_record(plugin.record, plugin.start, plugin.observe, plugin.threshold)
        register_hooks(record, plugin.start, plugin.observe, plugin.threshold)
        _LOADED[spec] = AdjusterInfo(spec, record, settable_parameters(plugin, record),
                                     plugin.label or plugin.name, plugin.description,
                                     plugin.citation, plugin.restart, plugin.check)
    return _LOADED[spec]
