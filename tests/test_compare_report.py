"""The comparison's figures and report from small hand-made tables, and the report
opened in a real browser (headless chromium) to check that every figure renders."""

import re
from fnmatch import fnmatch
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from chromium import headless, image_widths, needs_chromium
from matplotlib.colors import to_hex
from statsmodels.stats.proportion import proportion_confint

from experiments.comparisons.report import FIGURE_STEMS, write_report
from plots.aggregates import aggregate_intervals, improvement_matrix, performance_profiles
from plots.compare import (
    epsilon_heatmap,
    epsilon_heatmaps,
    failure_panels,
)

CONFIGS = ("constant(1,3) b=4 d=4", "random(4,3) b=2 d=4")
METHODS = (("ucb1", "plain"), ("ucb1", "maxfreq"), ("thompson", "plain"))
NAMES = [f"{policy}+{adjuster}" for policy, adjuster in METHODS]
BUDGETS = (16, 64, 256)
SETTINGS = {"trees": ["constant(1,3)", "random(4,3)"], "policies": ["ucb1", "thompson"],
            "adjusters": ["plain", "maxfreq"], "runs": 40, "trees_per_model": 4,
            "max_budget": 256, "seed": 7, "stream_version": 2, "epsilon": 0.05,
            "command": "mctslab compare --trees constant(1,3) random(4,3) --runs 40"}


def _curves(configs=CONFIGS) -> pd.DataFrame:
    rows = []
    for c, config in enumerate(configs):
        for m, (policy, adjuster) in enumerate(METHODS):
            for b, budget in enumerate(BUDGETS):
                rate = 0.8 / (1 + b + m + c)
                rows.append((config, policy, adjuster, budget, 40, round(40 * rate), rate,
                             rate / 2, min(1.0, rate * 1.5)))
    return pd.DataFrame(rows, columns=["config", "policy", "adjuster", "budget", "runs",
                                       "failures", "failure_rate", "ci_low", "ci_high"])


def _to_epsilon() -> pd.DataFrame:
    inf, nan = float("inf"), float("nan")
    rows = [(CONFIGS[0], "ucb1", "plain", 64.0, 32.0, 128.0, True),
            (CONFIGS[0], "ucb1", "maxfreq", 16.0, 16.0, 32.0, True),
            (CONFIGS[0], "thompson", "plain", 128.0, 64.0, inf, True),
            (CONFIGS[1], "ucb1", "plain", 256.0, 128.0, inf, True),
            (CONFIGS[1], "ucb1", "maxfreq", 32.0, 16.0, 64.0, True),
            (CONFIGS[1], "thompson", "plain", nan, 256.0, inf, False)]
    frame = pd.DataFrame(rows, columns=["config", "policy", "adjuster", "playouts", "low",
                                        "high", "reached"])
    return frame.assign(epsilon=0.05)


def _improvement() -> pd.DataFrame:
    rows = [(x, y, 0.5 + (i - j) / 8, 0.3 + (i - j) / 8, 0.7 + (i - j) / 8)
            for i, x in enumerate(NAMES) for j, y in enumerate(NAMES) if x != y]
    return pd.DataFrame(rows, columns=["method_x", "method_y", "probability", "low", "high"])


def _profile() -> pd.DataFrame:
    rows = [(name, tau, min(1.0, tau * (i + 1))) for i, name in enumerate(NAMES)
            for tau in (0.0, 0.25, 0.5, 1.0)]
    return pd.DataFrame(rows, columns=["method", "tau", "fraction"])


def _aggregates() -> pd.DataFrame:
    rows = [(name, metric, 0.2 + 0.1 * i, 0.1 + 0.1 * i, 0.35 + 0.1 * i)
            for i, name in enumerate(NAMES) for metric in ("mean", "iqm")]
    return pd.DataFrame(rows, columns=["method", "metric", "estimate", "low", "high"])


