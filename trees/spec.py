"""Tree specifications of seed 001, Sect. III: Constant(a, b), Constant'(a, b), Random(p, q).

A spec fixes how suboptimal moves are valued; branching factor, depth and the tree seed are
separate options (DESIGN.md §2). Specs are parsed from text through the model registry
(``trees.models``).
"""

from __future__ import annotations

from dataclasses import dataclass

MODELS = ("constant", "constant'", "random")
MAX_RANDOM_Q = 20


@dataclass(frozen=True)
class TreeSpec:
    """A tree model with its two integer parameters, e.g. ``TreeSpec("constant", 1, 5)``."""

    model: str
    first: int
    second: int

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"unknown tree model {self.model!r}: use one of {', '.join(MODELS)}")
        if self.model == "random":
            if self.first < 1 or not 0 <= self.second <= MAX_RANDOM_Q:
                raise ValueError(f"bad tree spec {self.text}: random(p,q) needs p >= 1 and "
                                 f"0 <= q <= {MAX_RANDOM_Q}")
        elif self.first < 1 or self.second < 1:
            raise ValueError(
                f"bad tree spec {self.text}: {self.model}(a,b) needs a >= 1 and b >= 1")

    @property
    def text(self) -> str:
        return f"{self.model}({self.first},{self.second})"

    def __str__(self) -> str:
        return self.text

    def suboptimal_value(self, ply: int, depth: int) -> int:
        """Value of every suboptimal move at ``ply`` in a constant tree (max moves at even
        plies)."""
        if self.model == "random":
            raise ValueError("random trees have no constant suboptimal value")
        if ply % 2 == 0:
            return -self.first
        if self.model == "constant'" and ply != depth - 1:
            return self.first
        return self.second

    def suboptimal_range(self, ply: int) -> tuple[int, int]:
        """Inclusive range of suboptimal move values at ``ply`` in a random tree."""
        if self.model != "random":
            raise ValueError("only random trees draw suboptimal values from a range")
        p, q = self.first, self.second
        return (-p, -1) if ply % 2 == 0 else (2**q, 2**q + p - 1)

