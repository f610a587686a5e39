"""A comparison grid: tree specs x policies x adjusters, run as one study (issue 29).

Every cell of the grid is a :class:`Curve` of the same study, so every policy and adjuster on
a tree configuration (spec, b, d) searches the same ``trees_per_model`` instances (tree instance
j derives from the study seed and j alone, ``experiments.failure``): comparisons are paired by
instance. The grid is stored, resumed and scaled out as any study (``experiments.execution``);
``instance_table`` reads back one row per (configuration, policy, adjuster, instance, budget).

A policy or an adjuster is written as the CLI and study files take it: a registry name
(``ucb1``), a plug-in ``package.module:object``, either with parameters in brackets
(``ucb1(c=0.5)``, ``maxfreq(offset=-0.5)``); an adjuster's ``rescore=1`` re-scores the stored
rewards exactly after a threshold change (``maxfreq(rescore=1)``, DESIGN.md §5's ablation).

As a study file::

    [study]
    kind = "compare"
    seed = 2029            # optional (default 2029)
    name = "mine"          # optional (default "compare")

    [compare]
    trees = ["constant(1,1)", "random(4,2)"]
    policies = ["ucb1", "thompson"]
    adjusters = ["plain", "maxfreq"]
    scale = "quick"        # optional; the keys below override the scale's sizes
    runs = 50              # runs per tree instance
    trees_per_model = 4
    max_budget = 1024
    epsilon = 0.05
    branching = 4
    depth = 8
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd

from specs import FLAG, Domain, check_value, parse_spec, parse_value

from .curve import Curve
from .execution import RunSummary, run_study
from .shards import plan_shards
from .study import Study, open_study, read_study_document
from .study_store import read_shard
from .tables import COUNT, SEED, STRING, STRINGS, check_keys, check_table

SCALES = ("quick", "full")
DEFAULT_SEED = 2029
GRID_FILE = "compare.json"
INSTANCES_FILE = "instances.parquet"
INSTANCE_COLUMNS = ["config", "policy", "adjuster", "tree_index", "budget", "runs", "failures"]
# Sizes per scale: quick gives 4 x 50 = 200 runs per cell at budgets up to 2^10 (the atlas, cold
# on 2 idle cores: 6.3 min, most of it compiling; docs/performance.md); full gives 20 x 100 =
# 2,000 runs per cell up to 2^14, paired over 20 instances: the atlas is ~12 core-hours, for a
# Dask cluster.
_SIZES = {
    "quick": {"runs": 50, "trees_per_model": 4, "max_budget": 2**10, "block": 50},
    "full": {"runs": 100, "trees_per_model": 20, "max_budget": 2**14, "block": 50},
}


def parse_entry(text: str, kind: str) -> tuple[str, dict]:
    """(name, parameters) of a grid entry ``name`` or ``name(k=v,...)`` (``specs.parse_spec``);
    ``kind`` is "policy" or "adjuster" (for the message). The name and the values are
    checked by ``Curve`` (the registries' domains)."""
    parts = parse_spec(text, kind)
    if len(parts) > 1 or parts[0].args:
        raise ValueError(f"cannot read {kind} {text!r}: write a name such as ucb1, or "
                         f"name(key=value,...), or package.module:object")
    return parts[0].name, {key: parse_value(value) for key, value in parts[0].kwargs}


def entry_label(name: str, params: dict, defaults: dict) -> str:
    """``name``, followed by the parameters that differ from ``defaults``: ``ucb1(c=0.5)``."""
    changed = [f"{key}={value:g}" for key, value in params.items()
               if defaults.get(key) != value]
    return f"{name}({','.join(changed)})" if changed else name


def config_label(tree: str, branching: int, depth: int) -> str:
    """A tree configuration as the tables name it: ``constant(1,5) b=4 d=8``."""
    return f"{tree} b={branching} d={depth}"


@dataclass(frozen=True)
class Grid:
    """Tree specs x policies x adjusters on trees of shape (``branching``, ``depth``):
    ``trees_per_model`` instances per spec, ``runs`` runs on each (``runs * trees_per_model``
    per cell), budgets 2^0 .. ``max_budget``. ``epsilon`` is the failure rate the report asks
    the playouts to reach; it does not change what is computed. ``block`` runs per shard."""

    trees: tuple[str, ...]
    policies: tuple[str, ...]
    adjusters: tuple[str, ...]
    branching: int = 4
    depth: int = 8
    runs: int = _SIZES["quick"]["runs"]
    trees_per_model: int = _SIZES["quick"]["trees_per_model"]
    max_budget: int = _SIZES["quick"]["max_budget"]
    seed: int = DEFAULT_SEED
    scale: str = "quick"
    epsilon: float = 0.05
    block: int = _SIZES["quick"]["block"]
    name: str = "compare"

    def __post_init__(self) -> None:
        for key in ("trees", "policies", "adjusters"):
            value = getattr(self, key)
            value = (value,) if isinstance(value, str) else tuple(value)
            if not value:
                raise ValueError(f"the grid has no {key}: give at least one (--{key})")
            object.__setattr__(self, key, value)
        if self.scale not in SCALES:
            raise ValueError(f"unknown scale {self.scale!r}: use quick or full")
        if isinstance(self.epsilon, bool) or not 0 < self.epsilon < 1:
            raise ValueError(f"epsilon {self.epsilon} must lie strictly between 0 and 1, "
                             "e.g. --epsilon 0.05")
        if self.seed < 0:
            raise ValueError(f"seed {self.seed} is negative: use a seed >= 0")
        if self.block < 1:
            raise ValueError(f"block = {self.block} runs per shard must be at least 1")
        self._check_cells()

    def _check_cells(self) -> None:
        """Build every curve once: names, parameters and shapes are checked here, before any
        run; two entries that are the same curve are refused."""
        seen = {}
        for curve in self.curves():
            if curve.key in seen:
                raise ValueError(f"the grid names {curve.label} twice ({seen[curve.key]}): "
                                 "remove one")
            seen[curve.key] = curve.label

    @classmethod
    def from_scale(cls, trees, policies, adjusters, scale: str = "quick", **overrides) -> Grid:
        """The grid with the sizes of ``scale`` (quick: 4 instances x 50 runs, budgets up to
        2^10; full: 20 x 100, up to 2^14); ``overrides`` (None values ignored) set any field."""
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}: use quick or full")
        given = {key: value for key, value in overrides.items() if value is not None}
        unknown = sorted(set(given) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown grid setting {unknown[0]!r}: use "
                             f"{', '.join(f.name for f in fields(cls))}")
        return cls(trees, policies, adjusters, **{**_SIZES[scale], "scale": scale, **given})

    def curves(self) -> list[Curve]:
        """One curve per cell, policy x adjuster innermost (so neighbouring shards need
        different compiled kernels)."""
        cells = []
        for tree in self.trees:
            for adjuster in self.adjusters:
                for policy in self.policies:
                    cells.append(self._curve(tree, policy, adjuster))
        return cells

    def _curve(self, tree: str, policy: str, adjuster: str) -> Curve:
        """The cell's curve; an adjuster's ``rescore=1`` asks for exact re-scoring."""
        policy_name, policy_params = parse_entry(policy, "policy")
        adjuster_name, adjuster_params = parse_entry(adjuster, "adjuster")
        rescore = check_value(adjuster_name, "rescore", adjuster_params.pop("rescore", False),
                              FLAG)
        return Curve(tree=tree, policy=policy_name, adjuster=adjuster_name,
                     branching=self.branching, depth=self.depth, runs=self.runs,
                     trees=self.trees_per_model, max_budget=self.max_budget,
                     policy_params=policy_params, adjuster_params=adjuster_params,
                     rescore=rescore)

    def study(self) -> Study:
        """The study of every cell, under the grid's seed."""
        return Study(tuple(self.curves()), self.seed, self.block, f"{self.name}-{self.scale}")

    @property
    def cells(self) -> int:
        return len(self.trees) * len(self.policies) * len(self.adjusters)

    @property
    def playouts(self) -> int:
        """Playouts the whole grid spends (every run searches up to ``max_budget``)."""
        return self.cells * self.trees_per_model * self.runs * self.max_budget

    def to_dict(self) -> dict:
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict) -> Grid:
        return cls(**data)


