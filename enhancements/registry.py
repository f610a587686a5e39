"""The registry of threshold adjusters (seed 001, Sect. II-C and IV; DESIGN.md §5): one record
per name, read by the CLI, study files, the synthetic engine's configuration and the figure
labels (``mctslab adjusters list``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from .adjusters import MaxFrequency, Score, Static, Value


@dataclass(frozen=True)
class AdjusterInfo:
    """An adjuster's name, its typed record (``enhancements.adjusters``: the compiled engine's
    dispatch key), the parameters a user may set, how to name and cite it, whether the
    exploration restart of Eqs. 6-8 is on by default with it, and an optional ``check`` of a
    record's values (raising a one-line ValueError)."""

    name: str
    record: type[NamedTuple]
    parameters: tuple[str, ...]
    label: str
    description: str
    citation: str
    restart: bool = False
    check: Callable[[NamedTuple], None] | None = None

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
                "restart": self.restart}


def _check_interval(adjuster) -> None:
    if adjuster.interval < 1:
        raise ValueError(f"interval {adjuster.interval} must be at least 1 playout")


def _check_value(adjuster) -> None:
    _check_interval(adjuster)
    if not 0 <= adjuster.x_lo < adjuster.x_hi <= 1:
        raise ValueError("value adjuster needs 0 <= x_lo < x_hi <= 1")


def _check_offset(adjuster) -> None:
    if not -0.5 <= adjuster.offset <= 0.5:
        raise ValueError(f"maxfreq offset {adjuster.offset} must lie in [-0.5, 0.5]")


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
                     check=_check_interval),
        AdjusterInfo("value", Value, ("x_lo", "x_hi", "interval"), "Value",
                     "Value Situational dynamic komi: theta -/+ 1 when the root's win rate "
                     "leaves [x_lo, x_hi], with a ratchet",
                     "Baudis 2011 (Pachi dynkomi); seed 001, Algorithm 2", check=_check_value),
        AdjusterInfo("maxfreq", MaxFrequency, ("offset",), "MaxFrequency",
                     "theta = the most frequent playout score (+ offset), with the "
                     "exploration restart", "seed 001, Algorithm 3 and Eqs. 6-8",
                     restart=True, check=_check_offset),
    )
}


def get_adjuster(name: str) -> AdjusterInfo:
    """The registered adjuster ``name``, or the plug-in ``package.module:object``
    (``enhancements.plugins``); an unknown name is a one-line ValueError."""
    if ":" in name:
        from .plugins import load_adjuster

        return load_adjuster(name)
    if name not in ADJUSTERS:
        raise ValueError(f"unknown adjuster {name!r}: use one of {', '.join(ADJUSTERS)} "
                         "(see `mctslab adjusters list`)")
    return ADJUSTERS[name]


def make_adjuster(name: str, **values) -> NamedTuple:
    """``make_adjuster("maxfreq", offset=-0.5)``: the typed record of a registered adjuster.
    ``values`` may set any field of the record (the static adjuster's ``theta`` is set per
    tree); integer fields take integral numbers only. Bad values are a one-line ValueError."""
    info = get_adjuster(name)
    fields = info.record._fields
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ValueError(f"unknown {name} parameter {unknown[0]!r}: allowed "
                         f"{', '.join(info.parameters) or 'none'}")
    typed = {}
    for key, value in values.items():
        kind = type(info.record._field_defaults.get(key, 0.0))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and value != int(value)):
            raise ValueError(f"{name} parameter {key} = {value!r} must be "
                             f"{'an integer' if kind is int else 'a number'}, e.g. "
                             f"{key}={info.record._field_defaults.get(key)}")
        typed[key] = kind(value)
    record = info.record(**typed)
    if info.check is not None:
        info.check(record)
    return record
