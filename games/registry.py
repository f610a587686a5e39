"""The games by name."""

from __future__ import annotations

from functools import partial

from . import (
    amazons,
    breakthrough,
    cannon,
    cantstop,
    checkers,
    chinese_checkers,
    dominion,
    pentalath,
    pig,
)
from .protocol import Game
from .solitaire import SolitaireGame

GAMES: dict[str, Game | SolitaireGame] = {
    game.name: game
    for game in (
        Game("breakthrough", "Breakthrough 8x8", breakthrough, breakthrough.initial_state,
             breakthrough.MAX_ACTIONS),
        Game("checkers", "English checkers 8x8, draw after 40 moves without capture", checkers,
             checkers.initial_state, checkers.MAX_ACTIONS),
        Game("amazons", "Amazons 10x10", amazons, partial(amazons.initial_state, 10),
             amazons.max_actions(10)),
        Game("amazons8", "Amazons 8x8 (the seed's framework)", amazons,
             partial(amazons.initial_state, 8), amazons.max_actions(8)),
        Game("cannon", f"Cannon 10x10 (Whitcher 2003), draw after {cannon.DRAW_AFTER} plies "
             "without capture", cannon, cannon.initial_state, cannon.MAX_ACTIONS),
        Game("chinesecheckers", "Chinese Checkers for two, 73-cell star, 6 pieces each",
             chinese_checkers, chinese_checkers.initial_state, chinese_checkers.MAX_ACTIONS),
        Game("pentalath", "Pentalath, hexhex board of side 5", pentalath, pentalath.initial_state,
             pentalath.MAX_ACTIONS),
        SolitaireGame("pig", f"Pig solitaire, two dice, {pig.DEFAULT_TURNS} turns (seed 003)",
                      pig, pig.initial_state, pig.MAX_ACTIONS, ucb_c=100.0),
        SolitaireGame("cantstop", f"Can't Stop solitaire, {cantstop.DEFAULT_TURNS} turns "
                      "(seed 003)", cantstop, cantstop.initial_state, cantstop.MAX_ACTIONS,
                      ucb_c=300.0, cv_offline=77.0),
        SolitaireGame("dominion", "Dominion solitaire, First Game kingdom, "
                      f"{dominion.DEFAULT_TURNS} turns (seed 003)", dominion,
                      dominion.initial_state, dominion.MAX_ACTIONS, ucb_c=100.0, cv_offline=-0.7),
    )
}


def get_game(name: str) -> Game | SolitaireGame:
    """The game called ``name``; ``ValueError`` naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}") from None
