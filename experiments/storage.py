"""A study folder on disk: ``study.json`` and one Parquet file per finished shard.

Layout of a folder::

    study.json                 the study (seed, block size, curves) that owns the folder
    shards/<shard key>.parquet one row per budget: budget, failures, runs (+ keys)

Every file is written to a temporary file in its own folder and moved into place with
``os.replace``, so a reader sees either nothing or a whole file. A shard file carries its full
configuration (curve as JSON, study seed, seed, shard key, runs) and the engine's random-stream
version (``mcts.STREAM_VERSION``; files from before it was recorded are version 1) in the
Parquet metadata under ``mctslab``; ``read_shard`` accepts a file only if all of it matches the
shard it is asked for under this version, so results of two versions are never mixed.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from mcts import STREAM_VERSION

from .shards import Shard

STUDY_FILE = "study.json"
SHARD_FOLDER = "shards"
_META_KEY = b"mctslab"
_TEMPORARY = ".tmp"
_FIRST_RECORDED_VERSION = 1  # the version of files written before versions were recorded


def _write_atomically(path: Path, write) -> None:
    """Call ``write(binary_file)`` on a temporary file beside ``path``, then move it there."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=_TEMPORARY, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def claim_folder(folder: str | Path, study: dict) -> Path:
    """Make ``folder`` the home of ``study`` (a ``Study.to_dict()``): create it and its
    ``study.json``, or check that the ``study.json`` already there describes the same study."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder} is a file, not a folder: choose a folder name")
    text = json.dumps(study, indent=1, sort_keys=True) + "\n"
    if (folder / STUDY_FILE).exists():
        stored = read_study_file(folder)
        if stored != json.loads(text):
            raise ValueError(
                f"{folder} holds another study ({stored.get('name')!r}, seed {stored.get('seed')}):"
                f" choose another --out folder, or delete {folder} to start over"
            )
    else:
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomically(folder / STUDY_FILE, lambda file: file.write(text.encode()))
    (folder / SHARD_FOLDER).mkdir(exist_ok=True)
    return folder


def read_study_file(folder: str | Path) -> dict:
    """The study dictionary stored in ``folder/study.json``."""
    path = Path(folder) / STUDY_FILE
    if not path.is_file():
        raise ValueError(
            f"{folder} holds no study ({STUDY_FILE} is missing): "
            f"run `mctslab study run STUDY.toml --out {folder}` first"
        )
    try:
        study = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(
            f"{path} is unreadable ({error}): delete {folder} and run the study again"
        ) from None
    if not isinstance(study, dict):
        raise ValueError(f"{path} is not a study: delete {folder} and run the study again")
    return study


def shard_path(folder: str | Path, shard: Shard) -> Path:
    return Path(folder) / SHARD_FOLDER / f"{shard.key}.parquet"


def shard_metadata(shard: Shard) -> dict:
    """Everything needed to recompute ``shard``, as stored in its file."""
    return {
        "shard_key": shard.key,
        "curve": shard.curve.to_dict(),
        "study_seed": shard.study_seed,
        "seed": shard.seed,
        "tree_index": shard.tree_index,
        "block": shard.block,
        "first_run": shard.first_run,
        "n_runs": shard.n_runs,
        "stream_version": STREAM_VERSION,
    }


def _stored_metadata(path: Path) -> tuple[pa.Table, dict] | None:
    try:
        table = pq.read_table(path)
        metadata = json.loads(table.schema.metadata[_META_KEY])
    except (OSError, KeyError, TypeError, ValueError, pa.ArrowException):
        return None
    if not isinstance(metadata, dict):
        return None
    metadata.setdefault("stream_version", _FIRST_RECORDED_VERSION)
    return table, metadata


def stored_stream_version(folder: str | Path, shard: Shard) -> int | None:
    """The random-stream version of the file stored for ``shard`` when it holds this shard's
    configuration, else None (no file, unreadable, or another shard's)."""
    stored = _stored_metadata(shard_path(folder, shard))
    if stored is None:
        return None
    metadata = {**stored[1], "stream_version": STREAM_VERSION}
    return stored[1]["stream_version"] if metadata == shard_metadata(shard) else None


def write_shard(folder: str | Path, shard: Shard, failures: np.ndarray) -> Path:
    """Store the failure counts of ``shard`` (int [n_budgets]) atomically; return the path."""
    budgets = shard.curve.budgets
    n = len(budgets)
    table = pa.table(
        {
            "shard_key": pa.array([shard.key] * n, pa.string()),
            "curve_key": pa.array([shard.curve.key] * n, pa.string()),
            "tree_index": pa.array([shard.tree_index] * n, pa.int32()),
            "budget": pa.array(budgets, pa.int64()),
            "failures": pa.array(np.asarray(failures, dtype=np.int64), pa.int64()),
            "runs": pa.array([shard.n_runs] * n, pa.int64()),
        }
    ).replace_schema_metadata({_META_KEY: json.dumps(shard_metadata(shard), sort_keys=True)})
    path = shard_path(folder, shard)
    _write_atomically(path, lambda file: pq.write_table(table, file))
    return path


def read_shard(folder: str | Path, shard: Shard) -> np.ndarray | None:
    """The failure counts (int64 [n_budgets]) stored for ``shard``, or None when its file is
    missing, unreadable, or not exactly this shard's (other key or configuration, another
    random-stream version, wrong rows)."""
    stored = _stored_metadata(shard_path(folder, shard))
    if stored is None:
        return None
    table, metadata = stored
    budgets = np.asarray(shard.curve.budgets, dtype=np.int64)
    if metadata != shard_metadata(shard) or table.num_rows != budgets.size:
        return None
    try:
        columns = {name: table.column(name).to_numpy() for name in ("budget", "failures", "runs")}
    except (KeyError, pa.ArrowException):
        return None
    failures = columns["failures"].astype(np.int64)
    valid = (
        np.array_equal(columns["budget"], budgets)
        and np.all(columns["runs"] == shard.n_runs)
        and np.all((failures >= 0) & (failures <= shard.n_runs))
    )
    return failures if valid else None


def remove_temporary_files(folder: str | Path) -> int:
    """Delete the temporary files an interrupted run left in ``folder``; return how many."""
    leftovers = list((Path(folder) / SHARD_FOLDER).glob(f".*{_TEMPORARY}"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    return len(leftovers)


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a results table atomically, as Parquet or CSV by the file's suffix."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        _write_atomically(path, lambda file: frame.to_parquet(file, index=False))
    elif path.suffix == ".csv":
        _write_atomically(path, lambda file: file.write(frame.to_csv(index=False).encode()))
    else:
        raise ValueError(f"{path}: use a .parquet or .csv file name")
    return path
