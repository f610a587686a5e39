"""Study files, shard keys, shard storage and aggregation, without running the engine: the
stored counts here are written by hand, so every number can be checked by hand."""

import json
import os
from dataclasses import fields

import numpy as np
import pyarrow.parquet as pq
import pytest
from scipy.stats import ttest_ind_from_stats

from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.curves.curve import Curve
from experiments.runtime import store
from experiments.studies.shards import curve_seed, plan_shards
from experiments.studies.store import (
    SHARD_FOLDER,
    claim_folder,
    read_shard,
    shard_path,
    write_shard,
)
from experiments.studies.study import CURVE_KEYS, Study, load_results, study_status

STUDY = """
[study]
name = "tiny"
seed = 7
block = 5

[defaults]
runs = 12
max_budget = 8

[[curves]]
tree = "constant(1,3)"
branching = 4
depth = 4
adjuster = ["plain", "maxfreq"]

[[curves]]
tree = "random(4,3)"
branching = 2
depth = 4
trees = 2
policy = "thompson"
adjuster = "value"
adjuster_params = { x_lo = 0.1 }
"""


@pytest.fixture
def study_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(STUDY)
    return path


def _store_hand_counts(study: Study, folder) -> None:
    """Shard i of a curve fails at budget k in min(k + i, n_runs) of its runs."""
    claim_folder(folder, study.to_dict())
    for curve in study.curves:
        for i, shard in enumerate(plan_shards(curve, study.block, study.seed)):
            counts = np.minimum(np.arange(len(curve.budgets)) + i, shard.n_runs)
            write_shard(folder, shard, counts)


def test_read_study_expands_lists_and_applies_defaults(study_file):
    study = read_study(study_file)
    assert (study.name, study.seed, study.block) == ("tiny", 7, 5)
    assert [(c.tree, c.policy, c.adjuster) for c in study.curves] == [
        ("constant(1,3)", "ucb1", "plain"),
        ("constant(1,3)", "ucb1", "maxfreq"),
        ("random(4,3)", "thompson", "value"),
    ]
    assert all(c.runs == 12 and c.budgets == [1, 2, 4, 8] for c in study.curves)
    assert study.curves[1].restart and study.curves[2].adjuster_params["x_lo"] == 0.1
    assert Study.from_dict(json.loads(json.dumps(study.to_dict()))) == study


def test_every_curve_field_is_a_study_key():
    assert set(CURVE_KEYS) == {field.name for field in fields(Curve)}


def test_shards_cover_every_run_once_with_stable_keys(study_file):
    study = read_study(study_file)
    shards = study.shards()
    assert len(shards) == 3 + 3 + 2 * 3
    random_curve = study.curves[2]
    mine = [s for s in shards if s.curve == random_curve]
    assert [(s.tree_index, s.first_run, s.n_runs) for s in mine] == [
        (0, 0, 5), (0, 5, 5), (0, 10, 2), (1, 0, 5), (1, 5, 5), (1, 10, 2)]
    assert mine[4].key == f"{random_curve.key}-t001-b001"
    assert len({s.key for s in shards}) == len(shards)
    assert {s.seed for s in mine} == {curve_seed(7, random_curve)}
    assert curve_seed(7, random_curve) != curve_seed(8, random_curve)
    assert [s.key for s in Study.from_dict(study.to_dict()).shards()] == [s.key for s in shards]


