"""The report's sections on the tests of a comparison (``experiments.comparisons.report``):
the tests per budget (CMH, stratified by instance; Holm within a configuration), of the runs'
areas (permutation tests), and each tuned cell against its policy at the default constants;
each names its test, unit, family and correction, and says where none could be run."""

from __future__ import annotations

import math

import pandas as pd

from .stratified import EXACT_CONDITIONAL

SAME_RUNS = "no test: the same runs as"


def number_text(value) -> str:
    """A float to 3 significant digits, anything else as it is."""
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def interval_text(low, high, show=number_text) -> str:
    return f"[{show(low)}, {show(high)}]"


def _odds_ratio(ratio: float, low: float, high: float, method: str) -> str:
    """An odds ratio with its interval, marked "exact" when it is the exact conditional one."""
    return (f"{number_text(ratio)} {interval_text(low, high)}"
            + (" exact" if method == EXACT_CONDITIONAL else ""))


def tuned_table(tuned: pd.DataFrame) -> pd.DataFrame:
    """The tunings' table with ``resolved``: "not resolved" where the race kept every
    candidate (the chosen value is the least mean among values none shown worse)."""
    resolved = tuned["kept"] < tuned["candidates"]
    return tuned.assign(resolved=resolved.map({True: "yes", False: "not resolved"}))


def tuned_tests_blocks(tests: pd.DataFrame | None) -> list[tuple]:
    """Each tuned cell against its policy at the default constants: what changes where."""
    if tests is None or tests.empty:
        return []
    done = tests.dropna(subset="p_value")
    changed = done[done["reject"].astype(bool)]
    better = int((changed["area_difference"] < 0).sum())
    shown = pd.DataFrame({
        "config": tests["config"], "tuned": tests["method"], "default": tests["baseline"],
        "area": tests["area"].map(number_text),
        "default area": tests["baseline_area"].map(number_text),
        "difference": tests["area_difference"].map(number_text),
        "difference 95% interval": [interval_text(lo, hi) for lo, hi in
                                    zip(tests["difference_low"], tests["difference_high"])],
        "p": tests["p_value"].map(_p), "p (Holm)": tests["p_holm"].map(_p),
        "reject": tests["reject"], "note": tests["note"]})
    return [("p", (f"Tuned against default: each tuned cell against its policy at the default "
                   "constants on the compared instances, by the permutation test of the runs' "
                   "areas above, Holm's correction over one family, every such pair of the "
                   f"grid, alpha = 0.05: {len(changed)} of {len(done)} pairs change "
                   f"({better} for the better, lower area); {len(tests) - len(done)} not tested "
                   "(a tuned constant that is the default shares its cell). tuned_tests.csv "
                   "holds them.")),
            ("table", shown)]


def _p(value) -> str:
    if math.isnan(value):
        return "no test"
    return "< 1e-15" if value < 1e-15 else f"{value:.3g}"


METHOD_TEXT = [
    ("The unit of every test and interval is the run: one search on one tree instance, "
    "recording at every budget 2^k whether its chosen root move is a wrong one. Runs are "
    "independent given their tree instance; the instances of a tree configuration are shared "
    "by every method, so runs are nested in instances and every test is stratified by "
    "instance."),
    ("Failure rate at a budget: the share of runs whose chosen move is not optimal. Lower is "
    "better."),
    ("Playouts to epsilon: the smallest budget from which the pooled failure rate stays at or "
    "below epsilon at every larger budget; 'not reached' when it is above epsilon at the "
    "largest budget. Lower is better."),
    ("Normalised area: the area under a failure curve drawn against log2(playouts), divided by "
    "the log2 range of the budgets, so it lies in [0, 1]; for one run it is the share of the "
    "log2 budget range over which the run chose a wrong move, and a cell's area is the mean "
    "over its runs. Lower is better."),
    ("Intervals (95%) of the playouts to epsilon and of the normalised area: percentile "
    "bootstrap, two-stage: the instances resampled with replacement, then the runs within "
    "each drawn instance resampled with replacement (2,000 replicates). The failure curves' "
    "bands are Wilson 95% intervals of the pooled runs. The aggregates, the probability of "
    "improvement and the profiles treat each (configuration, instance) as one score."),
    ("What the tests are about: the permutation and Cochran-Mantel-Haenszel p-values are "
    "conditional on the tree instances drawn (they ask whether the methods differ on these "
    "instances, their runs being the sample), while the bootstrap intervals resample the "
    "instances too, and so speak of the tree model's instances at large."),
]


