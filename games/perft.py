"""Perft: the number of move sequences of a given length, the standard test of move generators."""

from __future__ import annotations

from . import compiled
from .protocol import Game, State
from .registry import get_game


def perft(game: Game | str, depth: int, state: State | None = None) -> int:
    """Whole moves (an Amazons move is queen move + arrow; a checkers jump sequence is one move)
    from ``state`` (default: the start) to ``depth`` plies; ``perft(game, 0) == 1``."""
    if isinstance(game, str):
        game = get_game(game)
    if not isinstance(game, Game):
        raise ValueError(f"perft counts moves of the two-player games; {game.name} is a dice "
                         f"game: pick one of the others in `mctslab games list`")
    if depth < 0:
        raise ValueError(f"perft depth {depth} is negative; use --depth 0 or more")
    array = (state.array if state is not None else game.initial_array()).copy()
    return int(compiled.perft(game.game_id, array, depth, game.max_actions))