def test_shard_file_holds_counts_and_full_configuration(study_file, tmp_path):
    study = read_study(study_file)
    shard = study.shards()[7]
    claim_folder(tmp_path / "out", study.to_dict())
    path = write_shard(tmp_path / "out", shard, [3, 2, 1, 0])
    table = pq.read_table(path)
    assert table.column("failures").to_pylist() == [3, 2, 1, 0]
    assert table.column("runs").to_pylist() == [5] * 4
    meta = json.loads(table.schema.metadata[b"mctslab"])
    assert meta["shard_key"] == shard.key and meta["study_seed"] == 7
    assert Curve(**meta["curve"]) == shard.curve
    assert read_shard(tmp_path / "out", shard).tolist() == [3, 2, 1, 0]
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_write_is_atomic(study_file, tmp_path, monkeypatch):
    study = read_study(study_file)
    shard = study.shards()[0]
    folder = claim_folder(tmp_path / "out", study.to_dict())

    def crash(table, file):
        file.write(b"PAR1 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(store.pq, "write_table", crash)
    with pytest.raises(OSError):
        write_shard(folder, shard, [0, 0, 0, 0])
    assert list((folder / SHARD_FOLDER).iterdir()) == []


def test_damaged_shard_files_are_rejected(study_file, tmp_path):
    study = read_study(study_file)
    folder = tmp_path / "out"
    _store_hand_counts(study, folder)
    first, second, third, fourth = study.shards()[:4]
    path = shard_path(folder, first)
    path.write_bytes(path.read_bytes()[:-40])  # partial
    shard_path(folder, second).write_bytes(b"not parquet")  # unreadable
    os.replace(shard_path(folder, fourth), shard_path(folder, third))  # another shard's file
    assert read_shard(folder, first) is None
    assert read_shard(folder, second) is None
    assert read_shard(folder, third) is None and read_shard(folder, fourth) is None
    fifth = study.shards()[4]
    table = pq.read_table(shard_path(folder, fifth))
    pq.write_table(table.slice(0, 3), shard_path(folder, fifth))  # a row short
    assert read_shard(folder, fifth) is None
    status = study_status(folder)
    assert status["shards_done"].tolist() == [0, 1, 6]
    assert status["shards_damaged"].tolist() == [3, 1, 0]


def test_load_results_is_tidy_and_feeds_welch(study_file, tmp_path):
    study = read_study(study_file)
    _store_hand_counts(study, tmp_path / "out")
    frame = load_results(tmp_path / "out")
    assert len(frame) == 3 * 4
    for column in ("curve_key", "label", "tree", "policy", "adjuster", "adjuster_params",
                   "budget", "failures", "runs", "failure_rate", "std", "stderr"):
        assert column in frame
    plain = frame[frame.adjuster == "plain"]
    # Shards of 5, 5, 2 runs: min(k + i, n) over i = 0, 1, 2 at budget index k.
    assert plain.failures.tolist() == [0 + 1 + 2, 1 + 2 + 2, 2 + 3 + 2, 3 + 4 + 2]
    assert (plain.runs == 12).all()
    p, n = 9 / 12, 12
    row = plain.iloc[3]
    assert row.failure_rate == pytest.approx(p)
    assert row["std"] == pytest.approx(np.std([1] * 9 + [0] * 3, ddof=1))
    assert row.stderr == pytest.approx(np.sqrt(p * (1 - p) / (n - 1)))
    random_rows = frame[frame.tree == "random(4,3)"]
    assert (random_rows.runs == 24).all()
    assert random_rows.label.iloc[0] == (
        "random(4,3) thompson value branching=2 depth=4 runs=12 trees=2 max_budget=8 x_lo=0.1")
    a, b = plain.iloc[2], frame[frame.adjuster == "maxfreq"].iloc[2]
    t, pvalue = ttest_ind_from_stats(a.failure_rate, a["std"], a.runs, b.failure_rate, b["std"],
                                     b.runs, equal_var=False)
    assert np.isfinite(t) and 0 <= pvalue <= 1


def test_partial_results_leave_out_curves_without_runs(study_file, tmp_path):
    study = read_study(study_file)
    folder = claim_folder(tmp_path / "out", study.to_dict())
    shard = study.shards()[-1]
    write_shard(folder, shard, [2, 1, 0, 0])
    frame = load_results(folder)
    assert frame.failures.tolist() == [2, 1, 0, 0] and (frame.runs == 2).all()
    assert (frame.planned_runs == 24).all()


def test_status_and_plot_commands(study_file, tmp_path, capsys, saved_figures):
    study = read_study(study_file)
    folder = tmp_path / "out"
    _store_hand_counts(study, folder)
    shard_path(folder, study.shards()[0]).unlink()
    assert main(["study", "status", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "11/12 shards" in out and "1 shards to go" in out
    assert main(["plot", str(folder), "--out", str(tmp_path / "figs")]) == 0
    written = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert written == ["constant(1,3)_b4_d4.pdf", "constant(1,3)_b4_d4.png",
                       "random(4,3)_b2_d4.pdf", "random(4,3)_b2_d4.png"]  # png and pdf
    assert sorted(saved_figures) == written
    assert main(["plot", str(folder), "--out", str(tmp_path / "svg"), "--format", "svg"]) == 0
    svg = sorted(p.name for p in (tmp_path / "svg").iterdir())
    assert svg == ["constant(1,3)_b4_d4.svg", "random(4,3)_b2_d4.svg"]
    assert (tmp_path / "svg" / svg[0]).read_text().lstrip().startswith("<?xml")
    [ucb1] = saved_figures["constant(1,3)_b4_d4.png"].axes  # a panel per policy
    assert ucb1.get_title().startswith("constant(1,3) ucb1")
    legend = [text.get_text() for text in ucb1.get_legend().get_texts()]
    assert legend == ["plain (7/12 runs)", "maxfreq"]  # its first shard is missing
    [thompson] = saved_figures["random(4,3)_b2_d4.png"].axes
    [line] = thompson.get_lines()
    assert list(line.get_xdata()) == [1, 2, 4, 8]


def test_plot_draws_log_x_with_error_bands(study_file, tmp_path):
    from plots.failure import plot_failure_curves

    study = read_study(study_file)
    _store_hand_counts(study, tmp_path / "out")
    frame = load_results(tmp_path / "out")
    ax = plot_failure_curves(frame[frame.tree == "constant(1,3)"])
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["plain", "maxfreq"]
    assert len(ax.collections) == 2  # one Wilson band per curve
    assert ax.get_title().startswith("constant(1,3) ucb1")


def test_folder_of_another_study_is_refused(study_file, tmp_path, capsys):
    study = read_study(study_file)
    claim_folder(tmp_path / "out", study.to_dict())
    other = study_file.read_text().replace("seed = 7", "seed = 8")
    study_file.write_text(other)
    assert main(["study", "run", str(study_file), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "holds another study" in err and "choose another --out" in err
    assert err.count("\n") == 1


ONE_CURVE = "[study]\nseed = 1\n[[curves]]\ntree = 'constant(1,5)'\n"
BAD_STUDIES = [
    ("[study]\nseed = 1\n[[curves]\ntree = 'constant(1,5)'\n", "malformed TOML"),
    ("[study]\nseed = 1\n", "no [[curves]]"),
    ("[[curves]]\ntree = 'constant(1,5)'\n", "'study.seed' is missing"),
    ("study = 3\n[[curves]]\ntree = 'constant(1,5)'\n", "[study] must be a table"),
    (ONE_CURVE.replace("[[curves]]", "[curves]"), "no [[curves]] entries"),
    (ONE_CURVE.replace("seed = 1", "seed = 1\nworkers = 3"), "unknown key 'workers'"),
    (ONE_CURVE.replace("seed = 1", "seed = -1"), "key 'seed' must be an integer >= 0, not -1"),
    (ONE_CURVE.replace("seed = 1", "seed = 1\nblock = 0"),
     "key 'block' must be an integer >= 1, not 0"),
    (ONE_CURVE + "polcy = 'ucb1'\n", "entry 1: unknown key 'polcy'"),
    (ONE_CURVE + "policy = 'ucb2'\n", "unknown policy 'ucb2': use one of ucb1"),
    (ONE_CURVE + "adjuster = 'komi'\n", "unknown adjuster 'komi'"),
    (ONE_CURVE.replace("constant(1,5)", "bogus(1,5)"), "unknown tree model 'bogus'"),
    ("[study]\nseed = 1\n[[curves]]\npolicy = 'ucb1'\n", "key 'tree' is missing"),
    (ONE_CURVE + "runs = -5\n", "key 'runs' must be an integer >= 1, not -5"),
    (ONE_CURVE + "runs = 'ten'\n", "key 'runs' must be an integer"),
    (ONE_CURVE + "max_budget = 1000\n", "not a power of two"),
    (ONE_CURVE + "depth = 7\n", "must be even"),
    (ONE_CURVE + "adjuster = 'maxfreq'\nadjuster_params = { ofset = 1 }\n",
     "unknown adjuster parameter 'ofset'"),
    (ONE_CURVE + "adjuster = 'maxfreq'\nadjuster_params = { offset = 'x' }\n",
     "maxfreq parameter offset = 'x': must be a finite number"),
    (ONE_CURVE + "[[curves]]\ntree = 'constant(1,5)'\n", "curves 1 and 2 are the same"),
]


@pytest.mark.parametrize("text, words", BAD_STUDIES)
def test_bad_study_file_is_one_line_naming_file_and_key(text, words, tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["study", "run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert words in err and str(path) in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, words", [
    (["study", "run", "missing.toml", "--out", "x"], "study file missing.toml not found"),
    (["study", "status", "nowhere"], "holds no study"),
    (["plot", "nowhere"], "holds no study"),
])
def test_missing_files_are_one_line(argv, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_bad_worker_options_are_one_line(study_file, tmp_path, capsys):
    out = str(tmp_path / "out")
    assert main(["study", "run", str(study_file), "--out", out, "--workers", "0"]) == 2
    assert "argument --workers: 0 must be an integer >= 1" in capsys.readouterr().err
    argv = ["study", "run", str(study_file), "--out", out, "--workers", "2",
            "--scheduler", "tcp://127.0.0.1:8786"]
    assert main(argv) == 2
    assert "a remote Dask cluster brings its own workers" in capsys.readouterr().err


def test_status_suggests_the_command_that_made_the_study():
    from experiments.cli.commands.study import resume_command

    assert resume_command("imagawa-quick", "out") == \
        "mctslab reproduce imagawa --scale quick --out out"
    assert resume_command("demo", "out") == "mctslab study run STUDY.toml --out out"
