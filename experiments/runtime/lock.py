"""One writer per results folder: an advisory lock (``fcntl.flock``) on ``<folder>/.lock``.

A study, comparison or tournament folder is written by one process at a time. The writer
holds an exclusive ``flock`` on the folder's lock file for as long as it writes and records
itself in the file (pid, host, start time), so a second writer can name it: it refuses at
once (``FolderBusy``, a one-line error) or, asked to wait, blocks until the first is done.
The kernel drops the lock when its holder ends, however it ends (kill -9 included), so a lock
is never stale; the file itself stays, except that a writer that fails (a refusal, bad input,
an interrupt) removes the lock file and the folders it created, so a refused command leaves
the folder as it was. A writer that finds the file it locked removed takes the new one. Within
one process the lock is re-entrant (a comparison holds it around the study it runs).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = ".lock"

_held: set[Path] = set()  # the folders whose lock this process holds


class FolderBusy(ValueError):
    """Another process writes the folder."""


def holder_line(folder: Path) -> str:
    """Who holds ``folder``'s lock, as its lock file says: "pid P on host H since T"."""
    try:
        holder = json.loads((folder / LOCK_FILE).read_text())
        return f"pid {holder['pid']} on host {holder['host']} since {holder['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


def _record(fd: int) -> None:
    """Write this process into the lock file it holds."""
    since = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    text = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": since})
    os.ftruncate(fd, 0)
    os.pwrite(fd, (text + "\n").encode(), 0)


def _open_lock(path: Path) -> tuple[int, bool]:
    """The lock file at ``path``, opened, created if missing; whether this call created it.

    The lock record is written into the file, so a ``.lock`` that is not a regular file of its
    own (a symbolic link or a second hard link to another file, a folder, a device, put there
    in a folder someone sent) is refused: it is never followed (``O_NOFOLLOW``), truncated or
    written."""
    flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
    except FileExistsError:
        pass
    refusal = (f"{path} is not a lock file of the lab's (a symbolic link, a hard link, a "
               "folder or a device): delete it and run the same command again")
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
            raise ValueError(refusal) from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise ValueError(refusal)
    return fd, False


def _still_there(fd: int, path: Path) -> bool:
    """Whether the file ``fd`` is open on is still the one at ``path`` (a failed writer
    removes the lock file it created while holding it)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _acquire(folder: Path, wait: bool, can_wait: bool) -> tuple[int, bool]:
    """An exclusive lock on ``folder``'s lock file: its descriptor, and whether this call
    created the file."""
    path = folder / LOCK_FILE
    while True:
        fd, created = _open_lock(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                os.close(fd)
                add = " (or add --wait)" if can_wait else ""
                raise FolderBusy(
                    f"{folder} is being written by {holder_line(folder)}: wait for it to "
                    f"finish{add}, or stop that process; one writer per folder"
                ) from None
            print(f"{folder} is being written by {holder_line(folder)}: waiting for it to "
                  f"finish (Ctrl-C to give up)", file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        if _still_there(fd, path):
            return fd, created
        os.close(fd)


def _make_folder(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; those created, the deepest first."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder} is a file, not a folder: choose a folder name")
    created = [path for path in (folder, *folder.parents) if not path.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return created


@contextmanager
def writing(folder: str | Path, *, wait: bool = False, can_wait: bool = True) -> Iterator[Path]:
    """Hold ``folder``'s write lock (creating the folder) for the block; yield the folder.

    Held elsewhere: ``FolderBusy`` naming the holder (and ``--wait``, if ``can_wait``: the
    command offers it), or with ``wait`` a line on stderr and a wait until it is free. A
    block that raises leaves no lock file or empty folder that this call created."""
    folder = Path(folder)
    made = _make_folder(folder)
    key = folder.resolve()
    if key in _held:  # an outer block of this process holds it
        yield folder
        return
    try:
        fd, created = _acquire(folder, wait, can_wait)
    except BaseException:
        _remove_empty(made)
        raise
    try:
        _record(fd)
        _held.add(key)
        try:
            yield folder
        finally:
            _held.discard(key)
    except BaseException:
        if created:  # still held: a writer waiting on this file then takes a new one
            (folder / LOCK_FILE).unlink(missing_ok=True)
        _remove_empty(made)
        raise
    finally:
        os.close(fd)  # releases the lock


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (the deepest first) while they are empty."""
    for path in folders:
        try:
            path.rmdir()
        except OSError:
            return
