"""Every table of a comparison, from its per-run table: the estimates
(``experiments.comparisons.stats``, ``aggregates``) and the tests
(``experiments.comparisons.tests``) together, as ``experiments.comparisons.report`` reads
them."""

from __future__ import annotations

import pandas as pd

from .aggregates import aggregate_intervals, performance_profile, probability_of_improvement
from .stats import areas, failure_curves, instances_from_runs, nested_intervals, run_areas
from .tests import budget_tests, curve_tests, tuned_tests

__all__ = ["comparison_tables"]


def comparison_tables(runs: pd.DataFrame, epsilon: float = 0.05, baseline: str | None = None,
                      n_boot: int = 2000, n_permutations: int = 9999, seed: int = 0,
                      alpha: float = 0.05, same: dict[tuple[str, str], str] | None = None,
                      tuned_pairs: list[tuple[str, str, str]] = ()
                      ) -> dict[str, pd.DataFrame]:
    """Every table of a comparison (what ``experiments.comparisons.report.write_report`` reads)
    from its per-run table (RUN_COLUMNS): instances, curves, to_epsilon, budget_tests,
    curve_tests (``experiments.comparisons.tests``, each method against ``baseline``, default the
    first method listed; a method with the runs of another, ``same``, untested:
    ``tests.same_runs_as``), cell_areas, areas (per instance), aggregates, improvement and
    profile; with ``tuned_pairs`` (``Grid.tuned_pairs``) tuned_tests, each tuned cell against
    its default (``tests.tuned_tests``)."""
    instances = instances_from_runs(runs)
    instance_areas = areas(instances)
    to_epsilon, cell_area = nested_intervals(runs, epsilon, n_boot, seed, alpha)
    tables = {
        "instances": instances,
        "curves": failure_curves(instances),
        "to_epsilon": to_epsilon,
        "budget_tests": budget_tests(instances, baseline, alpha, same),
        "curve_tests": curve_tests(run_areas(runs), baseline, alpha, n_permutations, seed,
                                   n_boot, same),
        "cell_areas": cell_area,
        "areas": instance_areas,
        "aggregates": aggregate_intervals(instance_areas, n_boot, seed),
        "improvement": probability_of_improvement(instance_areas, n_boot, seed),
        "profile": performance_profile(instance_areas),
    }
    if tuned_pairs:
        tables["tuned_tests"] = tuned_tests(run_areas(runs), list(tuned_pairs), alpha,
                                            n_permutations, seed, n_boot, same)
    return tables
