"""The keyed atomic store: tables under keys with their metadata, whole files or none."""

import json
import os
import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest

from experiments.runtime import store
from experiments.runtime.store import KeyedStore, claim, write_table

FRAME = pd.DataFrame({"game": [0, 1], "score": [1.5, 2.0]})


def test_a_table_comes_back_with_its_metadata(tmp_path):
    blocks = KeyedStore(tmp_path / "blocks")
    path = blocks.write("b0", FRAME, {"seed": 3})
    assert path == tmp_path / "blocks" / "b0.parquet"
    stored = blocks.read("b0")
    assert stored.metadata == {"seed": 3}
    pd.testing.assert_frame_equal(stored.table.to_pandas(), FRAME)
    assert blocks.read_matching("b0", {"seed": 3}) is not None
    assert blocks.read_matching("b0", {"seed": 4}) is None
    assert blocks.read_matching("b0", {"seed": 3, "version": 1}) is None
    assert blocks.read_matching("b0", {"seed": 3, "version": 1}, defaults={"version": 1})
    assert blocks.read("b1") is None


def test_without_metadata_a_frame_keeps_its_pandas_form(tmp_path):
    points = KeyedStore(tmp_path)
    points.write("p", FRAME)
    stored = points.read("p")
    assert stored.metadata is None and points.read_matching("p", {}) is None
    pd.testing.assert_frame_equal(pd.read_parquet(points.path("p")), FRAME)


def test_damaged_files_read_as_missing(tmp_path):
    points = KeyedStore(tmp_path)
    points.path("cut").write_bytes(b"PAR1 cut short")
    assert points.read("cut") is None
    table = pq.read_table(points.write("list", FRAME, {"a": 1}))
    pq.write_table(table.replace_schema_metadata({store.META_KEY: json.dumps([1])}),
                   points.path("list"))
    assert points.read("list") is None  # metadata that is not a JSON object


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    points = KeyedStore(tmp_path)
    points.write("p", FRAME, {"n": 1})

    def crash(table, file):
        file.write(b"PAR1 half")
        raise OSError("disk full")

    monkeypatch.setattr(store.pq, "write_table", crash)
    with pytest.raises(OSError):
        points.write("p", FRAME.head(1), {"n": 2})
    assert points.read("p").metadata == {"n": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["p.parquet"]


def test_temporary_files_are_removed(tmp_path):
    (tmp_path / ".p.parquet.x1.tmp").write_bytes(b"")
    (tmp_path / "p.parquet").write_bytes(b"")
    assert KeyedStore(tmp_path).remove_temporary_files() == 1
    assert [p.name for p in tmp_path.iterdir()] == ["p.parquet"]


def test_only_temporary_files_of_gone_writers_are_removed(tmp_path):
    """A temporary file names its writer (host-pid): a running writer's stays, a finished
    one's goes, another host's is left to that host."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    host = store._host()
    names = {"running": f".q.parquet.{host}-{os.getpid()}.0123abcd.tmp",
             "gone": f".q.parquet.{host}-{gone}.0123abcd.tmp",
             "elsewhere": f".q.parquet.other-host-{gone}.0123abcd.tmp"}
    for name in names.values():
        (tmp_path / name).write_bytes(b"")
    assert KeyedStore(tmp_path).remove_temporary_files() == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [names["running"], names["elsewhere"]])


def test_a_write_names_its_temporary_file_after_the_process(tmp_path, monkeypatch):
    seen = []

    def write(table, file):
        seen.extend(p.name for p in tmp_path.iterdir())
        file.write(b"x")

    monkeypatch.setattr(store.pq, "write_table", write)
    KeyedStore(tmp_path).write("k", FRAME)
    assert seen and seen[0].startswith(f".k.parquet.{store._host()}-{os.getpid()}.")
    assert not store.is_stale(tmp_path / seen[0])


def test_check_writable_refuses_a_file_in_the_way(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(NotADirectoryError, match="a file is in the way"):
        store.check_writable(tmp_path / "f" / "sub")
    with pytest.raises(IsADirectoryError, match="a folder is in the way"):
        store.check_writable_file(tmp_path)
    assert store.check_writable(tmp_path / "new" / "deeper").is_dir()
    assert list((tmp_path / "new" / "deeper").iterdir()) == []  # the probe is gone


def test_claim_creates_or_checks_the_manifest(tmp_path):
    def read(folder):
        return json.loads((folder / "thing.json").read_text())

    folder = claim(tmp_path / "out", "thing.json", {"seed": 1}, read=read,
                   refusal=lambda stored: f"holds seed {stored['seed']}")
    assert read(folder) == {"seed": 1}
    assert claim(folder, "thing.json", {"seed": 1}, read=read, refusal=str) == folder
    with pytest.raises(ValueError, match="holds seed 1"):
        claim(folder, "thing.json", {"seed": 2}, read=read,
              refusal=lambda stored: f"holds seed {stored['seed']}")
    with pytest.raises(ValueError, match="is a file"):
        claim(folder / "thing.json", "thing.json", {}, read=read, refusal=str)


def test_write_table_by_suffix(tmp_path):
    pd.testing.assert_frame_equal(pd.read_csv(write_table(FRAME, tmp_path / "a" / "t.csv")), FRAME)
    pd.testing.assert_frame_equal(pd.read_parquet(write_table(FRAME, tmp_path / "t.parquet")),
                                  FRAME)
    with pytest.raises(ValueError, match="parquet or .csv"):
        write_table(FRAME, tmp_path / "t.txt")
