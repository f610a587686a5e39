"""Where numba keeps the lab's compiled kernels: one directory per version of their sources.

Numba keys each cached kernel on the file that defines it, but a kernel also holds the code it
inlines from other files (``mcts.synthetic`` inlines the bandit indices and ``bandits.rng``): after
an edit of ``bandits/thompson.py`` numba would go on loading the old Thompson search. So the
kernels defined in the lab's folders (``CACHED_FOLDERS``) are cached under
``<root>/<hash of the sources of bandits, enhancements, games and mcts>``, ``root`` being
``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/mctslab/numba`` (default ``~/.cache``): any
edit of those sources compiles afresh.

Numba picks a kernel's cache directory when its ``@njit(cache=True)`` decorator runs, from its
list of cache locators. Importing this module puts :class:`VersionedCacheLocator` first in that
list; it claims the lab's own files only and leaves ``numba.config`` (and every other module's
kernels) alone. Every package with kernels imports this module first. The ``mctslab`` program
removes the directories of all but the newest few versions (:func:`prune_old_versions`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
from pathlib import Path

from numba.core import caching

COMPILED_PACKAGES = ("bandits", "enhancements", "games", "mcts")
CACHED_FOLDERS = (*COMPILED_PACKAGES, "benchmarks", "examples", "tests")
KEEP_VERSIONS = 3
LAB_ROOT = Path(__file__).resolve().parents[1]
_STAMP = re.compile(r"[0-9a-f]{16}")


def source_stamp(root: Path) -> str:
    """16 hex digits of the SHA-256 of every module of the compiled packages under ``root``."""
    digest = hashlib.sha256()
    for package in COMPILED_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The directory holding one cache directory per version of the sources."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mctslab" / "numba"


@functools.cache
def version_dir() -> Path | None:
    """This version's cache directory, ``<cache_root()>/<source stamp>`` (``None`` without an
    absolute root, e.g. no home directory: numba then caches the kernels by its own rules)."""
    root = cache_root()
    return root / source_stamp(LAB_ROOT) if root.is_absolute() else None


def is_lab_source(path: str | Path) -> bool:
    """Whether ``path`` is a module of one of the lab's ``CACHED_FOLDERS``."""
    path = Path(path).resolve()
    return any(path.is_relative_to(LAB_ROOT / folder) for folder in CACHED_FOLDERS)


class VersionedCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator: a lab kernel's cache goes under :func:`version_dir`, in a folder per
    source folder as numba's own ``NUMBA_CACHE_DIR`` locator does; each entry is still checked
    against its own file's hash, so an edit of that file alone is caught as numba always does."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(version_dir() / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator of a lab kernel (``None`` for anything else: numba's locators decide)."""
        if not is_lab_source(py_file) or version_dir() is None:
            return None
        return super().from_function(py_func, py_file)


def register_locator() -> None:
    """Put :class:`VersionedCacheLocator` first among numba's cache locators (once)."""
    locators = caching.CacheImpl._locator_classes
    if VersionedCacheLocator not in locators:
        locators.insert(0, VersionedCacheLocator)


def prune(root: Path, current: Path, keep: int = KEEP_VERSIONS) -> None:
    """Remove the version directories under ``root`` beyond the ``keep`` most recently used;
    ``current`` is marked used now and always kept."""
    os.utime(current)
    versions = sorted((p for p in root.iterdir() if p.is_dir() and _STAMP.fullmatch(p.name)),
                      key=lambda p: p.stat().st_mtime, reverse=True)
    for old in versions[keep:]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)


def prune_old_versions(keep: int = KEEP_VERSIONS) -> None:
    """Keep only this version's cache directory and the ``keep - 1`` others used most recently
    (called by the ``mctslab`` program at its start; nothing happens on a failure)."""
    current = version_dir()
    if current is None:
        return
    try:
        current.mkdir(parents=True, exist_ok=True)
        prune(current.parent, current, keep)
    except OSError:  # no writable cache root, or another process pruning at the same time
        pass


register_locator()
