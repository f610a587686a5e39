"""``mctslab reproduce kocsis`` (Kocsis & Szepesvari 2006, Fig. 2) on tiny P-games: the study's
curves, the report and figure written, a second run resumed, the random-pick level computed
from the trees, the paper scale's projection printed, bad input one line; and the solver
switch the reproduction needs (``Curve.solver``)."""

import numpy as np
import pytest

from experiments import Curve
from experiments.cli import main
from experiments.curves.failure import simulate_block, tree_instance
from experiments.papers import kocsis
from experiments.papers.kocsis import report, reproduce, study
from experiments.papers.kocsis.study import Effort, Panel

TINY = (Panel(2, 6), Panel(4, 4))  # b's whose ucb1 and baseline kernels other tests compile


@pytest.fixture
def tiny(monkeypatch):
    for module in (study, report, reproduce):
        monkeypatch.setattr(module, "PANELS", TINY)
    monkeypatch.setitem(study.SCALES, "quick", {2: Effort(3, 2, 16), 4: Effort(2, 2, 16)})


def test_the_paper_scale_is_200_trees_x_200_runs_of_every_method():
    paper = kocsis.kocsis_study("paper")
    assert {(c.branching, c.depth) for c in paper.curves} == {(2, 20), (8, 8)}
    assert all(c.trees == 200 and c.runs == 200 and c.failure == "score" for c in paper.curves)
    uct = [c for c in paper.curves if c.policy == "ucb1"]
    assert {c.solver for c in uct} == {True, False}
    assert all(c.final_move == "mean" and c.policy_params["depth_exponent"] == 1 for c in uct)
    assert {c.policy for c in paper.curves} == {"ucb1", "alphabeta", "flatmc"}


def test_tiny_reproduction_writes_everything_and_resumes(tiny, tmp_path, saved_figures):
    path = kocsis.reproduce_kocsis(tmp_path, "quick", workers=1, progress=False,
                                   formats=("png",))
    text = path.read_text()
    assert "The paper's values are not available here" in text
    assert "0.493" in text and "| B=2 D=6 | 3 |" in text
    assert (tmp_path / "fig2_failure_rates.csv").is_file()
    figure = saved_figures["fig2_pgames.png"]
    assert [ax.get_title() for ax in figure.axes] == ["P-game B=2 D=6", "P-game B=4 D=4"]
    assert "computed 20 of 20 shards" in text
    again = kocsis.reproduce_kocsis(tmp_path, "quick", workers=1, progress=False,
                                    formats=("png",)).read_text()
    assert "computed 0 of 20 shards" in again


def test_the_random_pick_level_is_computed_from_the_trees():
    """1 - |best-score moves| / B averaged over the instances, by hand."""
    panel = Panel(4, 4)
    level = kocsis.random_pick_levels(panel, 3, seed=7)
    sizes = [tree_instance("pgame(127)", 4, 4, 7, j).best_score.sum() for j in range(3)]
    assert level["score_level"] == pytest.approx(np.mean([1 - s / 4 for s in sizes]))
    assert level["tied_roots"] == sum(s > 1 for s in sizes)
    assert level["outcome_level"] <= level["score_level"]


def test_the_paper_scale_prints_its_projection_first(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(reproduce, "reproduce_kocsis", lambda out, *a, **k: out / "report.md")
    monkeypatch.setattr("experiments.papers.kocsis.reproduce_kocsis",
                        lambda out, *a, **k: tmp_path / "report.md")
    assert main(["reproduce", "kocsis", "--scale", "paper", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    hours = kocsis.projected_core_hours("paper")
    assert out.startswith("kocsis at scale paper: 200 trees x 200 runs a point, projected "
                          f"{hours:,.1f} core-hours") and hours > 0


@pytest.mark.parametrize("argv, fragment", [
    (["--scale", "huge"], "invalid choice: 'huge'"),
    (["--format", "gif"], "--format 'gif'"),
])
def test_bad_input_is_one_line_exit_2(argv, fragment, tmp_path, capsys):
    assert main(["reproduce", "kocsis", "--out", str(tmp_path / "k"), *argv]) == 2
    error = capsys.readouterr().err
    assert fragment in error and error.strip().count("\n") == 0, error


def test_without_the_solver_every_run_spends_its_budget():
    """On a B=4 D=2 P-game the outcome solver proves the root within 64 playouts and stops;
    without it nothing is proven and each run simulates all 64. The solver is data: its
    default leaves the key, and so the stored results, unchanged."""
    options = {"branching": 4, "depth": 2, "max_budget": 64, "runs": 20}
    on = simulate_block(Curve("pgame(127)", **options), 0, 0, 20, seed=3)[1]
    off = simulate_block(Curve("pgame(127)", solver=False, **options), 0, 0, 20, seed=3)[1]
    assert (on < 64).any() and (off == 64).all()
    assert Curve("pgame(127)", solver=True).key == Curve("pgame(127)").key
    assert "solver=off" in Curve("pgame(127)", solver=False).label
    with pytest.raises(ValueError, match="not an MCTS search: solver"):
        Curve("pgame(127)", "flatmc", solver=False)


def test_failure_rate_takes_no_solver_for_mcts_only(capsys):
    argv = ["failure-rate", "--tree", "pgame(127)", "--depth", "4", "--runs", "2",
            "--max-budget", "8", "--workers", "1", "--no-solver", "--policy", "flatmc"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "flatmc is not an MCTS search: solver" in error, error
