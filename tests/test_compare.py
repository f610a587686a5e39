"""The comparison grid: its cells, its per-instance table, pairing by instance,
the same numbers on one worker and on a Dask cluster, resuming and growing, the atlas preset,
the study-file kind and the command's one-line refusals. Few policies and small budgets: the
engine compiles one kernel per policy x adjuster (about 20 s each from a cold cache)."""

import json
import shutil

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from bandits import POLICIES
from experiments.cli import main
from experiments.comparisons import (
    ATLAS_ADJUSTERS,
    ATLAS_TREES,
    INSTANCE_COLUMNS,
    Grid,
    compare,
    instance_table,
    open_grid,
    preset_lists,
    read_grid,
    run_compare,
    run_table,
    write_comparison,
)
from experiments.comparisons.cells import CELL_FOLDER
from experiments.comparisons.study_files import read_study
from mcts import STREAM_VERSION

TREES = ("constant(1,2)", "random(4,1)")
SMALL = {"branching": 4, "depth": 4, "runs": 6, "trees_per_model": 3, "max_budget": 32,
         "block": 4, "seed": 7}


def small_grid(**changes) -> Grid:
    return Grid(**{"trees": TREES, "policies": ("ucb1", "thompson"), "adjusters": ("plain",),
                   **SMALL, **changes})


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The small grid run once on one worker."""
    folder = tmp_path_factory.mktemp("compare") / "one"
    summary, _ = run_compare(small_grid(), folder, workers=1, progress=False)
    return folder, summary


def test_a_small_grid_runs_into_a_tidy_instance_table(stored):
    folder, summary = stored
    table = instance_table(folder)
    assert list(table.columns) == INSTANCE_COLUMNS
    # 2 trees x 2 policies x 1 adjuster x 3 instances x budgets 1..32
    assert len(table) == 2 * 2 * 3 * 6
    assert set(table.config) == {"constant(1,2) b=4 d=4", "random(4,1) b=4 d=4"}
    assert set(table.policy) == {"ucb1", "thompson"} and set(table.adjuster) == {"plain"}
    # runs summed over the two blocks (4 + 2) of each instance
    assert (table.runs == 6).all()
    assert ((0 <= table.failures) & (table.failures <= table.runs)).all()
    assert summary.shards == 2 * 2 * 3 * 2 and summary.computed == summary.shards
    assert table.equals(pq.read_table(folder / "instances.parquet").to_pandas())
    assert open_grid(folder) == small_grid()


def test_the_report_is_written_beside_the_results(stored):
    folder, _ = stored
    text = (folder / "report.md").read_text()
    assert "heatmap_eps0.05.png" in text and "## Tests at each budget (unit: the run)" in text
    assert "baseline of the tests (every other method is tested against it): ucb1+plain" in text
    assert f"random stream version: {STREAM_VERSION}" in text and "runs per cell: 18" in text
    for name in ("curves", "to_epsilon", "budget_tests", "curve_tests", "cell_areas",
                 "aggregates", "improvement", "profile"):
        assert (folder / f"{name}.csv").exists()
    assert (folder / "report.html").read_text().count("data:image/png;base64") == 5
    # rows as the grid lists its trees and policies (ucb1 before thompson), not by name
    to_epsilon = pd.read_csv(folder / "to_epsilon.csv")
    assert list(dict.fromkeys(to_epsilon.policy)) == ["ucb1", "thompson"]
    assert list(dict.fromkeys(to_epsilon.config)) == ["constant(1,2) b=4 d=4",
                                                      "random(4,1) b=4 d=4"]


def test_each_cells_anatomy_command_reproduces_the_cells_runs(stored, tmp_path, capsys):
    """The report's command of a cell is the cell's curve under its seeds: run, its failure
    anatomy's counts add up to the cell's stored failures at every budget."""
    import shlex

    from experiments.cli.commands.failure_rate import curve_from_args
    from experiments.cli.mctslab import build_parser
    from experiments.comparisons import anatomy_commands

    folder, _ = stored
    commands = pd.read_csv(folder / "anatomy_commands.csv")
    grid = small_grid()
    assert len(commands) == len(grid.curves())
    for curve, command in zip(grid.curves(), commands["command"]):
        args = build_parser().parse_args(shlex.split(command)[1:])
        assert curve_from_args(args) == curve and args.tree_seed == grid.seed
    ruled = small_grid(reward="linear", final_move="robust", failure="score")
    for curve, command in zip(ruled.curves(), anatomy_commands(ruled)["command"]):
        assert curve_from_args(build_parser().parse_args(shlex.split(command)[1:])) == curve
    assert "Failure anatomy of each cell" in (folder / "report.md").read_text()
    row = commands.iloc[0]
    argv = shlex.split(row["command"])[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "cell")
    assert main(argv) == 0
    anatomy = pd.read_csv(tmp_path / "cell" / "anatomy.csv")
    stored_runs = instance_table(folder)
    cell = stored_runs[(stored_runs.config == row["config"]) & (stored_runs.policy == row["policy"])
                       & (stored_runs.adjuster == row["adjuster"])]
    expected = cell.groupby("budget")["failures"].sum()
    got = anatomy.groupby("budget")["failures"].sum().reindex(expected.index, fill_value=0)
    assert expected.sum() > 0 and got.equals(expected)


def test_the_worst_cells_anatomy_adds_up_to_their_failures(stored, tmp_path):
    """With ``anatomy`` the report shows the anatomy of each configuration's worst cell (the
    largest area), whose failures are the cell's at every budget."""
    folder = tmp_path / "copy"
    shutil.copytree(stored[0], folder)
    tables = write_comparison(small_grid(), folder, anatomy=True)
    commands, worst = tables["anatomy_commands"], tables["worst_anatomy"]
    assert (commands.groupby("config")["worst"].sum() == 1).all()
    areas = tables["cell_areas"].merge(commands, on=["config", "policy", "adjuster"])
    assert (areas[areas["worst"]].set_index("config")["area"]
            == areas.groupby("config")["area"].max()).all()
    cells = instance_table(folder).groupby(["config", "policy", "adjuster", "budget"])[
        "failures"].sum()
    for key, rows in worst.groupby(["config", "policy", "adjuster"]):
        expected = cells.loc[key]
        got = rows.groupby("budget")["failures"].sum().reindex(expected.index, fill_value=0)
        assert got.equals(expected)
    assert len(worst.groupby(["config", "policy", "adjuster"])) == 2
    text = (folder / "report.md").read_text()
    assert "The anatomy of the worst cells" in text and (folder / "worst_anatomy.csv").exists()


