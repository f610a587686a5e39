"""``mctslab analyze``: table, JSON keys of DESIGN.md §8, figure, and one-line errors."""

import json
import subprocess
import sys

import pytest

from experiments.cli import main
from trees import analyze


def test_json_keys_and_values(capsys):
    assert main(["analyze", "constant'(1,13)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("tree", "optimal_move", "thresholds", "win_rate_optimal", "win_rate_suboptimal",
                "delta", "static_threshold"):
        assert key in out
    assert out["tree"] == "constant'(1,13)" and out["static_threshold"] == 12.5
    i = out["thresholds"].index(0.0)
    assert out["win_rate_optimal"][i] == pytest.approx(0.875)


def test_table_and_plot(tmp_path, capsys, saved_figures):
    figure = tmp_path / "fig2.png"
    assert main(["analyze", "constant(1,5)", "--plot", str(figure)]) == 0
    out = capsys.readouterr().out
    assert "static threshold" in out and "<- static" in out
    moves = ", ".join(map(str, analyze("constant(1,5)").optimal_moves))
    assert f"optimal root move(s): {moves}; static threshold" in out  # a list, not a count
    assert figure.stat().st_size > 0
    histogram, delta = saved_figures["fig2.png"].axes
    assert histogram.get_title() == "constant(1,5), b=4, d=8"
    analysis = analyze("constant(1,5)")
    bars = [patch.get_height() for patch in histogram.patches]
    assert bars[:len(analysis.support)] == pytest.approx(list(analysis.pmf.mean(axis=0)))
    optimal, other, gap = delta.get_lines()[:3]
    assert [line.get_label() for line in (optimal, other, gap)] == [
        "optimal move", "best other move", "Delta"]
    assert list(optimal.get_xdata()) == list(analysis.thresholds)
    assert list(gap.get_ydata()) == pytest.approx(list(analysis.delta))


@pytest.mark.parametrize("argv, words", [
    (["analyze", "bogus(1,2)"], "unknown tree model 'bogus'"),
    (["analyze", "constant(1,5)", "--depth", "7"], "must be even"),
    (["analyze", "constant(1,5)", "--depth", "-2"], "argument --depth: -2 must be an integer >= 1"),
    (["analyze", "constant(1,5)", "--branching", "1"], "--branching 2 or more"),
    (["analyze", "constant(1,5)", "--depth", "40"], "--depth 12 or less"),
    (["analyze", "constant(1,5)", "--tree-seed", "-1"], "argument --tree-seed: -1"),
])
def test_bad_input_is_one_line_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_console_script_rejects_bad_option():
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "analyze", "constant(1,5)",
                           "--depth", "x"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--depth" in done.stderr
