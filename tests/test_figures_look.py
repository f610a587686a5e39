"""One look across the lab's figures: a method's colour and line style do
not depend on the order of a table's rows, every band is the Wilson 95% interval, the atlas's
headline figure has a panel per adjuster and marks what is not reached, and figures come in
the formats asked for."""

import colorsys

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex, to_rgb
from statsmodels.stats.proportion import proportion_confint

from plots.aggregates import performance_profiles
from plots.compare import (
    epsilon_heatmaps,
    failure_panels,
    families,
    playouts_by_bias,
)
from plots.failure import failure_figures, plot_failure_curves
from plots.imagawa import paper_figure
from plots.style import BAND, formats_option, look, look_of, methods


@pytest.fixture(autouse=True)
def _close_figures():
    """Each test's figures are closed after it (more than 20 open ones make pyplot warn)."""
    yield
    plt.close("all")


METHODS = [("ucb1", "plain"), ("klucb", "plain"), ("ucb1", "maxfreq"), ("klucb", "maxfreq")]


def _curves(methods=METHODS, configs=("constant(1,3) b=4 d=8",)) -> pd.DataFrame:
    rows = [(config, policy, adjuster, budget, 40, failures, failures / 40)
            for config in configs for m, (policy, adjuster) in enumerate(methods)
            for budget, failures in zip((1, 4, 16), (30 - m, 12 - m, 3))]
    return pd.DataFrame(rows, columns=["config", "policy", "adjuster", "budget", "runs",
                                       "failures", "failure_rate"])


def _drawn(ax) -> dict[str, tuple]:
    """label -> (colour as hex, line style, marker) of every line of ``ax``."""
    return {line.get_label(): (to_hex(line.get_color()), line.get_linestyle(),
                               line.get_marker()) for line in ax.get_lines()}


def test_a_method_looks_the_same_in_figures_of_tables_in_other_orders():
    forward = failure_panels(_curves())[0]
    backward = failure_panels(_curves(METHODS[::-1]))[0]
    assert _drawn(forward) == _drawn(backward)
    assert list(_drawn(backward)) == ["klucb+maxfreq", "ucb1+maxfreq", "klucb+plain",
                                      "ucb1+plain"]  # drawn in the table's order all the same
    colours = {label.split("+")[0]: look[0] for label, look in _drawn(forward).items()}
    assert colours == {"ucb1": "#1f77b4", "klucb": "#ff7f0e"}  # the registry's order
    styles = {label.split("+")[1]: look[1] for label, look in _drawn(forward).items()}
    assert styles == {"plain": "-", "maxfreq": "--"}
    # the profile of the same methods, listed klucb first, agrees with the curves
    profile = pd.DataFrame([(f"{p}+{a}", tau, tau) for p, a in METHODS[::-1]
                            for tau in (0.0, 1.0)], columns=["method", "tau", "fraction"])
    profiled = {line.get_label(): (to_hex(line.get_color()), line.get_linestyle())
                for line in performance_profiles(profile).get_lines()}
    assert profiled == {label: drawn[:2] for label, drawn in _drawn(forward).items()}


def test_study_results_and_comparisons_share_the_look():
    study = pd.DataFrame({
        "curve_key": ["a"] * 3 + ["b"] * 3, "label": ["t klucb maxfreq"] * 3 + ["t ucb1 plain"] * 3,
        "tree": "t", "policy": ["klucb"] * 3 + ["ucb1"] * 3,
        "adjuster": ["maxfreq"] * 3 + ["plain"] * 3, "budget": [1, 2, 4] * 2, "runs": 20,
        "failures": [9, 5, 1, 10, 8, 2], "failure_rate": np.array([9, 5, 1, 10, 8, 2]) / 20})
    drawn = _drawn(plot_failure_curves(study))
    compared = _drawn(failure_panels(_curves())[0])
    assert drawn["klucb maxfreq"] == compared["klucb+maxfreq"]
    assert drawn["ucb1 plain"] == compared["ucb1+plain"]


def test_entries_outside_the_registry_follow_it_in_the_grid_order():
    grid = look(["ucb1(c=0.5)", "my:policy", "your:policy"], ["maxfreq(rescore=1)"])
    assert grid.colour("ucb1") == "#1f77b4" and grid.colour("bayesucb") == "#bcbd22"
    assert grid.colour("my:policy") == "#1b9e77"  # the tenth colour, after 9 registered
    assert grid.colour("your:policy") == "#a6761d"
    assert grid.line("maxfreq(rescore=1)") not in {grid.line(a) for a in
                                                   ("plain", "maxfreq", "static", "score",
                                                    "value")}
    # without a grid, by name: the same for any order of rows
    frame = pd.DataFrame({"policy": ["zeta:p", "alpha:p", "ucb1"], "adjuster": "plain"})
    assert look_of(frame) == look_of(frame.iloc[::-1])
    assert look_of(frame).colour("alpha:p") == "#1b9e77"