def test_every_policy_searches_the_same_instances(stored):
    folder, _ = stored
    table = instance_table(folder)
    instances = {policy: sorted(set(zip(part.config, part.tree_index)))
                 for policy, part in table.groupby("policy")}
    assert instances["ucb1"] == instances["thompson"]
    assert len(instances["ucb1"]) == 2 * 3
    # the stored cells name the same instances: tree, shape, tree seed and index
    keys = {}
    for path in (folder / CELL_FOLDER).glob("*.parquet"):
        meta = json.loads(pq.read_schema(path).metadata[b"mctslab"])
        curve = meta["cell"]["curve"]
        keys.setdefault(curve["policy"], set()).add(
            (curve["tree"], curve["branching"], curve["depth"], meta["cell"]["seed"],
             meta["tree_index"]))
    assert keys["ucb1"] == keys["thompson"] and len(keys["ucb1"]) == 6


def test_resuming_recomputes_nothing(stored):
    folder, _ = stored
    before = {path: path.stat().st_mtime_ns for path in (folder / CELL_FOLDER).iterdir()}
    summary, _ = run_compare(small_grid(), folder, workers=1, progress=False)
    assert summary.computed == 0 and summary.reused == summary.shards == len(before)
    assert summary.cells_computed == 0
    assert {path: path.stat().st_mtime_ns
            for path in (folder / CELL_FOLDER).iterdir()} == before


