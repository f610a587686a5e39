"""Results stored by the layout before ``experiments.store`` (now ``experiments.runtime.store``;
``tests/data/layout-v1``, written by commit 0da854e) still load: a study and a tournament find
their files, and a stochastic-game point its own; being of the engines' random-stream version
1, all of them are computed again (the streams moved at version 2), never mixed with new
results."""

import dataclasses
import shutil
from pathlib import Path

import pandas as pd
import pytest

from experiments.papers.veness import PANELS, game_scores
from experiments.papers.veness.run import point_key, point_store, stored_point
from experiments.studies.execution import run_study
from experiments.studies.store import stored_stream_version
from experiments.studies.study import load_results, open_study
from experiments.tournaments.tournament import Tournament, run_tournament

LAYOUT_V1 = Path(__file__).parent / "data" / "layout-v1"


@pytest.fixture
def old(tmp_path) -> Path:
    """A copy of the stored results (a run must not touch the committed files)."""
    shutil.copytree(LAYOUT_V1, tmp_path / "layout-v1")
    return tmp_path / "layout-v1"


def test_study_of_the_old_layout_is_read_and_its_old_streams_recomputed(old, capsys):
    """Both shards are read and match their shards (one file records no stream version, the
    other version 1); the engines' streams have moved since (``mcts.STREAM_VERSION``), so
    both are recomputed, said in one line, and the folder ends as a fresh run's."""
    folder = old / "study"
    study = open_study(folder)
    assert [stored_stream_version(folder, shard) for shard in study.shards()] == [1, 1]
    summary = run_study(study, folder, workers=1, progress=False)
    assert (summary.shards, summary.reused, summary.computed) == (2, 0, 2)
    assert "stored by random-stream version(s) 1 of the engine" in capsys.readouterr().err
    fresh = old / "fresh"
    run_study(study, fresh, workers=1, progress=False)
    pd.testing.assert_frame_equal(load_results(folder), load_results(fresh))
    assert load_results(folder)["runs"].tolist() == [6] * 5


def test_tournament_of_the_old_layout_replays_its_old_streams(old):
    """The folder of the earlier layout is accepted as this tournament's; its blocks, of
    stream version 1, are replayed, giving a fresh run's games."""
    folder = old / "tournament"
    tournament = Tournament("breakthrough", "uct+qb", "uct", games=3, playouts=8, seed=3,
                            block=2)
    results = run_tournament(tournament, folder, workers=1, progress=False)
    fresh = run_tournament(tournament, old / "fresh", workers=1, progress=False)
    pd.testing.assert_frame_equal(results, fresh)
    assert len(results) == 3


def test_stochastic_game_point_of_an_old_stream_is_computed_again(old):
    """The stored point is read (the file is whole) but holds no stream version: it is not
    reused; a point of this version is."""
    panel = dataclasses.replace(PANELS["cantstop"], turns=1)
    folder = old / "veness"
    assert point_store(folder, panel).read(point_key("uct+cv", 4)) is not None
    assert stored_point(folder, panel, "uct+cv", 4, 3, 5) is None
    fresh = game_scores(panel, "uct+cv", 4, 3, 5)
    point_store(folder, panel).write(point_key("uct+cv", 4), fresh)
    pd.testing.assert_frame_equal(stored_point(folder, panel, "uct+cv", 4, 3, 5), fresh,
                                  check_dtype=False)
