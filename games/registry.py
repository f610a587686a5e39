"""The games by name."""

from __future__ import annotations

from functools import partial

from . import amazons, breakthrough, checkers, compiled
from .protocol import Game

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("breakthrough", "Breakthrough 8x8", compiled.BREAKTHROUGH, breakthrough,
             breakthrough.initial_state, breakthrough.MAX_ACTIONS),
        Game("checkers", "English checkers 8x8, draw after 40 moves without capture",
             compiled.CHECKERS, checkers, checkers.initial_state, checkers.MAX_ACTIONS),
        Game("amazons", "Amazons 10x10", compiled.AMAZONS, amazons,
             partial(amazons.initial_state, 10), amazons.max_actions(10)),
        Game("amazons8", "Amazons 8x8 (the seed's framework)", compiled.AMAZONS, amazons,
             partial(amazons.initial_state, 8), amazons.max_actions(8)),
    )
}


def get_game(name: str) -> Game:
    """The game called ``name``; ``ValueError`` naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}") from None
