"""The Python-level game protocol (for humans, tests and tools) and its wrapper of the rules.

``Game`` names one set of compiled rules (``games.compiled``) and makes positions; ``State`` is a
position that checks its inputs, so scripts and tests cannot break the rules' invariants (an
illegal action is a ``ValueError``, not a corrupted array). Search engines use the arrays and
``games.compiled`` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Protocol

import numpy as np

from . import compiled
from .rules import RulesKey, rules_key


class GameState(Protocol):
    """What every game position offers (players 0 and 1; returns from player 0's seat first)."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[float, float]: ...
    def quality(self) -> float: ...
    def chance_outcomes(self) -> list[tuple[int, float]] | None: ...
    def render(self) -> str: ...


@dataclass(frozen=True)
class Game:
    """A game: its compiled rules module (checked against ``games.rules.GAME_RULES`` here;
    ``game_id`` is its key for ``games.compiled``) and its start."""

    name: str
    title: str
    rules: ModuleType
    make_initial: Callable[[], np.ndarray]
    max_actions: int  # size of the ``out`` buffer of legal_actions
    game_id: RulesKey = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "game_id", rules_key(self.rules, "game"))

    def initial_array(self) -> np.ndarray:
        return self.make_initial()

    def new_initial_state(self) -> State:
        return State(self, self.make_initial())

    def from_board(self, rows: list[str], to_move: int = 0, **options) -> State:
        """A scripted position: rows of the piece letters ``render`` uses, top row first."""
        return State(self, self.rules.from_board(rows, to_move, **options))


class Position:
    """What the checked positions of every kind of game share: the game, the array it owns
    (callers pass a copy they won't touch), an action buffer, and moves as text."""

    def __init__(self, game, array: np.ndarray):
        self.game = game
        self.array = array
        self._buffer = np.empty(game.max_actions, dtype=np.int64)

    def clone(self):
        return type(self)(self.game, self.array.copy())

    def child(self, action: int):
        """A copy with ``action`` applied."""
        state = self.clone()
        state.apply(action)
        return state

    def action_to_string(self, action: int) -> str:
        return self.game.rules.action_to_string(self.array, action)

    def string_to_action(self, text: str) -> int:
        """The legal action written ``text`` (as ``action_to_string`` writes it)."""
        for action in self.legal_actions():
            if self.action_to_string(action) == text:
                return action
        raise ValueError(f"{text!r} is not a legal {self.game.name} move here; "
                         f"legal: {', '.join(map(self.action_to_string, self.legal_actions()))}")

    def render(self) -> str:
        return self.game.rules.render(self.array)

    def __str__(self) -> str:
        return self.render()


class State(Position):
    """A position of a two-player deterministic ``game`` (``games.compiled``)."""

    def current_player(self) -> int:
        return int(compiled.current_player(self.game.game_id, self.array))

    def legal_actions(self) -> list[int]:
        n = compiled.legal_actions(self.game.game_id, self.array, self._buffer)
        return self._buffer[:n].tolist()

    def apply(self, action: int) -> None:
        """Play ``action`` in place; ``ValueError`` if it is not legal here."""
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal in this {self.game.name} position; "
                             f"pick one of legal_actions()")
        compiled.apply_action(self.game.game_id, self.array, action)

    def is_terminal(self) -> bool:
        return bool(compiled.is_terminal(self.game.game_id, self.array))

    def winner(self) -> int:
        """0 or 1, or -1 for a draw; ``ValueError`` before the end."""
        self._require_terminal("winner")
        return int(compiled.winner(self.game.game_id, self.array))

    def returns(self) -> tuple[float, float]:
        """(+1, -1), (-1, +1) or (0, 0) at a terminal; (0, 0) while playing."""
        if not self.is_terminal():
            return (0.0, 0.0)
        w = self.winner()
        return (0.0, 0.0) if w < 0 else ((1.0, -1.0) if w == 0 else (-1.0, 1.0))

    def quality(self) -> float:
        """q of a terminal for its winner, higher is better (seed 000 Sect. 3.2 with the
        framework's normalisers of DESIGN §9: in [-1, 1], Amazons' mobility / 16 beyond)."""
        self._require_terminal("quality")
        return float(compiled.quality(self.game.game_id, self.array))

    def chance_outcomes(self) -> None:
        """None: these games are deterministic."""
        return

    def _require_terminal(self, what: str) -> None:
        if not self.is_terminal():
            raise ValueError(f"{what} is defined only at the end of a game; play on to a terminal")
