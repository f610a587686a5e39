"""The compiled kernels are cached per version of their sources (bandits.kernel_cache)."""

import os
from pathlib import Path

import numba

import mcts
from bandits import kernel_cache
from bandits.kernel_cache import prune, source_stamp


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


def test_numba_caches_under_this_version():
    root = Path(kernel_cache.__file__).resolve().parents[1]
    assert Path(numba.config.CACHE_DIR).name == source_stamp(root)
    assert Path(mcts.synthetic.search._cache._cache_path).parent == Path(numba.config.CACHE_DIR)