def _hue_and_lightness(colour: str) -> tuple[float, float]:
    hue, lightness, _ = colorsys.rgb_to_hls(*to_rgb(colour))
    return 360 * hue, lightness


def _hue_apart(first: str, second: str) -> float:
    apart = abs(_hue_and_lightness(first)[0] - _hue_and_lightness(second)[0])
    return min(apart, 360 - apart)


def test_variants_of_a_policy_are_told_apart():
    """ucb1, two variants of it and a plug-in drawn together: each variant has
    ucb1's hue, clearly darker or lighter than ucb1 and than each other, and the plug-in a hue
    of its own, not another blue."""
    entries = ["ucb1", "ucb1(c=0.5)", "ucb1(c=2)", "my:policy"]
    curves = _curves([(policy, "plain") for policy in entries])
    drawn = _drawn(failure_panels(curves, look=look(entries))[0])
    colours = {policy: drawn[f"{policy}+plain"][0] for policy in entries}
    assert colours == {policy: look(entries).colour(policy) for policy in entries}
    lightness = {policy: _hue_and_lightness(colours[policy])[1] for policy in entries}
    for variant in ("ucb1(c=0.5)", "ucb1(c=2)"):
        assert _hue_apart(colours[variant], colours["ucb1"]) < 5
        assert abs(lightness[variant] - lightness["ucb1"]) >= 0.2
    assert abs(lightness["ucb1(c=0.5)"] - lightness["ucb1(c=2)"]) >= 0.2
    assert _hue_apart(colours["my:policy"], colours["ucb1"]) >= 40
    # the same colours whatever the order of the table's rows
    backward = _drawn(failure_panels(curves.iloc[::-1], look=look(entries))[0])
    assert {policy: backward[f"{policy}+plain"][0] for policy in entries} == colours


def test_a_sweep_of_a_parameter_is_told_apart_by_shade_and_marker():
    """A study's sweep ucb1(c=[...]) of six values, stored as ucb1 with its parameters, as
    `mctslab plot` draws it: six colours and six markers, none repeated."""
    values = (0.1, 0.2, 0.5, 1.0, 2.0, 4.0)
    study = pd.DataFrame([(f"k{c}", f"t ucb1(c={c}) plain", "t", "ucb1", f'{{"c": {c}}}',
                           "plain", budget, 20, failures, failures / 20)
                          for c in values for budget, failures in ((1, 10), (4, 5))],
                         columns=["curve_key", "label", "tree", "policy", "policy_params",
                                  "adjuster", "budget", "runs", "failures", "failure_rate"])
    drawn = _drawn(plot_failure_curves(study)).values()
    assert len({colour for colour, _, _ in drawn}) == len({m for _, _, m in drawn}) == 6
    assert {style for _, style, _ in drawn} == {"-"}  # the adjuster's line style


def test_a_comparisons_curves_table_plots_as_it_is():
    ax = plot_failure_curves(_curves())
    assert [line.get_label() for line in ax.get_lines()] == [
        "ucb1 plain", "klucb plain", "ucb1 maxfreq", "klucb maxfreq"]
    assert ax.get_title() == "constant(1,3) b=4 d=8" and len(ax.collections) == 4


def test_the_panels_titles_of_mctslab_plot_do_not_overlap():
    """A panel per policy whose curves share a long label: every title fits beside
    the others and inside the figure."""
    tree = "random(4,3)+trap(3,0.2)"
    label = "{} {} {} relative(k=2) rescored gamma=0.99"
    rows = [(tree, 4, 8, policy, adjuster, label.format(tree, policy, adjuster), budget, 100,
             failures)
            for policy in ("ucb1", "thompson", "klucb") for adjuster in ("plain", "maxfreq")
            for budget, failures in zip((1, 4, 16), (60, 40, 20))]
    frame = pd.DataFrame(rows, columns=["tree", "branching", "depth", "policy", "adjuster",
                                        "label", "budget", "runs", "failures"])
    [fig] = failure_figures(frame).values()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    titles = [ax.title.get_window_extent(renderer) for ax in fig.axes]
    assert len(titles) == 3 and all(title.width > 0 for title in titles)
    for number, title in enumerate(titles):
        assert not any(title.overlaps(other) for other in titles[number + 1:])
        assert 0 <= title.x0 and title.x1 <= fig.bbox.width
    assert "relative(k=2) rescored gamma=0.99" in fig.axes[0].get_title()


