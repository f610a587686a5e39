"""The compiled engine for the two-player games, one search per call (``engine``), with its
tree (``game_tree``), playout policies (``playouts``: uniform, the game's, MAST) and per-game
defaults (``presets``).
"""

from .engine import (
    DEFAULT,
    DRAW,
    GAME_STREAM_VERSION,
    LOSS,
    ONLINE,
    UNPROVEN,
    WARMUP,
    WIN,
    GameSearchConfig,
    SearchResult,
    search,
)

__all__ = ["DEFAULT", "DRAW", "GAME_STREAM_VERSION", "LOSS", "ONLINE", "UNPROVEN", "WARMUP", "WIN",
           "GameSearchConfig", "SearchResult", "search"]