def test_a_dask_cluster_stores_the_same_numbers(stored, tmp_path):
    folder, _ = stored
    run_compare(small_grid(), tmp_path / "dask", workers=2, scheduler="local", progress=False)
    assert instance_table(tmp_path / "dask").equals(instance_table(folder))


def test_the_python_function_returns_the_instance_table(stored, tmp_path):
    folder, _ = stored
    tables = compare(TREES, ["ucb1", "thompson"], ["plain"], workers=1, out=tmp_path / "f",
                     **{k: v for k, v in SMALL.items() if k != "block"})
    assert list(tables["instances"].columns) == INSTANCE_COLUMNS
    assert {"curves", "to_epsilon", "budget_tests", "curve_tests", "aggregates", "improvement",
            "profile"} <= set(tables)
    # another block size, the same runs: the same failures per instance
    assert np.array_equal(tables["instances"].failures, instance_table(folder).failures)
    # the report records the call that reruns it, its arguments at their defaults left out
    call = ("experiments.comparisons.compare(['constant(1,2)', 'random(4,1)'], ['ucb1', "
            "'thompson'], ['plain'], runs=6, trees_per_model=3, max_budget=32, seed=7, "
            f"depth=4, out={str(tmp_path / 'f')!r})")
    report = (tmp_path / "f" / "report.md").read_text()
    assert f"To rerun it:\n\n```\n{call}\n```" in report


def test_a_compare_study_file_reads_into_the_same_grid(stored, tmp_path, capsys):
    folder, _ = stored
    path = tmp_path / "grid.toml"
    path.write_text('[study]\nkind = "compare"\nseed = 7\n\n[compare]\n'
                    'trees = ["constant(1,2)", "random(4,1)"]\npolicies = ["ucb1", "thompson"]\n'
                    'adjusters = "plain"\nbranching = 4\ndepth = 4\nruns = 6\n'
                    'trees_per_model = 3\nmax_budget = 32\nblock = 4\n')
    assert read_grid(path) == small_grid()
    assert read_study(path) == small_grid().study()
    assert main(["study", "run", str(path), "--out", str(tmp_path / "s"), "--workers", "1"]) == 0
    assert instance_table(tmp_path / "s").equals(instance_table(folder))
    assert main(["study", "status", str(tmp_path / "s")]) == 0
    assert "complete" in capsys.readouterr().out


def test_a_compare_study_file_may_start_from_the_atlas(tmp_path):
    path = tmp_path / "atlas.toml"
    path.write_text('[study]\nkind = "compare"\n\n[compare]\npreset = "atlas"\n'
                    'policies = ["ucb1"]\nruns = 1\ntrees_per_model = 1\nmax_budget = 2\n')
    grid = read_grid(path)
    assert grid.trees == tuple(preset_lists("atlas")["trees"]) and grid.name == "atlas"
    assert grid.policies == ("ucb1",) and grid.adjusters == ATLAS_ADJUSTERS
    path.write_text('[study]\nkind = "compare"\n\n[compare]\ntrees = ["constant(1,2)"]\n'
                    'policies = ["ucb1"]\n')
    with pytest.raises(ValueError, match="key 'adjusters' is missing"):
        read_grid(path)
    path.write_text('[study]\nkind = "grid"\n')
    with pytest.raises(ValueError, match="kind = 'grid' is unknown"):
        read_study(path)