def read_grid(path: str | Path) -> Grid:
    """The grid of a study file with ``kind = "compare"`` (module docstring); any problem is a
    one-line ValueError naming the file, the key and the fix."""
    return grid_from_document(read_study_document(path), path)


_GRID_KEYS = {"trees": STRINGS, "policies": STRINGS, "adjusters": STRINGS, "scale": STRING,
              "runs": COUNT, "trees_per_model": COUNT, "max_budget": COUNT,
              "epsilon": Domain(low=0, high=1, low_open=True, high_open=True),
              "branching": COUNT, "depth": COUNT, "block": COUNT, "preset": STRING}
_STUDY_KEYS = {"kind": STRING, "name": STRING, "seed": SEED}


def grid_from_document(document: dict, path: str | Path) -> Grid:
    """The grid of a parsed study file (its [study] and [compare] tables)."""
    unknown = sorted(set(document) - {"study", "compare"})
    if unknown:
        raise ValueError(f"{path}: unknown table [{unknown[0]}] in a compare study: "
                         "use [study] and [compare]")
    settings = check_table(f"{path}: [study]", document.get("study", {}), _STUDY_KEYS)
    table = document.get("compare")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: no [compare] table: add one with trees, policies, "
                         "adjusters")
    check_keys(f"{path}: [compare]", table, _GRID_KEYS)
    values = check_table(f"{path}: [compare]", table, _GRID_KEYS)
    for key in ("name", "seed"):
        if key in settings:
            values[key] = settings[key]
    try:
        preset = values.pop("preset", None)
        if preset is not None:
            values = {**preset_lists(preset), **values}
        missing = [key for key in ("trees", "policies", "adjusters") if key not in values]
        if missing:
            raise ValueError(f"[compare]: key {missing[0]!r} is missing: add e.g. "
                             f"{missing[0]} = [...] or preset = \"atlas\"")
        lists = [values.pop(key) for key in ("trees", "policies", "adjusters")]
        return Grid.from_scale(*lists, values.pop("scale", "quick"), **values)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None


