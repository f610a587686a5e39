"""One spelling of a policy or adjuster everywhere: a study file takes ``compare``'s entries
(``ucb1(c=0.25)``, ``ucb1(root=sh)``, an adjuster's engine flags) and both sweep a list of a
parameter into curves; docs/usage.md documents every study-file key the code reads."""

import re
from pathlib import Path

import pytest

from experiments.comparisons.grid import Grid
from experiments.comparisons.schema import _GRID_KEYS, _STUDY_KEYS
from experiments.studies.execution import run_study
from experiments.studies.study import CURVE_KEYS, STUDY_KEYS, load_results, read_curves
from specs import sweep

ROOT = Path(__file__).parents[1]
# the shape test_root_policies.py searches with the root policies: its kernels, reused
SHAPE = 'tree = "random(3,2)"\nbranching = 4\ndepth = 4\nruns = 3\nmax_budget = 16\n'
ENTRIES = ["ucb1(root=sh)", "ucb1(c=0.25)", "ucb1(c=[0.5,1])"]


def test_a_sweep_is_one_spec_per_value_in_the_order_written():
    assert sweep("ucb1(c=[0.25,0.5,1])", "policy") == ["ucb1(c=0.25)", "ucb1(c=0.5)",
                                                       "ucb1(c=1)"]
    assert sweep("ucb1(c=[1,2],root=sh)+qb(k=[3,4])", "player") == [
        "ucb1(c=1,root=sh)+qb(k=3)", "ucb1(c=1,root=sh)+qb(k=4)",
        "ucb1(c=2,root=sh)+qb(k=3)", "ucb1(c=2,root=sh)+qb(k=4)"]
    assert sweep("ucb1(root=gumbel(m=[4,16]))", "policy") == ["ucb1(root=gumbel(m=4))",
                                                              "ucb1(root=gumbel(m=16))"]
    assert sweep("maxfreq(offset=-0.5)", "adjuster") == ["maxfreq(offset=-0.5)"]


@pytest.mark.parametrize("bad, says", [("ucb1(c=[])", "at least one value"),
                                       ("ucb1([1,2])", "named argument"),
                                       ("ucb1(c=[1,2)", "not closed")])
def test_a_malformed_sweep_is_one_line(bad, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        sweep(bad, "policy")


def _study_file(tmp_path, body: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(f"[study]\nseed = 5\nblock = 3\n\n[defaults]\n{SHAPE}\n{body}")
    return path


def test_a_study_file_takes_compares_entries_and_sweeps(tmp_path):
    """The study's curves are the grid's, key for key, and the study runs them."""
    path = _study_file(tmp_path, f"[[curves]]\npolicy = {ENTRIES!r}\n".replace("'", '"'))
    study = read_curves(path)
    grid = Grid(trees=("random(3,2)",), policies=tuple(ENTRIES), adjusters=("plain",),
                branching=4, depth=4, runs=3, trees_per_model=1, max_budget=16)
    assert [curve.key for curve in study.curves] == [curve.key for curve in grid.curves()]
    assert [curve.root for curve in study.curves] == ["sh", "", "", ""]
    assert [curve.policy_params["c"] for curve in study.curves[1:]] == [0.25, 0.5, 1]
    run_study(study, tmp_path / "out", workers=1)
    frame = load_results(tmp_path / "out")
    assert frame.groupby("label")["runs"].max().eq(3).all() and frame["label"].nunique() == 4


def test_a_parameter_table_of_lists_sweeps_and_an_entry_sets_the_flags(tmp_path):
    path = _study_file(tmp_path, '[[curves]]\npolicy = "ucb1"\n'
                                 'policy_params = { c = [0.25, 2.0] }\n'
                                 'adjuster = "maxfreq(rescore=1)"\n')
    curves = read_curves(path).curves
    assert [curve.policy_params["c"] for curve in curves] == [0.25, 2.0]
    assert all(curve.rescore and curve.adjuster == "maxfreq" for curve in curves)


@pytest.mark.parametrize("body, says", [
    ('policy = "ucb1(c=0.5)"\npolicy_params = { c = 1.0 }', "'c' is given twice"),
    ('policy = "ucb1(root=sh)"\nroot = "gumbel"', "root is given twice"),
    ('policy = "nosuch(c=0.5)"', "unknown policy 'nosuch'")])
def test_a_study_entry_given_twice_or_unknown_is_one_line(tmp_path, body, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        read_curves(_study_file(tmp_path, f"[[curves]]\n{body}\n"))


def _documented_keys() -> dict[str, set[str]]:
    """(table -> keys) of docs/usage.md's "Study file keys" table."""
    text = (ROOT / "docs" / "usage.md").read_text()
    section = text.split("### Study file keys", 1)[1].split("\n#", 1)[0]
    keys: dict[str, set[str]] = {}
    for table, names in re.findall(r"^\| `([^`]+)` \| (.+?) \|", section, re.MULTILINE):
        keys.setdefault(table, set()).update(re.findall(r"`(\w+)`", names))
    return keys


def test_usage_documents_every_study_file_key_the_code_reads():
    assert _documented_keys() == {"[study]": set(STUDY_KEYS) | set(_STUDY_KEYS),
                                  "[[curves]]": set(CURVE_KEYS),
                                  "[compare]": set(_GRID_KEYS)}
