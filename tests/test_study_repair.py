"""``mctslab study repair``: a damaged study.json is rebuilt and every stored shard kept."""

import shutil

import pytest

from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.studies.execution import run_study
from experiments.studies.repair import study_from_shards
from experiments.studies.store import SHARD_FOLDER, STUDY_FILE
from experiments.studies.study import open_study

STUDY = """
[study]
name = "tiny"
seed = 3
block = 5

[[curves]]
tree = "constant(1,3)"
branching = 2
depth = 4
runs = 10
max_budget = 8
adjuster = ["plain", "maxfreq"]

[[curves]]
tree = "constant(1,3)"
branching = 2
depth = 4
runs = 3
max_budget = 4
"""


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    root = tmp_path_factory.mktemp("repair")
    (root / "tiny.toml").write_text(STUDY)
    run_study(read_study(root / "tiny.toml"), root / "done", workers=1, progress=False)
    return root


def _damaged(done, tmp_path):
    folder = tmp_path / "damaged"
    shutil.copytree(done / "done", folder)
    (folder / STUDY_FILE).write_text('{"name": "tiny", "se')
    return folder


def _files(folder):
    return {p.name: p.read_bytes() for p in (folder / SHARD_FOLDER).iterdir()}


def test_repair_from_the_study_file_restores_it_exactly(done, tmp_path, capsys):
    folder = _damaged(done, tmp_path)
    shards = _files(folder)
    assert main(["study", "repair", str(folder), "--study", str(done / "tiny.toml")]) == 0
    out = capsys.readouterr().out
    assert "5 stored shards kept" in out and "study.json.damaged" in out
    assert (folder / STUDY_FILE).read_text() == (done / "done" / STUDY_FILE).read_text()
    assert (folder / "study.json.damaged").read_text() == '{"name": "tiny", "se'
    assert _files(folder) == shards
    argv = ["study", "run", str(done / "tiny.toml"), "--out", str(folder), "--workers", "1"]
    assert main(argv) == 0
    assert "all 5 shards already stored" in capsys.readouterr().out


def test_repair_from_the_shards_alone_keeps_every_shard(done, tmp_path, capsys):
    folder = _damaged(done, tmp_path)
    assert main(["study", "repair", str(folder)]) == 0
    assert "from the shards alone" in capsys.readouterr().out
    original, rebuilt = open_study(done / "done"), open_study(folder)
    assert (rebuilt.seed, rebuilt.block, rebuilt.name) == (original.seed, original.block,
                                                            "damaged")
    assert sorted(c.key for c in rebuilt.curves) == sorted(c.key for c in original.curves)
    assert main(["study", "status", str(folder)]) == 0
    assert "5/5 shards" in capsys.readouterr().out
    # the name is not in the shards: the study file's run refuses, then --study makes it its own
    argv = ["study", "run", str(done / "tiny.toml"), "--out", str(folder), "--workers", "1"]
    assert main(argv) == 2
    assert f"mctslab study repair {folder} --study STUDY.toml" in capsys.readouterr().err
    assert main(["study", "repair", str(folder), "--study", str(done / "tiny.toml")]) == 0
    assert "study.json.replaced" in capsys.readouterr().out
    assert main(argv) == 0
    assert "all 5 shards already stored" in capsys.readouterr().out


def test_the_runs_per_shard_come_from_the_shards_or_the_default(done, tmp_path):
    folder = tmp_path / "first-blocks"
    shutil.copytree(done / "done", folder)
    (folder / STUDY_FILE).unlink()
    for path in (folder / SHARD_FOLDER).glob("*-b001.parquet"):
        path.unlink()
    study, count = study_from_shards(folder)
    assert (count, study.block) == (3, 5)  # a first block shorter than its curve
    short = next(c for c in study.curves if c.runs == 3)
    for path in (folder / SHARD_FOLDER).glob("*.parquet"):
        if not path.name.startswith(short.key):
            path.unlink()
    study, count = study_from_shards(folder)
    assert (count, study.block) == (1, 100)  # every curve in one shard: the default fits
