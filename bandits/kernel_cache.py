"""Where numba keeps the lab's compiled kernels: one directory per version of the sources a
kernel's file imports.

Numba keys each cached kernel on the file that defines it, but a kernel also holds the code it
inlines from other files (``mcts.synthetic`` inlines the bandit indices and ``bandits.rng``): after
an edit of ``bandits/thompson.py`` numba would go on loading the old Thompson search. So a kernel
defined in the lab's folders (``CACHED_FOLDERS``) is cached under ``<root>/<stamp>``, the stamp
hashing its file and every lab module that file imports, directly or not (:func:`import_closure`):
an edit of any of them compiles it afresh, and an edit elsewhere (``games/dominion.py`` for the
synthetic-tree search) leaves it cached. ``root`` is ``$NUMBA_CACHE_DIR`` if set, else
``$XDG_CACHE_HOME/mctslab/numba`` (default ``~/.cache``).

Numba picks a kernel's cache directory when its ``@njit(cache=True)`` decorator runs, from its
list of cache locators. Importing this module puts :class:`VersionedCacheLocator` first in that
list; it claims the lab's own files only and leaves ``numba.config`` (and every other module's
kernels) alone. It also makes an index naming a class that has since moved read as a miss
(:func:`read_moved_types_as_a_miss`). And it has numba build an inlined callee's IR once per
process (``bandits.inline_memo``). Every package with kernels imports this module first. A
directory is marked used (its time stamp) whenever a kernel is looked up in it; the ``mctslab``
program removes those not used within ``KEEP_DAYS`` of the latest use
(:func:`prune_old_versions`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import shutil
from pathlib import Path

from numba.core import caching

from .inline_memo import memoise_inlined_ir

CACHED_FOLDERS = ("bandits", "enhancements", "games", "mcts", "benchmarks", "examples", "tests")
KEEP_DAYS = 14
LAB_ROOT = Path(__file__).resolve().parents[1]
_STAMP = re.compile(r"[0-9a-f]{16}")
# an import statement at the start of a line: "from <module> import <names>" (names possibly in
# parentheses over several lines) or "import <modules>"; read by a pattern rather than by
# ``ast``, which takes ~25x longer over the lab's modules at every start
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+([^\n]*))", re.MULTILINE)


def module_file(name: str, root: Path = LAB_ROOT) -> Path | None:
    """The file of the lab module ``name`` (dotted) under ``root``, or ``None`` for a module
    that is not the lab's (numpy, the standard library)."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _package(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1]  # a package's __init__ and its modules alike resolve "." to the folder


def _names(clause: str) -> list[str]:
    """The names of an import clause: "a.b as c, d" -> ["a.b", "d"] (comments dropped)."""
    clause = re.sub(r"#[^\n]*", "", clause).strip("()")
    return [part.split()[0] for part in clause.replace("\n", " ").split(",") if part.split()]


def direct_imports(path: Path, root: Path = LAB_ROOT) -> frozenset[Path]:
    """The lab files that importing ``path`` runs at once: each module it names in an import
    statement (anywhere in the file, so inside functions too), the packages above it, and for
    ``from m import n`` the submodule ``m.n`` where ``n`` is one."""
    package, found = _package(path, root), set()
    for source, names, modules in _IMPORT.findall(path.read_text()):
        if modules:
            targets = _names(modules)
        else:
            level = len(source) - len(source.lstrip("."))
            stem = source[level:]
            base = ".".join((package[: len(package) - level + 1] if level else [])
                            + ([stem] if stem else []))
            targets = [base] + [f"{base}.{name}" for name in _names(names) if name != "*"]
        for target in targets:
            parts = target.split(".")
            for k in range(1, len(parts) + 1):
                file = module_file(".".join(parts[:k]), root)
                if file is not None:
                    found.add(file)
    found.discard(path)
    return frozenset(found)


def import_closure(path: Path, root: Path = LAB_ROOT) -> list[Path]:
    """``path`` and every lab file it imports, directly or through others, sorted."""
    seen, todo = {path}, [path]
    while todo:
        for file in _read(todo.pop(), root)[0]:
            if file not in seen:
                seen.add(file)
                todo.append(file)
    return sorted(seen)


def source_stamp(path: Path, root: Path = LAB_ROOT) -> str:
    """16 hex digits of the SHA-256 of ``path``'s import closure (its files' paths and
    contents)."""
    digest = hashlib.sha256()
    for file in import_closure(path, root):
        digest.update(_read(file, root)[1])
    return digest.hexdigest()[:16]


