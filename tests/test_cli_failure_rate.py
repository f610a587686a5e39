"""``mctslab failure-rate``: JSON keys of DESIGN.md §8, files, and one-line errors."""

import json

import pandas as pd
import pytest

from experiments import failure_rate
from experiments.cli import main

SMALL = ["failure-rate", "--tree", "constant(1,3)", "--runs", "20", "--max-budget", "64",
         "--branching", "2", "--depth", "4", "--seed", "3"]


def test_json_keys_and_agreement_with_the_python_api(capsys):
    assert main(SMALL + ["--json", "--policy", "ucb1", "--adjuster", "maxfreq"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("tree", "policy", "adjuster", "runs", "budgets", "failure_rate", "stderr",
                "seconds", "playouts_per_second"):
        assert key in out
    assert out["runs"] == 20 and out["budgets"] == [1, 2, 4, 8, 16, 32, 64]
    frame = failure_rate("constant(1,3)", "ucb1", "maxfreq", runs=20, budgets=64, seed=3,
                         branching=2, depth=4)
    assert out["failure_rate"] == frame.failure_rate.tolist()
    assert list(frame.columns[:4]) == ["budget", "failure_rate", "stderr", "runs"]


def test_trees_multiply_runs_and_parameters_reach_the_curve(capsys):
    assert main(SMALL + ["--tree", "random(3,2)", "--trees", "3", "--json", "--policy-param",
                         "c=0.5", "--adjuster", "maxfreq", "--adjuster-param", "offset=-0.5",
                         "--no-restart"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"] == 60
    assert out["config"]["policy_params"] == {"c": 0.5}
    assert out["config"]["adjuster_params"] == {"offset": -0.5}
    assert out["config"]["restart"] is False


def test_table_csv_and_plot(tmp_path, capsys, saved_figures):
    csv, png = tmp_path / "curve.csv", tmp_path / "curve.png"
    assert main(SMALL + ["--out", str(csv), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "M playouts/s" in out
    # the default --trees 1: the output says the curve is one instance's
    assert "the curve of one tree instance (tree 0 of the seed), not of the model" in out
    stored = pd.read_csv(csv)
    assert stored.budget.tolist()[-1] == 64 and (stored.tree == "constant(1,3)").all()
    assert png.stat().st_size > 0
    [ax] = saved_figures["curve.png"].axes
    [line] = ax.get_lines()  # the one curve, with its Wilson band
    assert len(ax.collections) == 1 and ax.get_xscale() == "log"
    assert list(line.get_xdata()) == stored.budget.tolist()
    assert list(line.get_ydata()) == pytest.approx(stored.failure_rate.tolist())


def test_the_curve_carries_what_out_stores_and_plots_as_it_is(tmp_path):
    """The Python API's curve has the columns ``--out`` writes (less the
    JSON config), and ``plot_failure_curves`` draws it without any column added."""
    from plots.failure import plot_failure_curves
    from plots.style import BAND

    csv = tmp_path / "curve.csv"
    assert main(SMALL + ["--out", str(csv), "--adjuster", "maxfreq"]) == 0
    stored = pd.read_csv(csv)
    frame = failure_rate("constant(1,3)", "ucb1", "maxfreq", runs=20, budgets=64, seed=3,
                         branching=2, depth=4)
    assert list(stored.columns) == [*frame.columns, "config"]
    for column in ("tree", "policy", "adjuster", "policy_params", "adjuster_params", "budget",
                   "runs", "failures", "failure_rate", "ci_low", "ci_high", "seed"):
        expected = frame[column].tolist()
        if frame[column].dtype.kind == "f":
            expected = pytest.approx(expected)
        assert stored[column].tolist() == expected, column
    ax = plot_failure_curves(frame)
    assert ax.get_title() == "constant(1,3) ucb1 maxfreq"
    [line] = ax.get_lines()
    assert list(line.get_ydata()) == pytest.approx(frame.failure_rate.tolist())
    assert ax.get_legend().get_title().get_text() == BAND
    [band] = ax.collections
    top = band.get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx(frame.ci_high.max())
    subset = failure_rate("constant(1,3)", "ucb1", "maxfreq", runs=20, budgets=[4, 64],
                          seed=3, branching=2, depth=4)
    assert subset.budget.tolist() == [4, 64] and list(subset.columns) == list(frame.columns)
    assert plot_failure_curves(subset).get_lines()[0].get_xdata().tolist() == [4, 64]


@pytest.mark.parametrize("extra, words", [
    (["--policy", "ucb2"], "unknown policy"),
    (["--adjuster", "komi"], "unknown adjuster"),
    (["--max-budget", "0"], "argument --max-budget: 0 must be an integer >= 1"),
    (["--max-budget", "100"], "power of two"),
    (["--runs", "0"], "argument --runs: 0 must be an integer >= 1"),
    (["--tree", "constant(1"], "the parenthesis after 'constant' is not closed"),
    (["--policy-param", "c"], "NAME=VALUE"),
    (["--policy-param", "k=2"], "unknown policy parameter"),
    (["--adjuster", "maxfreq", "--adjuster-param", "offset=2"], "[-0.5, 0.5]"),
    (["--out", "x.txt"], ".parquet or .csv"),
])
def test_bad_input_is_one_line_exit_2(extra, words, capsys):
    assert main(SMALL + extra) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_policy_and_adjuster_take_compares_spec(capsys):
    """`--policy "ucb1(c=0.5)"` and `--adjuster "maxfreq(offset=-0.5,rescore=1)"` are read as
    `compare` reads its entries: the curve of the options."""
    runs = []
    for options in (["--policy", "ucb1(c=0.5)", "--adjuster", "maxfreq(offset=-0.5,rescore=1)"],
                    ["--policy-param", "c=0.5", "--adjuster", "maxfreq", "--adjuster-param",
                     "offset=-0.5", "--rescore"]):
        assert main(SMALL + ["--json", *options]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    spec, options = runs
    assert spec["config"] == options["config"]
    assert spec["config"]["policy_params"] == {"c": 0.5} and spec["config"]["rescore"] is True
    assert spec["failure_rate"] == options["failure_rate"]
