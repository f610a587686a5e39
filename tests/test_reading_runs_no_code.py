"""Reading a results folder runs no code: a folder whose stored files name plug-ins (a policy,
an adjuster, a backup rule, a reward rule, a tree model) of a module shipped inside the folder
and beside it on the path is plotted, its status shown and its results loaded without
importing that module; a plug-in the files do not record is refused in one line that names
the module, and `--trust-plugins` is the way to import it."""

import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import experiments
from bandits.plugins import PluginNotImported, reading_stored_results
from experiments.comparisons.cells import CELLS_FILE, LAYOUT
from experiments.comparisons.grid import GRID_FILE, Grid
from experiments.curves.curve import Curve
from experiments.studies.shards import plan_shards
from experiments.studies.store import write_shard
from experiments.studies.study import Study, load_results

ROOT = Path(__file__).parents[1]
MODULE = "trap_plugin"
# the module a stored file names: importing it leaves a mark beside it
TRAP = ("import traceback\nfrom pathlib import Path\n"
        "Path(__file__).with_name('IMPORTED').write_text(''.join(traceback.format_stack()))\n")
PLUGINS = {"policy": {f"{MODULE}:policy": {"defaults": {"c": 1.0}}},
           "adjuster": {f"{MODULE}:adjuster": {"defaults": {"offset": 0.0}, "restart": True}}}
SHAPE = {"branching": 2, "depth": 4, "runs": 4, "max_budget": 8}


def _curves() -> tuple[Curve, ...]:
    return (Curve("constant(1,3)", f"{MODULE}:policy", "plain", **SHAPE),
            Curve("constant(1,3)", "ucb1", f"{MODULE}:adjuster", **SHAPE),
            Curve("constant(1,3)", "ucb1", "plain", backup=f"{MODULE}:backup", **SHAPE),
            Curve("constant(1,3)", "ucb1", "plain", reward=f"{MODULE}:reward", **SHAPE),
            Curve(f"{MODULE}:model(3)", "ucb1", "plain", **SHAPE))


@pytest.fixture
def trapped(tmp_path, monkeypatch):
    """A study folder written under the record of its plug-ins (never importing them), the
    trap module inside it and in a folder on the path; returns (folder, the two traps)."""
    folder, beside = tmp_path / "results", tmp_path / "beside"
    folder.mkdir()
    beside.mkdir()
    for where in (folder, beside):
        (where / f"{MODULE}.py").write_text(TRAP)
    with reading_stored_results("the test's study", PLUGINS):
        study = Study(_curves(), seed=3, block=2, name="trapped")
        (folder / "study.json").write_text(json.dumps(study.to_dict(), indent=1))
        for curve in study.curves:
            for shard in plan_shards(curve, study.block, study.seed):
                write_shard(folder, shard, np.arange(len(curve.budgets)) % 2)
    monkeypatch.syspath_prepend(str(beside))
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.chdir(folder)
    return folder, [folder / "IMPORTED", beside / "IMPORTED"]


def _mctslab(folder: Path, *words: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(folder), str(folder.parent / "beside"), str(ROOT)])
    return subprocess.run([sys.executable, "-m", "experiments.cli", *words], check=False,
                          cwd=folder,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True,
                          text=True, timeout=300)


def test_the_study_records_its_plugins_and_not_the_builtins():
    with reading_stored_results("the test's study", PLUGINS):
        stored = Study(_curves(), seed=3).to_dict()
    assert stored["plugins"] == PLUGINS
    assert "plugins" not in Study((Curve("constant(1,3)", "ucb1", "plain"),), seed=3).to_dict()


def test_reading_a_folder_imports_none_of_its_plugins(trapped):
    folder, traps = trapped
    frame = load_results(".")
    assert set(frame["policy"]) == {f"{MODULE}:policy", "ucb1"}
    assert frame["runs"].eq(SHAPE["runs"]).all()
    for words in (["plot", "."], ["study", "status", "."]):
        done = _mctslab(folder, *words)
        assert done.returncode == 0, done.stderr
    assert (folder / "figures").is_dir()
    assert not any(trap.exists() for trap in traps)
    assert MODULE not in sys.modules


def test_a_plugin_the_files_do_not_record_is_refused_in_one_line(trapped):
    """A folder written before its plug-ins were recorded, and a repair from the shards
    alone (which do not record them): refused, naming the module and --trust-plugins."""
    folder, traps = trapped
    study = json.loads((folder / "study.json").read_text())
    del study["plugins"]
    (folder / "study.json").write_text(json.dumps(study))
    with pytest.raises(PluginNotImported, match=f"import module '{MODULE}'.*--trust-plugins"):
        load_results(folder)
    for words in (["plot", "."], ["study", "status", "."], ["study", "repair", "."]):
        if words[-2] == "repair":
            (folder / "study.json").write_text("{damaged")
        done = _mctslab(folder, *words)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "--trust-plugins" in done.stderr, done.stderr
    assert (folder / "study.json").read_text() == "{damaged"
    assert not any(trap.exists() for trap in traps)


