"""Where a game tuning keeps its games (``experiments.tuning.games``): ``tuning.json`` holds its
identity, ``blocks/`` one Parquet file per block of pairs (``experiments.runtime.store``); a
block is reused only when it holds the games of exactly the pairs and constants asked for."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from mcts.players import parse_player

from ..runtime.store import GAME_TUNING_FILE, KeyedStore, claim, read_manifest
from .game_parameter import Tuned

BLOCK_FOLDER = "blocks"
COLUMNS = ("round", "pair", "game", "constant", "seat", "winner", "score", "plies")


def tuning_identity(game: str, tuned: Tuned, against: str, low: float, high: float, log: bool,
              playouts: int, games: int, rounds: int, seed: int) -> dict:
    return {"game": game, "player": tuned.spec, "against": parse_player(against, game).spec,
            "low": float(low), "high": float(high), "log": bool(log), "playouts": playouts,
            "games": games, "rounds": rounds, "seed": seed}


def claim_tuning(folder: Path, tuning: dict) -> KeyedStore:
    """Make ``folder`` the tuning's home, or check that it is; another tuning's is refused in
    one line naming the first field that differs."""
    def refusal(stored) -> str:
        key = next(key for key in sorted({*stored, *tuning}) if stored.get(key) != tuning.get(key))
        return (f"{folder} holds another tuning ({key} {stored.get(key)!r}, not "
                f"{tuning.get(key)!r}): choose another --out folder, or delete {folder} to "
                "start over")

    claim(folder, GAME_TUNING_FILE, tuning, refusal=refusal,
          read=lambda home: read_manifest(home, GAME_TUNING_FILE))
    store = KeyedStore(folder / BLOCK_FOLDER)
    store.check_writable()
    store.remove_temporary_files()
    return store


def stored_block(store: KeyedStore | None, key: str, metadata: dict,
            pairs: Sequence[tuple[int, float]]) -> pd.DataFrame | None:
    """The block stored under ``key`` if it was written with ``metadata`` and holds the games
    of exactly ``pairs``, with their constants."""
    table = None if store is None else store.read_matching(key, metadata)
    if table is None:
        return None
    games = table.to_pandas()
    per_game = [pair for pair in pairs for _ in range(2)]  # (pair, constant), two games each
    if (list(games.columns) != list(COLUMNS) or games["pair"].tolist() != [p for p, _ in per_game]
            or games["constant"].tolist() != [float(c) for _, c in per_game]):
        return None
    return games
