"""``mctslab reproduce kocsis`` (Kocsis & Szepesvari 2006, Fig. 2) on tiny P-games: the study's
curves, the report and figure written, a second run resumed, the random-pick level computed
from the trees, the paper scale's projection printed, bad input one line; and the solver
switch the reproduction needs (``Curve.solver``)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from experiments import Curve
from experiments.cli import main
from experiments.curves.failure import simulate_block, tree_instance
from experiments.papers import kocsis
from experiments.papers.kocsis import levels, report, reproduce, study
from experiments.papers.kocsis.study import Effort, Panel

# b = 4, whose ucb1, egreedy and baseline kernels other tests compile; the second panel is
# named as the paper's B=8 D=8 so that the paper's curves are set beside it
TINY = (Panel(4, 4), Panel(4, 6))


@pytest.fixture
def tiny(monkeypatch):
    for module in (study, report, reproduce):
        monkeypatch.setattr(module, "PANELS", TINY)
    monkeypatch.setitem(study.SCALES, "quick", {2: Effort(2, 2, 16), 4: Effort(2, 2, 16)})
    # Fig. 3: B = 2 at depths 4 and 6, and D = 8 at B = 4 (b's whose kernels tests compile)
    monkeypatch.setitem(study.FIG3_SHAPES, "quick", {"depth": (4, 6), "branching": (4,)})


def test_the_paper_scale_is_200_trees_x_200_runs_of_every_method():
    paper = kocsis.kocsis_study("paper")
    shapes = {(2, d) for d in range(4, 21, 2)} | {(b, 8) for b in range(2, 9)}
    assert {(c.branching, c.depth) for c in paper.curves} == shapes  # Fig. 2's and Fig. 3's
    assert all(c.trees == 200 and c.runs == 200 for c in paper.curves)
    by_value = [c for c in paper.curves if study.curve_method(c)[0] in study.BY_VALUE]
    assert len(by_value) == 2 * len(study.BY_VALUE)  # Fig. 2's panels
    assert all(c.failure == "outcome" and "+decisive" in c.tree for c in by_value)
    assert all(c.failure == "score" and c.tree == "pgame(127)" for c in paper.curves
               if not study.curve_method(c)[0].startswith("value:"))
    fig3 = {study.curve_method(c)[0] for c in paper.curves if (c.branching, c.depth) == (5, 8)}
    assert fig3 == set(study.FIG3_METHODS)
    by_method = {study.curve_method(c)[0]: c for c in paper.curves
                 if (c.branching, c.depth) == (2, 20)}
    theirs, ours = by_method["uct-paper"], by_method["uct"]
    assert (theirs.reward, theirs.policy_params["c"], theirs.store_episodes,
            theirs.stop_episodes) == ("sum", 1.0, True, True)
    assert (ours.reward, ours.store_episodes, ours.stop_episodes) == ("outcome", False, False)
    assert all(c.final_move == "mean" and c.policy_params["depth_exponent"] == 1
               and not c.solver for c in (theirs, ours))
    assert by_method["mmmc"].final_move == "minimax" and by_method["uct+solver"].solver
    value = by_method["value:uct"]  # the paper's UCT with outcome rewards
    assert (value.reward, value.policy_params, value.store_episodes, value.stop_episodes,
            value.final_move, value.solver) == ("outcome", {"depth_exponent": 1, "c": 1.0},
                                                True, True, "mean", False)
    assert not by_method["value:uct-unstopped"].stop_episodes
    assert {c.policy for c in paper.curves} == {"ucb1", "egreedy", "alphabeta", "flatmc"}


def test_tiny_reproduction_writes_everything_and_resumes(tiny, tmp_path, saved_figures):
    path = kocsis.reproduce_kocsis(tmp_path, "quick", workers=1, progress=False,
                                   formats=("png",))
    text = path.read_text()
    assert "The paper's values are read from its PDF" in text
    assert "| B=4 D=4 | 2 |" in text and "Wilcoxon" in text
    assert (tmp_path / "fig2_failure_rates.csv").is_file()
    figure = saved_figures["fig2_pgames.png"]
    assert [ax.get_title() for ax in figure.axes] == ["P-game B=4 D=4", "P-game B=4 D=6"]
    by_value = saved_figures["fig2_by_game_value.png"].axes[0]
    assert by_value.get_ylabel() == "failure rate (a move of worse game value)"
    assert "UCT (outcome rewards)" in by_value.get_legend_handles_labels()[1]
    labels = saved_figures["fig2_ablation.png"].axes[0].get_legend_handles_labels()[1]
    assert labels[:2] == ["UCT, the lab's", "+ summed scores, c = 1"]
    shards = 2 * (2 * len(kocsis.METHODS) + 3 * len(study.FIG3_METHODS))
    assert f"computed {shards} of {shards} shards" in text
    assert "## Fig. 3" in text and (tmp_path / "fig3_iterations.csv").is_file()
    fig3 = saved_figures["fig3_iterations.png"]
    assert [ax.get_title() for ax in fig3.axes] == ["P-game B=2 D=4-20", "P-game B=2-8 D=8"]
    again = kocsis.reproduce_kocsis(tmp_path, "quick", workers=1, progress=False,
                                    formats=("png",)).read_text()
    assert f"computed 0 of {shards} shards" in again
    assert "## Which failure rule is the paper's" in text
    readings = pd.read_csv(tmp_path / "fig2_readings.csv")
    assert len(readings) == 2 * len(levels.READINGS)


def _outcome(score: float) -> float:
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def _expected(instance, node: int, reward) -> float:
    """The expected ``reward`` of a random playout from ``node``, by recursion."""
    if instance.terminal[node]:
        return reward(float(instance.path_score[node]))
    b = instance.branching
    return float(np.mean([_expected(instance, node * b + 1 + j, reward) for j in range(b)]))


def test_the_flat_mc_limit_is_the_expected_reward_of_a_random_playout():
    """``levels.flat_limits`` against the expectation written as a recursion over the tree
    (each child with probability 1/B down to a terminal), on P-games with early terminals too
    (``+end``); and the levels: a random pick fails 1 - |C| / B, and on decisive trees of B = 2
    exactly half the moves."""
    for spec, b, d in (("pgame(127)", 3, 4), ("pgame(127)+end(0.3)", 2, 6)):
        instance = tree_instance(spec, b, d, 0, 1)
        by_outcome, by_score = levels.flat_limits(instance)
        assert np.allclose(by_outcome, [_expected(instance, 1 + j, _outcome) for j in range(b)])
        assert np.allclose(by_score, [_expected(instance, 1 + j, float) for j in range(b)])
    found, sizes = levels.search_free_levels(Panel(2, 6), 12, 3)
    rows = {row["reading"]: row for row in found}
    # the random pick's levels from the same draws are study.random_pick_levels'
    assert kocsis.random_pick_levels(Panel(2, 6), 12, 3) == study.pick_levels(Panel(2, 6), sizes)
    assert rows["game value, decisive trees"]["random_pick"] == 0.5
    assert 0 < rows["game value, decisive trees"]["trees"] < 12
    sizes = [tree_instance("pgame(127)", 2, 6, 3, j).best_score.sum() for j in range(12)]
    assert rows["best score, every tree"]["random_pick"] == pytest.approx(
        1 - np.mean(sizes) / 2)


def test_the_paper_curves_are_set_beside_ours_with_a_z_per_budget():
    """The paper's UCT at B=2 D=20 against a made-up point of ours: z by hand."""
    from experiments.papers.kocsis.paper_values import beside_paper, paper_fig2

    paper = paper_fig2()
    theirs = paper[(paper["panel"] == "B=2 D=20") & (paper["method"] == "uct-paper")
                   & (paper["kind"] == "curve") & (paper["iterations"] == 1024)]
    assert theirs["failure_rate"].iloc[0] == pytest.approx(0.03119, rel=0.02)
    ours = pd.DataFrame({"panel": ["B=2 D=20"], "method": ["uct-paper"], "budget": [1024],
                         "failure_rate": [0.05], "sd": [0.04], "trees": [16]})
    row = beside_paper(ours, paper).iloc[0]
    assert row["ours_se"] == pytest.approx(0.01)
    assert row["z"] == pytest.approx((0.05 - row["paper"]) / np.hypot(0.01, row["paper_se"]))
    # its error bars near 1,024 iterations are about +-0.02: a standard error of about 0.01
    assert 0.004 < row["paper_se"] < 0.02


