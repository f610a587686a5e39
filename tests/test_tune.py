"""``mctslab tune`` on synthetic trees: the race's tests against exact binomial sums and their
power at the sizes the race runs, the tuned value against a brute-force grid of independent
runs (a one-ply search on Constant'(1,13), UCB1 on Constant(1,5)), a planted optimum, resuming
and workers. UCB1's kernel on b = 4 trees is the suite's; the planted plug-in adds one."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pandas as pd
import pytest

from experiments.cli import main
from experiments.curves.curve import Curve
from experiments.curves.failure import simulate_block
from experiments.intervals import wilson_interval
from experiments.tuning.race import dropped_at_look, look_sizes, paired_p_values
from experiments.tuning.space import parse_range
from experiments.tuning.synthetic import tune


def test_ranges_read_as_written():
    one = parse_range("c=0.05..5:log")
    assert (one.name, one.low, one.high, one.log) == ("c", 0.05, 5.0, True)
    assert list(one.values(3)) == [0.05, 0.5, 5.0]
    linear = parse_range("epsilon = 0 .. 0.5")
    assert not linear.log and list(linear.values(3)) == [0.0, 0.25, 0.5]
    assert parse_range("x=1e-3..2").low == 0.001
    assert parse_range("c=.05..5").low == 0.05 and parse_range("c=1.5e-3..2:log").low == 0.0015


def test_looks_double_from_one_run_per_instance():
    assert look_sizes(2048, 16) == [16, 32, 64, 128, 256, 512, 1024, 2048]
    assert look_sizes(100, 16) == [16, 32, 64, 112]  # 100 runs rounded up to whole instances


def test_sign_test_is_the_exact_binomial_tail():
    """Paired 0/1 losses: 7 units where column 1 failed and column 0 did not, 2 the other way,
    11 ties: p = P(Bin(9, 1/2) >= 7)."""
    losses = np.array([[0, 1]] * 7 + [[1, 0]] * 2 + [[0, 0]] * 6 + [[1, 1]] * 5)
    expected = sum(comb(9, k) for k in range(7, 10)) / 2**9
    assert paired_p_values(losses, best=0)[1] == pytest.approx(expected)
    assert paired_p_values(losses, best=0)[0] == 1.0


def test_a_worse_value_is_dropped_and_an_equal_one_kept_at_the_first_looks():
    """Power and level at the first looks' sizes (16 and 32 runs, level 0.05 / 8 looks, Holm
    over 15 others): a value failing 80% against one failing 10% (independent runs) is dropped
    in most races; a copy of the best (the same runs) never is."""
    rng = np.random.default_rng(1)
    dropped_bad, dropped_equal = [], []
    for _ in range(200):
        best = rng.random(32) < 0.1
        others = [rng.random(32) < 0.8 for _ in range(14)]
        losses = np.column_stack([best, best.copy(), *others]).astype(float)
        for n in (16, 32):
            dropped = dropped_at_look(losses[:n], 0.05 / 8)
            if n == 32:
                dropped_bad.append(dropped[2:].mean())
                dropped_equal.append(dropped[:2].any())
    assert np.mean(dropped_bad) > 0.9
    assert not any(dropped_equal)


def _brute_force(tree: str, values: list[float], budget: int, runs: int, **shape):
    """Each value's failure rate at ``budget`` over ``runs`` runs on each of 4 instances of
    seed 99 (apart from the tuning's), and the values whose Wilson 95% interval meets the best
    value's."""
    rates = []
    for c in values:
        curve = Curve(tree, "ucb1", runs=1, trees=1, max_budget=budget,
                      policy_params={"c": c}, **shape)
        failed = np.concatenate([simulate_block(curve, j, 0, runs, 99)[0][:, -1]
                                 for j in range(4)])
        rates.append((failed.sum(), len(failed)))
    low, high = (np.asarray(bound) for bound in wilson_interval(*map(np.array, zip(*rates))))
    best = int(np.argmin([k / n for k, n in rates]))
    return {c for c, lo in zip(values, low, strict=True) if lo <= high[best]}


@pytest.mark.parametrize(("tree", "shape", "budget", "param"), [
    ("constant'(1,13)", {"search_depth": 1}, 256, "c=0.01..10:log"),  # one-ply: U-shaped
    ("constant(1,5)", {"depth": 6}, 1024, "c=0.003..3:log"),
])
def test_the_tuned_value_lies_in_the_brute_force_interval(tree, shape, budget, param):
    table = tune(tree, "ucb1", param, budgets=(budget,), values=7, runs=256, seed=3,
                 progress=False, **shape)
    chosen = float(table.loc[table["chosen"], "c"].iloc[0])
    interval = _brute_force(tree, list(table["c"]), budget, 500, **shape)
    assert chosen in interval, (chosen, sorted(interval))
    assert len(interval) < len(table)  # the grid separates: the check can fail


def test_a_planted_optimum_is_found(tmp_path):
    """tests/planted_policy.py: UCB1 whose constant grows as x leaves 2 (either way)."""
    table = tune("constant(1,5)", "planted_policy:policy", "x=0.25..16:log", depth=6,
                 budgets=(1024,), values=13, runs=256, seed=5, progress=False)
    chosen = float(table.loc[table["chosen"], "x"].iloc[0])
    kept = table.loc[table["kept"], "x"]
    assert 2 / 1.5 <= chosen <= 2 * 1.5
    assert kept.min() <= 2.0 <= kept.max()
    assert kept.min() > 0.25 and kept.max() < 16  # both ends shown worse


def test_tune_resumes_and_workers_give_the_same_numbers(tmp_path, capsys):
    """The command stores every look's runs: a second run computes nothing and prints the same
    result; a worker, searching on one thread as each of many does, gives the same table; two
    parameters (UCB-V's zeta and c) race their product, reported per parameter."""
    argv = ["tune", "--tree", "constant(1,3)", "--depth", "4", "--policy", "ucbv",
            "--param", "zeta=0.2..2:log", "--param", "c=0.1..3:log", "--values", "3",
            "--budgets", "16", "64", "--runs", "64", "--trees", "4", "--json"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    first = json.loads(capsys.readouterr().out)
    table = pd.read_csv(tmp_path / "a" / "candidates.csv")
    assert len(table) == 9 and set(first["interval"]) == {"zeta", "c"}
    assert first["loss_name"].startswith("area of the failure curve over 16..64")
    stored = sorted(p.name for p in (tmp_path / "a" / "runs").iterdir())
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    again = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in (tmp_path / "a" / "runs").iterdir()) == stored
    counts = ("seconds", "simulated_playouts", "stored_playouts")
    assert {k: v for k, v in again.items() if k not in counts} == {
        k: v for k, v in first.items() if k not in counts}
    # the rerun simulates nothing and says so (the default's runs included: stored too)
    assert first["stored_playouts"] == 0 and again["simulated_playouts"] == 0
    assert again["stored_playouts"] == first["simulated_playouts"] > first["playouts"]
    # the chosen value's and UCB-V's defaults' curves over every budget, on the same runs
    curves = pd.read_csv(tmp_path / "a" / "curves.csv")
    assert first["default"] == {"zeta": 1.2, "c": 1.0}
    default = curves[curves["which"] == "default"]
    assert default[["zeta", "c"]].drop_duplicates().values.tolist() == [[1.2, 1.0]]
    assert default["budget"].tolist() == [1, 2, 4, 8, 16, 32, 64]
    runs = int(table.loc[table["chosen"], "runs"].iloc[0])  # the chosen value's runs
    assert set(curves["runs"]) == {runs} and len(curves) == 14
    chosen = curves[curves["which"] == "chosen"].iloc[0]
    assert {"zeta": chosen["zeta"], "c": chosen["c"]} == first["chosen"]
    report = (tmp_path / "a" / "report.md").read_text()
    assert "## The chosen value and the default over every budget" in report
    assert (tmp_path / "a" / "tune_curves.png").stat().st_size > 0
    assert "| budget | chosen (zeta = " in report and "| default (zeta = 1.2, c = 1) |" in report
    assert main([*argv, "--out", str(tmp_path / "b"), "--workers", "1"]) == 0
    capsys.readouterr()
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "b" / "candidates.csv"), table)
    assert (tmp_path / "a" / "tune.png").stat().st_size > 0


