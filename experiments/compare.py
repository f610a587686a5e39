"""A comparison grid: tree specs x policies x adjusters (issues 29, 36).

Every cell of the grid is a :class:`Curve`; every policy and adjuster on a tree configuration
(spec, b, d) searches the same ``trees_per_model`` instances (tree instance j derives from the
grid's seed and j alone, ``experiments.failure``), so comparisons are stratified by instance.
Each cell's runs are stored under a key of everything that determines them
(``experiments.compare_cells``): a grid run into a folder computes only the runs it lacks, on
a local pool or a Dask cluster. ``run_table`` reads back one row per run, ``instance_table``
one row per (configuration, policy, adjuster, instance, budget).

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
    baseline = "ucb1+plain"  # optional (default: the first policy with the first adjuster)
    branching = 4
    depth = 8
"""

from .compare_atlas import ATLAS_ADJUSTERS, ATLAS_TREES, preset_lists
from .compare_cells import GrowSummary, grow, plan_blocks, run_table
from .compare_grid import (
    DEFAULT_SEED,
    GRID_FILE,
    SCALES,
    Grid,
    cell_labels,
    config_label,
    entry_label,
    open_grid,
    parse_entry,
)
from .compare_run import (
    INSTANCE_COLUMNS,
    INSTANCES_FILE,
    RUNS_FILE,
    compare,
    instance_table,
    run_compare,
    write_comparison,
)
from .compare_schema import grid_from_document, read_grid

__all__ = [
    "ATLAS_ADJUSTERS", "ATLAS_TREES", "DEFAULT_SEED", "GRID_FILE", "INSTANCES_FILE",
    "INSTANCE_COLUMNS", "RUNS_FILE", "SCALES", "Grid", "GrowSummary", "cell_labels", "compare",
    "config_label", "entry_label", "grid_from_document", "grow", "instance_table", "open_grid",
    "parse_entry", "plan_blocks", "preset_lists", "read_grid", "run_compare", "run_table",
    "write_comparison",
]
