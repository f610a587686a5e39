"""The one store of results on disk: tables under string keys, each written atomically.

Study shards (``experiments.studies.store``), tournament blocks
(``experiments.tournaments.store``) and the points of the stochastic-game study
(``papers.veness.run``) are all kept this way::

    <folder>/<manifest>.json   what owns the folder (a study, a comparison, a tournament), JSON
    <folder>/<sub>/<key>.parquet one table per key, its metadata under ``mctslab``

Every file is written to a temporary file beside its place (``.<name>.<host>-<pid>.<random>.tmp``,
named after the process that writes it) and moved there with ``os.replace``, so a reader sees
either nothing or a whole file, and a run killed at any moment leaves at most temporary files.
Only their owner removes them, or a later run once the owner is gone
(``KeyedStore.remove_temporary_files``). Files get the permissions of the user's umask (0644
under umask 0022), as any file the user's programs create. A table's
metadata is a JSON object stored in the Parquet schema under the key ``mctslab``; a reader asks
for the table only together with the metadata it expects (``KeyedStore.read_matching``), so
the results of another configuration are never mixed in.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .lock import LOCK_FILE

META_KEY = b"mctslab"
# The file that makes a folder the home of a study, a comparison, a tournament (a pairing's),
# a round robin, a plain bandits' study or a tuning, and what it is called in messages: a
# folder holds one kind (``claim``)
STUDY_FILE, CELLS_FILE, TOURNAMENT_FILE = "study.json", "cells.json", "tournament.json"
ROUND_ROBIN_FILE, BANDIT_FILE, TUNE_FILE = "round_robin.json", "bandit.json", "tune.json"
GAME_TUNING_FILE = "tuning.json"
FOLDER_KINDS = {STUDY_FILE: "a study", CELLS_FILE: "a comparison",
                TOURNAMENT_FILE: "a tournament", ROUND_ROBIN_FILE: "a round robin",
                BANDIT_FILE: "a bandit study", TUNE_FILE: "a tuning",
                GAME_TUNING_FILE: "a game's tuning"}
TEMPORARY = ".tmp"
# .<name>.<host>-<pid>.<8 hex digits>.tmp; older versions wrote .<name>.<8 random chars>.tmp
_OWNED = re.compile(r"^\..+\.(?P<host>[^.]*)-(?P<pid>[0-9]+)\.[0-9a-f]{8}\.tmp$")


def _host() -> str:
    """This machine's name as temporary files carry it (no dots)."""
    return socket.gethostname().split(".")[0] or "localhost"


def _temporary_file(path: Path) -> tuple[int, Path]:
    """A new temporary file beside ``path`` named after this process, opened for writing with
    the umask's permissions."""
    while True:
        temporary = path.with_name(
            f".{path.name}.{_host()}-{os.getpid()}.{secrets.token_hex(4)}{TEMPORARY}")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                           0o666), temporary
        except FileExistsError:
            continue


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def is_stale(temporary: Path) -> bool:
    """Whether a temporary file's owner is gone: a process of this host that no longer runs,
    or a version that did not name the owner (its writer holds no lock, so it is long gone
    when a locked run looks). Another host's files are left to it."""
    owned = _OWNED.match(temporary.name)
    if owned is None:
        return True
    return owned["host"] == _host() and not _alive(int(owned["pid"]))


def check_writable(folder: str | Path) -> Path:
    """Create ``folder`` (and its parents) if needed and check that files can be written in
    it, before anything is computed: an ``OSError`` (read-only, no space, a file in the
    way) names the folder; a folder that is a link inside a results folder is refused
    (``check_no_link_inside``)."""
    folder = check_no_link_inside(folder)
    for parent in (folder, *folder.parents):
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(20, "a file is in the way, not a folder", str(parent))
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = _temporary_file(folder / ".probe")
        os.close(fd)
        probe.unlink()
    except OSError as error:  # name the folder, not the probe
        raise OSError(error.errno, error.strerror, str(folder)) from None
    return folder


