"""``mctslab inspect``: the traced run is the engine's run (its tree, its failures),
its threshold is the reference's, options reach it, the failure anatomy adds up to the curve,
the tree's DOT parses, the page renders, and bad input is one line."""

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from chromium import image_widths, needs_chromium, page_layout
from reference_mcts import ThresholdSchedule
from reference_mcts import make_adjuster as reference_adjuster

from bandits import index_tables, make_policy
from experiments.cli import main
from experiments.curves.curve import Curve
from experiments.curves.failure import run_seeds, search_config, simulate_block, tree_instance
from experiments.inspect import (
    failure_anatomy,
    log_frame,
    playout_grid,
    trace,
    trace_frame,
    trace_run,
    tree_dot,
)
from experiments.inspect.picture import drawn_nodes
from experiments.inspect.traced import trace_block
from mcts import search, tree_arrays

FIELDS = {"tree": "constant(1,5)", "max_budget": 1024, "runs": 6, "branching": 4, "depth": 6}
BASE = Curve(**FIELDS)


def _curve(**options) -> Curve:
    """BASE with ``options`` (defaults such as maxfreq's restart resolved anew)."""
    return Curve(**{**FIELDS, **options})
# options are data: one kernel of the policy serves them all
OPTIONS = [{}, {"adjuster": "maxfreq"}, {"adjuster": "score"}, {"adjuster": "value"},
           {"shaping": "rb(k=8)+qb(k=2,a=online)"}, {"discount": 0.9},
           {"adjuster": "maxfreq", "rescore": True}, {"tree": "random(4,3)"},
           {"search_depth": 2}]
POLICIES = ["klucb", "thompson"]  # cached indices; an index that draws


def _engine_tree(curve, run, budget, seed=0):
    instance = tree_instance(curve.tree, curve.branching, curve.depth, seed, 0)
    failed = np.zeros(int(np.log2(budget)) + 1, bool)
    return search(tree_arrays(instance), search_config(curve, instance), budget,
                  run_seeds(seed, 0, run, 1)[0], index_tables(budget),
                  make_policy(curve.policy, **curve.policy_params), failed)


@pytest.mark.parametrize("options", OPTIONS + [{"policy": p} for p in POLICIES], ids=str)
def test_the_traced_run_is_the_engines_run(options):
    """The tree after the run's budget is the engine's, bit for bit, and the root at the last
    grid point its root; the watching draws nothing from the run's stream."""
    curve = _curve(**options)
    traced = trace_run(curve, 2)
    engine = _engine_tree(curve, 2, curve.max_budget)
    for mine, theirs in zip(traced.tree, engine):
        np.testing.assert_array_equal(mine, theirs)
    first = engine.stats[0, 1]
    np.testing.assert_array_equal(traced.root.visits[-1],
                                  engine.stats[first:first + curve.branching, 0])
    frame = trace_frame(traced)
    assert frame["visits"].iloc[-curve.branching:].tolist() == traced.root.visits[-1].tolist()


@pytest.mark.parametrize("options", OPTIONS + [{"policy": p} for p in POLICIES], ids=str)
def test_the_moves_traced_are_the_curves_failures(options):
    curve = _curve(**options)
    failed, _ = simulate_block(curve, 0, 0, curve.runs, 0)
    root = trace_block(curve, 0, 0, curve.runs, 0, np.asarray(curve.budgets))
    optimal = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0).optimal
    np.testing.assert_array_equal(~optimal[root.chosen], failed)


def test_a_run_stopped_at_t_is_the_run_of_budget_t():
    """Without shaping a run's stream does not read its budget: stopped after t playouts, a
    run of budget N is the run of budget t."""
    curve = _curve(adjuster="maxfreq")
    stopped = trace_run(curve, 1, stop=300)
    engine = _engine_tree(curve, 1, 300)
    np.testing.assert_array_equal(stopped.tree.stats[:engine.stats.shape[0]], engine.stats)


@pytest.mark.parametrize("adjuster", ["maxfreq", "score", "value", "static"])
def test_the_threshold_is_the_references(adjuster):
    """The reference's threshold schedule fed the run's playouts (score, reward) moves the
    effective threshold exactly as the traced run did, playout by playout and at the grid."""
    curve = _curve(adjuster=adjuster)
    traced = trace_run(curve, 0)
    log = log_frame(traced)
    schedule = ThresholdSchedule(reference_adjuster(adjuster, traced.instance), curve.freeze)
    expected = []
    for score, reward in zip(log["score"], log["reward"]):
        schedule.record(int(score), float(reward))
        expected.append(schedule.threshold)
    assert log["threshold"].tolist() == expected
    assert len(set(expected)) > 1 or adjuster == "static"
    np.testing.assert_array_equal(traced.root.threshold,
                                  np.asarray(expected)[traced.grid - 1])


