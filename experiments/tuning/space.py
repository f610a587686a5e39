"""The parameter space a tuning searches: ``NAME=LOW..HIGH`` or ``NAME=LOW..HIGH:log`` per
parameter, ``n`` values spread evenly over each range (on the log scale with ``:log``), and
their product when two parameters are tuned at once (UCB-V's zeta and c, PUCT's c_init and
c_base)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

import numpy as np

from specs import NUMBER

# LOW is read up to the first "..", so that any float() spelling reads (.05, 1.5e-3)
_RANGE = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<low>[^:]+?)\s*\.\.\s*"
                    r"(?P<high>[^:]+?)\s*(?::\s*(?P<scale>\w+))?\s*$")
_EXAMPLE = "write NAME=LOW..HIGH, or NAME=LOW..HIGH:log for a log scale, e.g. c=0.05..5:log"


@dataclass(frozen=True)
class ParamRange:
    """Values ``low`` .. ``high`` of the parameter ``name``, on a log scale when ``log``."""

    name: str
    low: float
    high: float
    log: bool = False

    def __post_init__(self) -> None:
        if not (np.isfinite(self.low) and np.isfinite(self.high)):
            raise ValueError(f"{self.spec}: LOW and HIGH must be finite numbers; {_EXAMPLE}")
        if self.low == self.high:
            raise ValueError(f"{self.spec} is an empty range: give LOW < HIGH, e.g. "
                             f"{self.name}=0.05..5:log")
        if self.low > self.high:
            raise ValueError(f"{self.spec}: LOW {self.low:g} > HIGH {self.high:g}; write the "
                             f"smaller first, {self.name}={self.high:g}..{self.low:g}"
                             f"{':log' if self.log else ''}")
        if self.log and self.low <= 0:
            raise ValueError(f"{self.spec}: a log scale needs LOW > 0, e.g. "
                             f"{self.name}={max(self.high / 100, 1e-3):g}..{self.high:g}:log "
                             "(or drop :log)")

    @property
    def spec(self) -> str:
        """The range as the command line writes it: ``c=0.05..5:log``."""
        return f"{self.name}={self.low:g}..{self.high:g}{':log' if self.log else ''}"

    def values(self, n: int) -> np.ndarray:
        """``n`` values from ``low`` to ``high``, evenly spaced (in log when ``log``), rounded
        to 4 significant digits so that they read as the tables and the specs write them."""
        if n < 2:
            raise ValueError(f"{n} values of {self.name}: give at least 2 (--values)")
        spaced = (np.geomspace if self.log else np.linspace)(self.low, self.high, n)
        return np.array([float(f"{value:.4g}") for value in spaced])

    def to_dict(self) -> dict:
        return {"name": self.name, "low": self.low, "high": self.high, "log": self.log}


def parse_range(text: str) -> ParamRange:
    """``"c=0.05..5:log"`` -> ParamRange("c", 0.05, 5.0, log=True); anything else is a
    one-line ValueError giving the form."""
    match = _RANGE.match(text)
    if not match or (match["scale"] not in (None, "log")):
        raise ValueError(f"cannot read the range {text!r}: {_EXAMPLE}")
    bounds = []
    for bound in (match["low"], match["high"]):
        try:
            bounds.append(float(bound))
        except ValueError:
            raise ValueError(f"cannot read the range {text!r}: {bound.strip()!r} is not a "
                             f"number; {_EXAMPLE}") from None
    return ParamRange(match["name"], *bounds, log=match["scale"] == "log")


def check_ranges(policy: str, ranges: tuple[ParamRange, ...], fixed: dict) -> None:
    """Each range names a numeric parameter of ``policy`` (the registry's, or a plug-in's)
    not fixed in its entry, once, and lies within the parameter's domain; else a one-line
    ValueError naming the parameter and what to write."""
    from mcts.baselines import player_info

    info = player_info(policy)
    if not info.defaults:
        raise ValueError(f"{policy} has no parameter to tune: choose a policy with a constant, "
                         "e.g. --policy ucb1 (`mctslab policies list`)")
    if not ranges:
        raise ValueError(f"no parameter to tune: give --param NAME=LOW..HIGH, one of "
                         f"{', '.join(info.defaults)} ({policy})")
    if len(ranges) > 2:
        raise ValueError(f"{len(ranges)} parameters: a tuning takes one or two --param")
    names = [one.name for one in ranges]
    if len(set(names)) < len(names):
        raise ValueError(f"--param {names[0]} is given twice: give each parameter once")
    domains = getattr(info, "domains", {}) or {}
    for one in ranges:
        if one.name not in info.defaults:
            raise ValueError(f"{policy} has no parameter {one.name!r}: tune one of "
                             f"{', '.join(info.defaults) or 'none (it has no parameter)'} "
                             f"(`mctslab policies list`)")
        if one.name in fixed:
            raise ValueError(f"{one.name} is both fixed in the policy entry and tuned by "
                             f"--param {one.spec}: remove one")
        domain = domains.get(one.name, NUMBER)
        if domain.kind != "number":
            raise ValueError(f"{policy}'s {one.name} is {domain.describe()}, a choice rather "
                             f"than a constant to tune: set it in the entry, "
                             f"{policy}({one.name}=...)")
        for bound in (one.low, one.high):
            if not domain.admits(bound):
                raise ValueError(f"--param {one.spec} leaves the domain of {policy}'s "
                                 f"{one.name}, {domain.describe()}: narrow the range")


def candidates(ranges: tuple[ParamRange, ...], n: int) -> list[dict[str, float]]:
    """Every combination of ``n`` values per range, the first range outermost."""
    names = [one.name for one in ranges]
    return [dict(zip(names, map(float, values), strict=True))
            for values in product(*(one.values(n) for one in ranges))]