def test_a_folder_of_another_tuning_is_refused(tmp_path, capsys):
    argv = ["tune", "--tree", "constant(1,3)", "--depth", "4", "--param", "c=0.1..3:log",
            "--values", "2", "--budget", "16", "--runs", "4", "--trees", "4", "--quiet",
            "--out", str(tmp_path)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv[:2], "constant(1,2)", *argv[3:]]) == 2
    line = capsys.readouterr().err.strip()
    assert "holds a tuning of tree constant(1,3), this asks tree constant(1,2)" in line
    assert "\n" not in line
    one_ply = [*argv[:-1], str(tmp_path / "one-ply")]
    assert main([*one_ply, "--search-depth", "1"]) == 0
    capsys.readouterr()
    assert main(one_ply) == 2  # a field the stored tuning has and this one leaves out
    err = capsys.readouterr().err
    assert "holds a tuning of search_depth 1, this asks search_depth None" in err


def test_the_search_rules_reach_the_tuning(tmp_path, capsys):
    """--failure, --final-move, --no-solver and --reward tune the search that runs under them
    (Kocsis & Szepesvari's UCT: no solver, failure by the best score), stored in tune.json;
    the API takes them by name and refuses another."""
    argv = ["tune", "--tree", "constant(1,3)", "--depth", "4", "--param", "c=0.1..3:log",
            "--values", "2", "--budget", "16", "--runs", "4", "--trees", "4", "--quiet",
            "--failure", "score", "--final-move", "mean", "--no-solver", "--reward", "linear",
            "--out", str(tmp_path / "ks")]
    assert main(argv) == 0
    stored = json.loads((tmp_path / "ks" / "tune.json").read_text())
    assert {key: stored[key] for key in ("failure", "final_move", "solver", "reward")} == {
        "failure": "score", "final_move": "mean", "solver": False, "reward": "linear"}
    table = tune("constant(1,3)", "ucb1", "c=0.1..3:log", depth=4, values=2, budgets=(16,),
                 runs=4, trees=4, failure="score", solver=False, reward="linear",
                 final_move="mean", out=tmp_path / "ks")  # the same tuning: read back
    assert table["loss"].tolist() == pd.read_csv(tmp_path / "ks" / "candidates.csv")[
        "loss"].tolist()
    with pytest.raises(ValueError, match="tune.. has no option 'solvers'"):
        tune("constant(1,3)", "ucb1", "c=0.1..3:log", solvers=False)
    capsys.readouterr()
    assert main(["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct",
                 "--no-solver"]) == 2
    assert "--no-solver applies to a tuning on a tree" in capsys.readouterr().err

