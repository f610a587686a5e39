"""OpenSpiel games behind the game protocol (optional extra ``openspiel``: ``pip install
mctslab[openspiel]``), so ``mcts.generic`` can search any sequential OpenSpiel game.

``load_openspiel("tic_tac_toe")`` (or ``"openspiel:tic_tac_toe"``, or with parameters as
``pyspiel.load_game`` reads them, e.g. ``"breakthrough(rows=6,columns=6)"``) gives an
``OpenSpielGame``; its states are ``OpenSpielState``: players 0 .. n-1, chance nodes as player
-1 with their ``chance_outcomes``, returns in the game's utility range. Simultaneous-move games
are refused (the protocol is sequential).
"""

from __future__ import annotations

PREFIX = "openspiel:"


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise ValueError("OpenSpiel is not installed: pip install 'mctslab[openspiel]'") from None
    return pyspiel


class OpenSpielState:
    """A position of an OpenSpiel game (owns its ``pyspiel.State``)."""

    def __init__(self, state):
        self.spiel_state = state

    def clone(self) -> OpenSpielState:
        return OpenSpielState(self.spiel_state.clone())

    def current_player(self) -> int:
        """The player to move, or -1 at a chance node (terminals: OpenSpiel's -4)."""
        return int(self.spiel_state.current_player())

    def legal_actions(self) -> list[int]:
        return list(self.spiel_state.legal_actions())

    def apply(self, action: int) -> None:
        """Play ``action`` (or a chance outcome) in place; ``ValueError`` if it is not legal."""
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal in this position; "
                             f"pick one of legal_actions()")
        self.spiel_state.apply_action(action)

    def child(self, action: int) -> OpenSpielState:
        state = self.clone()
        state.apply(action)
        return state

    def is_terminal(self) -> bool:
        return bool(self.spiel_state.is_terminal())

    def returns(self) -> tuple[float, ...]:
        return tuple(self.spiel_state.returns())

    def quality(self) -> float:
        raise ValueError("OpenSpiel games define no terminal quality; drop qb/quality from the "
                         "player spec")

    def chance_outcomes(self) -> list[tuple[int, float]] | None:
        """(outcome, probability) pairs at a chance node, else None."""
        if not self.spiel_state.is_chance_node():
            return None
        return [(int(a), float(p)) for a, p in self.spiel_state.chance_outcomes()]

    def action_to_string(self, action: int) -> str:
        return self.spiel_state.action_to_string(self.spiel_state.current_player(), action)

    def render(self) -> str:
        return str(self.spiel_state)

    __str__ = render


class OpenSpielGame:
    """An OpenSpiel game: its name, players, utility range and start."""

    def __init__(self, name: str):
        pyspiel = _pyspiel()
        self.name = name.removeprefix(PREFIX)
        if self.name.partition("(")[0] not in pyspiel.registered_names():
            raise ValueError(f"OpenSpiel has no game {self.name!r}; see "
                             f"pyspiel.registered_names()")
        try:
            self.spiel_game = pyspiel.load_game(self.name)
        except pyspiel.SpielError as error:
            raise ValueError(f"OpenSpiel cannot load {self.name!r}: "
                             f"{str(error).splitlines()[0]}") from None
        kind = self.spiel_game.get_type()
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError(f"OpenSpiel game {self.name!r} has simultaneous moves; "
                             f"choose a sequential game")
        self.title = f"{kind.long_name} (OpenSpiel)"
        self.num_players = self.spiel_game.num_players()
        self.min_utility = float(self.spiel_game.min_utility())
        self.max_utility = float(self.spiel_game.max_utility())

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self.spiel_game.new_initial_state())


def load_openspiel(name: str) -> OpenSpielGame:
    """The OpenSpiel game ``name`` (with or without the ``openspiel:`` prefix)."""
    return OpenSpielGame(name)