def test_stored_parameters_name_the_entry():
    frame = pd.DataFrame({
        "policy": ["ucb1", "ucb1"], "adjuster": ["maxfreq", "maxfreq"],
        "policy_params": ['{"c": 0.5}', '{"c": 1.4142135623730951}'],
        "adjuster_params": ['{"offset": -0.5}', '{"offset": 0.0}'],
        "rescore": [False, True], "restart": [True, False]})
    assert methods(frame) == [("ucb1(c=0.5)", "maxfreq(offset=-0.5)"),
                              ("ucb1", "maxfreq(rescore=1,restart=0)")]


def test_bands_are_wilson_95_intervals():
    curves = _curves()
    ax = plot_failure_curves(curves[curves["policy"] == "ucb1"])
    assert ax.get_legend().get_title().get_text() == BAND
    band = ax.collections[0].get_paths()[0].vertices
    rows = curves[(curves["policy"] == "ucb1") & (curves["adjuster"] == "plain")]
    low, high = proportion_confint(rows["failures"], rows["runs"], method="wilson")
    for budget, lo, hi in zip(rows["budget"], low, high):
        at = np.unique(band[band[:, 0] == budget, 1].round(12))  # the path repeats its ends
        assert list(at) == pytest.approx([lo, hi])  # not the rate -+ one standard error
    panel = failure_panels(curves)[0]
    assert panel.figure.legends[0].get_title().get_text() == BAND