# The atlas (issue 29): how each policy's cost grows with bias, on seed 001's biased trees, a
# P-game and a trap tree. The P-game draws its values from [0, 31], not Kocsis & Szepesvari's
# [0, 127]: at b = 4, d = 8 its scores then fit int8 like all the others', and the kernels,
# compiled per score type and most of a cold quick atlas's time, are shared.
ATLAS_TREES = (
    *(f"constant(1,{b})" for b in range(1, 8)),
    "constant'(1,13)",
    *(f"random(4,{q})" for q in range(5)),
    "pgame(31)",
    "random(4,3)+trap(3,0.2)",
)
# maxfreq with exact re-scoring beside the paper's method (issue 29 item 6)
ATLAS_ADJUSTERS = ("plain", "maxfreq", "maxfreq(rescore=1)", "static")


def preset_lists(name: str) -> dict:
    """The trees, policies and adjusters of a preset (``atlas``), and its name."""
    if name != "atlas":
        raise ValueError(f"unknown preset {name!r}: use atlas")
    from bandits import POLICIES

    return {"trees": list(ATLAS_TREES), "policies": list(POLICIES),
            "adjusters": list(ATLAS_ADJUSTERS), "name": "atlas"}


def run_compare(grid: Grid, out: str | Path, workers: int | None = None,
                scheduler: str | None = None, progress: bool | None = True,
                command: str | None = None) -> tuple[RunSummary, dict[str, pd.DataFrame]]:
    """Compute and store every unfinished cell of ``grid`` in ``out`` (a folder holding another
    study is refused; a killed run resumes where it stopped), then write ``compare.json`` (the
    grid) and the report (``write_comparison``); ``command`` is the command line that reruns
    it, quoted in the report. Returns the run's summary and the comparison's tables."""
    from .store import write_atomically

    summary = run_study(grid.study(), out, workers=workers, scheduler=scheduler,
                        progress=progress, interleave=True)
    text = json.dumps(grid.to_dict(), indent=1, sort_keys=True) + "\n"
    write_atomically(Path(out) / GRID_FILE, text.encode())
    return summary, write_comparison(grid, out, command)


