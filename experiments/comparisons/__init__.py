"""A comparison grid: tree specs x policies x adjusters.

Every cell of the grid is a :class:`Curve`; every policy and adjuster on a tree configuration
(spec, b, d) searches the same ``trees_per_model`` instances (tree instance j derives from the
grid's seed and j alone, ``experiments.curves.failure``), so comparisons are stratified by instance.
Each cell's runs are stored under a key of everything that determines them
(``experiments.comparisons.cells``): a grid run into a folder computes only the runs it lacks, on
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

The package, from the bottom: ``atlas`` (the presets), ``grid`` (the grid, its entries and
labels) and ``schema`` (its study file); ``stats``, ``aggregates``, ``stratified`` and ``tests``
(intervals, rliable-style aggregates, hypothesis tests) under ``tables``, and ``report`` (the
figures and the page, its tests' sections from ``tests_section``); ``cells`` (each cell's runs,
stored by identity) on ``grid`` and ``stats``; ``anatomy_links`` (each cell's ``mctslab inspect
--anatomy`` command) on ``cells``; ``run`` (a grid run into a folder, with its tables and
report) on all of them; ``study_files`` reads a study file of either kind. On ``studies``,
``curves`` and ``runtime``.
"""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".anatomy_links": ("anatomy_command", "anatomy_commands"),
    ".atlas": ("ATLAS_ADJUSTERS", "ATLAS_TREES", "PRESETS", "TRAP_TREES", "preset_lists"),
    ".cells": ("GrowSummary", "grow", "plan_blocks", "run_table"),
    ".grid": ("DEFAULT_SEED", "GRID_FILE", "SCALES", "Grid", "cell_labels", "config_label",
              "entry_label", "open_grid", "parse_entry"),
    ".run": ("INSTANCE_COLUMNS", "INSTANCES_FILE", "RUNS_FILE", "TUNED_FILE", "compare",
             "instance_table",
             "run_compare", "write_comparison"),
    ".schema": ("grid_from_document", "read_grid"),
    ".study_files": ("read_study",),
})