def test_the_full_scale_prints_its_projected_core_hours(tmp_path, capsys):
    assert main(["compare", "--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters",
                 "plain", "--scale", "full", "--runs", "1", "--trees-per-model", "1",
                 "--max-budget", "2", "--out", str(tmp_path / "f"), "--workers", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "scale full" in first and "core-hours" in first
    full = Grid.from_scale(["constant(1,2)"], ["ucb1", "bayesucb"], ["plain"], "full")
    assert full.runs * full.trees_per_model >= 1000 and full.max_budget == 2**14


def test_the_atlas_preset_lists_the_biased_trees_every_policy_and_three_adjusters():
    lists = preset_lists("atlas")
    assert lists["trees"] == list(ATLAS_TREES)
    assert ATLAS_TREES[:7] == tuple(f"constant(1,{b})" for b in range(1, 8))
    assert {"constant'(1,13)", "random(4,0)", "random(4,4)", "pgame(127)",
            "random(4,3)+trap(3,0.2)"} <= set(ATLAS_TREES) and len(ATLAS_TREES) == 15
    assert lists["policies"] == [*POLICIES, "ucb1(root=sh)", "ucb1(root=gumbel)"]
    assert lists["adjusters"] == ["plain", "maxfreq", "maxfreq(rescore=1)", "static"]
    quick = Grid.from_scale(lists["trees"], lists["policies"], lists["adjusters"], "quick")
    assert quick.runs * quick.trees_per_model >= 200 and quick.trees_per_model >= 8
    assert quick.max_budget == 2**14


def test_the_traps_preset_grows_the_traps_level_and_density():
    """UCT, alpha-beta (draw and playout leaves) and flat MC on random(4,3), bare and with
    traps of level 1, 3, 5 at densities 0.1, 0.3, 0.6; a baseline takes one cell per tree."""
    lists = preset_lists("traps")
    assert lists["trees"][0] == "random(4,3)" and len(lists["trees"]) == 10
    assert "random(4,3)+trap(5,0.6)" in lists["trees"]
    grid = Grid.from_scale(lists["trees"], lists["policies"], lists["adjusters"], "quick",
                           name=lists["name"])
    assert grid.cells == 40 and grid.methods[0] == "ucb1+plain"
    with pytest.raises(ValueError, match="use atlas or traps"):
        preset_lists("mazes")


def test_the_atlas_at_a_tiny_scale_runs_in_seconds(tmp_path, capsys):
    # every atlas tree and adjuster, one policy (its kernels are the suite's already)
    assert main(["compare", "--preset", "atlas", "--policies", "ucb1", "--runs", "2",
                 "--trees-per-model", "1", "--max-budget", "8", "--out", str(tmp_path / "a"),
                 "--workers", "1", "--format", "svg,pdf"]) == 0
    # the headline figure and every other, as PNG (the report's), SVG and PDF
    assert "![Playouts each policy needs" in (tmp_path / "a" / "report.md").read_text()
    for name in ("headline_eps0.05", "heatmap_eps0.05", "failure_curves", "profiles"):
        for suffix in (".png", ".svg", ".pdf"):
            assert (tmp_path / "a" / f"{name}{suffix}").stat().st_size > 0, name + suffix
    assert (tmp_path / "a" / "headline_eps0.05.pdf").read_bytes().startswith(b"%PDF")
    table = instance_table(tmp_path / "a")
    assert table.config.nunique() == len(preset_lists("atlas")["trees"])
    assert set(table.adjuster) == {"plain", "maxfreq", "maxfreq(rescore=1)", "static"}
    assert f"atlas: {table.config.nunique() * 4} cells" in capsys.readouterr().out


@pytest.mark.slow
def test_the_whole_atlas_at_a_tiny_scale(tmp_path):
    # all 27 kernels: minutes from a cold cache, seconds from a warm one
    assert main(["compare", "--preset", "atlas", "--runs", "1", "--trees-per-model", "1",
                 "--max-budget", "4", "--out", str(tmp_path / "a"), "--quiet"]) == 0
    assert len(instance_table(tmp_path / "a")) == 9 * 4 * len(preset_lists("atlas")["trees"]) * 3


@pytest.mark.parametrize("argv, words", [
    (["--trees", "constant(1,2)", "--policies", "nope", "--adjusters", "plain"],
     "unknown policy 'nope'"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters", "nope"],
     "unknown adjuster 'nope'"),
    (["--trees", "nope(1)", "--policies", "ucb1", "--adjusters", "plain"],
     "unknown tree model 'nope'"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters", "plain",
      "--epsilon", "1.5"], "argument --epsilon: 1.5 must be a finite number in (0, 1)"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters", "plain",
      "--epsilon", "0"], "argument --epsilon: 0 must be a finite number in (0, 1)"),
    (["--policies", "ucb1", "--adjusters", "plain"], "no --trees given"),
    (["--trees", "--policies", "ucb1", "--adjusters", "plain"], "expected at least one"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "ucb1", "--adjusters", "plain"],
     "twice"),
    (["--trees", "constant(1,2)", "--policies", "ucb1(c=)", "--adjusters", "plain"],
     "'c=' in ucb1(...) is not key=value"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters", "plain",
      "--max-budget", "100"], "not a power of two"),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "thompson", "--adjusters", "plain",
      "--baseline", "ucb1+maxfreq"],
     ("--baseline ucb1+maxfreq names no method of the grid: use one of ucb1+plain, "
     "thompson+plain")),
    (["--trees", "constant(1,2)", "--policies", "ucb1", "--adjusters", "plain",
      "--format", "png,jpg"], "use png, pdf or svg"),
])
def test_bad_input_is_one_line_and_exit_2(argv, words, tmp_path, capsys):
    out = tmp_path / "never"
    assert main(["compare", *argv, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and words in error
    assert not out.exists()


def test_an_empty_grid_is_refused_in_python():
    with pytest.raises(ValueError, match="the grid has no policies"):
        Grid(TREES, (), ("plain",))
    with pytest.raises(ValueError, match="^[^\n]*$"):
        Grid.from_scale(TREES, ["ucb1"], ["plain"], "huge")


def runs_by_cell(folder, grid=None):
    """The stored runs of ``folder``'s grid (or of ``grid``), sorted, as one frame."""
    table = run_table(grid or open_grid(folder), folder)
    return table.sort_values(["config", "policy", "adjuster", "tree_index", "run"],
                             ignore_index=True)


def test_a_grid_run_as_two_halves_stores_the_numbers_of_the_whole(stored, tmp_path):
    folder, _ = stored
    halves = tmp_path / "halves"
    first = run_compare(small_grid(policies=("ucb1",)), halves, workers=1, progress=False)[0]
    second = run_compare(small_grid(policies=("thompson",)), halves, workers=1,
                         progress=False)[0]
    assert first.cells_computed == second.cells_computed == 2
    whole = runs_by_cell(folder)
    assert runs_by_cell(halves, small_grid()).equals(whole)
    # the whole grid into the halves' folder computes nothing and reports the same numbers
    summary, tables = run_compare(small_grid(), halves, workers=1, progress=False)
    assert summary.computed == 0
    assert tables["instances"].equals(instance_table(folder))


def test_adding_a_policy_computes_only_its_cells(stored, tmp_path, capsys):
    folder, _ = stored
    grown = tmp_path / "grown"
    shutil.copytree(folder, grown)
    before = {p.name: p.read_bytes() for p in (grown / CELL_FOLDER).iterdir()}
    assert main(["compare", "--trees", *TREES, "--policies", "ucb1", "thompson", "ucb1(c=0.5)",
                 "--adjusters", "plain", "--depth", "4", "--runs", "6", "--trees-per-model",
                 "3", "--max-budget", "32", "--seed", "7", "--out", str(grown),
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    # 2 trees x 1 new policy = 2 cells, 3 instances x 1 block of 6 runs (the command's block
    # is 50 runs); the stored cells' blocks of 4 + 2 runs are read as they are
    assert "(2 cells computed or grown in 6 blocks, 24 blocks already stored)" in out
    after = {p.name: p.read_bytes() for p in (grown / CELL_FOLDER).iterdir()}
    assert len(after) == len(before) + 6
    assert all(after[name] == data for name, data in before.items())  # bit for bit
    runs = runs_by_cell(grown)
    assert set(runs.policy) == {"ucb1", "thompson", "ucb1(c=0.5)"}
    old = runs[runs.policy != "ucb1(c=0.5)"].reset_index(drop=True)
    assert old.equals(runs_by_cell(folder))


def test_more_runs_and_instances_compute_only_the_new_ones(stored, tmp_path):
    folder, _ = stored
    grown = tmp_path / "more"
    shutil.copytree(folder, grown)
    summary, _ = run_compare(small_grid(runs=9, trees_per_model=4), grown, workers=1,
                             progress=False)
    # per cell: runs 6..8 on instances 0..2 (the stored blocks 0-3 and 4-5 stay) and 0..8 on
    # the new instance 3 (blocks 0-3, 4-7, 8)
    assert summary.computed == 4 * (3 * 1 + 3) and summary.reused == 4 * 3 * 2
    runs = runs_by_cell(grown)
    old = runs[(runs.run < 6) & (runs.tree_index < 3)].reset_index(drop=True)
    assert old.equals(runs_by_cell(folder))
    assert len(runs) == 4 * 4 * 9


def test_a_folder_of_another_seed_is_refused_naming_the_seed(stored, capsys):
    folder, _ = stored

    def results():  # the lock file names its last holder: not a result
        return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name != ".lock"}

    before = results()
    assert main(["compare", "--trees", "constant(1,3)", "--policies", "ucb1", "--adjusters",
                 "plain", "--seed", "8", "--out", str(folder), "--workers", "1"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "seed differs" in error and "--seed 7" in error
    assert results() == before


def test_a_compare_folder_of_the_earlier_layout_still_reads(tmp_path):
    # before the cell store a grid was stored as a study: study.json and shards of counts
    from experiments.studies.execution import run_study

    run_study(small_grid().study(), tmp_path / "old", workers=1, progress=False)
    table = instance_table(tmp_path / "old")
    assert list(table.columns) == INSTANCE_COLUMNS and len(table) == 2 * 2 * 3 * 6
    assert (table.runs == 6).all()


def test_the_grid_gives_every_cell_its_rules():
    """reward, final_move and failure reach every cell's curve; at their defaults they are
    stored as older grids were (left out), so earlier folders and cell keys stay valid."""
    ruled = Grid(TREES, ("ucb1",), ("plain",), reward="linear", final_move="mean",
                 failure="score")
    assert {(c.reward, c.final_move, c.failure) for c in ruled.curves()} == {
        ("linear", "mean", "score")}
    assert Grid.from_dict(ruled.to_dict()) == ruled
    plain = Grid(TREES, ("ucb1",), ("plain",))
    assert not {"reward", "final_move", "failure"} & set(plain.to_dict())
    with pytest.raises(ValueError, match="final move 'max' is not one of visits, mean, robust"):
        Grid(TREES, ("ucb1",), ("plain",), final_move="max")


def test_compare_runs_every_mcts_cell_without_the_solver_when_asked():
    """compare --no-solver, as failure-rate's: the MCTS cells' curves drop the solver (a
    baseline's, which proves nothing, keep it); a grid at the default stores as before."""
    from experiments.cli.commands.compare import grid_from_args
    from experiments.cli.mctslab import build_parser

    words = ["compare", "--trees", "constant(1,3)", "--policies", "ucb1", "flatmc",
             "--adjusters", "plain"]
    grid = grid_from_args(build_parser().parse_args([*words, "--no-solver"]))
    assert [(curve.policy, curve.solver) for curve in grid.curves()] == [("ucb1", False),
                                                                         ("flatmc", True)]
    assert grid.to_dict()["solver"] is False
    assert "solver" not in grid_from_args(build_parser().parse_args(words)).to_dict()


def test_cells_of_another_layout_name_no_option_that_does_not_exist(tmp_path):
    import json

    from experiments.comparisons.cells import CELLS_FILE, LAYOUT, claim_cells
    from experiments.comparisons.grid import Grid

    grid = Grid(trees=("constant(1,3)",), policies=("ucb1",), adjusters=("plain",))
    (tmp_path / CELLS_FILE).write_text(json.dumps({"seed": grid.seed, "layout": LAYOUT + 1}))
    with pytest.raises(ValueError, match=f"holds cells of layout {LAYOUT + 1}") as refused:
        claim_cells(tmp_path, grid)
    assert "--layout" not in str(refused.value)
