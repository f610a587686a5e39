"""The policy and adjuster registries: what `mctslab policies|adjusters list` prints, and
that every command reads its names, defaults and errors from them."""

import json

import pytest
import reference_mcts

from bandits import POLICIES, SEARCH_POLICIES, make_policy
from enhancements import ADJUSTERS
from experiments import Curve
from experiments.cli import main
from plots import imagawa


@pytest.mark.parametrize("noun, registry", [("policies", {**POLICIES, **SEARCH_POLICIES}),
                                            ("adjusters", ADJUSTERS)])
def test_list_json_holds_every_registered_name(noun, registry, capsys):
    assert main([noun, "list", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [record["name"] for record in records] == list(registry)
    for record in records:
        assert {"name", "params", "description", "citation"} <= set(record)
        assert record["description"] and record["citation"]


def test_list_table_names_every_policy(capsys):
    assert main(["policies", "list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in POLICIES) and "c=1.41421" in out


def test_policy_defaults_are_the_records_defaults():
    assert POLICIES["ucb1"].defaults == {"c": make_policy("ucb1").c, "depth_exponent": 0.0}
    assert POLICIES["thompson"].defaults == {}
    assert make_policy("klucb", c=2).c == 2.0
    for name, info in POLICIES.items():
        assert make_policy(name, **info.defaults) == info.record()


def test_curves_take_defaults_and_restart_from_the_registries():
    assert Curve("constant(1,5)", "ucb1", "score").adjuster_params == ADJUSTERS["score"].defaults
    assert Curve("constant(1,5)", adjuster="maxfreq").restart
    assert not Curve("constant(1,5)", adjuster="value").restart
    assert Curve("constant(1,5)", "klucb").policy_params == {"c": 0.0}


# Seed 001's selection policies and threshold adjusters, in its figures' order and under the
# names its figures and text give them (Imagawa & Kaneko: Figs. 3-9, Sect. IV, Algorithms 1-3)
PAPER_POLICIES = {"ucb1": "UCT (UCB1)", "klucb": "KL-UCB", "thompson": "Thompson sampling"}
PAPER_ADJUSTERS = {"plain": "Plain", "static": "Static", "score": "Score", "value": "Value",
                   "maxfreq": "MaxFrequency"}


def test_the_figures_draw_the_papers_policies_and_adjusters_under_its_names():
    """The figures of seed 001 show the paper's policies and adjusters, in its order, under
    its names, which the registries hold for every command."""
    assert imagawa.POLICIES == tuple(PAPER_POLICIES)
    assert imagawa.ADJUSTERS == tuple(PAPER_ADJUSTERS)
    assert {name: imagawa.POLICY_NAMES[name] for name in PAPER_POLICIES} == PAPER_POLICIES
    assert {name: imagawa.ADJUSTER_NAMES[name] for name in PAPER_ADJUSTERS} == PAPER_ADJUSTERS


@pytest.mark.parametrize("args, said", [
    (["--policy", "ucb2"], "unknown policy 'ucb2': use one of ucb1, klucb, thompson"),
    (["--adjuster", "komi"], "unknown adjuster 'komi'"),
    (["--policy", "thompson", "--policy-param", "c=1"], "unknown policy parameter 'c'"),
    (["--policy-param", "d=1"], "unknown policy parameter 'd' for ucb1: allowed c"),
])
def test_bad_names_are_one_line_and_exit_2(args, said, capsys, tmp_path):
    out = tmp_path / "curve.csv"
    assert main(["failure-rate", "--tree", "constant(1,3)", "--out", str(out), *args]) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1
    assert not out.exists()


def test_a_parameter_of_the_wrong_type_is_a_one_line_error():
    with pytest.raises(ValueError, match="ucb1 parameter c = 'big': must be a finite number >= 0"):
        make_policy("ucb1", c="big")


def test_the_plain_python_reference_covers_every_registered_name():
    """tests/reference_mcts.py implements each policy and adjuster independently, under the
    registry's names: a new built-in without a reference fails here."""
    assert set(reference_mcts.POLICIES) == set(POLICIES)
    assert set(reference_mcts.ADJUSTERS) == set(ADJUSTERS)


def test_roots_list_names_every_root_policy_with_the_records_defaults(capsys):
    """The root policies were in no list command; their defaults are the parser's, and each
    registered record declares the compiled steps the kernels read."""
    from mcts.core.root_policies import RootSteps
    from mcts.core.root_specs import ROOT_POLICIES, parse_root

    assert main(["roots", "list", "--json"]) == 0
    records = {record["name"]: record for record in json.loads(capsys.readouterr().out)}
    assert list(records) == list(ROOT_POLICIES)
    assert all(record["description"] and record["citation"] for record in records.values())
    for name, record in records.items():
        parsed = parse_root(name)
        assert record["params"] == parsed._asdict()
        assert isinstance(type(parsed).steps, RootSteps)
    assert records["sh"]["params"] == {}