def test_compare_tuned_tunes_on_instances_apart_from_the_compared_ones(tmp_path, capsys):
    """``compare --tuned``: every tuning's instances (its tune.json's seed, instances 0 .. M-1)
    are none of the comparison's (compare.json's seed), read from the stored files; the tuned
    cell runs at the chosen constant and is reported as ucb1(tuned); the tunings search under
    the grid's rules (here without the solver)."""
    from experiments.curves.failure import instance_seed
    from experiments.tuning.compared import tuning_seed

    out = tmp_path / "grid"
    assert main(["compare", "--trees", "constant(1,3)", "--depth", "4", "--policies", "ucb1",
                 "thompson", "--adjusters", "plain", "--runs", "4", "--trees-per-model", "4",
                 "--max-budget", "64", "--tuned", "--no-solver", "--quiet", "--workers", "1",
                 "--out", str(out)]) == 0
    grid = json.loads((out / "compare.json").read_text())
    tunings = [json.loads(path.read_text()) for path in (out / "tuning").glob("*/tune.json")]
    assert [(one["policy"], one["tree"]) for one in tunings] == [("ucb1", "constant(1,3)")]
    assert tunings[0]["solver"] is False and grid["solver"] is False
    compared = {instance_seed(grid["seed"], j) for j in range(grid["trees_per_model"])}
    tuned = {instance_seed(one["seed"], j) for one in tunings for j in range(one["trees"])}
    assert len(compared) == 4 and len(tuned) == 4 and not compared & tuned
    assert tunings[0]["seed"] == tuning_seed(grid["seed"]) != grid["seed"]
    chosen = pd.read_csv(out / "tuned.csv")["chosen"].iloc[0]
    assert grid["tuned"] == [{"tree": "constant(1,3)", "policy": "ucb1", "adjuster": "plain",
                              "params": {"c": chosen}}]
    runs = pd.read_parquet(out / "runs.parquet")
    assert set(runs["policy"]) == {"ucb1", "ucb1(tuned)", "thompson"}
    assert "## Constants tuned per tree" in (out / "report.md").read_text()
    against = pd.read_csv(out / "tuned_tests.csv", keep_default_na=False)
    assert against[["method", "baseline"]].values.tolist() == [["ucb1(tuned)+plain",
                                                                "ucb1+plain"]]
    before = sorted((out / "tuning").iterdir())
    capsys.readouterr()
    assert main(["compare", "--trees", "constant(1,3)", "--depth", "4", "--policies", "ucb1",
                 "--adjusters", "plain", "--runs", "4", "--trees-per-model", "4",
                 "--max-budget", "64", "--tuned", "--seed", "7", "--quiet", "--workers", "1",
                 "--out", str(out)]) == 2  # another seed's folder: refused before any tuning
    assert "seed" in capsys.readouterr().err and sorted((out / "tuning").iterdir()) == before


