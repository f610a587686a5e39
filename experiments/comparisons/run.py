"""Running a comparison grid into a folder, reading its results back and writing its report."""

from __future__ import annotations

import inspect
import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from ..studies.shards import plan_shards
from ..studies.store import read_shard
from ..studies.study import open_study, reading_study
from .cells import GrowSummary, grow, run_table
from .grid import DEFAULT_SEED, GRID_FILE, Grid, cell_labels, open_grid, reading_grid
from .stats import instances_from_runs

INSTANCES_FILE = "instances.parquet"
RUNS_FILE = "runs.parquet"
TUNED_FILE = "tuned.csv"  # the constants of a grid's tuned cells (``experiments.tuning``)
INSTANCE_COLUMNS = ["config", "policy", "adjuster", "tree_index", "budget", "runs", "failures"]


def run_compare(grid: Grid, out: str | Path, workers: int | None = None,
                scheduler: str | None = None, progress: bool | None = True,
                command: str | None = None, formats=("png", "pdf"),
                wait: bool = False, anatomy: bool = False
                ) -> tuple[GrowSummary, dict[str, pd.DataFrame]]:
    """Compute and store the runs of ``grid`` that ``out`` lacks (``cells.grow``: a
    folder of another seed is refused in one line, nothing written; a killed run resumes where
    it stopped), then write ``compare.json`` (the grid) and the report (``write_comparison``);
    ``command`` is the command line that reruns it, quoted in the report; ``formats`` those of
    the figures besides the report's PNG. One process writes ``out`` at a time
    (``experiments.runtime.lock``; ``wait``: wait for the other); ``anatomy``: the report also
    shows the failure anatomy of each configuration's worst cell. Returns the run's summary
    and the comparison's tables."""
    from ..runtime.lock import writing
    from ..runtime.pool import check_options
    from ..runtime.store import write_atomically

    check_options(workers, scheduler)  # an unreachable scheduler fails before out is made
    with writing(out, wait=wait):
        summary = grow(grid, out, workers=workers, scheduler=scheduler, progress=progress)
        text = json.dumps(grid.to_dict(), indent=1, sort_keys=True) + "\n"
        write_atomically(Path(out) / GRID_FILE, text.encode())
        return summary, write_comparison(grid, out, command, formats, anatomy)


def write_comparison(grid: Grid, out: str | Path, command: str | None = None,
                     formats=("png", "pdf"), anatomy: bool = False) -> dict[str, pd.DataFrame]:
    """From the runs of ``grid`` stored in ``out``: ``runs.parquet`` (``cells.run_table``),
    ``instances.parquet``, every statistic (``tables.comparison_tables``, bootstraps and
    permutations seeded by the grid's seed, tests against ``grid.baseline``) as CSV, the
    figures, ``report.md`` and ``report.html`` with each cell's anatomy command
    (``anatomy_links``), and with ``anatomy`` the anatomy of each configuration's worst cell
    (its runs recomputed, watched: as long as the cell took); returns the tables."""
    from mcts import STREAM_VERSION

    from ..runtime.store import write_table
    from .anatomy_links import anatomy_commands, worst_anatomy
    from .guidance import guidance_tables
    from .report import write_report
    from .tables import comparison_tables

    runs = run_table(grid, out)
    write_table(runs, Path(out) / RUNS_FILE)
    baseline = grid.baseline or grid.methods[0]
    tables = comparison_tables(runs, grid.epsilon, baseline, seed=grid.seed,
                               same=grid.same_cells(), tuned_pairs=grid.tuned_pairs())
    tables.update(guidance_tables(grid, tables))
    write_table(tables["instances"], Path(out) / INSTANCES_FILE)
    for name in ("curves", "to_epsilon", "cell_areas"):  # rows as the grid lists them
        tables[name] = _in_grid_order(tables[name], tables["instances"])
    settings = {"trees": list(grid.trees), "policies": list(grid.policies),
                "adjusters": list(grid.adjusters), "runs": grid.runs * grid.trees_per_model,
                "trees_per_model": grid.trees_per_model, "max_budget": grid.max_budget,
                "epsilon": grid.epsilon, "baseline": baseline, "seed": grid.seed,
                "stream_version": STREAM_VERSION, "branching": grid.branching,
                "depth": grid.depth}
    if command:
        settings["command"] = command
    tables["anatomy_commands"] = anatomy_commands(grid, str(Path(out) / "anatomy"),
                                                  tables["cell_areas"])
    if anatomy:
        tables["worst_anatomy"] = worst_anatomy(grid, tables["anatomy_commands"])
    if grid.tuned and (Path(out) / TUNED_FILE).is_file():
        tables["tuned"] = pd.read_csv(Path(out) / TUNED_FILE, dtype={"at_edge": str},
                                      keep_default_na=False)
    write_report(out, tables, settings, formats)
    return tables


