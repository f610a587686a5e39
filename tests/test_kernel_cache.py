"""The compiled kernels are cached per version of their sources (bandits.kernel_cache)."""

import os
import subprocess
import sys
from pathlib import Path

import mcts
from bandits import kernel_cache
from bandits.kernel_cache import VersionedCacheLocator, prune, prune_old_versions, source_stamp


def _sources(root: Path) -> None:
    for package in ("bandits", "enhancements", "games", "mcts", "experiments"):
        (root / package).mkdir()
        (root / package / "core.py").write_text(f"VALUE = '{package}'\n")


def test_stamp_follows_the_compiled_sources_only(tmp_path):
    _sources(tmp_path)
    stamp = source_stamp(tmp_path)
    assert len(stamp) == 16
    (tmp_path / "experiments" / "core.py").write_text("VALUE = 'edited'\n")
    os.utime(tmp_path / "bandits" / "core.py", (0, 0))
    assert source_stamp(tmp_path) == stamp  # plain-Python packages and timestamps do not count
    (tmp_path / "bandits" / "core.py").write_text("VALUE = 'edited'\n")
    assert source_stamp(tmp_path) != stamp
    (tmp_path / "bandits" / "core.py").write_text("VALUE = 'bandits'\n")
    (tmp_path / "games" / "new.py").write_text("")
    assert source_stamp(tmp_path) != stamp


def test_prune_keeps_the_newest_versions_and_the_current(tmp_path):
    versions = [tmp_path / f"{k:016x}" for k in range(6)]
    for age, version in enumerate(versions):
        version.mkdir()
        os.utime(version, (1e9 - age, 1e9 - age))
    other = tmp_path / "not-a-version"
    other.mkdir()
    prune(tmp_path, versions[-1], keep=3)  # the oldest is in use now
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [versions[-1].name, versions[0].name, versions[1].name, other.name])


def test_numba_caches_the_lab_kernels_under_this_version():
    root = Path(kernel_cache.__file__).resolve().parents[1]
    locator = mcts.synthetic.search._cache._impl.locator
    assert isinstance(locator, VersionedCacheLocator)
    assert Path(locator.get_cache_path()).parent == kernel_cache.version_dir()
    assert kernel_cache.version_dir().name == source_stamp(root)


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
    kernel_cache.version_dir.cache_clear()
    try:
        old = [tmp_path / f"{k:016x}" for k in range(4)]
        for age, version in enumerate(old):
            version.mkdir()
            os.utime(version, (1e9 - age, 1e9 - age))
        prune_old_versions(keep=2)
        current = kernel_cache.version_dir()
        assert sorted(tmp_path.iterdir()) == sorted([current, old[0]])
    finally:
        kernel_cache.version_dir.cache_clear()


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
    assert [p.name for p in tmp_path.iterdir()] == [kernel_cache.version_dir().name]