def test_a_point_agrees_only_within_its_margin():
    """The verdicts by hand: the difference +-1.645 se inside +-(0.01 + 0.1 p) agrees; +-3 se
    off 0 differs; a wide interval over 0 is not resolved, not agreement, and so is a point
    whose paper's error bar alone is wider than the margin."""
    from experiments.papers.kocsis.paper_values import beside_by_value, paper_fig2, with_verdicts

    beside = pd.DataFrame({"ours": [0.105, 0.16, 0.02, 0.30], "ours_se": [0.002, 0.005, 0.02, 0.0],
                           "paper": [0.11, 0.11, 0.0017, 0.30],
                           "paper_se": [0.001, 0.001, 0.001, 0.03]})
    judged = with_verdicts(beside)
    assert judged["margin"].tolist() == pytest.approx([0.021, 0.021, 0.01017, 0.04])
    assert judged["low"].iloc[0] == pytest.approx(-0.005 - 1.645 * np.hypot(0.002, 0.001))
    assert judged["verdict"].tolist() == ["agrees", "differs", "not resolved", "not resolved"]
    assert judged["paper_limits"].tolist() == [False, False, False, True]
    # a method of the reading by game value faces the paper's curve of its counterpart
    ours = pd.DataFrame({"panel": ["B=2 D=20"], "method": ["value:uct"], "budget": [1024],
                         "failure_rate": [0.03], "sd": [0.04], "trees": [16]})
    row = beside_by_value(ours, paper_fig2(), study.BY_VALUE).iloc[0]
    assert row["method"] == "value:uct" and row["paper"] == pytest.approx(0.03119, rel=0.02)


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


