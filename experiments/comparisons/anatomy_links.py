"""From each cell of a comparison to its failure anatomy: the ``mctslab
inspect`` command that recomputes the cell's own runs, watched, and writes its anatomy
(``experiments.inspect.failure_anatomy``: which wrong root move its failing runs chose, its
exact value, its win rate against the optimal move's).

The cell's runs are reproduced exactly (``cells``): its tree instances are the grid seed's
(``--tree-seed``), its runs the cell's seed's (``--seed``, ``cells.cell_seed``), its curve the
grid's (tree, b, d, policy and adjuster with their parameters, the reward, final-move and
failure rules, runs per instance, instances, budget), so the anatomy's failures add up to the
cell's at every budget. A baseline player (``mcts.baselines``) builds no search tree to watch:
its cell has no command. The worst cell of each tree configuration (the largest normalised area
among the cells with a command) is marked, and :func:`worst_anatomy` computes the anatomy of
those cells for the report when asked.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import fields

import pandas as pd

from mcts.baselines import is_baseline

from ..curves.curve import Curve
from ..curves.plugin_check import with_plugin_path
from ..inspect.anatomy import failure_anatomy
from .cells import cell_identity, cell_seed
from .grid import Grid, engine_flags

COLUMNS = ("config", "policy", "adjuster", "worst", "command")
_RULES = ("reward", "final_move", "failure")  # a grid's rules of every cell, beside the method
CELL = ["config", "policy", "adjuster"]


def _entry(name: str, params: dict) -> str:
    """A grid entry ``name(key=value,...)`` that ``grid.parse_entry`` reads back exactly."""
    if not params:
        return name
    values = [f"{key}={value if isinstance(value, str) else repr(value)}"
              for key, value in params.items()]  # repr: a float read back to the same bits
    return f"{name}({','.join(values)})"


def anatomy_command(curve: Curve, grid_seed: int, out: str) -> str:
    """The ``mctslab inspect`` command line writing the anatomy of the cell ``curve`` of a
    grid of seed ``grid_seed`` into the folder ``out`` (its page ``out/index.html``; module
    docstring)."""
    defaults = {field.name: field.default for field in fields(Curve)}
    rules = [word for name in _RULES if getattr(curve, name) != defaults[name]
             for word in ("--" + name.replace("_", "-"), getattr(curve, name))]
    words = ["mctslab", "inspect", "--tree", curve.tree, "--branching", curve.branching,
             "--depth", curve.depth, "--policy", _entry(curve.policy, curve.policy_params),
             "--adjuster", _entry(curve.adjuster, {**curve.adjuster_params, **engine_flags(curve)}),
             "--runs", curve.runs, "--trees", curve.trees, "--max-budget", curve.max_budget,
             *rules, "--seed", cell_seed(cell_identity(curve, grid_seed)),
             "--tree-seed", grid_seed, "--anatomy", "--out", out]
    return with_plugin_path(shlex.join(map(str, words)), [curve])


def anatomy_commands(grid: Grid, folder: str = "anatomy",
                     cell_areas: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per cell of ``grid`` (``COLUMNS``, the tables' labels): the command writing its
    anatomy under ``folder`` ("" for a baseline player's cell or a root policy's, which
    ``mctslab inspect`` does not watch) and whether it is the worst cell
    of its configuration by ``cell_areas`` (``stats.cell_areas``; none marked without it)."""
    rows = []
    for curve, (config, policy, adjuster) in grid.labelled():
        name = re.sub(r"[^A-Za-z0-9.=-]+", "_", f"{config}_{policy}_{adjuster}").strip("_")
        command = ("" if is_baseline(curve.policy) or curve.root  # no watched run of those
                   else anatomy_command(curve, grid.seed, f"{folder}/{name}"))
        rows.append((config, policy, adjuster, False, command))
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    if cell_areas is None or cell_areas.empty:
        return table
    areas = table[CELL].merge(cell_areas[CELL + ["area"]], on=CELL, how="left")["area"]
    candidates = areas.where(table["command"] != "")
    worst = candidates.groupby(table["config"], sort=False).idxmax().dropna()
    table.loc[worst.astype(int), "worst"] = True
    return table


def worst_anatomy(grid: Grid, commands: pd.DataFrame) -> pd.DataFrame:
    """The failure anatomy (``failure_anatomy``'s columns after config, policy and adjuster) of
    the cells ``commands`` marks worst, each over the cell's own runs."""
    marked = set(map(tuple, commands.loc[commands["worst"], CELL].to_numpy()))
    parts = [failure_anatomy(curve, cell_seed(cell_identity(curve, grid.seed)), grid.seed)
             .assign(config=key[0], policy=key[1], adjuster=key[2])
             for curve, key in grid.labelled() if key in marked]
    if not parts:
        return pd.DataFrame(columns=CELL)
    table = pd.concat(parts, ignore_index=True)
    return table[CELL + [c for c in table.columns if c not in CELL]]
