"""The report of a comparison: figures, CSV tables, ``report.md`` and a
self-contained ``report.html`` (figures embedded as base64 PNG, no external asset).

The report is a list of blocks, rendered once as Markdown and once as HTML, so that both say
the same. The tables are those of ``plots.compare`` plus the tests of
``experiments.comparisons.tests`` (``budget_tests``: CMH per budget; ``curve_tests``: permutation
tests of the runs' areas) and ``cell_areas`` (mean run area with its nested bootstrap
interval). The report names each test, its unit, its family and its correction, and defines
every metric and which direction is better.
"""

from __future__ import annotations

import base64
import html
import math
import re
from pathlib import Path

import pandas as pd

from plots.aggregates import aggregate_intervals, improvement_matrix, performance_profiles
from plots.compare import (
    epsilon_heatmaps,
    failure_panels,
    playouts_by_bias,
)
from plots.style import FORMATS, look

from ..markdown import markdown_table
from ..runtime.store import make_folder, write_atomically, write_figures, write_table
from .guidance import guidance_blocks
from .tests_section import (
    METHOD_TEXT,
    budget_tests_blocks,
    curve_tests_blocks,
    interval_text,
    number_text,
    tuned_table,
    tuned_tests_blocks,
)

TUNED_TEXT = (
    "A method marked (tuned) is its policy at the constant tuned for each tree configuration "
    "and adjuster by `mctslab tune`'s race, on the area under the failure curve over the same "
    "budgets, with tree instances and runs of another seed than the compared ones (folders "
    "tuning/): chosen, and low-high, the values not shown worse; at_edge: the chosen value is "
    "an end of the range searched that the parameter could go beyond (none at a bound of its "
    "domain, such as c = 0); resolved: 'not resolved' where no value was shown worse than "
    "another, so the chosen one is only the least mean of equals. A tuned cell whose constant "
    "is its policy's default shares that cell: the same runs, tested once.")

# settings key -> what the report calls it, in the report's order
SETTINGS = {
    "trees": "tree configurations",
    "policies": "policies",
    "adjusters": "adjusters",
    "runs": "runs per cell",
    "trees_per_model": "tree instances per configuration",
    "max_budget": "largest budget (playouts)",
    "epsilon": "epsilon (target failure rate)",
    "baseline": "baseline of the tests (every other method is tested against it)",
    "seed": "seed",
    "stream_version": "random stream version",
}
# the stems of the report's figures (``_blocks``), whatever the epsilon: a rerun into the
# folder removes those of them it does not write again
FIGURE_STEMS = ("headline_eps*", "heatmap_eps*", "aggregates", "failure_curves", "improvement",
                "profiles")


def _playouts(value: float) -> str:
    return "not reached" if not math.isfinite(value) else f"{value:,.0f}"


def _settings(settings: dict, curves: pd.DataFrame | None) -> list[str]:
    """One "name: value" line per known setting (stated as missing when absent), the runs
    stored per cell when the curves are there, then any other setting but the command."""
    def show(value):
        return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)

    lines = [f"{label}: {show(settings[key]) if key in settings else 'not stated'}"
             for key, label in SETTINGS.items()]
    if curves is not None and not curves.empty:
        lines.append(f"runs stored per cell and budget: {curves['runs'].min()} to "
                     f"{curves['runs'].max()}")
    lines += [f"{key}: {show(value)}" for key, value in settings.items()
              if key not in SETTINGS and key != "command"]
    return lines


def _to_epsilon_table(to_epsilon: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "config": to_epsilon["config"],
        "method": to_epsilon["policy"] + "+" + to_epsilon["adjuster"],
        "epsilon": to_epsilon["epsilon"].map(number_text),
        "playouts": [_playouts(p) if r else "not reached"
                     for p, r in zip(to_epsilon["playouts"], to_epsilon["reached"])],
        "95% interval (nested bootstrap)": [
            interval_text(lo, hi, _playouts)
            for lo, hi in zip(to_epsilon["low"], to_epsilon["high"])],
    })


def _aggregates_table(aggregates: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "method": aggregates["method"], "metric": aggregates["metric"],
        "estimate": aggregates["estimate"].map(number_text),
        "95% interval": [interval_text(lo, hi) for lo, hi in zip(aggregates["low"],
                                                             aggregates["high"])],
    })


