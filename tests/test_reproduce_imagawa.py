"""``mctslab reproduce imagawa`` end to end on a tiny scale: every figure, the Welch tables and
the report are written, and a second run resumes without recomputing."""

import pandas as pd
import pytest

from experiments.cli import main
from experiments.papers import imagawa
from experiments.papers.imagawa import imagawa_study, reproduce_imagawa
from experiments.studies.study import load_results
from plots.imagawa import (
    ABLATION_TREES,
    ADJUSTER_NAMES,
    ADJUSTERS,
    CONSTANT_TREES,
    FIGURES,
    POLICIES,
    POLICY_NAMES,
)


def test_study_covers_every_curve_of_figs_3_to_9():
    study = imagawa_study("paper")
    keys = {(c.tree, c.policy, c.adjuster) for c in study.curves}
    assert ("constant(1,1)", "thompson", "maxfreq") in keys
    assert ("random(4,0)", "klucb", "plain") in keys
    for tree in ("constant(1,5)", "constant'(1,13)", "random(4,3)"):
        for policy in ("ucb1", "klucb", "thompson"):
            for adjuster in ("plain", "static", "score", "value", "maxfreq"):
                assert (tree, policy, adjuster) in keys
    runs = {c.tree: c.total_runs for c in study.curves}
    assert runs["constant(1,5)"] == 1000 and runs["random(4,3)"] == 40_000
    assert all(c.max_budget == 2**14 and c.branching == 4 and c.depth == 8 for c in study.curves)
    quick = imagawa_study("quick")
    assert {c.tree: c.total_runs for c in quick.curves}["random(4,3)"] == 2000  # 1/20


def test_the_figures_draw_every_curve_of_the_study():
    study = imagawa_study("paper")
    ablations = imagawa.ablation_curves("paper")
    default = {(c.tree, c.policy, c.adjuster) for c in study.curves
               if c.key not in {a.key for a in ablations}}
    drawn = set()
    for _, fixed, (panel_by, panels), (line_by, lines) in FIGURES.values():
        for panel in panels:
            for line in lines:
                key = {**fixed, panel_by: panel, line_by: line}
                drawn.add((key["tree"], key["policy"], key["adjuster"]))
    assert default <= drawn
    assert {c.tree for c in ablations} == set(ABLATION_TREES)


def _lines(ax) -> list[str]:
    return [text.get_text() for text in ax.get_legend().get_texts()]


def test_tiny_reproduction_writes_everything_and_resumes(tmp_path, monkeypatch, saved_figures):
    monkeypatch.setitem(imagawa.SCALES, "quick", {"constant": (1, 4), "random": (1, 4)})
    report = reproduce_imagawa(tmp_path, "quick", workers=1, progress=False)
    text = report.read_text()
    assert "## The paper's claims beside our numbers" in text and "| 7a |" in text
    for stem in ("fig2_constantprime-1-13", "fig3_ucb1_constant", "fig4_thompson_constant",
                 "fig5_constant-1-5", "fig6_constantprime-1-13", "fig7_ucb1_random",
                 "fig8_thompson_random", "fig9_random-4-3", "ablations_maxfreq"):
        assert {f"{stem}.png", f"{stem}.pdf"} <= set(saved_figures)
        assert (tmp_path / f"{stem}.png").stat().st_size > 0
    assert len(saved_figures["fig2_constantprime-1-13.png"].axes) == 2
    fig3 = saved_figures["fig3_ucb1_constant.png"]
    assert [ax.get_title() for ax in fig3.axes] == ["(a) Plain", "(b) MaxFrequency"]
    assert all(_lines(ax) == list(CONSTANT_TREES) for ax in fig3.axes)
    fig5 = saved_figures["fig5_constant-1-5.png"]
    assert [ax.get_title() for ax in fig5.axes] == [
        f"({letter}) {POLICY_NAMES[p]}" for letter, p in zip("abc", POLICIES)]
    assert all(_lines(ax) == [ADJUSTER_NAMES[a] for a in ADJUSTERS] for ax in fig5.axes)
    frame = load_results(tmp_path)
    curve = frame[(frame.tree == "constant(1,5)") & (frame.policy == "klucb")
                  & (frame.adjuster == "score")].sort_values("budget")
    line = fig5.axes[1].get_lines()[ADJUSTERS.index("score")]
    assert list(line.get_xdata()) == curve.budget.tolist()
    assert list(line.get_ydata()) == pytest.approx(curve.failure_rate.tolist())
    ablations = saved_figures["ablations_maxfreq.png"]
    assert [ax.get_title() for ax in ablations.axes] == list(ABLATION_TREES)
    assert all(_lines(ax) == ["Plain", "MaxFrequency", "offset -0.5", "restart off"]
               for ax in ablations.axes)
    tests = pd.read_csv(tmp_path / "welch_tests.csv")
    assert set(tests.adjuster) == {"static", "score", "value", "maxfreq"}
    assert tests.p.between(0, 1).all()
    for old in tmp_path.glob("*.pdf"):
        old.unlink()
    # the rerun resumes (computes nothing) and draws the other format
    assert main(["reproduce", "imagawa", "--out", str(tmp_path), "--workers", "1", "--quiet",
                 "--format", "svg"]) == 0
    assert "computed 0 of" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "fig5_constant-1-5.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "fig5_constant-1-5.png").exists()  # the report shows it
    assert not list(tmp_path.glob("*.pdf"))


