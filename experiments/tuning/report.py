"""A tuning's report: ``report.md`` (the chosen value, the interval of values not shown worse,
the playouts spent against a full grid's, the table of candidates) and its figure
(``plots.tuning``), written into the tuning's folder."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..markdown import markdown_table
from ..runtime.store import write_atomically, write_figures

SUMMARY_FILE = "summary.json"


def summary_lines(summary: dict) -> list[str]:
    """The result in words, as the command prints it and the report opens with."""
    chosen = ", ".join(f"{name} = {value:g}" for name, value in summary["chosen"].items())
    kept = "; ".join(f"{name} in [{low:g}, {high:g}]"
                     for name, (low, high) in summary["interval"].items())
    edges = [f"{name} = {summary['chosen'][name]:g} is the {end} end of its range: the best "
             "may lie beyond it; widen the range" for name, end in summary["at_edge"].items()]
    if summary["kept"] == summary["candidates"]:  # an end chosen among equals says nothing
        edges = [("no value was shown worse than another: more --runs (or a wider range) "
                  "would separate them")]
    return [
        f"chosen: {chosen} ({summary['loss_name']} {summary['loss']:.3f})",
        f"not shown worse ({summary['kept']} of {summary['candidates']} values): {kept}",
        (f"playouts: {summary['playouts']:,} budgeted ({summary['share_of_grid']:.0%} of a full "
        f"grid's {summary['grid_playouts']:,} at the same runs), {summary['simulated_playouts']:,}"
        " simulated now" + (f", {summary['stored_playouts']:,} read from the runs stored"
                            if summary.get("stored_playouts") else "")),
        *edges,
    ]


def curve_lines(curves: pd.DataFrame, names: list[str]) -> list[str]:
    """The section on the chosen value's and the default's failure curves over the budgets:
    a sentence, the figure and a table of their failure rates side by side."""
    def values(which: str) -> str:
        row = curves[curves["which"] == which].iloc[0]
        return ", ".join(f"{name} = {row[name]:g}" for name in names)

    side = curves.pivot(index="budget", columns="which", values="failure_rate")
    runs = int(curves["runs"].iloc[0])
    table = pd.DataFrame({"budget": side.index,
                          f"chosen ({values('chosen')})": side["chosen"].round(4).to_numpy(),
                          f"default ({values('default')})": side["default"].round(4).to_numpy()})
    return [
        "## The chosen value and the default over every budget", "",
        (f"A value tuned at the largest budget may fail at a smaller one (a cliff): the failure "
         f"rate of the chosen value and of the policy's default at every budget 2^k, each over "
         f"the same {runs:,} runs (Wilson 95% bands; curves.csv)."), "",
        "![failure curves of the chosen value and the default](tune_curves.png)", "",
        markdown_table(table), ""]


def write_report(folder: Path, tuning, table: pd.DataFrame, curves: pd.DataFrame,
                 formats=("png", "pdf")) -> None:
    from plots.tuning import plot_tuning, plot_tuning_curves

    summary = table.attrs["summary"]
    params = [one.to_dict() for one in tuning.params]
    title = f"{tuning.tree} b={tuning.branching} d={tuning.depth}: {tuning.policy}"
    write_figures(plot_tuning(table, params, summary["loss_name"], title), folder / "tune", formats)
    names = [one.name for one in tuning.params]
    write_figures(plot_tuning_curves(curves, names, title), folder / "tune_curves", formats)
    write_atomically(folder / SUMMARY_FILE,
                     (json.dumps(summary, indent=1, sort_keys=True) + "\n").encode())
    ranges = ", ".join(one.spec for one in tuning.params)
    lines = [
        (f"# Tuning {ranges} of {tuning.policy} on {tuning.tree} b={tuning.branching} "
        f"d={tuning.depth} ({tuning.adjuster})"), "",
        *[f"- {line}" for line in summary_lines(summary)], "",
        (f"Racing over {len(table)} values, at most {tuning.sizes()[-1]:,} runs each on "
        f"{tuning.trees} tree instances (seed {tuning.seed}), every value on the same runs; at "
        f"each of {len(tuning.sizes())} looks ({', '.join(map(str, tuning.sizes()))} runs) a "
        "value is dropped once a one-sided paired test over the runs (McNemar's exact test of "
        "failures, or Wilcoxon's signed-rank test of areas) shows it worse than the best, "
        f"Holm-adjusted, at level {tuning.alpha:g} / {len(tuning.sizes())}. Intervals: Wilson "
        "95% (failure rate) or normal 95% (area). `dropped_after`: the runs a dropped value "
        "had (0: kept)."), "",
        "![the loss of every value](tune.png)", "",
        markdown_table(table.round(4)), "",
        *curve_lines(curves, names),
    ]
    write_atomically(folder / "report.md", "\n".join(lines).encode())
