"""The registry of selection policies: one record per name, read by the CLI, study files,
the engines' parameter checks and the figure labels (``mctslab policies list``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .policies import KLUCB, UCB1, Thompson


@dataclass(frozen=True)
class PolicyInfo:
    """A policy's name, its typed parameter record (the compiled engines' dispatch key), the
    parameters a user may set, and how to name and cite it."""

    name: str
    record: type[NamedTuple]
    parameters: tuple[str, ...]
    label: str
    description: str
    citation: str

    @property
    def defaults(self) -> dict[str, float]:
        """The settable parameters and their default values."""
        return {key: self.record._field_defaults[key] for key in self.parameters}

    def to_dict(self) -> dict:
        return {"name": self.name, "params": self.defaults, "description": self.description,
                "citation": self.citation}


POLICIES: dict[str, PolicyInfo] = {
    info.name: info
    for info in (
        PolicyInfo("ucb1", UCB1, ("c",), "UCT (UCB1)",
                   "mean + c sqrt(ln t / T_i); unvisited children first",
                   "Auer, Cesa-Bianchi & Fischer 2002; seed 001, Eq. 1"),
        PolicyInfo("klucb", KLUCB, ("c",), "KL-UCB",
                   "largest q with T_i kl(mean, q) <= ln t + c ln ln t (Bernoulli kl)",
                   "Cappe, Garivier, Maillard, Munos & Stoltz 2013; seed 001, Eq. 2"),
        PolicyInfo("thompson", Thompson, (), "Thompson sampling",
                   "a draw from Beta(mean T_i + 1, (1 - mean) T_i + 1)",
                   "Thompson 1933; Chapelle & Li 2011; seed 001, Eq. 3"),
    )
}


def get_policy(name: str) -> PolicyInfo:
    """The registered policy ``name``; an unknown name is a one-line ValueError."""
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICIES)} "
                         "(see `mctslab policies list`)")
    return POLICIES[name]
