"""Figures are drawn off-screen, and every figure a test writes can be looked at; the test
helpers beside this file (the reference MCTS, the games' conformance check) are importable."""

import sys
from pathlib import Path

import matplotlib
import pytest
from matplotlib.figure import Figure

matplotlib.use("Agg")
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def saved_figures(monkeypatch) -> dict[str, Figure]:
    """The figures written during the test (by the lab's one figure writer,
    ``experiments.runtime.store``), by file name, so that a test can check what was drawn, not
    only that a file was written."""
    from experiments.runtime import store

    figures = {}
    write = store._write_figure

    def record(figure, files):
        figures.update({Path(path).name: figure for path in files})
        return write(figure, files)

    monkeypatch.setattr(store, "_write_figure", record)
    return figures


@pytest.fixture
def played_games(monkeypatch) -> list[tuple[tuple[str, str], list[int]]]:
    """((A, B), game indices) of every tournament block played from now on in this process
    (``experiments.tournaments.tournament.play_block``; with one worker every block runs here)."""
    from experiments.tournaments import tournament

    played, play = [], tournament.play_block

    def counting(t, block):
        played.append(((t.a, t.b), list(range(block.first + block.start,
                                              block.first + block.count))))
        return play(t, block)

    monkeypatch.setattr("experiments.tournaments.tournament.play_block", counting)
    return played
