"""A tournament folder on disk: ``tournament.json`` and one Parquet file per finished block.

Layout (``experiments.runtime.store``: every file written atomically, so a reader sees a whole block
or none)::

    tournament.json              the tournament's identity (game, specs, playouts, seed, block)
    blocks/<block key>.parquet   one row per game: game, a_seat, winner, a_score, plies

The number of games is not part of the identity: a game's seeds depend on its index only, so a
folder grows (more games reuse the stored ones) and a smaller tournament reads the first games
of a larger one. A block file carries the identity, the block's index and first game in the
Parquet metadata under ``mctslab``, with the game engine's random-stream version
(``mcts.games.GAME_STREAM_VERSION``; blocks from before it was recorded are version 1);
``read_block`` accepts it only if they match and its rows are consecutive games from the
block's first, and returns those the block asks for (all of them, or the first part a smaller
tournament stored).
Folders and blocks of the earlier layout, whose identity also held the number of games, read
the same way.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mcts.games import GAME_STREAM_VERSION

from ..runtime.store import TOURNAMENT_FILE, KeyedStore, claim, read_manifest

BLOCK_FOLDER = "blocks"


def block_store(folder: str | Path) -> KeyedStore:
    """The blocks of the tournament in ``folder``, by block key."""
    return KeyedStore(Path(folder) / BLOCK_FOLDER)


def _identity(tournament: dict) -> dict:
    """A tournament's dict without its number of games (which earlier layouts stored)."""
    return {key: value for key, value in tournament.items() if key != "games"}


def _read_manifest(folder: Path) -> dict | None:
    stored = read_manifest(folder, TOURNAMENT_FILE)
    return _identity(stored) if isinstance(stored, dict) else stored


def claim_tournament_folder(folder: str | Path, tournament: dict) -> Path:
    """Make ``folder`` the home of ``tournament`` (a ``Tournament.to_dict()``: any number of
    games), or check that it already is and that blocks can be written in it; remove
    temporary files that runs now gone left."""
    home = claim(folder, TOURNAMENT_FILE, _identity(tournament), read=_read_manifest,
                 refusal=lambda _: (f"{folder} holds another tournament (other players, "
                                    f"playouts, seed or block): choose another --out folder, "
                                    f"or delete {folder} to start over"))
    block_store(home).check_writable()  # before any game is played
    block_store(home).remove_temporary_files()
    return home


def block_path(folder: str | Path, block) -> Path:
    return block_store(folder).path(block.key)


def write_block(folder: str | Path, tournament: dict, block, results: pd.DataFrame) -> Path:
    """Store the games of ``block`` (a ``play_block`` table, from its first game) atomically;
    return the path."""
    metadata = {"tournament": _identity(tournament), "block": block.index,
                "first": block.first, "count": len(results), "stream_version": GAME_STREAM_VERSION}
    return block_store(folder).write(block.key, results, metadata)


def read_block(folder: str | Path, tournament: dict, block) -> pd.DataFrame | None:
    """The stored games of ``block`` (at most ``block.count``, from its first), or None if its
    file is missing, unreadable, another tournament's or of another random-stream version."""
    stored = block_store(folder).read(block.key)
    if stored is None or stored.metadata is None:
        return None
    meta = stored.metadata
    if (not isinstance(meta.get("tournament"), dict)
            or _identity(meta["tournament"]) != _identity(tournament)
            or (meta.get("block"), meta.get("first")) != (block.index, block.first)
            or meta.get("stream_version", 1) != GAME_STREAM_VERSION):
        return None
    results = stored.table.to_pandas()
    if "game" not in results or len(results) != meta.get("count"):
        return None
    if results["game"].tolist() != list(range(block.first, block.first + len(results))):
        return None
    return results.iloc[:block.count].reset_index(drop=True)