def _budget_tests() -> pd.DataFrame:
    from experiments.comparisons.stratified import EXACT_CONDITIONAL, MANTEL_HAENSZEL
    from experiments.comparisons.tests import BUDGET_TEST_COLUMNS, CMH

    family = "constant(1,3) b=4 d=4, every budget: each method vs ucb1+plain"
    nan = float("nan")
    rows = [(CONFIGS[0], 64, "ucb1+maxfreq", "ucb1+plain", CMH, family, 4, 160, 0.05, 0.4, 0.08,
             0.03, 0.21, MANTEL_HAENSZEL, 30.1, 0.004, 0.008, True, ""),
            (CONFIGS[0], 64, "thompson+plain", "ucb1+plain", CMH, family, 4, 160, 0.0, 0.01,
             1.0, 0.0, 39.0, EXACT_CONDITIONAL, 1.2, 0.2, 0.2, False, ""),
            (CONFIGS[0], 16, "thompson+plain", "ucb1+plain", CMH, family, 4, 160, 1.0, 1.0,
             nan, nan, nan, "", nan, nan, nan, False,
             "no test: both fail none or all of their runs on every instance")]
    return pd.DataFrame(rows, columns=BUDGET_TEST_COLUMNS)


def _curve_tests() -> pd.DataFrame:
    from experiments.comparisons.tests import CURVE_TEST_COLUMNS, PERMUTATION

    family = "constant(1,3) b=4 d=4: each method vs ucb1+plain"
    rows = [(CONFIGS[0], "ucb1+maxfreq", "ucb1+plain", PERMUTATION, family, 4, 160, 0.1, 0.3,
             -0.2, -0.31, -0.12, 9999, False, 0.0001, 0.0002, True, "")]
    return pd.DataFrame(rows, columns=CURVE_TEST_COLUMNS)


def _tables() -> dict[str, pd.DataFrame]:
    return {"curves": _curves(), "to_epsilon": _to_epsilon(), "improvement": _improvement(),
            "profile": _profile(), "aggregates": _aggregates(), "budget_tests": _budget_tests(),
            "curve_tests": _curve_tests()}


def test_epsilon_heatmaps_draw_a_panel_per_adjuster_and_hatch_what_is_not_reached():
    plain, maxfreq = epsilon_heatmaps(_to_epsilon())
    assert [plain.get_title(), maxfreq.get_title()] == ["plain", "maxfreq"]
    grid = plain.get_images()[0].get_array()
    assert grid.shape == (2, 2)  # configurations x policies
    assert grid[0, 0] == pytest.approx(6.0)  # log2(64)
    assert grid.mask.tolist() == [[False, False], [False, True]]
    [hatched] = plain.patches  # the one configuration a policy does not reach epsilon on
    assert hatched.get_hatch() == "////" and hatched.get_xy() == (0.5, 0.5)
    assert [text.get_text() for text in plain.texts] == ["64", "128", "256", ">T"]
    assert [text.get_text() for text in maxfreq.texts] == ["16", "32"]
    assert [t.get_text() for t in plain.get_xticklabels()] == ["ucb1", "thompson"]
    assert [t.get_text() for t in plain.get_yticklabels()] == list(CONFIGS)
    bar = plain.figure.axes[-1]  # one colour bar, a tick per power of two from 16 to 256
    assert [t.get_text() for t in bar.get_xticklabels()] == ["16", "32", "64", "128", "256"]
    assert plain.get_images()[0].norm(np.log2([16, 32, 256])).tolist() == [0, 1, 4]


def test_epsilon_heatmap_writes_large_counts_short():
    table = _to_epsilon().iloc[:1].assign(playouts=1536.0, low=1024.0, high=12_000.0)
    assert epsilon_heatmap(table).texts[0].get_text() == "1.5k"


def test_epsilon_heatmap_asks_which_epsilon_or_adjuster_when_there_are_several():
    table = pd.concat([_to_epsilon(), _to_epsilon().assign(epsilon=0.1)])
    with pytest.raises(ValueError, match="choose one"):
        epsilon_heatmaps(table)
    assert len(epsilon_heatmaps(table, epsilon=0.1)) == 2
    with pytest.raises(ValueError, match="draw one at a time"):
        epsilon_heatmap(_to_epsilon())