def test_iterations_to_reach_a_level_and_their_growth_by_hand():
    """The least budget from which the rate stays at or below the level; a rate that comes
    back above it does not count the earlier budget; the slope of log2 iterations."""
    from experiments.papers.kocsis.fig3 import growth, iterations_to_reach

    rates = pd.Series([0.5, 0.08, 0.12, 0.05, 0.0], index=[1, 2, 4, 8, 16])
    assert iterations_to_reach(rates, 0.1) == 8
    assert iterations_to_reach(rates, 0.0) == 16
    assert iterations_to_reach(rates, 0.5) == 1
    assert np.isnan(iterations_to_reach(rates.iloc[:-1], 0.0))
    # 2^(D/2): a slope of 1/2 per ply, exactly (an interval of 0); B^4 at D = 8: 4 per doubling
    # of B; fewer than three points reached: not fitted
    depths = np.array([4.0, 6.0, 8.0])
    assert growth(depths, 2 ** (depths / 2), "depth") == pytest.approx((0.5, 0.0, 3))
    branchings = np.array([2.0, 4.0, 8.0])
    assert growth(branchings, branchings ** 4, "branching")[0] == pytest.approx(4.0)
    slope, half, points = growth(depths, np.array([4.0, 16.0, np.nan]), "depth")
    assert np.isnan(slope) and np.isnan(half) and points == 2
    # log2 iterations 2, 4, 5 at D = 4, 6, 8: slope 3/4, its interval from the residuals by hand
    slope, half, _ = growth(depths, np.array([4.0, 16.0, 32.0]), "depth")
    residuals = np.log2([4.0, 16.0, 32.0]) - (slope * depths + (11 / 3 - slope * 6))
    stderr = np.sqrt(residuals @ residuals / 1 / ((depths - 6) @ (depths - 6)))
    assert slope == pytest.approx(0.75)
    assert half == pytest.approx(stats.t.ppf(0.975, 1) * stderr)


def test_the_paper_fig3_is_read_with_its_reference_lines():
    """B^(D/2) as drawn in the paper equals its formula (within the reading's 0.3%)."""
    from experiments.papers.kocsis.fig3 import paper_fig3

    paper = paper_fig3()
    half = paper[(paper["panel"] == "B=2 D=4-20") & (paper["series"] == "2^(D/2)")]
    assert np.allclose(half["iterations"], 2 ** (half["x"] / 2), rtol=0.003)