def test_a_constant_tuned_to_its_default_is_its_entry_cell_under_the_tuned_label():
    """KL-UCB's c tuned to 0, its default, is KL-UCB's own curve: computed once, and still a
    cell of klucb(tuned) beside klucb; UCB1's c tuned to 0.5 is a curve of its own."""
    from experiments.cli.commands.compare import cells_text
    from experiments.comparisons.grid import Grid

    tuned = [{"tree": "constant(1,3)", "policy": policy, "adjuster": "plain", "params": params}
             for policy, params in (("klucb", {"c": 0.0}), ("ucb1", {"c": 0.5}))]
    grid = Grid.from_scale(["constant(1,3)"], ["klucb", "ucb1", "ucb1(c=0.5)"], ["plain"],
                           depth=4, tuned=tuned)
    cells = [(policy, curve.key) for curve, (_, policy, _) in grid.labelled()]
    assert [policy for policy, _ in cells] == ["klucb", "klucb(tuned)", "ucb1", "ucb1(tuned)",
                                               "ucb1(c=0.5)"]
    assert cells[0][1] == cells[1][1] and cells[2][1] != cells[3][1] == cells[4][1]
    assert [curve.key for curve in grid.curves()] == [cells[0][1], cells[2][1], cells[3][1]]
    assert grid.methods == ["klucb+plain", "klucb(tuned)+plain", "ucb1+plain",
                            "ucb1(tuned)+plain", "ucb1(c=0.5)+plain"]
    assert grid.cells == 5
    # the tests test each curve once: a tuned cell is its entry's, or the entry's is its
    assert grid.same_cells() == {
        ("constant(1,3) b=4 d=4", "klucb(tuned)+plain"): "klucb+plain",
        ("constant(1,3) b=4 d=4", "ucb1(tuned)+plain"): "ucb1(c=0.5)+plain"}
    config = "constant(1,3) b=4 d=4"
    assert grid.tuned_pairs() == [(config, "klucb(tuned)+plain", "klucb+plain"),
                                  (config, "ucb1(tuned)+plain", "ucb1+plain")]
    assert cells_text(grid) == ("5 cells (2 of them tuned to the constant of another cell, "
                                "whose runs they share: 3 computed and tested)")
    with pytest.raises(ValueError, match="names constant.1,3. ucb1 plain twice"):
        Grid.from_scale(["constant(1,3)"], ["ucb1(c=0.5)", "ucb1(c=0.50)"], ["plain"], depth=4)