def test_the_trust_flag_imports_the_module(trapped):
    """The refusal's way out does what it says: the module runs (here it only marks)."""
    folder, traps = trapped
    (folder / "study.json").write_text("{damaged")
    done = _mctslab(folder, "study", "repair", ".", "--trust-plugins")
    assert traps[0].exists()  # it ran, and then failed: the trap defines no plug-in
    assert done.returncode == 2 and f"module '{MODULE}' has no object" in done.stderr


def test_a_comparisons_status_imports_none_of_its_plugins(tmp_path):
    folder = tmp_path / "compare"
    folder.mkdir()
    (folder / f"{MODULE}.py").write_text(TRAP)
    with reading_stored_results("the test's grid", PLUGINS):
        grid = Grid(trees=("constant(1,3)",), policies=("ucb1", f"{MODULE}:policy"),
                    adjusters=("plain",), runs=4, trees_per_model=1, max_budget=8)
        (folder / GRID_FILE).write_text(json.dumps(grid.to_dict()))
    (folder / CELLS_FILE).write_text(json.dumps({"seed": grid.seed, "layout": LAYOUT}))
    done = _mctslab(folder, "study", "status", ".")
    assert done.returncode == 0, done.stderr
    assert "0/2 blocks" in done.stdout or "blocks of runs stored" in done.stdout
    assert not (folder / "IMPORTED").exists()


def test_a_resumed_compare_needs_none_of_the_stored_grids_plugins(tmp_path):
    """A comparison run into a folder whose compare.json names a plug-in whose module is on no
    path, with a grid that does not name it: the stored grid is read from its record, not
    imported, and the new grid's cell is computed."""
    folder = tmp_path / "compare"
    folder.mkdir()
    with reading_stored_results("the test's grid", PLUGINS):
        grid = Grid(trees=("constant(1,3)",), policies=("ucb1", f"{MODULE}:policy"),
                    adjusters=("plain",), runs=4, trees_per_model=1, max_budget=8,
                    branching=2, depth=4)
        (folder / GRID_FILE).write_text(json.dumps(grid.to_dict()))
    (folder / CELLS_FILE).write_text(json.dumps({"seed": grid.seed, "layout": LAYOUT}))
    done = _mctslab(folder, "compare", "--trees", "constant(1,3)", "--policies", "ucb1",
                    "--adjusters", "plain", "--runs", "4", "--trees-per-model", "1",
                    "--max-budget", "8", "--branching", "2", "--depth", "4", "--workers", "1",
                    "--quiet", "--out", ".")
    assert done.returncode == 0, done.stderr
    assert json.loads((folder / GRID_FILE).read_text())["policies"] == ["ucb1"]


def _folder_readers() -> dict:
    """Every public function of ``experiments`` whose first parameter is a results folder and
    whose others have defaults: what a script may call on a folder it was sent."""

    found = {}
    for info in pkgutil.walk_packages(experiments.__path__, "experiments."):
        if info.name.endswith("__main__"):  # the program itself
            continue
        module = importlib.import_module(info.name)
        for name, function in vars(module).items():
            if (name.startswith("_") or not inspect.isfunction(function)
                    or function.__module__ != module.__name__):
                continue
            parameters = list(inspect.signature(function).parameters.values())
            if (parameters and parameters[0].name == "folder"
                    and all(p.default is not p.empty for p in parameters[1:])):
                found[f"{module.__name__}.{name}"] = function
    return found


def test_no_public_function_that_takes_a_folder_imports_its_plugins(trapped):
    """Each function that takes a folder, called on a study's and on a comparison's folder
    that name the trap's plug-ins, and what ``open_study`` and ``open_grid`` return, used:
    the trap module is never imported (a refusal is fine)."""
    from experiments.comparisons.grid import open_grid
    from experiments.studies.study import open_study

    study, traps = trapped
    comparison = study.parent / "compare"
    comparison.mkdir()
    (comparison / f"{MODULE}.py").write_text(TRAP)
    with reading_stored_results("the test's grid", PLUGINS):
        grid = Grid(trees=("constant(1,3)",), policies=("ucb1", f"{MODULE}:policy"),
                    adjusters=("plain", f"{MODULE}:adjuster"), runs=4, trees_per_model=1,
                    max_budget=8, branching=2, depth=4)
        (comparison / GRID_FILE).write_text(json.dumps(grid.to_dict()))
    (comparison / CELLS_FILE).write_text(json.dumps({"seed": grid.seed, "layout": LAYOUT}))
    traps.append(comparison / "IMPORTED")
    readers = _folder_readers()
    assert {"experiments.studies.study.open_study", "experiments.studies.study.load_results",
            "experiments.studies.study.study_status", "experiments.comparisons.grid.open_grid",
            "experiments.comparisons.run.instance_table"} <= set(readers)
    for folder in (study, comparison):
        for name, read in readers.items():
            try:
                if inspect.isgeneratorfunction(inspect.unwrap(read)):  # a context manager
                    with read(folder):
                        pass
                else:
                    read(folder)
            except ValueError:  # not this kind of folder, or a plug-in it does not record
                pass
            assert not any(trap.exists() for trap in traps), (name, folder)
    assert [curve.key for curve in open_grid(comparison).curves()]
    assert [label for _, label in open_grid(comparison).labelled()]
    assert [shard.key for shard in open_study(study).shards()]
    assert not any(trap.exists() for trap in traps)
    assert MODULE not in sys.modules
