"""Results stored by the layout before ``experiments.store`` (now ``experiments.runtime.store``;
``tests/data/layout-v1``, written by commit 0da854e) still load: a study and a tournament
resume from them without computing anything or writing a file, and a stochastic-game point is
reused."""

import dataclasses
import shutil
from pathlib import Path

import pandas as pd
import pytest

from experiments.papers.veness import PANELS, game_scores
from experiments.papers.veness.run import stored_point
from experiments.runtime.lock import LOCK_FILE
from experiments.studies.execution import run_study
from experiments.studies.study import load_results, open_study
from experiments.tournaments.tournament import Tournament, run_tournament

LAYOUT_V1 = Path(__file__).parent / "data" / "layout-v1"


@pytest.fixture
def old(tmp_path) -> Path:
    """A copy of the stored results (a run must not touch the committed files)."""
    shutil.copytree(LAYOUT_V1, tmp_path / "layout-v1")
    return tmp_path / "layout-v1"


def _stamps(folder: Path) -> dict:
    """Modification times of the stored files (the lock file aside: it names each writer)."""
    return {path: path.stat().st_mtime_ns for path in folder.rglob("*")
            if path.is_file() and path.name != LOCK_FILE}


def _fail(*args, **kwargs):
    raise AssertionError("a stored result was computed again")


def test_study_of_the_old_layout_resumes_without_recomputing(old, monkeypatch):
    folder = old / "study"
    stamps = _stamps(folder)
    monkeypatch.setattr("experiments.studies.execution.count_failures", _fail)
    summary = run_study(open_study(folder), folder, workers=1, progress=False)
    assert (summary.shards, summary.reused, summary.computed) == (2, 2, 0)
    assert _stamps(folder) == stamps  # no file written, moved or replaced
    frame = load_results(folder)
    assert frame["failures"].tolist() == [4, 5, 6, 4, 6]  # as stored (README.md)
    assert frame["runs"].tolist() == [6] * 5


def test_tournament_of_the_old_layout_resumes_without_replaying(old, monkeypatch):
    folder = old / "tournament"
    stamps = _stamps(folder)
    monkeypatch.setattr("experiments.tournaments.tournament.play_block", _fail)
    tournament = Tournament("breakthrough", "uct+qb", "uct", games=3, playouts=8, seed=3,
                            block=2)
    results = run_tournament(tournament, folder, workers=1, progress=False)
    assert _stamps(folder) == stamps
    expected = pd.read_csv(old / "tournament_games.csv")
    pd.testing.assert_frame_equal(results, expected, check_dtype=False)


def test_stochastic_game_point_of_the_old_layout_is_reused(old):
    panel = dataclasses.replace(PANELS["cantstop"], turns=1)
    stored = stored_point(old / "veness", panel, "uct+cv", 4, 3, 5)
    assert stored is not None
    pd.testing.assert_frame_equal(stored, game_scores(panel, "uct+cv", 4, 3, 5)
                                  .drop(columns="cpu_seconds").assign(
                                      cpu_seconds=stored["cpu_seconds"]))