def test_the_full_scale_projection_counts_the_tunings():
    """compare --tuned's projection: a tuned cell per tuning, and each race's values x runs x
    budget at most, at the per-playout costs of the grid's cells."""
    from experiments.cli.commands.compare import PLAYOUT_NS, core_hours
    from experiments.comparisons.grid import Grid
    from experiments.tuning.compared import VALUES, tunings

    grid = Grid.from_scale(["constant(1,2)"], ["ucb1", "thompson"], ["plain"], "full")
    plan = tunings(grid)
    assert [tuning.policy for tuning in plan] == ["ucb1"]  # Thompson sampling has no constant
    cell = grid.trees_per_model * grid.runs * grid.max_budget
    race = VALUES["full"] * cell
    ucb1, thompson = PLAYOUT_NS["ucb1"], PLAYOUT_NS["thompson"]
    assert core_hours(grid) == pytest.approx((ucb1 + thompson) * cell / 3.6e12)
    assert core_hours(grid, plan) == pytest.approx(
        (ucb1 * (2 * cell + race) + thompson * cell) / 3.6e12)


def test_an_end_of_the_range_is_flagged_only_where_the_domain_goes_beyond_it():
    """A chosen value at the low end of KL-UCB's c = 0..3 is the domain's bound (c >= 0): no
    wider range exists, so it is not at an edge; UCB1's c = 0.01 is; and a race that kept
    every value flags nothing (an end chosen among equals says nothing)."""
    from experiments.tuning.space import ParamRange
    from experiments.tuning.synthetic import Tuning, _at_edge

    klucb = Tuning("constant(1,3)", "klucb", (ParamRange("c", 0.0, 3.0),), depth=4, values=4)
    ucb1 = Tuning("constant(1,3)", "ucb1", (ParamRange("c", 0.01, 10.0, log=True),), depth=4,
                  values=4)
    assert _at_edge(klucb, pd.Series({"c": 0.0}), resolved=True) == {}
    assert _at_edge(klucb, pd.Series({"c": 3.0}), resolved=True) == {"c": "high"}
    assert _at_edge(ucb1, pd.Series({"c": 0.01}), resolved=True) == {"c": "low"}
    assert _at_edge(ucb1, pd.Series({"c": 0.01}), resolved=False) == {}


def test_budgets_read_as_a_range_of_powers_of_two(capsys):
    """``--budgets 1..16384`` is every power of two from 1 to 16384, in tune and bandit, mixed
    with single budgets; a range whose ends are not powers of two is one line, exit 2."""
    from experiments.cli.mctslab import build_parser

    parser = build_parser()
    tune_args = parser.parse_args(["tune", "--tree", "constant(1,5)", "--budgets", "1..16384"])
    assert tune_args.budgets == [2**k for k in range(15)]
    assert parser.parse_args(["tune", "--tree", "constant(1,5)", "--budgets", "16",
                              "64..256"]).budgets == [16, 64, 128, 256]
    assert parser.parse_args(["bandit", "--budgets", "16..64"]).budgets == [16, 32, 64]
    assert main(["tune", "--tree", "constant(1,5)", "--budgets", "3..16"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "3..16 is no range of budgets: write LOW..HIGH, two powers" in err
