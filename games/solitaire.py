"""The Python-level protocol of the one-player chance games (seed 003): ``SolitaireGame`` and
its checked ``SolitaireState``, the counterparts of ``Game``/``State`` for ``games.chance``.

Chance nodes follow OpenSpiel: ``current_player()`` is ``CHANCE`` there, ``chance_outcomes()``
lists (outcome, probability) and ``apply(outcome)`` resolves them. ``returns()`` is the one
player's score so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from . import chance
from .protocol import Position
from .rules import RulesKey, rules_key

CHANCE = -1


@dataclass(frozen=True)
class SolitaireGame:
    """A one-player chance game: its rules module (checked against ``games.rules.CHANCE_RULES``;
    ``game_id`` is its key for ``games.chance``), its start, the
    UCB constant of seed 003 (Sect. 4.3) for point-scale returns and the offline control-variate
    coefficient c used while T_{s,a} < 50 (Sect. 4.2: 6.0 Pig, -0.7 Dominion; Can't Stop's 77
    is measured on our score scale, see ``games.cantstop``; pass it as
    ``StochasticConfig.cv_offline``)."""

    name: str
    title: str
    rules: ModuleType
    make_initial: Callable[[], np.ndarray]
    max_actions: int  # size of the ``out`` buffer of legal_actions (actions or outcomes)
    ucb_c: float
    cv_offline: float = 6.0
    players: int = 1
    game_id: RulesKey = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "game_id", rules_key(self.rules, "chance"))

    def initial_array(self) -> np.ndarray:
        return self.make_initial()

    def new_initial_state(self) -> SolitaireState:
        return SolitaireState(self, self.make_initial())

    def state(self, array: np.ndarray) -> SolitaireState:
        """A checked wrapper of ``array`` (copied)."""
        return SolitaireState(self, np.asarray(array, dtype=np.int64).copy())


class SolitaireState(Position):
    """A position of a one-player chance ``game`` (``games.chance``)."""

    def is_chance_node(self) -> bool:
        return chance.n_outcomes(self.game.game_id, self.array) > 0

    def current_player(self) -> int:
        """0, or ``CHANCE`` at a chance node."""
        return CHANCE if self.is_chance_node() else 0

    def legal_actions(self) -> list[int]:
        """The actions, or at a chance node the outcomes; [] at the end."""
        n = chance.legal_actions(self.game.game_id, self.array, self._buffer)
        return self._buffer[:n].tolist()

    def chance_outcomes(self) -> list[tuple[int, float]] | None:
        """(outcome, probability) at a chance node (equiprobable), None elsewhere."""
        n = chance.n_outcomes(self.game.game_id, self.array)
        return [(o, 1.0 / n) for o in range(n)] if n > 0 else None

    def apply(self, action: int) -> None:
        """Play an action, or resolve a chance node by an outcome; ``ValueError`` if illegal."""
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not legal in this {self.game.name} position; "
                             f"pick one of legal_actions()")
        if self.is_chance_node():
            chance.apply_outcome(self.game.game_id, self.array, action)
        else:
            chance.apply_action(self.game.game_id, self.array, action)

    def is_terminal(self) -> bool:
        return bool(chance.is_terminal(self.game.game_id, self.array))

    def score(self) -> float:
        return float(chance.score(self.game.game_id, self.array))

    def returns(self) -> tuple[float]:
        """(score so far,): the final score at a terminal."""
        return (self.score(),)

    def quality(self) -> float:
        raise ValueError(f"{self.game.name} is a one-player game with a score; quality "
                         f"(seed 000) is for two-player games: use returns()")
