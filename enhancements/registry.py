"""The registry of threshold adjusters (seed 001, Sect. II-C and IV; DESIGN.md §5): one record
per name, read by the CLI, study files, the synthetic engine's configuration and the figure
labels (``mctslab adjusters list``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .thresholds import MAXFREQ, PLAIN, SCORE, STATIC, VALUE


@dataclass(frozen=True)
class AdjusterInfo:
    """An adjuster's name, its engine id, its parameters with their defaults, and two traits:
    ``reads_scores`` (it observes each playout's terminal score, so the engine must descend to
    a terminal even below a proven node) and ``restart`` (the exploration restart of Eqs. 6-8
    is on by default with it)."""

    name: str
    id: int
    label: str
    description: str
    citation: str
    defaults: dict = field(default_factory=dict)
    reads_scores: bool = False
    restart: bool = False

    def to_dict(self) -> dict:
        return {"name": self.name, "params": dict(self.defaults), "description": self.description,
                "citation": self.citation, "reads_scores": self.reads_scores,
                "restart": self.restart}


ADJUSTERS: dict[str, AdjusterInfo] = {
    info.name: info
    for info in (
        AdjusterInfo("plain", PLAIN, "Plain", "threshold 0 throughout",
                     "seed 001, Sect. V"),
        AdjusterInfo("static", STATIC, "Static",
                     "the tree's Static threshold, argmax Delta(theta) by exact analysis "
                     "(an oracle)", "seed 001, Sect. IV-A"),
        AdjusterInfo("score", SCORE, "Score",
                     "Score Situational dynamic komi: theta += rate * mean(score - theta)",
                     "Baudis 2011 (Pachi dynkomi); seed 001, Algorithm 1",
                     {"s": 0.2, "c": 24.0, "interval": 1}, reads_scores=True),
        AdjusterInfo("value", VALUE, "Value",
                     "Value Situational dynamic komi: theta -/+ 1 when the root's win rate "
                     "leaves [x_lo, x_hi], with a ratchet",
                     "Baudis 2011 (Pachi dynkomi); seed 001, Algorithm 2",
                     {"x_lo": 0.05, "x_hi": 0.9, "interval": 10}),
        AdjusterInfo("maxfreq", MAXFREQ, "MaxFrequency",
                     "theta = the most frequent playout score (+ offset), with the "
                     "exploration restart", "seed 001, Algorithm 3 and Eqs. 6-8",
                     {"offset": 0.0}, reads_scores=True, restart=True),
    )
}


def get_adjuster(name: str) -> AdjusterInfo:
    """The registered adjuster ``name``; an unknown name is a one-line ValueError."""
    if name not in ADJUSTERS:
        raise ValueError(f"unknown adjuster {name!r}: use one of {', '.join(ADJUSTERS)} "
                         "(see `mctslab adjusters list`)")
    return ADJUSTERS[name]