def test_failure_panels_draw_a_line_and_a_band_per_method():
    configs = ("a", "b", "c", "d")
    axes = failure_panels(_curves(configs))
    assert [ax.get_title() for ax in axes] == list(configs)
    assert len(axes[0].figure.axes) == 4  # a 2 x 3 grid less its two empty cells
    for ax in axes:
        assert [line.get_label() for line in ax.get_lines()] == NAMES
        assert len(ax.collections) == 3  # one Wilson band per method
        assert ax.get_xscale() == "log" and list(ax.get_lines()[0].get_xdata()) == [16, 64, 256]
    line, band = axes[1].get_lines()[2], axes[1].collections[2]
    assert line.get_color() == "#2ca02c" and line.get_linestyle() == "-"  # thompson, plain
    assert axes[1].get_lines()[1].get_linestyle() == "--"  # maxfreq
    low, _ = proportion_confint(round(40 * 0.8 / 6), 40, method="wilson")  # at 256
    assert band.get_paths()[0].vertices[:, 1].min() == pytest.approx(low)


def test_improvement_matrix_annotates_every_pair_and_leaves_the_diagonal_blank():
    ax = improvement_matrix(_improvement())
    grid = ax.get_images()[0].get_array()
    assert np.diag(grid.mask).all() and grid.count() == 6
    assert grid[2, 0] == pytest.approx(0.75)  # thompson+plain beats ucb1+plain
    assert len(ax.texts) == 6 and "0.75\n[0.55, 0.95]" in [t.get_text() for t in ax.texts]


def test_performance_profiles_draw_a_step_line_per_method():
    ax = performance_profiles(_profile())
    assert [line.get_label() for line in ax.get_lines()] == NAMES
    assert list(ax.get_lines()[1].get_ydata()) == [0.0, 0.5, 1.0, 1.0]


def test_aggregate_intervals_draw_a_bar_per_method_and_metric():
    ax = aggregate_intervals(_aggregates())
    bars = ax.patches
    assert len(bars) == 6
    assert bars[0].get_x() == pytest.approx(0.1) and bars[0].get_width() == pytest.approx(0.25)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mean", "IQM"]
    assert [t.get_text() for t in ax.get_yticklabels()] == NAMES


