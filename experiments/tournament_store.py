"""A tournament folder on disk: ``tournament.json`` and one Parquet file per finished block.

Layout::

    tournament.json              the tournament (game, specs, games, playouts, seed, block)
    blocks/<block key>.parquet   one row per game: game, a_seat, winner, a_score, plies

Files are written atomically (``storage._write_atomically``: a temporary file moved into place),
so a reader sees a whole block or none. A block file carries the tournament and its block in the
Parquet metadata under ``mctslab``; ``read_block`` accepts it only if both match and its rows are
the block's games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .storage import _write_atomically

TOURNAMENT_FILE = "tournament.json"
BLOCK_FOLDER = "blocks"
_META_KEY = b"mctslab"


def claim_tournament_folder(folder: str | Path, tournament: dict) -> Path:
    """Make ``folder`` the home of ``tournament`` (a ``Tournament.to_dict()``), or check that
    it already is; remove temporary files an interrupted run left."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder} is a file, not a folder: choose a folder name")
    path = folder / TOURNAMENT_FILE
    if path.exists():
        try:
            stored = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            stored = None
        if stored != tournament:
            raise ValueError(f"{folder} holds another tournament: choose another --out folder, "
                             f"or delete {folder} to start over")
    else:
        folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(tournament, indent=1, sort_keys=True) + "\n"
        _write_atomically(path, lambda file: file.write(text.encode()))
    (folder / BLOCK_FOLDER).mkdir(exist_ok=True)
    for leftover in (folder / BLOCK_FOLDER).glob(".*.tmp"):
        leftover.unlink(missing_ok=True)
    return folder


def block_path(folder: str | Path, block) -> Path:
    return Path(folder) / BLOCK_FOLDER / f"{block.key}.parquet"


def _metadata(tournament: dict, block) -> dict:
    return {"tournament": tournament, "block": block.index, "first": block.first,
            "count": block.count}


def write_block(folder: str | Path, tournament: dict, block, results: pd.DataFrame) -> Path:
    """Store the games of ``block`` (a ``play_block`` table) atomically; return the path."""
    table = pa.Table.from_pandas(results, preserve_index=False).replace_schema_metadata(
        {_META_KEY: json.dumps(_metadata(tournament, block), sort_keys=True)})
    path = block_path(folder, block)
    _write_atomically(path, lambda file: pq.write_table(table, file))
    return path


def read_block(folder: str | Path, tournament: dict, block) -> pd.DataFrame | None:
    """The stored games of ``block``, or None if its file is missing, unreadable or another's."""
    try:
        table = pq.read_table(block_path(folder, block))
        metadata = json.loads(table.schema.metadata[_META_KEY])
        results = table.to_pandas()
    except (OSError, KeyError, TypeError, ValueError, pa.ArrowException):
        return None
    if metadata != _metadata(tournament, block) or "game" not in results:
        return None
    if results["game"].tolist() != list(range(block.first, block.first + block.count)):
        return None
    return results
