"""One game between two MCTS players, each searching a fixed number of playouts per move.

Every move is a fresh search (statistics, MAST table and bonus statistics reset between moves,
seed 000 Sect. 4.2) seeded from ``rng``, as are chance outcomes (OpenSpiel games), so a game is a
function of its players, playouts and seed. Games: the two-player games of ``games.GAMES``, or
``openspiel:NAME`` for a two-player OpenSpiel game (searched by ``mcts.generic``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from games import Game, get_game
from games.openspiel import PREFIX, load_openspiel
from mcts.players import Player


@dataclass(frozen=True)
class GameRecord:
    """How a game ended: ``winner`` the seat (0 or 1) that won, -1 a draw; ``plies`` moves."""

    winner: int
    plies: int


def load_game(name: str):
    """The two-player game ``name`` (``openspiel:NAME`` for OpenSpiel's); ``ValueError`` for an
    unknown or a one-player game."""
    game = load_openspiel(name) if name.startswith(PREFIX) else get_game(name)
    if not isinstance(game, Game) and getattr(game, "num_players", None) != 2:
        raise ValueError(f"{name} is not a two-player game; play and tournament need one "
                         f"(see `mctslab games list`, or openspiel:NAME)")
    return game


def play_game(game, players: tuple[Player, Player], playouts: int, rng: np.random.Generator,
              on_move: Callable | None = None) -> GameRecord:
    """Play ``players[0]`` (first to move) against ``players[1]`` from the start; ``on_move``
    is called with the position before each move, the seat to move and its search's result."""
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        outcomes = state.chance_outcomes()
        if outcomes is not None:
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            continue
        seat = state.current_player()
        result = players[seat].search(game, state, playouts, int(rng.integers(2**63)))
        if on_move is not None:
            on_move(state, seat, result)
        state.apply(result.action)
        plies += 1
    returns = state.returns()
    return GameRecord(-1 if returns[0] == returns[1] else int(np.argmax(returns)), plies)