def budget_tests_blocks(tests: pd.DataFrame | None) -> list[tuple]:
    if tests is None or tests.empty:
        return [("p", ("No test per budget was made: the table is empty (a grid of one "
                 "method, or no run stored)."))]
    baseline = tests["baseline"].iloc[0]
    done = tests.dropna(subset="p_value")
    rejected = done[done["reject"].astype(bool)]
    blocks = [("p", (f"Test: {tests['test'].iloc[0]} (Mantel & Haenszel 1959), on the 2 x 2 "
               "tables (method, baseline) x (failed, not failed), one per tree instance both "
               "searched; unit: the run. These tests show where the curves part; the test of "
               "whole curves above is the primary one. Family: every method against the "
               f"baseline {baseline} on one tree configuration, at every budget; Holm's "
               "correction across the family's budgets and methods, alpha = 0.05, so that a "
               "claim at one budget is corrected for the budgets looked at. An instance where "
               "both fail none or all of their runs carries no information and is left out.")),
              ("p", ("Effect size: the Mantel-Haenszel common odds ratio of failing, method "
               "against baseline, over the same instances (below 1: the method fails less), "
               "with its 95% interval (Robins, Breslow & Greenland 1986); the table gives it "
               "at the largest budget with a test, budget_tests.csv at every budget. Where "
               "that ratio is 0 (on every instance the method fails none of its runs, or the "
               "baseline all of its) or inf (the reverse), it has no such interval; the table "
               "gives instead, marked exact, the median-unbiased estimate with the exact "
               "conditional 95% interval given each instance's margins (Hirji, Tsiatis & "
               "Mehta 1989; for one instance, Fisher's exact interval), whose end on the side "
               "of 0 or inf stays there: the runs bound the ratio on one side only "
               "(budget_tests.csv: odds_ratio_method).")),
              ("p", (f"{len(rejected)} of {len(done)} tests reject equal failure rates after "
                 f"Holm's correction; {int(_no_information(tests).sum())} budgets had no test "
                 "(both methods failed none or all of their runs on every instance)"
                 f"{_repeated_text(tests)}. Every test is in budget_tests.csv."))]
    rows = []
    for (config, method), group in tests.groupby(["config", "method"], sort=False):
        reject = group["reject"].astype(bool)
        better = group[reject & (group["rate"] < group["baseline_rate"])]["budget"]
        worse = group[reject & (group["rate"] > group["baseline_rate"])]["budget"]
        untested = group[_no_information(group)]["budget"]
        tested = group.dropna(subset="p_value")
        ratio = "-"
        if group["note"].str.startswith(SAME_RUNS).any():
            ratio = "not tested: " + group["note"].iloc[0].removeprefix("no test: ")
        elif len(tested):
            last = tested.loc[tested["budget"].idxmax()]
            ratio = (_odds_ratio(*last[["odds_ratio", "odds_ratio_low", "odds_ratio_high",
                                        "odds_ratio_method"]])
                     + f" at {int(last['budget']):,}")
        rows.append((config, method, _budgets(better), _budgets(worse), _budgets(untested),
                     ratio))
    table = pd.DataFrame(rows, columns=["config", "method",
                                        f"fails less than {baseline} at",
                                        f"fails more than {baseline} at",
                                        "no test at (both fail none or all)",
                                        "odds ratio [95% interval] at the largest tested budget"])
    return blocks + [("table", table)]


