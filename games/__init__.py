"""Real games for the search engines: compiled rules (numba) behind a small protocol.

``games.compiled`` is the nopython interface for engines; ``Game``/``State`` the checked
Python-level one; ``GAMES``/``get_game`` the registry; ``perft`` counts move sequences. Compiled
kernels draw random numbers from ``bandits.rng`` (one ``seed_state(seed)`` array per run).
"""

from . import compiled
from .perft import perft
from .protocol import Game, GameState, State
from .registry import GAMES, get_game

__all__ = ["GAMES", "Game", "GameState", "State", "compiled", "get_game", "perft"]