def test_aggregate_intervals_rank_the_methods_by_iqm_in_their_policies_colours():
    # the rows by name, as comparisons.stats gives them; the IQM ranks thompson first, the mean
    # would rank klucb first
    iqm = {"klucb+plain": 0.3, "thompson+plain": 0.1, "ucb1+maxfreq": 0.2, "ucb1+plain": 0.4}
    mean = {"klucb+plain": 0.1, "thompson+plain": 0.35, "ucb1+maxfreq": 0.3, "ucb1+plain": 0.2}
    aggregates = pd.DataFrame(
        [(method, metric, value, value - 0.05, value + 0.05)
         for method in iqm for metric, value in (("mean", mean[method]), ("iqm", iqm[method]))],
        columns=["method", "metric", "estimate", "low", "high"])
    ax = aggregate_intervals(aggregates)
    ranked = ["thompson+plain", "ucb1+maxfreq", "klucb+plain", "ucb1+plain"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ranked
    colours = {"thompson": "#2ca02c", "ucb1": "#1f77b4", "klucb": "#ff7f0e"}
    styles = {"plain": "-", "maxfreq": "--"}
    assert len(ax.patches) == 8
    for bar in ax.patches:
        policy, adjuster = ranked[round(bar.get_y() + bar.get_height() / 2)].split("+")
        assert to_hex(bar.get_facecolor(), keep_alpha=False) == colours[policy]
        assert bar.get_linestyle() == styles[adjuster]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mean", "IQM"]


def _figure_files(markdown: str) -> list[str]:
    return re.findall(r"!\[[^]]*\]\(([^)]+)\)", markdown)


def test_report_states_the_settings_and_names_every_figure(tmp_path, saved_figures):
    md, page = write_report(tmp_path, _tables(), SETTINGS)
    text = md.read_text()
    figures = _figure_files(text)
    assert figures == ["heatmap_eps0.05.png", "aggregates.png", "failure_curves.png",
                       "improvement.png", "profiles.png"]
    assert sorted(saved_figures) == sorted(
        name.replace(".png", suffix) for name in figures for suffix in (".png", ".pdf"))
    # no headline here, and the sentence says which figure is missing before the one shown
    assert ("Not drawn: the figure of playouts each policy needs to reach failure <= 0.05 as "
            "the bias of the tree grows") in text
    assert "(the grid holds no family of trees that differ in their bias alone" in text
    assert all((tmp_path / name).stat().st_size > 0 for name in figures)
    assert sorted(p.name for p in tmp_path.glob("*.csv")) == sorted(f"{n}.csv" for n in _tables())
    stated = ["- seed: 7", "- random stream version: 2", "- runs per cell: 40",
              "- tree instances per configuration: 4", "- policies: ucb1, thompson",
              "- runs stored per cell and budget: 40 to 40", SETTINGS["command"],
              ("1 of 2 tests reject equal failure rates after Holm's correction; 1 budgets had "
              "no test"), "unit: the run", ("Family: every method against the baseline "
              "ucb1+plain on one tree configuration, at every budget; Holm's correction "
              "across the family's budgets and methods"),
              "the test of whole curves above is the primary one",
              "the Holm-adjusted p depends on the family", "Normalised area: ",
              "Playouts to epsilon: ", "Lower is better", "two-stage",
              ("the permutation and Cochran-Mantel-Haenszel p-values are conditional on the "
               "tree instances drawn"), "the bootstrap intervals resample the instances"]
    rows = ["| random(4,3) b=2 d=4 | thompson+plain | 0.05 | not reached | [256, not reached] |",
            "| constant(1,3) b=4 d=4 | ucb1+maxfreq | 64 | - | - | 0.08 [0.03, 0.21] at 64 |",
            "| constant(1,3) b=4 d=4 | thompson+plain | - | - | 16 | 1 [0, 39] exact at 64 |",
            ("| constant(1,3) b=4 d=4 | ucb1+maxfreq | 0.1 | 0.3 | -0.2 | [-0.31, -0.12] | "
             "0.0001 | 0.0002 | True | 9999 |")]
    stated += ["Effect size: the Mantel-Haenszel common odds ratio of failing",
               "the exact conditional 95% interval given each instance's margins",
               "Effect size: the difference of the mean areas, method minus baseline"]
    for line in stated + rows:
        assert line in text
    html = page.read_text()
    assert html.count("<img ") == len(figures) and "<td>[256, not reached]</td>" in html
    assert html.count("<table") == text.count("\n|---|") == 4


def test_report_gives_each_cells_anatomy_command_and_marks_the_worst(tmp_path):
    commands = pd.DataFrame(
        [(config, policy, adjuster, policy == "ucb1" and adjuster == "plain",
          f"mctslab inspect --tree x --policy {policy} --anatomy" if policy != "thompson" else "")
         for config in CONFIGS for policy, adjuster in METHODS],
        columns=["config", "policy", "adjuster", "worst", "command"])
    worst = pd.DataFrame([(CONFIGS[0], "ucb1", "plain", budget, 0, 2, failures, 40, 3, 0.6, 0.5,
                           0.1, 0.4) for budget, failures in ((64, 5), (256, 2))],
                         columns=["config", "policy", "adjuster", "budget", "tree_index",
                                  "move", "failures", "runs", "minimax", "win_rate",
                                  "optimal_win_rate", "gap", "visit_share"])
    md, page = write_report(tmp_path, {**_tables(), "anatomy_commands": commands,
                                       "worst_anatomy": worst}, SETTINGS)
    text = md.read_text()
    assert "## Failure anatomy of each cell" in text and "seed 001, Eq. 5" in text
    assert ("| constant(1,3) b=4 d=4 | ucb1 | plain | yes | mctslab inspect --tree x --policy "
            "ucb1 --anatomy |") in text
    assert "| random(4,3) b=2 d=4 | thompson | plain |  | - |" in text
    assert text.count("| yes |") == 2
    assert "| constant(1,3) b=4 d=4 | ucb1 | plain | 256 | 0 | 2 | 2 | 40 |" in text
    assert "| 64 | 0 | 2 | 5 |" not in text  # the largest failing budget alone
    assert "mctslab inspect --tree x" in page.read_text()
    md, _ = write_report(tmp_path / "without", _tables(), SETTINGS)
    assert "No anatomy commands were given" in md.read_text()


def test_a_rerun_into_the_folder_leaves_no_stale_figure(tmp_path):
    """A comparison grown in its folder: the figures of the earlier report that the
    new one does not write (another format, a figure no longer drawn) are gone, and only
    those: the new report's figures, and a file of the user's, stay."""
    write_report(tmp_path, _tables(), SETTINGS, formats=("png", "svg"))
    assert (tmp_path / "improvement.svg").exists() and (tmp_path / "profiles.svg").exists()
    (tmp_path / "notes.svg").write_text("<svg/>")
    md, _ = write_report(tmp_path, {**_tables(), "improvement": None}, SETTINGS,
                         formats=("png", "pdf"))
    drawn = [name.removesuffix(".png") for name in _figure_files(md.read_text())]
    assert drawn == ["heatmap_eps0.05", "aggregates", "failure_curves", "profiles"]
    assert sorted(p.name for p in tmp_path.glob("*") if p.suffix in (".png", ".pdf", ".svg")) \
        == sorted([f"{stem}.{fmt}" for stem in drawn for fmt in ("png", "pdf")] + ["notes.svg"])


def test_every_figure_of_the_report_is_one_a_rerun_may_remove(tmp_path):
    tables = {**_tables(), "to_epsilon": _atlas_to_epsilon()}
    md, _ = write_report(tmp_path, tables, SETTINGS)
    stems = [name.removesuffix(".png") for name in _figure_files(md.read_text())]
    assert len(stems) == 6  # the headline too
    assert all(any(fnmatch(stem, pattern) for pattern in FIGURE_STEMS) for stem in stems)


class _Assets(HTMLParser):
    """Every src and href of a page."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [value for name, value in attrs if name in ("src", "href")]


def test_report_html_loads_nothing_from_outside(tmp_path):
    _, page = write_report(tmp_path, _tables(), SETTINGS)
    assets = _Assets()
    assets.feed(page.read_text())
    assert len(assets.links) == 5
    assert all(link.startswith("data:image/png;base64,") for link in assets.links)
    assert not re.search(r"https?://|<link|<script", page.read_text())


def test_report_states_missing_tables(tmp_path, saved_figures):
    tables = {**_tables(), "budget_tests": _budget_tests().iloc[:0], "improvement": None}
    del tables["profile"]
    md, _ = write_report(tmp_path, tables, {"seed": 7})
    text = md.read_text()
    assert "No test per budget was made" in text
    assert ("Not drawn: the figure of probability that X beats Y across tree configurations "
            "(its table is missing or empty).") in text
    assert "- stream version" not in text and "- random stream version: not stated" in text
    assert "was not recorded" in text
    assert _figure_files(text) == ["heatmap_eps0.05.png", "aggregates.png",
                                   "failure_curves.png"]


def test_report_says_which_tuned_cells_share_runs_and_which_tunings_are_not_resolved(
        tmp_path, saved_figures):
    """klucb(tuned)'s c is KL-UCB's default: the same runs as klucb, not tested; its race
    kept every candidate: not resolved."""
    config = CONFIGS[0]
    note = "no test: the same runs as klucb+plain"
    budget = _budget_tests()
    budget = pd.concat([budget, budget.iloc[:1].assign(
        method="klucb(tuned)+plain", odds_ratio=float("nan"), odds_ratio_method="",
        p_value=float("nan"), p_holm=float("nan"), reject=False, note=note)])
    curve = _curve_tests()
    curve = pd.concat([curve, curve.assign(
        method="klucb(tuned)+plain", area_difference=float("nan"), p_value=float("nan"),
        p_holm=float("nan"), reject=False, permutations=0, note=note)])
    tuned = pd.DataFrame([("constant(1,3)", "klucb", "plain", "c", 0.0, 0.0, 3.0, "", 8, 8,
                           100), ("constant(1,3)", "ucb1", "plain", "c", 0.05, 0.01, 0.2, "", 3,
                                  8, 90)],
                         columns=["tree", "policy", "adjuster", "param", "chosen", "low",
                                  "high", "at_edge", "kept", "candidates", "playouts"])
    tuned_tests = pd.concat([
        curve.iloc[:1].assign(method="ucb1(tuned)+plain", baseline="ucb1+plain"),
        curve.iloc[1:].assign(baseline="klucb+plain")])
    md, _ = write_report(tmp_path, {**_tables(), "budget_tests": budget,
                                    "curve_tests": curve, "tuned": tuned,
                                    "tuned_tests": tuned_tests}, SETTINGS)
    text = md.read_text()
    assert (f"| {config} | klucb(tuned)+plain | - | - | - | not tested: the same runs as "
            "klucb+plain |") in text
    assert ("not tested, their runs being another method's (a constant tuned to its default "
            "shares its cell, and is not counted in Holm's family): klucb(tuned)+plain on "
            f"{config}, the same runs as klucb+plain") in text
    assert f"| no test | no test | False | 0 | {note} |" in text  # the curve tests' row
    assert "| klucb | plain | c | 0.0 | 0.0 | 3.0 |  | 8 | 8 | 100 | not resolved |" in text
    assert "| ucb1 | plain | c | 0.05 | 0.01 | 0.2 |  | 3 | 8 | 90 | yes |" in text
    # each tuned cell against its default, in one family
    assert ("by the permutation test of the runs' areas above, Holm's correction over one "
            "family, every such pair of the grid, alpha = 0.05: 1 of 1 pairs change (1 for the "
            "better, lower area); 1 not tested") in text
    assert (f"| {config} | ucb1(tuned)+plain | ucb1+plain | 0.1 | 0.3 | -0.2 | [-0.31, -0.12] "
            "| 0.0001 | 0.0002 | True |  |") in text
    # the page shows Markdown's code spans as code, not as backticks
    page = (tmp_path / "report.html").read_text()
    assert "by <code>mctslab tune</code>&#x27;s race" in page and "`" not in page


@needs_chromium
def test_report_html_renders_every_figure_in_chromium(tmp_path):
    _, page = write_report(tmp_path / "report", _tables(), SETTINGS)
    widths = image_widths(page, tmp_path)
    assert len(widths) == 5
    assert all(width > 0 for width in widths), widths


SIZES = """<script>
window.addEventListener("load", () => {
  const sizes = Array.from(document.images,
    image => [image.alt.slice(0, 20), image.naturalWidth, image.width, image.height].join(":"));
  document.body.setAttribute("data-sizes", sizes.join("|"));
});
</script>
</body>"""


def _atlas_to_epsilon() -> pd.DataFrame:
    """An atlas-shaped table (15 trees, 9 policies, 4 adjusters), made-up playouts."""
    from bandits import POLICIES

    trees = ([f"constant(1,{b})" for b in range(1, 8)] + ["constant'(1,13)"]
             + [f"random(4,{q})" for q in range(5)] + ["pgame(127)", "random(4,3)+trap(3,0.2)"])
    rows = []
    for c, tree in enumerate(trees):
        for a, adjuster in enumerate(("plain", "maxfreq", "maxfreq(rescore=1)", "static")):
            for p, policy in enumerate(POLICIES):
                k = max(2 + c // 2 + p % 3 - a, 0)
                reached = k <= 10
                rows.append((f"{tree} b=4 d=8", policy, adjuster, 0.05,
                             2.0**k if reached else np.nan, 2.0 ** (k - 1),
                             2.0 ** (k + 1) if k < 10 else np.inf, reached))
    return pd.DataFrame(rows, columns=["config", "policy", "adjuster", "epsilon", "playouts",
                                       "low", "high", "reached"])


@needs_chromium
def test_the_atlas_headline_and_heatmap_fit_the_readme_width_in_chromium(tmp_path):
    """The headline figure and the heatmap, opened in the report in headless chromium, are
    shown 800 px wide (the README's width) from images twice as wide (sharp), and a
    screenshot of the page is kept beside it (report/screenshot.png) to look at."""
    settings = {**SETTINGS, "max_budget": 1024, "policies": sorted(set(
        _atlas_to_epsilon()["policy"])), "adjusters": ["plain", "maxfreq"]}
    _, page = write_report(tmp_path / "report", {"to_epsilon": _atlas_to_epsilon()}, settings)
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", SIZES))
    dom = headless(["--window-size=1000,2400", "--dump-dom", probe.as_uri()], tmp_path)
    [sizes] = re.findall(r'data-sizes="([^"]*)"', dom)
    shown = {alt: (int(natural), int(width), int(height))
             for alt, natural, width, height in (size.split(":") for size in sizes.split("|"))}
    assert [alt.split()[1] for alt in shown] == ["each", "to"]  # the headline, the heatmap
    for natural, width, height in shown.values():
        assert 760 <= width <= 840 and natural >= 2 * width - 2 and height > 300
    headless(["--window-size=1000,2400",
              f"--screenshot={tmp_path / 'report' / 'screenshot.png'}", page.as_uri()], tmp_path)
    assert (tmp_path / "report" / "screenshot.png").stat().st_size > 0
