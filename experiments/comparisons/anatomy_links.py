"""From each cell of a comparison to its failure anatomy (issue 44 item 3): the ``mctslab
inspect`` command that recomputes the cell's own runs, watched, and writes its anatomy
(``experiments.inspect.failure_anatomy``: which wrong root move its failing runs chose, its
exact value, its win rate against the optimal move's).

The cell's runs are reproduced exactly (``cells``): its tree instances are the grid seed's
(``--tree-seed``), its runs the cell's seed's (``--seed``, ``cells.cell_seed``), its curve the
grid's (tree, b, d, policy and adjuster with their parameters, runs per instance, instances,
budget), so the anatomy's failures add up to the cell's at every budget. A baseline player
(``mcts.baselines``) builds no search tree to watch: its cell has no command.
"""

from __future__ import annotations

import re
import shlex

import pandas as pd

from mcts.baselines import is_baseline

from ..curves.curve import Curve
from .cells import cell_identity, cell_seed
from .grid import Grid, cell_labels

COLUMNS = ("config", "policy", "adjuster", "command")


def _entry(name: str, params: dict) -> str:
    """A grid entry ``name(key=value,...)`` that ``grid.parse_entry`` reads back exactly."""
    if not params:
        return name
    values = [f"{key}={value if isinstance(value, str) else repr(value)}"
              for key, value in params.items()]  # repr: a float read back to the same bits
    return f"{name}({','.join(values)})"


def anatomy_command(curve: Curve, grid_seed: int, out: str) -> str:
    """The ``mctslab inspect`` command line writing the anatomy of the cell ``curve`` of a
    grid of seed ``grid_seed`` to ``out``.html (module docstring)."""
    rescore = {"rescore": 1} if curve.rescore else {}
    words = ["mctslab", "inspect", "--tree", curve.tree, "--branching", curve.branching,
             "--depth", curve.depth, "--policy", _entry(curve.policy, curve.policy_params),
             "--adjuster", _entry(curve.adjuster, {**curve.adjuster_params, **rescore}),
             "--runs", curve.runs, "--trees", curve.trees, "--max-budget", curve.max_budget,
             "--seed", cell_seed(cell_identity(curve, grid_seed)), "--tree-seed", grid_seed,
             "--anatomy", "--out", out]
    return shlex.join(map(str, words))


def anatomy_commands(grid: Grid, folder: str = "anatomy") -> pd.DataFrame:
    """One row per cell of ``grid`` (``COLUMNS``, the tables' labels): the command writing its
    anatomy under ``folder``, or "" for a baseline player's cell."""
    rows = []
    for curve in grid.curves():
        config, policy, adjuster = cell_labels(curve)
        name = re.sub(r"[^A-Za-z0-9.=-]+", "_", f"{config}_{policy}_{adjuster}").strip("_")
        command = ("" if is_baseline(curve.policy)
                   else anatomy_command(curve, grid.seed, f"{folder}/{name}"))
        rows.append((config, policy, adjuster, command))
    return pd.DataFrame(rows, columns=list(COLUMNS))
