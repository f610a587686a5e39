"""Real games for the search engines: compiled rules (numba) behind a small protocol.

``games.compiled`` is the nopython interface for engines; ``Game``/``State`` the checked
Python-level one; ``games.chance`` and ``SolitaireGame``/``SolitaireState`` the same for the
one-player chance games (seed 003); ``GAMES``/``get_game`` the registry; ``perft`` counts move
sequences. Compiled kernels draw random numbers from ``bandits.rng`` (one ``seed_state(seed)``
array per run).
"""

import bandits.kernel_cache  # noqa: F401  (first: where the kernels below are cached)

from . import chance, compiled
from .perft import perft
from .protocol import Game, GameState, State
from .registry import GAMES, get_game
from .solitaire import CHANCE, SolitaireGame, SolitaireState

__all__ = ["CHANCE", "GAMES", "Game", "GameState", "SolitaireGame", "SolitaireState", "State",
           "chance", "compiled", "get_game", "perft"]