def _no_information(tests: pd.DataFrame) -> pd.Series:
    """The rows of budgets where both methods fail none or all of their runs everywhere."""
    return tests["note"].str.startswith("no test: both")


def _repeated_text(tests: pd.DataFrame) -> str:
    """The methods not tested because their runs are another's, in a clause, or ""."""
    repeated = tests[tests["note"].str.startswith(SAME_RUNS)].drop_duplicates(
        ["config", "method"])
    if repeated.empty:
        return ""
    pairs = "; ".join(f"{r.method} on {r.config}, {r.note.removeprefix('no test: ')}"
                      for r in repeated.itertuples())
    return ("; not tested, their runs being another method's (a constant tuned to its "
            f"default shares its cell, and is not counted in Holm's family): {pairs}")


def _budgets(values) -> str:
    return ", ".join(f"{int(v):,}" for v in values) or "-"


def curve_tests_blocks(tests: pd.DataFrame | None,
                        cell_areas: pd.DataFrame | None) -> list[tuple]:
    if tests is None or tests.empty:
        return [("p", "No test of whole curves was made: the table is empty.")]
    baseline = tests["baseline"].iloc[0]
    counts = sorted(set(tests["permutations"][tests["p_value"].notna()]))
    exact = tests["exact"].astype(bool)
    how = ("every relabelling enumerated" if exact.all() else
           f"{', '.join(map(str, counts))} random relabellings (seeded), p = (1 + extreme) / "
           "(1 + relabellings)" if not exact.any() else
           "every relabelling enumerated where they were few, else random relabellings")
    blocks = [("p", (f"Test: a stratified permutation test of the normalised area of each run "
               f"({tests['test'].iloc[0]}); the method labels of a method's and the "
               f"baseline's runs are permuted within each tree instance ({how}); two-sided, "
               "on the difference of the mean areas; unit: the run. Family: every method "
               f"against the baseline {baseline} on one tree configuration; Holm's correction "
               "within the family, alpha = 0.05. A pair's p and interval depend on that pair "
               "alone (its random draws are seeded by its names); the Holm-adjusted p depends "
               "on the family, and changes when methods are added to the grid.")),
              ("p", ("Effect size: the difference of the mean areas, method minus baseline "
               "(below 0: the method's failure curve lies lower), with its 95% interval from a "
               "two-stage bootstrap paired by instance: the instances drawn with replacement "
               "once for both methods, then each method's runs within every drawn instance "
               "(2,000 replicates)."))]
    shown = tests.copy()
    if cell_areas is not None and not cell_areas.empty:
        intervals = {f"{r.policy}+{r.adjuster}@{r.config}": interval_text(r.low, r.high)
                     for r in cell_areas.itertuples()}
        shown["area 95% interval"] = [intervals.get(f"{m}@{c}", "")
                                      for m, c in zip(shown["method"], shown["config"])]
    shown["difference 95% interval"] = [interval_text(lo, hi) for lo, hi in
                                        zip(shown["difference_low"], shown["difference_high"])]
    columns = {"config": "config", "method": "method", "area": "area",
               "area 95% interval": "area 95% interval", "baseline_area": "baseline area",
               "area_difference": "difference", "difference 95% interval":
               "difference 95% interval", "p_value": "p", "p_holm": "p (Holm)",
               "reject": "reject", "permutations": "relabellings", "note": "note"}
    if not shown["note"].astype(bool).any():
        shown = shown.drop(columns="note")
    shown = shown[[c for c in columns if c in shown.columns]].rename(columns=columns)
    for column in ("area", "baseline area", "difference"):
        shown[column] = shown[column].map(number_text)
    for column in ("p", "p (Holm)"):
        shown[column] = shown[column].map(_p)
    return blocks + [("table", shown)]