def instance_table(folder: str | Path, trust_plugins: bool = False) -> pd.DataFrame:
    """The stored results of the comparison in ``folder``, one row per (config, policy,
    adjuster, tree_index, budget) with ``runs`` and ``failures`` (an instance whose runs are
    not all stored is left out). ``config`` reads ``SPEC b=B d=D``; ``policy`` and ``adjuster``
    are the grid's entries (with their non-default parameters). A folder written before the
    cell store (``study.json`` and ``shards/``, no ``cells.json``) is read from its shards.
    It imports none of the plug-ins the folder names unless ``trust_plugins``
    (``reading_grid``, ``reading_study``)."""
    from .cells import CELLS_FILE

    if not (Path(folder) / CELLS_FILE).exists() and (Path(folder) / "study.json").exists():
        with reading_study(folder, trust_plugins):
            return _instance_table_of_shards(folder, trust_plugins)
    with reading_grid(folder, trust_plugins):
        grid = open_grid(folder, trust_plugins)
        if grid is None:
            raise ValueError(f"{folder} holds no comparison ({GRID_FILE} is missing): run "
                             f"`mctslab compare ... --out {folder}` first")
        return instances_from_runs(run_table(grid, folder))


def _instance_table_of_shards(folder: str | Path, trust_plugins: bool) -> pd.DataFrame:
    """``instance_table`` of a comparison stored as a study (shards of counts, before the
    cell store): no per-run records, so only the per-instance counts."""
    study = open_study(folder, trust_plugins)
    parts = []
    for curve in study.curves:
        config, policy, adjuster = cell_labels(curve)
        budgets = np.asarray(curve.budgets, dtype=np.int64)
        failures = np.zeros((curve.trees, budgets.size), dtype=np.int64)
        runs = np.zeros(curve.trees, dtype=np.int64)
        for shard in plan_shards(curve, study.block, study.seed):
            counts = read_shard(folder, shard)
            if counts is not None:
                failures[shard.tree_index] += counts
                runs[shard.tree_index] += shard.n_runs
        for tree_index in np.flatnonzero(runs):
            parts.append(pd.DataFrame({
                "config": config, "policy": policy, "adjuster": adjuster,
                "tree_index": int(tree_index), "budget": budgets, "runs": runs[tree_index],
                "failures": failures[tree_index]}))
    if not parts:
        return pd.DataFrame({column: pd.Series(dtype="int64" if column in (
            "tree_index", "budget", "runs", "failures") else "object")
            for column in INSTANCE_COLUMNS})
    return pd.concat(parts, ignore_index=True)[INSTANCE_COLUMNS]


def _in_grid_order(table: pd.DataFrame, instances: pd.DataFrame) -> pd.DataFrame:
    """``table`` sorted by config, policy and adjuster in the order ``instances`` first lists
    them (the grid's: the atlas's trees by growing bias), not by name; stable, so the budgets
    keep their order."""
    def rank(column: pd.Series) -> pd.Series:
        return column.map({value: i for i, value in
                           enumerate(dict.fromkeys(instances[column.name]))})

    return table.sort_values(["config", "policy", "adjuster"], key=rank, kind="stable",
                             ignore_index=True)


def compare(trees, policies, adjusters, *, scale: str = "quick", runs: int | None = None,
            trees_per_model: int | None = None, max_budget: int | None = None,
            epsilon: float = 0.05, baseline: str | None = None, seed: int = DEFAULT_SEED,
            branching: int = 4, depth: int = 8, out: str | Path | None = None,
            workers: int | None = None, scheduler: str | None = None,
            progress: bool = False, anatomy: bool = False) -> dict[str, pd.DataFrame]:
    """Run (or resume, in ``out``) the grid trees x policies x adjusters and return its tidy
    tables (``write_comparison``: instances, curves, to_epsilon, budget_tests, curve_tests,
    cell_areas, areas, aggregates, improvement, profile, anatomy_commands); ``baseline`` is
    the method every other is tested against (default: the first). Without ``out`` the
    results and the report are kept in a temporary folder, deleted on return."""
    grid = Grid.from_scale(trees, policies, adjusters, scale, runs=runs,
                           trees_per_model=trees_per_model, max_budget=max_budget,
                           epsilon=epsilon, baseline=baseline, seed=seed,
                           branching=branching, depth=depth)
    given = {"scale": scale, "runs": runs, "trees_per_model": trees_per_model,
             "max_budget": max_budget, "epsilon": epsilon, "baseline": baseline, "seed": seed,
             "branching": branching, "depth": depth, "out": None if out is None else str(out),
             "anatomy": anatomy}
    call = python_call("experiments.comparisons.compare", (trees, policies, adjusters),
                       given, compare)
    with tempfile.TemporaryDirectory(prefix="mctslab-compare-") as scratch:
        return run_compare(grid, scratch if out is None else out, workers, scheduler,
                           progress, command=call, anatomy=anatomy)[1]


def python_call(name: str, args: tuple, keywords: dict, function) -> str:
    """The call ``name(*args, **keywords)`` as Python text, the keywords at ``function``'s
    defaults left out: what a report made from Python records to be rerun."""
    defaults = {key: parameter.default
                for key, parameter in inspect.signature(function).parameters.items()}
    shown = [repr(list(arg) if isinstance(arg, tuple) else arg) for arg in args]
    shown += [f"{key}={value!r}" for key, value in keywords.items()
              if value != defaults.get(key)]
    return f"{name}({', '.join(shown)})"
