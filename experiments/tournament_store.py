"""A tournament folder on disk: ``tournament.json`` and one Parquet file per finished block.

Layout (``experiments.store``: every file written atomically, so a reader sees a whole block
or none)::

    tournament.json              the tournament (game, specs, games, playouts, seed, block)
    blocks/<block key>.parquet   one row per game: game, a_seat, winner, a_score, plies

A block file carries the tournament and its block in the Parquet metadata under ``mctslab``;
``read_block`` accepts it only if both match and its rows are the block's games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .store import TOURNAMENT_FILE, KeyedStore, claim

BLOCK_FOLDER = "blocks"


def block_store(folder: str | Path) -> KeyedStore:
    """The blocks of the tournament in ``folder``, by block key."""
    return KeyedStore(Path(folder) / BLOCK_FOLDER)


def _read_manifest(folder: Path) -> dict | None:
    try:
        return json.loads((folder / TOURNAMENT_FILE).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def claim_tournament_folder(folder: str | Path, tournament: dict) -> Path:
    """Make ``folder`` the home of ``tournament`` (a ``Tournament.to_dict()``), or check that
    it already is and that blocks can be written in it; remove temporary files that runs now
    gone left."""
    home = claim(folder, TOURNAMENT_FILE, tournament, read=_read_manifest,
                 refusal=lambda _: (f"{folder} holds another tournament: choose another --out "
                                    f"folder, or delete {folder} to start over"))
    block_store(home).check_writable()  # before any game is played
    block_store(home).remove_temporary_files()
    return home


def block_path(folder: str | Path, block) -> Path:
    return block_store(folder).path(block.key)


def _metadata(tournament: dict, block) -> dict:
    return {"tournament": tournament, "block": block.index, "first": block.first,
            "count": block.count}


def write_block(folder: str | Path, tournament: dict, block, results: pd.DataFrame) -> Path:
    """Store the games of ``block`` (a ``play_block`` table) atomically; return the path."""
    return block_store(folder).write(block.key, results, _metadata(tournament, block))


def read_block(folder: str | Path, tournament: dict, block) -> pd.DataFrame | None:
    """The stored games of ``block``, or None if its file is missing, unreadable or another's."""
    table = block_store(folder).read_matching(block.key, _metadata(tournament, block))
    if table is None:
        return None
    results = table.to_pandas()
    if "game" not in results:
        return None
    if results["game"].tolist() != list(range(block.first, block.first + block.count)):
        return None
    return results