def _anatomy_blocks(commands: pd.DataFrame | None,
                    worst: pd.DataFrame | None) -> list[tuple]:
    """The command of each cell's failure anatomy (``anatomy_links``), the worst cell of each
    tree configuration marked, and when computed (``worst``) those cells' anatomy at the
    largest budget where they fail."""
    if commands is None or commands.empty:
        return [("p", ("No anatomy commands were given: the report was written from tables "
                       "alone, without the comparison's grid."))]
    blocks = [("p", ("Why a cell fails: the command in its row recomputes the cell's own runs "
               "(its trees from the grid's seed, its runs from the cell's seed), watched, and "
               "writes their failure anatomy: at each budget, which wrong root move the failing "
               "runs chose, its exact value and its win rate under uniform playouts against "
               "the optimal move's (seed 001, Eq. 5), so that a move chosen for the bias of "
               "the playouts (it looks better than the optimal one) is told from too little "
               "search; its failures add up to the cell's at every budget. It costs as much as "
               "the cell. A baseline player's cell builds no search tree: no command."))]
    shown = commands.assign(worst=commands["worst"].map({True: "yes", False: ""}),
                            command=commands["command"].replace("", "-"))
    blocks.append(("table", shown.rename(columns={
        "worst": "worst of its configuration (largest area)"})))
    if worst is None:
        return blocks
    if worst.empty:
        return blocks + [("p", "The worst cells fail at no budget: no anatomy to show.")]
    last = worst[worst["budget"] == worst.groupby(["config", "policy", "adjuster"])["budget"]
                 .transform("max")]
    columns = ["config", "policy", "adjuster", "budget", "tree_index", "move", "failures",
               "runs", "minimax", "win_rate", "optimal_win_rate", "gap", "visit_share"]
    return blocks + [
        ("p", ("The anatomy of the worst cells, at the largest budget where each fails (every "
               "budget in worst_anatomy.csv): per tree instance, the wrong root move the failing "
               "runs chose, how many of the instance's runs chose it, its exact minimax score, "
               "and its uniform-playout win rate against the best optimal move's (gap > 0: it "
               "looks better, the playouts' bias; gap < 0: too little search).")),
        ("table", last[columns].round(4))]


def _figure(folder: Path, name: str, table: pd.DataFrame | None, draw, caption: str,
            formats=("png",), why: str = ""):
    """Draw ``table`` with ``draw`` (returning the figure, or None and ``why`` not) into
    ``name``.png and every other of ``formats``, or say why not."""
    def not_drawn(reason: str) -> list[tuple]:
        return [("p", f"Not drawn: the figure of {caption[0].lower()}{caption[1:]} ({reason}).")]

    if table is None or table.empty:
        return not_drawn("its table is missing or empty")
    figure = draw(table)
    if figure is None:
        return not_drawn(why)
    write_figures(figure, folder / name, ("png", *formats))
    return [("figure", f"{name}.png", caption)]


def _blocks(folder: Path, tables: dict[str, pd.DataFrame], settings: dict,
            formats=("png",)) -> list[tuple]:
    """The report's content: ("h1" | "h2" | "p" | "code", text), ("list", lines),
    ("table", DataFrame) and ("figure", file name, caption) blocks; figures also in
    ``formats``, in one look (colours in the registries', then the grid's order)."""
    get = tables.get
    shared = look(settings.get("policies", ()), settings.get("adjusters", ()))
    budget = settings.get("max_budget")
    command = settings.get("command")
    blocks = [("h1", "Comparison of policies and adjusters"),
              ("h2", "Configuration"), ("list", _settings(settings, get("curves"))),
              ("h2", "What is measured and how it is tested"), ("list", METHOD_TEXT),
              ("h2", "How to rerun it")]
    if command:
        blocks += [("p", "To rerun it:"), ("code", command)]
    else:
        blocks.append(("p", "The command that produced this report was not recorded."))

    tuned = get("tuned")
    if tuned is not None and not tuned.empty:
        blocks += [("h2", "Constants tuned per tree"), ("p", TUNED_TEXT),
                   ("table", tuned_table(tuned)), *tuned_tests_blocks(get("tuned_tests"))]
    blocks.append(("h2", "Playouts to reach the target failure rate"))
    to_epsilon = get("to_epsilon")
    if to_epsilon is None or to_epsilon.empty:
        blocks.append(("p", "No playouts-to-epsilon table was given."))
    else:
        for epsilon, rows in to_epsilon.groupby("epsilon"):
            caption = (f"Playouts each policy needs to reach failure <= {epsilon:g} as the "
                       "bias of the tree grows, a panel per adjuster (points: pooled over "
                       "the instances; their 95% intervals are in the table below)")
            blocks += _figure(folder, f"headline_eps{epsilon:g}", rows,
                              lambda t: _first(playouts_by_bias(t, budget=budget,
                                                                look=shared)),
                              caption, formats, "the grid holds no family of trees that "
                              "differ in their bias alone, e.g. Constant(1,b) for two b; the "
                              "heatmap below gives the playouts per tree")
            caption = (f"Playouts to reach failure <= {epsilon:g}, per tree, policy and "
                       "adjuster")
            blocks += _figure(folder, f"heatmap_eps{epsilon:g}", rows,
                              lambda t: epsilon_heatmaps(t, budget=budget)[0].figure,
                              caption, formats)
        blocks.append(("table", _to_epsilon_table(to_epsilon)))

    blocks.append(("h2", "Aggregates across tree configurations"))
    aggregates = get("aggregates")
    if aggregates is not None and not aggregates.empty:
        blocks.append(("table", _aggregates_table(aggregates)))
    blocks += _figure(folder, "aggregates", aggregates,
                      lambda t: aggregate_intervals(t, look=shared).figure,
                      ("Mean and IQM of the normalised area under the failure curve, the "
                       "methods by their IQM, the lowest (best) on top"), formats)

    blocks += [("h2", "Tests of whole curves (unit: the run)"),
               *curve_tests_blocks(get("curve_tests"), get("cell_areas")),
               ("h2", "Tests at each budget (unit: the run)"),
               *budget_tests_blocks(get("budget_tests"))]
    blocks += guidance_blocks(folder, tables, formats)
    blocks += [("h2", "Failure curves"),
               *_figure(folder, "failure_curves", get("curves"),
                        lambda t: failure_panels(t, look=shared)[0].figure,
                        "Failure rate against playouts with Wilson 95% bands", formats),
               ("h2", "Failure anatomy of each cell"),
               *_anatomy_blocks(get("anatomy_commands"), get("worst_anatomy")),
               ("h2", "Probability of improvement"),
               *_figure(folder, "improvement", get("improvement"),
                        lambda t: improvement_matrix(t).figure,
                        "Probability that X beats Y across tree configurations", formats),
               ("h2", "Performance profiles"),
               *_figure(folder, "profiles", get("profile"),
                        lambda t: performance_profiles(t, look=shared).figure,
                        "Performance profiles of the normalised area", formats)]
    return blocks


