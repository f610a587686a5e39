"""Seed 003's experiments at a tiny scale: the Fig. 1 split, the Fig. 2 summary, the report and
``mctslab reproduce veness``."""

import pandas as pd
import pytest

from experiments import veness
from experiments.cli import main
from experiments.veness import METHODS, VenessScale, bias_variance, score_summary

TINY = VenessScale(3, (2, 8), 10, (4, 8), 6)


def test_methods_are_every_combination():
    assert len(METHODS) == 8 and METHODS["uct"] == veness.StochasticConfig()
    assert METHODS["uct+cv+crn"].cv and METHODS["uct+cv+crn"].crn


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


def test_reproduce_veness_cli_writes_report_and_resumes(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(veness.SCALES, "quick", TINY)
    out = tmp_path / "veness"
    argv = ["reproduce", "veness", "--out", str(out), "--workers", "1"]
    assert main(argv) == 0
    report = (out / "report.md").read_text()
    assert "Fig. 1 left" in report and "uct+cv+crn" in report
    assert (out / "fig1_bias_variance.png").exists() and (out / "fig2_scores.png").exists()
    stamp = (out / "scores" / "uct-4.parquet").stat().st_mtime_ns
    assert main(argv) == 0
    assert (out / "scores" / "uct-4.parquet").stat().st_mtime_ns == stamp
    fig2 = pd.read_csv(out / "fig2_scores.csv")
    assert set(fig2["games"]) == {6} and len(fig2) == 16