def check_writable_file(path: str | Path) -> Path:
    """Check, before computing anything, that ``path`` can be written (``check_writable`` on
    its folder; a folder at ``path`` itself is in the way)."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(21, "a folder is in the way, not a file", str(path))
    check_writable(path.parent)
    return path


def _holds_results(folder: Path) -> bool:
    """Whether ``folder`` is a results folder of the lab's: it holds a lock file or one of
    FOLDER_KINDS' files."""
    return any(os.path.lexists(folder / name) for name in (LOCK_FILE, *FOLDER_KINDS))


def check_no_link_inside(folder: str | Path) -> Path:
    """Refuse (``ValueError``, one line) to write into ``folder`` when it, or a folder above
    it, is a symbolic link inside a results folder (``DIR/figures`` a link, in a folder someone
    sent): what the lab writes stays inside the folder. The folder the user names may itself
    be a link. Returns ``folder``."""
    folder = Path(folder)
    for one in (folder, *folder.parents):
        if one.is_symlink() and _holds_results(one.parent):
            raise ValueError(f"{one} is a symbolic link inside the results folder "
                             f"{one.parent}: the lab writes nothing through a link; "
                             "replace it by a folder, or choose another output folder")
    return folder


def make_folder(folder: str | Path) -> Path:
    """Create ``folder`` and its missing parents, none of them through a link inside a results
    folder (``check_no_link_inside``)."""
    folder = check_no_link_inside(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_atomically(path: str | Path, data: bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (bytes, or a function that writes into a binary file) to a temporary
    file beside ``path``, flush it to disk, then move it to ``path``; return the path.

    Every file the lab writes goes through here. The move replaces whatever ``path`` names,
    a symbolic link included, and never writes into the file a link points to; a folder above
    ``path`` that is a link inside a results folder is refused (``check_no_link_inside``)."""
    path = Path(path)
    check_no_link_inside(path.parent)
    fd, temporary = _temporary_file(path)
    try:
        with os.fdopen(fd, "wb") as file:
            if isinstance(data, bytes):
                file.write(data)
            else:
                data(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno and error.filename is None:
            # a write or flush that failed (a full disk): name the file, not a descriptor
            raise OSError(error.errno, error.strerror, str(path)) from None
        raise
    return path


def _write_figure(fig, files: dict[Path, str]) -> list[Path]:
    """Write ``fig`` into each of ``files`` (path: format; ``plots.style.render``), each file
    atomically, creating folders; close the figure, written or not, so a run that draws many
    holds one at a time."""
    from matplotlib import pyplot as plt

    from plots.style import render

    try:
        for path in files:
            make_folder(path.parent)
        return [write_atomically(path, render(fig, fmt)) for path, fmt in files.items()]
    finally:
        plt.close(fig)


def write_figure(fig, path: str | Path) -> Path:
    """Write ``fig`` to ``path``, its format from the suffix, then close it."""
    path = Path(path)
    return _write_figure(fig, {path: path.suffix.lstrip(".").lower()})[0]


def write_figures(fig, stem: str | Path, formats=("png", "pdf")) -> list[Path]:
    """Write ``fig`` once per format (``stem.png``, ``stem.pdf``, ...), then close it; returns
    the paths."""
    stem = Path(stem)
    return _write_figure(fig, {stem.parent / f"{stem.name}.{fmt}": fmt
                               for fmt in dict.fromkeys(formats)})


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write a results table atomically, as Parquet or CSV by the file's suffix."""
    path = Path(path)
    make_folder(path.parent)
    if path.suffix == ".parquet":
        return write_atomically(path, lambda file: frame.to_parquet(file, index=False))
    if path.suffix == ".csv":
        return write_atomically(path, frame.to_csv(index=False).encode())
    raise ValueError(f"{path}: use a .parquet or .csv file name")


def read_manifest(folder: str | Path, manifest: str) -> Any:
    """The JSON of ``folder``'s file ``manifest``, None when it cannot be read."""
    try:
        return json.loads((Path(folder) / manifest).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def claim(folder: str | Path, manifest: str, content: dict, *,
          refusal: Callable[[Any], str], read: Callable[[Path], Any] | None = None,
          records: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> Path:
    """Make ``folder`` the home of ``content``: create it and its JSON file ``manifest`` (one
    of ``FOLDER_KINDS``), or check that the one there describes the same thing. ``read(folder)``
    returns the stored manifest (or raises ValueError; by default ``read_manifest``); one that
    is no JSON object, or that lacks a key ``content`` has (but those of ``optional``, which a
    writer leaves out at their defaults), is damaged: one line naming the file to delete,
    whose folder's results a rerun reuses; one that differs is ``ValueError(refusal(stored))``.
    A folder that holds another kind is refused. The keys ``records`` are records beside the
    description, not part of it (what a study records of its plug-ins): a manifest stored
    without them, or with others, is written anew."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder} is a file, not a folder: choose a folder name")
    other = next((name for name in FOLDER_KINDS
                  if name != manifest and (folder / name).exists()), None)
    if other is not None:
        raise ValueError(f"{folder} holds {FOLDER_KINDS[other]} ({other}), not "
                         f"{FOLDER_KINDS[manifest]}: choose another --out folder")
    text = json.dumps(content, indent=1, sort_keys=True) + "\n"
    if (folder / manifest).exists():
        stored = read(folder) if read else read_manifest(folder, manifest)
        wanted = json.loads(text)
        if not isinstance(stored, dict) or set(wanted) - {*stored, *records, *optional}:
            raise ValueError(f"{folder / manifest} is damaged: delete that file and run the "
                             "same command again (the results stored beside it are kept and "
                             "reused)")
        if _described(stored, records) != _described(wanted, records):
            raise ValueError(refusal(stored))
        check_writable(folder)
        if stored != wanted:
            write_atomically(folder / manifest, text.encode())
    else:
        check_writable(folder)
        write_atomically(folder / manifest, text.encode())
    return folder


def _described(manifest, records: tuple[str, ...]):
    if not isinstance(manifest, dict):
        return manifest
    return {key: value for key, value in manifest.items() if key not in records}


@dataclass(frozen=True)
class Stored:
    """A table read back from a store, with its metadata (None when it has none)."""

    table: pa.Table
    metadata: dict | None


@dataclass(frozen=True)
class KeyedStore:
    """Parquet tables under string keys in ``folder`` (``<folder>/<key>.parquet``)."""

    folder: Path

    def path(self, key: str) -> Path:
        return Path(self.folder) / f"{key}.parquet"

    def write(self, key: str, table: pa.Table | pd.DataFrame,
              metadata: dict | None = None) -> Path:
        """Store ``table`` under ``key`` atomically; with ``metadata``, that JSON object takes
        the place of the schema's metadata (so a data frame's pandas metadata is dropped)."""
        if isinstance(table, pd.DataFrame):
            table = pa.Table.from_pandas(table, preserve_index=False)
        if metadata is not None:
            table = table.replace_schema_metadata(
                {META_KEY: json.dumps(metadata, sort_keys=True)})
        path = self.path(key)
        make_folder(path.parent)
        return write_atomically(path, lambda file: pq.write_table(table, file))

    def read(self, key: str) -> Stored | None:
        """The table stored under ``key``, or None when it is missing or unreadable (not
        Parquet, or metadata under ``mctslab`` that is not a JSON object)."""
        try:
            table = pq.read_table(self.path(key))
            raw = (table.schema.metadata or {}).get(META_KEY)
            metadata = None if raw is None else json.loads(raw)
        except (OSError, TypeError, ValueError, pa.ArrowException):
            return None
        if raw is not None and not isinstance(metadata, dict):
            return None
        return Stored(table, metadata)

    def read_matching(self, key: str, expected: dict, defaults: dict | None = None
                      ) -> pa.Table | None:
        """The table under ``key`` if its metadata, completed by ``defaults`` (fields that
        older files lack), equals ``expected``; else None."""
        stored = self.read(key)
        if stored is None or stored.metadata is None:
            return None
        return stored.table if {**(defaults or {}), **stored.metadata} == expected else None

    def check_writable(self) -> None:
        """Make the folder and check that it takes files (``check_writable``)."""
        check_writable(self.folder)

    def remove_temporary_files(self) -> int:
        """Delete the temporary files that writers now gone left; return how many. The
        running writers' own files stay (only their owner removes them)."""
        leftovers = [path for path in Path(self.folder).glob(f".*{TEMPORARY}")
                     if is_stale(path)]
        for path in leftovers:
            path.unlink(missing_ok=True)
        return len(leftovers)
