"""Seed 003's experiments at a tiny scale: the Fig. 1 split, the Fig. 2 summary, equivalent
simulations, the per-game panels, the report and ``mctslab reproduce veness``."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from experiments.cli import main
from experiments.papers import veness
from experiments.papers.veness import (
    METHODS,
    PANELS,
    Effort,
    Fig1Scale,
    bias_variance,
    equivalent_budget,
    equivalent_ratios,
    gains,
    isotonic,
    score_summary,
)
from experiments.papers.veness.run import point_key, point_store, stored_estimates, stored_point
from experiments.runtime.store import write_table
from games import get_game
from mcts.stochastic import StochasticConfig


def test_methods_are_every_combination():
    assert len(METHODS) == 8 and METHODS[0] == "uct"
    pig = PANELS["pig"]
    assert pig.config("uct") == StochasticConfig() and pig.methods == METHODS
    assert pig.config("uct+cv+crn").cv and pig.config("uct+cv+crn").crn
    no_av = dataclasses.replace(pig, techniques=("cv", "crn"))
    assert no_av.methods == ("uct", "uct+cv", "uct+crn", "uct+cv+crn")
    with pytest.raises(ValueError, match="unknown method"):
        no_av.config("uct+av")


def test_panels_take_the_registry_ucb_constant():
    for panel in PANELS.values():
        assert panel.config("uct").c == get_game(panel.game).ucb_c
        for scale in veness.SCALES:
            effort = panel.effort(scale)
            assert effort.games > 0 and list(effort.budgets) == sorted(set(effort.budgets))


def test_bias_variance_by_hand():
    estimates = pd.DataFrame({"run": [0, 1], "budget": [4, 4], "roll": [10.0, 14.0],
                              "stop": [8.0, 8.0], "method": "uct"})
    table = bias_variance(estimates, 1).set_index("quantity")
    exact_roll = table.loc["roll", "exact"]
    assert table.loc["roll", "bias"] == pytest.approx(12.0 - exact_roll)
    assert table.loc["roll", "variance"] == pytest.approx(8.0)
    assert table.loc["difference", "mean"] == pytest.approx(4.0)
    assert table.loc["roll", "mse"] == pytest.approx((12 - exact_roll) ** 2 + 8)


def test_score_summary_interval():
    scores = pd.DataFrame({"method": "uct", "budget": 8, "score": [0.0, 10.0, 20.0]})
    row = score_summary(scores).iloc[0]
    assert row["mean"] == 10 and row["ci95_high"] - row["mean"] == pytest.approx(1.96 * 10 / 3**0.5)


def test_isotonic_pools_violators():
    assert np.allclose(isotonic([1, 3, 2, 4]), [1, 2.5, 2.5, 4])
    assert np.allclose(isotonic([5, 4, 3]), [4, 4, 4])
    assert np.allclose(isotonic([1, 2]), [1, 2])


def test_equivalent_budget_interpolates_in_log_budget():
    budgets, means = [16, 32, 64], [10.0, 20.0, 30.0]
    assert equivalent_budget(budgets, means, 20.0) == pytest.approx(32)
    assert equivalent_budget(budgets, means, 25.0) == pytest.approx(32 * 2**0.5)
    assert equivalent_budget(budgets, means, 10.0) == 16
    assert equivalent_budget(budgets, means, 5.0) == 0.0
    assert equivalent_budget(budgets, means, 31.0) == math.inf
    assert equivalent_budget(budgets, [10.0, 22.0, 18.0], 15.0) == pytest.approx(
        2 ** (4 + 5 / 10))  # the curve pooled to 10, 20, 20


def test_equivalent_ratios_and_gains_by_hand():
    summary = pd.DataFrame({
        "panel": "pig", "method": ["uct", "uct", "uct+cv", "uct+cv"], "budget": [16, 32, 16, 32],
        "games": 4, "mean": [10.0, 20.0, 20.0, 24.0], "sd": 2.0})
    summary = summary.assign(ci95_low=summary["mean"] - 1.96, ci95_high=summary["mean"] + 1.96)
    ratios = equivalent_ratios(summary).set_index(["method", "budget"])
    assert ratios.loc[("uct+cv", 16), "ratio"] == pytest.approx(2.0)
    assert ratios.loc[("uct+cv", 32), "ratio"] == math.inf
    assert ratios.loc[("uct+cv", 32), "high_bound"] == 1.0
    assert ratios.loc[("uct", 32), "ratio"] == pytest.approx(1.0)
    table = gains(summary).set_index("method")
    assert table.loc["uct+cv", "gain"] == pytest.approx(7.0)
    assert table.loc["uct+cv", "se"] == pytest.approx(np.sqrt(4 * 4 / 4) / 2)


def use_panels(monkeypatch, panels: dict) -> None:
    """Make ``PANELS`` (one dictionary, shared by every module of the paper) ``panels``."""
    for game in list(PANELS):
        if game not in panels:
            monkeypatch.delitem(PANELS, game)
    for game, panel in panels.items():
        monkeypatch.setitem(PANELS, game, panel)


TINY_PANELS = {
    "pig": dataclasses.replace(PANELS["pig"], turns=3, quick=Effort((4, 8), 6)),
    "cantstop": dataclasses.replace(PANELS["cantstop"], turns=1, quick=Effort((4, 8), 4)),
    "dominion": dataclasses.replace(PANELS["dominion"], turns=2, quick=Effort((4, 8), 3)),
}


def test_reproduce_veness_cli_writes_report_and_resumes(tmp_path, monkeypatch, saved_figures):
    monkeypatch.setitem(veness.SCALES, "quick", Fig1Scale((2, 8), 10))
    use_panels(monkeypatch, TINY_PANELS)
    out = tmp_path / "veness"
    argv = ["reproduce", "veness", "--out", str(out), "--workers", "1"]
    assert main(argv) == 0
    report = (out / "report.md").read_text()
    assert "Fig. 1 left" in report and "uct+cv+crn" in report
    assert "### Can't Stop" in report and "50-60% more simulations" in report
    assert "### Dominion" in report and "25-40% more simulations" in report
    for name in ("fig1_bias_variance", "fig2_scores"):
        assert (out / f"{name}.png").exists() and (out / f"{name}.pdf").exists()
    fig1 = saved_figures["fig1_bias_variance.png"]
    assert [ax.get_title() for ax in fig1.axes] == [
        "Estimate of Q(s1, roll) (uct)", "Estimate of Q(s1, roll) - Q(s1, stop) (uct)"]
    for ax in fig1.axes:
        assert [line.get_label() for line in ax.get_lines()] == ["bias$^2$", "variance", "MSE"]
        assert list(ax.get_lines()[0].get_xdata()) == [2, 8]  # Fig1Scale's budgets
    fig2 = saved_figures["fig2_scores.png"]
    assert [ax.get_title() for ax in fig2.axes] == [p.title for p in TINY_PANELS.values()]
    pig = fig2.axes[0]
    assert [c.get_label() for c in pig.containers] == [m.upper() for m in veness.METHODS]
    point = out / "scores" / "cantstop" / "uct+av-4.parquet"
    stamp = point.stat().st_mtime_ns
    assert main(argv) == 0
    assert point.stat().st_mtime_ns == stamp
    fig2 = pd.read_csv(out / "fig2_scores.csv")
    assert fig2.groupby("panel")["games"].first().to_dict() == {"cantstop": 4, "dominion": 3,
                                                                "pig": 6}
    assert len(fig2) == 2 * 16 + 2 * 4  # Dominion: base UCT, cv, crn, cv+crn
    scores = pd.read_parquet(point)
    assert (scores["c"] == get_game("cantstop").ucb_c).all() and (scores["turns"] == 1).all()


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_reproduce_veness_refuses_fewer_than_one_worker(tmp_path, capsys, workers):
    argv = ["reproduce", "veness", "--out", str(tmp_path / "veness"), "--workers", workers]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert f"argument --workers: {workers} must be an integer >= 1" in error
    assert not (tmp_path / "veness").exists()


def test_changed_settings_recompute_a_point(tmp_path, monkeypatch):
    """A point stored with other settings (here the offline constant) is computed again."""
    panel = TINY_PANELS["cantstop"]
    point_store(tmp_path, panel).write(point_key("uct+cv", 4),
                                       veness.game_scores(panel, "uct+cv", 4, 3, 5))
    assert stored_point(tmp_path, panel, "uct+cv", 4, 3, 5) is not None
    assert stored_point(tmp_path, panel, "uct+cv", 4, 3, 6) is None
    other = dataclasses.replace(panel, cv_offline=1.0)
    assert stored_point(tmp_path, other, "uct+cv", 4, 3, 5) is None


def test_damaged_point_is_computed_again(tmp_path):
    panel = TINY_PANELS["cantstop"]
    path = point_store(tmp_path, panel).path(point_key("uct+cv", 4))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"PAR1 cut short")
    assert stored_point(tmp_path, panel, "uct+cv", 4, 3, 5) is None
    write_table(veness.game_scores(panel, "uct+cv", 4, 3, 5), path)
    assert stored_point(tmp_path, panel, "uct+cv", 4, 3, 5) is not None


def test_fig1_estimates_of_another_scale_or_seed_are_computed_again(tmp_path, monkeypatch):
    use_panels(monkeypatch, TINY_PANELS)
    plan, turns = Fig1Scale((2, 4), 3), TINY_PANELS["pig"].turns
    path = write_table(pd.concat([
        veness.first_turn_estimates(turns, plan.budgets, plan.runs, method, 5)
        for method in TINY_PANELS["pig"].methods]), tmp_path / "fig1_estimates.parquet")
    assert stored_estimates(tmp_path, plan, turns, 5) is not None
    assert stored_estimates(tmp_path, plan, turns, 6) is None  # another seed
    assert stored_estimates(tmp_path, Fig1Scale((2, 4), 4), turns, 5) is None  # more runs
    assert stored_estimates(tmp_path, Fig1Scale((2, 8), 3), turns, 5) is None  # budgets
    assert stored_estimates(tmp_path, plan, turns + 1, 5) is None
    path.write_bytes(b"PAR1 cut short")
    assert stored_estimates(tmp_path, plan, turns, 5) is None


def test_local_dask_cluster_stores_the_same_scores(tmp_path, monkeypatch):
    """Points computed on a LocalCluster (``--scheduler local``) are those of one process."""
    monkeypatch.setitem(veness.SCALES, "quick", Fig1Scale((2,), 4))
    use_panels(monkeypatch, {game: dataclasses.replace(TINY_PANELS[game], quick=Effort((4,), 2))
                             for game in ("pig", "cantstop")})
    _, here = veness.run_veness(tmp_path / "here", workers=1, seed=7)
    _, there = veness.run_veness(tmp_path / "there", workers=2, scheduler="local", seed=7)
    columns = ["panel", "method", "budget", "game", "score"]
    pd.testing.assert_frame_equal(here[columns], there[columns])


def test_the_figures_order_of_methods_is_the_studys():
    from plots.veness import METHODS as DRAWN

    assert DRAWN == veness.METHODS