def test_paper_figures_colour_by_policy_and_band_by_wilson():
    rows = []
    for tree in ("constant(1,1)", "constant(1,3)"):
        for adjuster in ("plain", "maxfreq"):
            for policy in ("thompson",):
                rows += [(tree, policy, adjuster, budget, 100, 50 // budget)
                         for budget in (1, 2, 4)]
    frame = pd.DataFrame(rows, columns=["tree", "policy", "adjuster", "budget", "runs",
                                        "failures"])
    frame["failure_rate"] = frame["failures"] / frame["runs"]
    fig = paper_figure(frame, "fig4_thompson_constant")
    plain, maxfreq = fig.axes
    for ax, style in ((plain, "-"), (maxfreq, "--")):
        light, dark = ax.get_lines()  # trees by growing bias: shades of thompson's green
        assert light.get_linestyle() == dark.get_linestyle() == style
        assert np.mean(light.get_color()) > np.mean(dark.get_color())
        assert np.argmax(light.get_color()) == np.argmax(dark.get_color()) == 1  # green
    fig5 = paper_figure(frame[frame["tree"] == "constant(1,1)"].assign(tree="constant(1,5)"),
                        "fig5_constant(1,5)")
    [thompson] = fig5.axes
    assert {to_hex(line.get_color()) for line in thompson.get_lines()} == {"#2ca02c"}
    band = thompson.collections[0].get_paths()[0].vertices  # 50, 25, 12 failures of 100
    assert band[:, 1].min() == pytest.approx(proportion_confint(12, 100, method="wilson")[0])
    assert band[:, 1].max() == pytest.approx(proportion_confint(50, 100, method="wilson")[1])


ATLAS = ([f"constant(1,{b}) b=4 d=8" for b in range(1, 8)] + ["constant'(1,13) b=4 d=8"]
         + [f"random(4,{q}) b=4 d=8" for q in range(5)] + ["pgame(31) b=4 d=8"])


def _to_epsilon(adjusters=("plain", "maxfreq", "maxfreq(rescore=1)", "static")):
    rows = []
    for c, config in enumerate(ATLAS):
        for a, adjuster in enumerate(adjusters):
            for p, policy in enumerate(("ucb1", "klucb", "thompson")):
                k = 4 + c // 2 + p - a
                reached = k <= 10
                rows.append((config, policy, adjuster, 0.05, 2.0**k if reached else np.nan,
                             2.0 ** (k - 1), 2.0 ** (k + 1) if k < 10 else np.inf, reached))
    return pd.DataFrame(rows, columns=["config", "policy", "adjuster", "epsilon", "playouts",
                                       "low", "high", "reached"])


def test_families_group_trees_by_their_bias():
    found = families(ATLAS)
    assert list(found) == ["constant(1,b) b=4 d=8", "random(4,q) b=4 d=8"]
    assert [bias for bias, _ in found["constant(1,b) b=4 d=8"]] == [1, 2, 3, 4, 5, 6, 7]
    assert found["random(4,q) b=4 d=8"][0] == (0, "random(4,0) b=4 d=8")
    assert families(["constant'(1,13) b=4 d=8", "pgame(31) b=4 d=8"]) == {}


def test_headline_has_a_panel_per_adjuster_and_marks_what_is_not_reached():
    table = _to_epsilon()
    panels = playouts_by_bias(table, budget=1024)
    assert [ax.get_title() for ax in panels] == ["plain", "maxfreq", "maxfreq(rescore=1)",
                                                 "static"]
    assert panels[0].figure.get_size_inches()[0] == pytest.approx(8.0)  # 800 px in the README
    plain = panels[0]
    assert plain.get_yscale() == "log"
    assert [t.get_text() for t in plain.get_yticklabels()][-1] == "not\nreached"
    lines = plain.get_lines()
    reached = [line for line in lines if line.get_label() in ("ucb1", "klucb", "thompson")]
    marked = [line for line in lines if line.get_linestyle() == "None"]
    # klucb misses 2^10 on random(4,4), thompson on random(4,2..4): a triangle each, at 4T
    triangles = [(x, y) for line in marked for x, y in zip(line.get_xdata(), line.get_ydata())]
    assert len(triangles) == 4 and {y for _, y in triangles} == {4096}
    assert all(line.get_marker() == "^" for line in marked if len(line.get_xdata()))
    # ucb1 on constant(1,b): 2^(4 + c // 2) over b = 1..7, a line in ucb1's blue, solid
    ucb1 = reached[0]
    assert to_hex(ucb1.get_color()) == "#1f77b4" and ucb1.get_linestyle() == "-"
    assert list(ucb1.get_ydata()) == [16, 16, 32, 32, 64, 64, 128]
    thompson = reached[-1]  # random(4,q): reached at q = 0, 1 only
    assert list(thompson.get_ydata())[:2] == [1024, 1024]
    assert np.isnan(thompson.get_ydata()[2:]).all()
    assert panels[1].get_lines()[0].get_linestyle() == "--"  # maxfreq's panel: dashed
    handles = [t.get_text() for t in plain.figure.legends[0].get_texts()]
    assert handles == ["ucb1", "klucb", "thompson", "not reached within 1k"]
    assert len(playouts_by_bias(table[~table["config"].str.match("constant|random")])) == 0


def test_heatmap_colour_bar_ticks_are_powers_of_two():
    panels = epsilon_heatmaps(_to_epsilon(), budget=1024)
    assert len(panels) == 4
    bar = panels[0].figure.axes[-1]
    labels = [t.get_text() for t in bar.get_xticklabels()]  # below the panels
    assert labels == ["2", "4", "8", "16", "32", "64", "128", "256", "512", "1k"]
    # the shared " b=4 d=8" moves to the title; policies are the columns
    assert panels[0].get_title() == "plain  (b=4 d=8)"
    assert panels[0].get_yticklabels()[0].get_text() == "constant(1,1)"
    assert [t.get_text() for t in panels[0].get_xticklabels()] == ["ucb1", "klucb", "thompson"]


@pytest.mark.parametrize("policies, configs", [
    (("ucb1", "my_cached_ucb1:policy(c=0.5)", "another_plugin_module:policy(c=0.25,k=3)"), 3),
    (("ucb1",), 1),
])
def test_a_heatmap_of_long_labels_and_odd_shapes_reads(policies, configs):
    """One adjuster, plug-in labels of 40 characters or one cell: every row keeps at least
    12 points of height, the tick labels stay inside the figure, and the colour bar's label
    crosses neither the title nor a panel."""
    table = pd.DataFrame([(f"{config} b=4 d=8", policy, "plain", 0.05, 2.0 ** (4 + k), 8.0, 64.0,
                           True)
                          for k, policy in enumerate(policies)
                          for config in ATLAS[:configs]],
                         columns=["config", "policy", "adjuster", "epsilon", "playouts", "low",
                                  "high", "reached"])
    [panel] = epsilon_heatmaps(table)
    fig = panel.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    points = 72 / fig.dpi  # points per pixel
    assert panel.get_window_extent(renderer).height * points / configs >= 12
    for label in [*panel.get_xticklabels(), *panel.get_yticklabels()]:
        box = label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.width, label.get_text()
    bar = fig.axes[-1]
    bar_label = (bar.xaxis if bar.get_xlabel() else bar.yaxis).label.get_window_extent(renderer)
    assert not bar_label.overlaps(fig._suptitle.get_window_extent(renderer))
    assert not bar_label.overlaps(panel.get_window_extent(renderer))


def test_formats_option():
    assert formats_option("pdf") == ("pdf",)
    assert formats_option("png, SVG,png") == ("png", "svg")
    for bad in ("jpg", "", "png,eps"):
        with pytest.raises(ValueError, match="use png, pdf or svg"):
            formats_option(bad)