def _first(panels):
    """The figure of an array of panels, or None when it is empty."""
    return panels[0].figure if len(panels) else None


def _markdown(blocks: list[tuple]) -> str:
    parts = []
    for kind, content, *caption in blocks:
        match kind:
            case "h1" | "h2":
                parts.append(f"{'#' * int(kind[1])} {content}")
            case "p":
                parts.append(content)
            case "code":
                parts.append(f"```\n{content}\n```")
            case "list":
                parts.append("\n".join(f"- {line}" for line in content))
            case "table":
                parts.append(markdown_table(content))
            case "figure":
                parts.append(f"![{caption[0]}]({content})")
    return "\n\n".join(parts) + "\n"


STYLE = """body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
img { max-width: 100%; height: auto; } figcaption { font-size: 0.9em; color: #555; }
pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; }"""


def _inline(text: str) -> str:
    """``text`` escaped for HTML, its Markdown code spans (`...`) as ``<code>`` elements."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _html(blocks: list[tuple], folder: Path) -> str:
    esc = html.escape
    parts = []
    for kind, content, *caption in blocks:
        match kind:
            case "h1" | "h2" | "p":
                parts.append(f"<{kind}>{_inline(content)}</{kind}>")
            case "code":
                parts.append(f"<pre><code>{esc(content)}</code></pre>")
            case "list":
                parts.append("<ul>" + "".join(f"<li>{_inline(line)}</li>" for line in content)
                             + "</ul>")
            case "table":
                parts.append(content.to_html(index=False, border=0))
            case "figure":
                png = (folder / content).read_bytes()
                width = int.from_bytes(png[16:20], "big") // 2  # PNG header; 200 dpi shown at 100
                data = base64.b64encode(png).decode("ascii")
                parts.append(f'<figure><img src="data:image/png;base64,{data}" width="{width}" '
                             f'alt="{esc(caption[0])}"><figcaption>{esc(caption[0])}'
                             "</figcaption></figure>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{esc(blocks[0][1])}</title>\n<style>\n{STYLE}\n</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def _remove_stale_figures(folder: Path, written: set[str]) -> None:
    """Delete the figure files of ``folder`` (FIGURE_STEMS in any of FORMATS) not ``written``
    now: an earlier report's in another format, of another epsilon, or no longer drawn."""
    for stem in FIGURE_STEMS:
        for fmt in FORMATS:
            for path in folder.glob(f"{stem}.{fmt}"):
                if path.name not in written:
                    path.unlink()


def write_report(folder: str | Path, tables: dict[str, pd.DataFrame],
                 settings: dict, formats=("png", "pdf")) -> tuple[Path, Path]:
    """Write the comparison's figures (PNG, which the reports show, and every other format of
    ``formats``: png, pdf, svg), its tables (CSV, one per entry of ``tables``),
    ``report.md`` and ``report.html`` into ``folder``; returns the two reports' paths. The
    figure files of an earlier report in ``folder`` that this one does not write again are
    deleted, so a grown comparison shows no stale figure.

    ``tables`` holds any of curves, to_epsilon, improvement, profile, aggregates, budget_tests,
    curve_tests, cell_areas, anatomy_commands and worst_anatomy (``anatomy_links``; a missing
    or empty one is stated in the report); ``settings`` any of the keys of SETTINGS and
    ``command``, the command line that reruns the comparison.
    """
    folder = make_folder(folder)
    tables = {name: table for name, table in tables.items() if table is not None}
    for name, table in tables.items():
        write_table(table, folder / f"{name}.csv")
    blocks = _blocks(folder, tables, settings, formats)
    _remove_stale_figures(folder, {f"{Path(name).stem}.{fmt}" for kind, name, *_ in blocks
                                   if kind == "figure" for fmt in ("png", *formats)})
    markdown, page = folder / "report.md", folder / "report.html"
    return (write_atomically(markdown, _markdown(blocks).encode("utf-8")),
            write_atomically(page, _html(blocks, folder).encode("utf-8")))