@pytest.mark.parametrize("argv, words", [
    (["reproduce", "nobody"], "invalid choice"),
    (["reproduce", "imagawa", "--scale", "huge"], "invalid choice"),
    (["reproduce", "imagawa", "--workers", "0"], "argument --workers: 0 must be an integer >= 1"),
    (["reproduce", "imagawa", "--format", "jpg"], "use png, pdf or svg"),
])
def test_bad_options_are_one_line(argv, words, capsys, tmp_path):
    assert main(argv + ["--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_welch_is_scipys_test_with_exact_rates_where_nothing_varies():
    from scipy import stats

    from experiments.papers.imagawa import welch

    a = pd.DataFrame({"failure_rate": [0.3, 0.0, 1.0], "std": [0.46, 0.0, 0.0],
                      "runs": [100, 50, 50]})
    b = pd.DataFrame({"failure_rate": [0.5, 0.0, 0.0], "std": [0.5, 0.0, 0.0],
                      "runs": [80, 50, 50]})
    t, p = welch(a, b)
    expected = stats.ttest_ind_from_stats(0.3, 0.46, 100, 0.5, 0.5, 80, equal_var=False)
    assert t[0] == pytest.approx(expected.statistic) and p[0] == pytest.approx(expected.pvalue)
    assert p[1] == 1.0 and p[2] == 0.0


def test_kl_ucb_and_thompson_beating_uct_is_claimed_on_fig_5s_tree_only():
    # the paper says so of Constant(1,5) (Fig. 5, Sect. V-B), not of Constant'(1,13)
    from experiments.papers.imagawa.study import is_default
    from experiments.papers.imagawa.verdicts import claims, welch_tests

    rows = []
    for tree in ("constant(1,5)", "constant'(1,13)"):
        for policy, rate in (("ucb1", 0.5), ("klucb", 0.3), ("thompson", 0.3)):
            for k in range(15):
                rows.append((tree, policy, "plain", 2**k, rate))
    frame = pd.DataFrame(rows, columns=["tree", "policy", "adjuster", "budget",
                                        "failure_rate"])
    frame = frame.assign(runs=100, failures=(frame.failure_rate * 100).astype(int),
                         std=0.5, adjuster_params="{}", restart=False)
    assert is_default(frame).all()
    found = [c for c in claims(frame, welch_tests(frame)) if "KL-UCB and Thompson" in c.paper]
    assert [(c.figure, c.paper) for c in found] == [
        ("5", ("without enhancement KL-UCB and Thompson sampling do better than UCT "
              "(constant(1,5))"))]
    assert found[0].agrees


def test_each_figure_is_drawn_in_turn_and_closed_once_written(tmp_path, monkeypatch):
    """The figures of a study (made-up rates for every curve of the quick scale) are drawn one
    at a time: each is the only one open when written, none is left open (matplotlib warns
    past 20 open figures)."""
    import json

    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from experiments.papers.imagawa.figures import draw

    frame = pd.DataFrame([
        {"tree": c.tree, "policy": c.policy, "adjuster": c.adjuster,
         "adjuster_params": json.dumps(c.adjuster_params, sort_keys=True),
         "restart": c.restart, "budget": budget, "failures": 1, "runs": 4, "failure_rate": 0.25}
        for c in imagawa_study("quick").curves for budget in (1, 2, 4)])
    open_when_written = []
    monkeypatch.setattr(Figure, "savefig", lambda figure, *args, **kwargs:
                        open_when_written.append(len(plt.get_fignums())))
    plt.close("all")
    stems = draw(frame, tmp_path, formats=())
    assert len(stems) == 1 + len(FIGURES) + 1  # Fig. 2, Figs. 3-9 and the ablations
    assert open_when_written == [1] * len(stems)
    assert plt.get_fignums() == []
