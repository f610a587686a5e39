"""Where numba keeps the lab's compiled kernels: one directory per version of their sources.

Numba keys each cached kernel on the file that defines it, but a kernel also holds the code it
inlines from other files (``mcts.synthetic`` inlines the bandit indices and ``bandits.rng``): after
an edit of ``bandits/thompson.py`` numba would go on loading the old Thompson search. So the
kernels are cached under ``<root>/<hash of the sources of bandits, enhancements, games and mcts>``,
``root`` being ``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/mctslab/numba`` (default
``~/.cache``); any edit of those sources compiles afresh, and the directories of all but the
newest few versions are removed. Every package with kernels imports this module first.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import numba

COMPILED_PACKAGES = ("bandits", "enhancements", "games", "mcts")
KEEP_VERSIONS = 3
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


def prune(root: Path, current: Path, keep: int = KEEP_VERSIONS) -> None:
    """Remove the version directories under ``root`` beyond the ``keep`` most recently used;
    ``current`` is marked used now and always kept."""
    os.utime(current)
    versions = sorted((p for p in root.iterdir() if p.is_dir() and _STAMP.fullmatch(p.name)),
                      key=lambda p: p.stat().st_mtime, reverse=True)
    for old in versions[keep:]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)


def use_versioned_cache() -> None:
    """Point numba's cache at this version's directory (left as numba's default if the
    directory cannot be made: numba then caches beside the sources, or not at all)."""
    root = cache_root()
    if not root.is_absolute():  # no home directory to be found
        return
    current = root / source_stamp(Path(__file__).resolve().parents[1])
    try:
        current.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    numba.config.CACHE_DIR = str(current)
    try:
        prune(root, current)
    except OSError:  # e.g. another process pruning at the same time
        pass


use_versioned_cache()
