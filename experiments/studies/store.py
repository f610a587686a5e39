"""A study folder on disk: ``study.json`` and one Parquet file per finished shard.

Layout of a folder (``experiments.runtime.store``: every file written atomically)::

    study.json                 the study (seed, block size, curves) that owns the folder
    shards/<shard key>.parquet one row per budget: budget, failures, runs (+ keys)

A shard file carries its full configuration (curve as JSON, study seed, seed, shard key, runs)
and the engine's random-stream version (``mcts.STREAM_VERSION``; files from before it was
recorded are version 1) in the Parquet metadata under ``mctslab``; ``read_shard`` accepts a file
only if all of it matches the shard it is asked for under this version, so results of two
versions are never mixed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa

from mcts import STREAM_VERSION

from ..runtime.store import STUDY_FILE, KeyedStore, claim
from .shards import Shard

SHARD_FOLDER = "shards"
STUDY_KEYS = ("name", "seed", "block", "curves")  # what every study.json holds
_FIRST_RECORDED_VERSION = 1  # the version of files written before versions were recorded


def shard_store(folder: str | Path) -> KeyedStore:
    """The shards of the study in ``folder``, by shard key."""
    return KeyedStore(Path(folder) / SHARD_FOLDER)


def claim_folder(folder: str | Path, study: dict) -> Path:
    """Make ``folder`` the home of ``study`` (a ``Study.to_dict()``): create it and its
    ``study.json``, or check that the ``study.json`` already there describes the same study."""
    home = claim(
        folder, STUDY_FILE, study, read=read_study_file,
        refusal=lambda stored: (
            f"{folder} holds another study ({stored.get('name')!r}, seed {stored.get('seed')}):"
            f" choose another --out folder (if its shards are this study's, `mctslab study "
            f"repair {folder} --study STUDY.toml` makes the folder this study's)"),
        records=("plugins",))
    shard_store(home).check_writable()
    return home


def check_shard_paths(folder: str | Path, shards: list[Shard]) -> None:
    """Refuse, before anything is computed, a shard whose path is taken by something that is
    not a file (a folder): its result could not be stored."""
    for shard in shards:
        path = shard_path(folder, shard)
        if path.exists() and not path.is_file():
            raise ValueError(f"{path} is a folder, not a shard file: move it away or delete "
                             f"it (rm -r {path}), then run again")


def damaged(folder: str | Path, what: str) -> ValueError:
    """The error for a ``study.json`` that is ``what`` (unreadable, not a study): how to
    rebuild it from the stored shards, which are kept."""
    return ValueError(
        f"{Path(folder) / STUDY_FILE} is {what}: rebuild it from the stored shards with "
        f"`mctslab study repair {folder} --study STUDY.toml` (or without --study, from the "
        f"shards alone); every stored shard is kept")


def read_study_file(folder: str | Path) -> dict:
    """The study dictionary stored in ``folder/study.json``."""
    path = Path(folder) / STUDY_FILE
    if path.exists() and not path.is_file():
        raise damaged(folder, "not a file")
    if not path.is_file():
        raise ValueError(
            f"{folder} holds no study ({STUDY_FILE} is missing): "
            f"run `mctslab study run STUDY.toml --out {folder}` first"
        )
    try:
        study = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise damaged(folder, f"unreadable ({error})") from None
    if not isinstance(study, dict):
        raise damaged(folder, "not a study")
    missing = [key for key in STUDY_KEYS if key not in study]
    if missing:
        raise damaged(folder, f"damaged (no {missing[0]!r})")
    return study


def shard_path(folder: str | Path, shard: Shard) -> Path:
    return shard_store(folder).path(shard.key)


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


def stored_stream_version(folder: str | Path, shard: Shard) -> int | None:
    """The random-stream version of the file stored for ``shard`` when it holds this shard's
    configuration, else None (no file, unreadable, or another shard's)."""
    stored = shard_store(folder).read(shard.key)
    if stored is None or stored.metadata is None:
        return None
    version = stored.metadata.get("stream_version", _FIRST_RECORDED_VERSION)
    same = {**stored.metadata, "stream_version": STREAM_VERSION} == shard_metadata(shard)
    return version if same else None


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
    )
    return shard_store(folder).write(shard.key, table, shard_metadata(shard))


def read_shard(folder: str | Path, shard: Shard) -> np.ndarray | None:
    """The failure counts (int64 [n_budgets]) stored for ``shard``, or None when its file is
    missing, unreadable, or not exactly this shard's (other key or configuration, another
    random-stream version, wrong rows)."""
    table = shard_store(folder).read_matching(
        shard.key, shard_metadata(shard), defaults={"stream_version": _FIRST_RECORDED_VERSION})
    budgets = np.asarray(shard.curve.budgets, dtype=np.int64)
    if table is None or table.num_rows != budgets.size:
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
    return shard_store(folder).remove_temporary_files()