def test_options_reach_the_trace():
    plain = trace(BASE, run=1)
    for options in ({"shaping": "qb(k=8)"}, {"discount": 0.5}):
        other = trace(_curve(**options), run=1)
        assert not np.allclose(other["mean"], plain["mean"], equal_nan=True), options
    moved = trace(_curve(adjuster="maxfreq"), run=1)
    assert (moved["threshold"] != 0).any() and (plain["threshold"] == 0).all()


def test_the_trace_table():
    frame = trace("constant(1,5)", "ucb1", "plain", run=3, max_budget=256, branching=4,
                  depth=6)
    grid = playout_grid(256)
    assert set(2 ** np.arange(9)) <= set(grid) and grid[0] == 1 and grid[-1] == 256
    assert frame["playouts"].unique().tolist() == grid.tolist()
    per_point = frame.groupby("playouts")
    assert (per_point["chosen"].sum() == 1).all()
    assert np.allclose(per_point["share"].sum().iloc[1:], 1.0)
    chosen = frame[frame["chosen"]]
    assert (chosen["failed"] == ~chosen["optimal"]).all()


def test_the_anatomy_adds_up_to_the_curves_failures():
    curve = _curve(runs=40, trees=2, tree="random(4,3)")
    table = failure_anatomy(curve, seed=5)
    for j in range(curve.trees):
        failed, _ = simulate_block(curve, j, 0, curve.runs, 5)
        counts = table[table["tree_index"] == j].groupby("budget")["failures"].sum()
        expected = dict(zip(curve.budgets, failed.sum(axis=0)))
        assert counts.to_dict() == {b: n for b, n in expected.items() if n}
    optimal = tree_instance(curve.tree, curve.branching, curve.depth, 5, 0).optimal
    assert not optimal[table[table["tree_index"] == 0]["move"]].any()
    assert ((table["gap"] - (table["win_rate"] - table["optimal_win_rate"])).abs()
            < 1e-12).all()
    # the runs a row names are the curve's own failing runs (the first 5, the rest counted)
    for j in range(curve.trees):
        failed, _ = simulate_block(curve, j, 0, curve.runs, 5)
        for row in table[table["tree_index"] == j].itertuples():
            named = [int(word) for word in row.failing_runs.split() if not word.startswith("+")]
            rest = sum(int(word[1:]) for word in row.failing_runs.split() if word.startswith("+"))
            assert len(named) + rest == row.failures and len(named) == min(row.failures, 5)
            assert failed[named, curve.budgets.index(row.budget)].all()


def test_the_dot_folds_wide_levels_and_parses():
    traced = trace_run(BASE, 0)
    dot = tree_dot(traced, plies=2, width=2)
    assert dot.count("_more [label") == 1 + 2 and "penwidth=3" in dot
    # 9 nodes across the last ply: top to bottom; up to 125: down the page
    assert "rankdir=TB" in dot and "rankdir=LR" in tree_dot(traced, plies=3, width=4)
    assert len(re.findall(r"^\s+n\d+ \[", dot, re.MULTILINE)) <= drawn_nodes(4, 2, 2)
    with pytest.raises(ValueError, match="up to 5461 nodes"):
        tree_dot(traced, plies=6, width=4)
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    svg = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True,
                         check=True).stdout
    assert b"<svg" in svg


SMALL = ["inspect", "--tree", "constant(1,5)", "--branching", "4", "--depth", "6",
         "--max-budget", "512"]


def test_the_command_writes_the_page(tmp_path, capsys, saved_figures):
    folder = tmp_path / "out" / "c15"
    assert main(SMALL + ["--run", "4", "--anatomy", "--runs", "20", "--adjuster", "maxfreq",
                         "--out", str(folder), "--plot", str(tmp_path / "trace.svg")]) == 0
    out = capsys.readouterr().out
    assert "run 4" in out and str(folder / "index.html") in out
    page = (folder / "index.html").read_text()
    assert page.count("<img") == 3 - ("Graphviz's dot is not installed" in out)
    top, means, _ = saved_figures["trace.svg"].axes
    assert top.get_xscale() == "log" and len(top.get_lines()) == len(means.get_lines()) == 4
    # the means on an axis fitted to them, so that differences of hundredths show
    trace = pd.read_csv(folder / "trace.csv")["mean"].dropna()
    low, high = means.get_ylim()
    assert low <= trace.min() and trace.max() <= high
    assert high - low <= max(1.1 * (trace.max() - trace.min()), trace.max() - trace.min() + 0.004)
    assert (folder / "anatomy.csv").stat().st_size > 0 and (folder / "trace.csv").is_file()
    # each wrong move's gap at the failing runs' threshold where it fails most (maxfreq's, not 0)
    anatomy = pd.read_csv(folder / "anatomy.csv")
    labels = saved_figures["anatomy.png"].axes[0].get_legend_handles_labels()[1]
    assert len(labels) == anatomy.groupby(["tree_index", "move"]).ngroups > 0
    for label in labels:
        rows = anatomy[anatomy["move"] == int(label.split(":")[0].split()[1])]
        most = rows.loc[rows["failures"].idxmax()]
        gap = most["win_rate_at_threshold"] - most["optimal_win_rate_at_threshold"]
        assert label.endswith(f"gap {gap:+.2g} at threshold {most['threshold']:.3g}")