def _read(path: Path, root: Path) -> tuple[frozenset[Path], bytes]:
    """``path``'s direct imports and digest, read once per version of the file (the lab's
    modules are read for each kernel's closure as their decorators run)."""
    status = path.stat()
    return _read_version(path, root, status.st_mtime_ns, status.st_size)


@functools.cache
def _read_version(path: Path, root: Path, mtime: int, size: int) -> tuple[frozenset[Path], bytes]:
    digest = hashlib.sha256(path.relative_to(root).as_posix().encode() + b"\0"
                            + path.read_bytes()).digest()
    return direct_imports(path, root), digest


def cache_root() -> Path:
    """The directory holding one cache directory per version of the sources."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mctslab" / "numba"


@functools.cache
def version_dir(path: Path) -> Path | None:
    """The cache directory of the kernels defined in ``path``, ``<cache_root()>/<stamp>``
    (``None`` without an absolute root, e.g. no home directory: numba then caches the kernels
    by its own rules); marked used now if it exists."""
    root = cache_root()
    if not root.is_absolute():
        return None
    directory = root / source_stamp(path)
    try:
        os.utime(directory)
    except OSError:  # not made yet (numba makes it when it saves a kernel), or read-only
        pass
    return directory


def is_lab_source(path: str | Path) -> bool:
    """Whether ``path`` is a module of one of the lab's ``CACHED_FOLDERS``."""
    path = Path(path).resolve()
    return any(path.is_relative_to(LAB_ROOT / folder) for folder in CACHED_FOLDERS)


class VersionedCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator: a lab kernel's cache goes under its file's :func:`version_dir`, in
    a folder per source folder as numba's own ``NUMBA_CACHE_DIR`` locator does; each entry is
    still checked against its own file's hash, as numba always does."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        directory = version_dir(Path(py_file).resolve())
        self._cache_path = str(directory / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator of a lab kernel (``None`` for anything else: numba's locators decide)."""
        if not is_lab_source(py_file) or not cache_root().is_absolute():
            return None
        return super().from_function(py_func, py_file)


def register_locator() -> None:
    """Put :class:`VersionedCacheLocator` first among numba's cache locators (once)."""
    locators = caching.CacheImpl._locator_classes
    if VersionedCacheLocator not in locators:
        locators.insert(0, VersionedCacheLocator)


def read_moved_types_as_a_miss() -> None:
    """Make numba read a cache index it cannot unpickle as an empty one (once).

    A kernel's index pickles its signatures, and so names the classes of its arguments' types,
    which may come from files outside its own import closure (``mcts.core.rewards`` takes the
    ``SearchConfig`` holding ``mcts.core.root_specs.NoRoot`` without importing it): after a
    version of the lab that moved or removed such a class, numba's load would raise in the
    middle of a compile. Read as empty, the kernel compiles afresh and its index is written
    again."""
    load = caching.IndexDataCacheFile._load_index
    if getattr(load, "reads_moved_types_as_a_miss", False):
        return

    def load_index(self):
        try:
            return load(self)
        except (AttributeError, ImportError, pickle.UnpicklingError):
            return {}

    load_index.reads_moved_types_as_a_miss = True
    caching.IndexDataCacheFile._load_index = load_index


def prune(root: Path, keep_days: float = KEEP_DAYS) -> None:
    """Remove the version directories under ``root`` last used more than ``keep_days`` before
    the latest use of any of them (a lab not run for a year keeps what its last run used)."""
    versions = [p for p in root.iterdir() if p.is_dir() and _STAMP.fullmatch(p.name)]
    if not versions:
        return
    latest = max(p.stat().st_mtime for p in versions)
    for old in versions:
        if old.stat().st_mtime < latest - keep_days * 86400:
            shutil.rmtree(old, ignore_errors=True)


def prune_old_versions(keep_days: float = KEEP_DAYS) -> None:
    """Remove the kernel caches of sources unused for ``keep_days`` (called by the ``mctslab``
    program at its start; nothing happens on a failure)."""
    root = cache_root()
    if not root.is_absolute():
        return
    try:
        prune(root, keep_days)
    except OSError:  # no cache root yet, or another process pruning at the same time
        pass


register_locator()
read_moved_types_as_a_miss()
memoise_inlined_ir()