def write_comparison(grid: Grid, out: str | Path,
                     command: str | None = None) -> dict[str, pd.DataFrame]:
    """From the results stored in ``out``: ``instances.parquet`` (``instance_table``), every
    statistic (``compare_stats.comparison_tables``, bootstraps seeded by the grid's seed) as
    CSV, the figures, ``report.md`` and ``report.html``; returns the tables."""
    from mcts import STREAM_VERSION

    from .compare_report import write_report
    from .compare_stats import comparison_tables
    from .store import write_table

    instances = instance_table(out)
    write_table(instances, Path(out) / INSTANCES_FILE)
    tables = comparison_tables(instances, grid.epsilon, seed=grid.seed)
    for name in ("curves", "to_epsilon"):  # the report's rows and columns as the grid lists them
        tables[name] = _in_grid_order(tables[name], instances)
    settings = {"trees": list(grid.trees), "policies": list(grid.policies),
                "adjusters": list(grid.adjusters), "runs": grid.runs * grid.trees_per_model,
                "trees_per_model": grid.trees_per_model, "max_budget": grid.max_budget,
                "epsilon": grid.epsilon, "seed": grid.seed, "stream_version": STREAM_VERSION,
                "branching": grid.branching, "depth": grid.depth}
    if command:
        settings["command"] = command
    write_report(out, tables, settings)
    return tables


def open_grid(folder: str | Path) -> Grid | None:
    """The grid stored in ``folder/compare.json`` by ``run_compare``, or None."""
    path = Path(folder) / GRID_FILE
    if not path.is_file():
        return None
    try:
        return Grid.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError) as error:
        raise ValueError(f"{path} is damaged ({error}): run the comparison again") from None


def instance_table(folder: str | Path) -> pd.DataFrame:
    """The stored results of the study in ``folder``, one row per (config, policy, adjuster,
    tree_index, budget): ``runs`` and ``failures`` summed over the instance's blocks of runs
    (an instance with no block stored yet is left out). ``config`` reads ``SPEC b=B d=D``;
    ``policy`` and ``adjuster`` are the grid's entries (with their non-default parameters)."""
    from bandits import get_policy
    from enhancements import get_adjuster

    study = open_study(folder)
    parts = []
    for curve in study.curves:
        policy = entry_label(curve.policy, curve.policy_params,
                             get_policy(curve.policy).defaults)
        rescore = {"rescore": 1} if curve.rescore else {}
        adjuster = entry_label(curve.adjuster, {**curve.adjuster_params, **rescore},
                               get_adjuster(curve.adjuster).defaults)
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
                "config": config_label(curve.tree, curve.branching, curve.depth),
                "policy": policy, "adjuster": adjuster, "tree_index": int(tree_index),
                "budget": budgets, "runs": runs[tree_index],
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
            epsilon: float = 0.05, seed: int = DEFAULT_SEED, branching: int = 4,
            depth: int = 8, out: str | Path | None = None, workers: int | None = None,
            scheduler: str | None = None, progress: bool = False) -> dict[str, pd.DataFrame]:
    """Run (or resume, in ``out``) the grid trees x policies x adjusters and return its tidy
    tables (``write_comparison``: instances, curves, to_epsilon, tests, areas, aggregates,
    improvement, profile). Without ``out`` the results and the report are kept in a temporary
    folder, deleted on return."""
    grid = Grid.from_scale(trees, policies, adjusters, scale, runs=runs,
                           trees_per_model=trees_per_model, max_budget=max_budget,
                           epsilon=epsilon, seed=seed, branching=branching, depth=depth)
    with tempfile.TemporaryDirectory(prefix="mctslab-compare-") as scratch:
        return run_compare(grid, scratch if out is None else out, workers, scheduler,
                           progress)[1]