def test_the_page_says_why_the_run_fails_and_links_its_instances_analysis(tmp_path, capsys):
    """Run 0 of BASE at 512 playouts plays move 3 of Constant(1,5) b=4 d=6, whose uniform
    playouts at threshold 0 win about as often as the optimal move's (Eq. 5's gap about 0):
    the sentence gives both win rates from the exact analysis and the static threshold; the
    analyze command printed is of the very instance (its optimal move is the trace's)."""
    import html
    import json
    import shlex

    from experiments.inspect.anatomy import failure_reason
    from trees import analyze, win_rates_at

    traced = trace_run(_curve(max_budget=512), 0)
    analysis = analyze(traced.instance)
    rates = win_rates_at(analysis.support, analysis.pmf, np.array([0.0]))[:, 0]
    optimal = np.flatnonzero(traced.instance.optimal)
    move = int(traced.root.chosen[-1])
    assert move not in optimal
    reason = failure_reason(traced)
    assert reason == (
        f"After 512 playouts the run plays move {move}, not an optimal move "
        f"({', '.join(map(str, optimal))}): at its threshold 0, uniform playouts from move "
        f"{move} win {rates[move]:.3f} against {rates[optimal].max():.3f} from the best optimal "
        "move, a gap of about 0 that the search cannot tell apart; at the static threshold "
        f"{analysis.static_threshold:g} the optimal move leads by {analysis.delta.max():.3f} "
        "(--adjuster static, the oracle; maxfreq seeks it).")
    assert main(SMALL + ["--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert reason in out
    command = re.search(r"the instance's exact analysis: (mctslab analyze .*)$", out,
                        re.MULTILINE).group(1)
    assert main(shlex.split(command)[1:] + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["optimal_move"] == int(optimal[0])
    page = html.unescape((tmp_path / "index.html").read_text())
    assert reason in page and f"The tree instance's exact analysis: {command}" in page


@needs_chromium
def test_the_page_renders_every_figure_in_chromium(tmp_path):
    folder = tmp_path / "c15"
    assert main(SMALL + ["--anatomy", "--runs", "10", "--out", str(folder)]) == 0
    widths = image_widths(folder / "index.html", tmp_path)
    assert len(widths) == (3 if shutil.which("dot") else 2)
    assert all(width > 0 for width in widths), widths
    # in a 1400-pixel window nothing scrolls sideways, and the tree (its 85 nodes drawn down
    # the page) is shrunk by a fifth at most to fit: its 8 pt labels stay 6.4 pt or more
    # (drawn across, it was 3,500 pt wide, shrunk four times)
    scroll, window, sizes = page_layout(folder / "index.html", tmp_path)
    assert scroll <= window, (scroll, window)
    if shutil.which("dot"):
        natural, drawn = sizes[1]
        assert drawn >= 0.8 * natural, sizes


@pytest.mark.parametrize("extra, message", [
    (["--at", "1024"], "--at 1024 is beyond the run"),
    (["--plies", "6"], "lower --plies or --width"),
    (["--tree", "nosuch(1)"], "nosuch"),
    (["--plot", "trace.txt"], "figure file name"),
    (["--out", "{file}"], "is a file: name a folder"),
])
def test_bad_input_is_one_line(extra, message, tmp_path, capsys):
    (tmp_path / "file").write_text("")
    extra = [word.replace("{file}", str(tmp_path / "file")) for word in extra]
    assert main(SMALL + ["--out", str(tmp_path / "x")] + extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_play_keeps_every_moves_root(tmp_path, capsys):
    import pandas as pd

    path = tmp_path / "game.csv"
    assert main(["play", "breakthrough", "--player1", "uct", "--player2", "uct(c=0.5)",
                 "--playouts", "20", "--seed", "2", "--trace", str(path)]) == 0
    plies = int(re.search(r"after (\d+) moves", capsys.readouterr().out)[1])
    table = pd.read_csv(path, keep_default_na=False)
    per_move = table.groupby("ply")
    assert per_move.ngroups == plies and (per_move["chosen"].sum() == 1).all()
    assert (per_move["visits"].sum() <= per_move["playouts"].first()).all()
    assert set(table["player"]) == {1, 2} and set(table["proven"]) <= {"", "won", "draw", "lost"}
    assert main(["play", "breakthrough", "--player1", "uct", "--player2", "uct",
                 "--trace", str(tmp_path / "game.txt")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
