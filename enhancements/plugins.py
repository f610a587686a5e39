"""A user's threshold adjuster, defined in any importable module and named
``package.module:object`` (docs/extending.md); compiled and cached as ``bandits.plugins``
does for policies."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from bandits.plugins import (
    PLUGIN_FILES,
    check_compiled,
    compiled_record,
    load_object,
    plugin_domains,
    plugin_file,
    settable_parameters,
)
from specs import Domain

from .adjusters import register_hooks


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


_LOADED: dict[str, object] = {}


def load_adjuster(spec: str):
    """The :class:`enhancements.registry.AdjusterInfo` of plug-in ``spec`` (loaded once a
    process)."""
    if spec not in _LOADED:
        from .registry import AdjusterInfo

        plugin = load_object(spec, "adjuster", Adjuster, "enhancements.Adjuster",
                             "`mctslab adjusters list`")
        PLUGIN_FILES[spec] = plugin_file(plugin.start)
        for hook in ("start", "observe", "threshold"):
            check_compiled(spec, hook, getattr(plugin, hook))
        record = compiled_record(plugin.record, plugin.start, plugin.observe, plugin.threshold)
        register_hooks(record, plugin.start, plugin.observe, plugin.threshold)
        parameters = settable_parameters(plugin, record)
        _LOADED[spec] = AdjusterInfo(spec, record, parameters, plugin.label or plugin.name,
                                     plugin.description, plugin.citation, plugin.restart,
                                     plugin.check, plugin_domains(spec, plugin, parameters))
    return _LOADED[spec]
