"""The compiled kernels are cached per version of the sources their file imports
(bandits.kernel_cache)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import mcts
from bandits import kernel_cache
from bandits.kernel_cache import (
    CACHED_FOLDERS,
    LAB_ROOT,
    VersionedCacheLocator,
    direct_imports,
    module_file,
    prune,
    prune_old_versions,
    source_stamp,
)

DAY = 86400.0


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_stamp_follows_the_imported_sources_only(tmp_path):
    _write(tmp_path, {
        "a/__init__.py": "",
        "a/search.py": "import numpy as np\nfrom .index import (\n    value,  # the index\n"
                       "    other,\n)\n\ndef run():\n    from b import rng\n",
        "a/index.py": "from . import tables\n",
        "a/tables.py": "T = 1\n",
        "a/unused.py": "U = 1\n",
        "b/__init__.py": "", "b/rng.py": "R = 1\n",
        "c/game.py": "from a import search\n",
    })
    search = tmp_path / "a" / "search.py"
    stamp = source_stamp(search, tmp_path)
    assert len(stamp) == 16
    for edited in ("a/unused.py", "c/game.py"):  # not imported by a.search: no new stamp
        (tmp_path / edited).write_text("EDITED = 1\n")
        assert source_stamp(search, tmp_path) == stamp
    for edited in ("a/tables.py", "b/rng.py", "b/__init__.py", "a/__init__.py"):
        original = (tmp_path / edited).read_text()
        (tmp_path / edited).write_text(original + "EDITED = 1\n")
        assert source_stamp(search, tmp_path) != stamp, edited
        (tmp_path / edited).write_text(original)
    assert source_stamp(search, tmp_path) == stamp


def _ast_imports(path: Path) -> set[Path]:
    """The lab files ``path`` imports, read by Python's own parser (the reference)."""
    package = list(path.relative_to(LAB_ROOT).with_suffix("").parts)[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join(prefix + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            found.update(module_file(".".join(parts[:k])) for k in range(1, len(parts) + 1))
    found.discard(None)
    found.discard(path)
    return found


def test_the_import_pattern_reads_every_lab_module_as_python_does():
    """Equal to the parser's reading in the lab's packages; in tests, whose strings hold
    modules written for a test, it may also count those (a needless recompile at worst)."""
    modules = [path for folder in (*CACHED_FOLDERS, "specs", "trees")
               for path in sorted((LAB_ROOT / folder).rglob("*.py"))]
    assert len(modules) > 100
    for path in modules:
        if path.is_relative_to(LAB_ROOT / "tests"):
            assert direct_imports(path) >= _ast_imports(path), path
        else:
            assert direct_imports(path) == _ast_imports(path), path


def test_prune_drops_the_versions_unused_for_two_weeks(tmp_path):
    now = 2e9
    ages = {"0" * 16: 0, "1" * 16: 13, "2" * 16: 15, "3" * 16: 400}
    for name, days in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - days * DAY, now - days * DAY))
    other = tmp_path / "not-a-version"
    other.mkdir()
    os.utime(other, (0, 0))
    prune(tmp_path, keep_days=14)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["0" * 16, "1" * 16, other.name])
    for name in ("0" * 16, "1" * 16):  # a lab unused for a year keeps what it used last
        os.utime(tmp_path / name, (now - 400 * DAY, now - 400 * DAY))
    prune(tmp_path, keep_days=14)
    assert len(list(tmp_path.iterdir())) == 3


def test_numba_caches_a_lab_kernel_under_its_sources_version():
    locator = mcts.synthetic.search._cache._impl.locator
    assert isinstance(locator, VersionedCacheLocator)
    synthetic = Path(mcts.synthetic.__file__).resolve()
    assert Path(locator.get_cache_path()).parent.name == source_stamp(synthetic)
    imported = {p.relative_to(LAB_ROOT).parts[0] for p in kernel_cache.import_closure(synthetic)}
    assert {"bandits", "mcts"} <= imported and "games" not in imported


def test_other_kernels_are_left_to_numba(tmp_path):
    module = tmp_path / "elsewhere.py"
    module.write_text("from numba import njit\n\n@njit(cache=True)\ndef one():\n    return 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        from elsewhere import one
    finally:
        sys.path.remove(str(tmp_path))
    assert not isinstance(one._cache._impl.locator, VersionedCacheLocator)


def test_the_program_prunes_old_versions(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    old, recent = tmp_path / ("a" * 16), tmp_path / ("b" * 16)
    for directory, age in ((old, 30 * DAY), (recent, 0.0)):
        directory.mkdir()
        os.utime(directory, (2e9 - age, 2e9 - age))
    prune_old_versions()
    assert list(tmp_path.iterdir()) == [recent]


def test_a_second_process_loads_the_kernels_from_the_cache(tmp_path):
    """A kernel compiled by one process is loaded, not compiled, by the next one."""
    script = ("import bandits, numpy as np; from bandits import rng;"
              "rng.seed_state(np.uint64(3));"
              "print(sum(rng.seed_state.stats.cache_hits.values()),"
              " sum(rng.seed_state.stats.cache_misses.values()))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, check=True).stdout.split() for _ in range(2)]
    assert runs[0][1] == "1" and runs[1] == ["1", "0"]  # compiled once, then loaded
    rng = Path(kernel_cache.__file__).with_name("rng.py")
    assert source_stamp(rng) in [p.name for p in tmp_path.iterdir()]


def test_a_rules_modules_kernels_follow_its_source(tmp_path, monkeypatch):
    """A kernel compiled for a game's rules holds their code: the rules key's numba type names
    a digest of the module's source, so an edited game (even one outside the modules the
    engine imports) is compiled afresh."""
    from games.rules import RulesType

    for name, text in (("rules_v1", "X = 1\n"), ("rules_v2", "X = 2\n"), ("rules_v1b", "X = 1\n")):
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {name: RulesType(name, "game").name.split(", ")[-1] for name in
             ("rules_v1", "rules_v2", "rules_v1b")}
    assert names["rules_v1"] != names["rules_v2"] and names["rules_v1"] == names["rules_v1b"]


def test_an_index_naming_a_class_that_moved_is_a_miss(tmp_path):
    """A cached index whose signatures name a class since moved out of its module, or a module
    since gone, is read as empty (the kernel compiles again) instead of raising."""
    import types

    from numba.core import caching

    module = types.ModuleType("moved_records")
    sys.modules["moved_records"] = module

    class Record:
        pass

    Record.__module__, Record.__qualname__ = "moved_records", "Record"
    module.Record = Record
    index = caching.IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    index._save_index({(Record, "sig"): "kernel.0.nbc"})
    assert len(index._load_index()) == 1  # readable while the class is where it was
    del module.Record
    assert index._load_index() == {}
    del sys.modules["moved_records"]
    assert index._load_index() == {}


def test_an_inlined_callees_ir_is_built_once_per_process():
    """Numba builds the IR of a callee inlined at three call sites of two kernels once
    (``bandits.inline_memo``), and the kernels compute what they say."""
    from numba import njit

    from bandits.inline_memo import built_callees

    @njit(inline="always")  # the inlining whose builds the test counts
    def callee(x):
        return 2 * x + 1

    @njit
    def first(x):
        return callee(x) + callee(x + 1)

    @njit
    def second(x):
        return callee(x) - 1

    assert first(1) == 3 + 5 and second(2.0) == 4.0
    assert built_callees().count(callee.py_func) == 1
