"""The registry of threshold adjusters (seed 001, Sect. II-C and IV; DESIGN.md §5): one record
per name, read by the CLI, study files, the synthetic engine's configuration and the figure
labels (``mctslab adjusters list``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from bandits.plugins import load_plugin, plugin_domains, recorded_plugin, settable_parameters
from specs import NUMBER, Domain, at_least, between, check_values

from .adjusters import MaxFrequency, Score, Static, Value, register_hooks
from .plugins import Adjuster


@dataclass(frozen=True)
class AdjusterInfo:
    """An adjuster's name, its typed record (``enhancements.adjusters``: the compiled engine's
    dispatch key), the parameters a user may set, how to name and cite it, whether the
    exploration restart of Eqs. 6-8 is on by default with it, an optional ``check`` of a
    record's values taken together (raising a one-line ValueError), and each parameter's
    domain (``specs.Domain``; one not given is any finite number, an integer for int
    fields)."""

    name: str
    record: type[NamedTuple]
    parameters: tuple[str, ...]
    label: str
    description: str
    citation: str
    restart: bool = False
    check: Callable[[NamedTuple], None] | None = None
    domains: Mapping[str, Domain] = field(default_factory=dict)

    def domain(self, key: str) -> Domain:
        if key in self.domains:
            return self.domains[key]
        return Domain("integer") if type(self.record._field_defaults.get(key)) is int else NUMBER

    @property
    def defaults(self) -> dict:
        """The settable parameters and their default values."""
        return {key: self.record._field_defaults[key] for key in self.parameters}

    @property
    def reads_scores(self) -> bool:
        """The record's trait: the adjuster observes terminal scores."""
        return bool(getattr(self.record, "reads_scores", False))

    def to_dict(self) -> dict:
        return {"name": self.name, "params": self.defaults, "description": self.description,
                "citation": self.citation, "reads_scores": self.reads_scores,
                "restart": self.restart,
                "domains": {key: self.domain(key).describe() for key in self.parameters}}


def _check_value(adjuster) -> None:
    if not adjuster.x_lo < adjuster.x_hi:
        raise ValueError(f"value adjuster needs x_lo < x_hi, not x_lo = {adjuster.x_lo:g} and "
                         f"x_hi = {adjuster.x_hi:g}")


_INTERVAL = at_least(1, "integer")  # playouts between updates
_RATE = between(0, 1)

ADJUSTERS: dict[str, AdjusterInfo] = {
    info.name: info
    for info in (
        AdjusterInfo("plain", Static, (), "Plain", "threshold 0 throughout", "seed 001, Sect. V"),
        AdjusterInfo("static", Static, (), "Static",
                     "the tree's Static threshold, argmax Delta(theta) by exact analysis "
                     "(an oracle)", "seed 001, Sect. IV-A"),
        AdjusterInfo("score", Score, ("s", "c", "interval"), "Score",
                     "Score Situational dynamic komi: theta += rate * mean(score - theta)",
                     "Baudis 2011 (Pachi dynkomi); seed 001, Algorithm 1",
                     domains={"s": at_least(0), "c": at_least(0), "interval": _INTERVAL}),
        AdjusterInfo("value", Value, ("x_lo", "x_hi", "interval"), "Value",
                     "Value Situational dynamic komi: theta -/+ 1 when the root's win rate "
                     "leaves [x_lo, x_hi], with a ratchet",
                     "Baudis 2011 (Pachi dynkomi); seed 001, Algorithm 2", check=_check_value,
                     domains={"x_lo": _RATE, "x_hi": _RATE, "interval": _INTERVAL}),
        AdjusterInfo("maxfreq", MaxFrequency, ("offset",), "MaxFrequency",
                     "theta = the most frequent playout score (+ offset), with the "
                     "exploration restart", "seed 001, Algorithm 3 and Eqs. 6-8",
                     restart=True, domains={"offset": between(-0.5, 0.5)}),
    )
}


def get_adjuster(name: str) -> AdjusterInfo:
    """The registered adjuster ``name``, or the plug-in ``package.module:object``
    (``enhancements.plugins``); an unknown name is a one-line ValueError."""
    if ":" in name:
        return recorded_plugin("adjuster", name) or load_adjuster(name)
    if name not in ADJUSTERS:
        raise ValueError(f"unknown adjuster {name!r}: use one of {', '.join(ADJUSTERS)} "
                         "(see `mctslab adjusters list`)")
    return ADJUSTERS[name]


def make_adjuster(name: str, /, **values) -> NamedTuple:
    """``make_adjuster("maxfreq", offset=-0.5)``: the typed record of a registered adjuster.
    ``values`` may set any field of the record (the static adjuster's ``theta`` is set per
    tree), within its domain (``AdjusterInfo.domain``). Bad values are a one-line
    ValueError (``specs.check_value``)."""
    info = get_adjuster(name)
    unknown = sorted(set(values) - set(info.record._fields))
    if unknown:
        raise ValueError(f"unknown {name} parameter {unknown[0]!r}: allowed "
                         f"{', '.join(info.parameters) or 'none'}")
    domains = {key: info.domain(key) if key in info.parameters else NUMBER  # static's theta
               for key in info.record._fields}
    typed = check_values(name, values, domains)
    record = info.record(**typed)
    if info.check is not None:
        info.check(record)
    return record


_LOADED: dict[str, AdjusterInfo] = {}


def load_adjuster(spec: str) -> AdjusterInfo:
    """The :class:`AdjusterInfo` of the plug-in ``spec`` (``enhancements.plugins``; loaded once
    a process)."""
    if spec not in _LOADED:
        plugin, record, hooks = load_plugin(spec, "adjuster", Adjuster, "enhancements.Adjuster",
                                            "`mctslab adjusters list`",
                                            ("start", "observe", "threshold"))
        register_hooks(record, *hooks)
        parameters = settable_parameters(plugin, record)
        _LOADED[spec] = AdjusterInfo(spec, record, parameters, plugin.label or plugin.name,
                                     plugin.description, plugin.citation, plugin.restart,
                                     plugin.check, plugin_domains(spec, plugin, parameters))
    return _LOADED[spec]
