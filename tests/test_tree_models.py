"""The tree-model registry: seed 001's instances unchanged byte for byte, specs parsed through
the registry with one-line errors, and `mctslab trees list`."""

import hashlib
import json

import numpy as np
import pytest

from experiments.cli import main
from trees import (
    TREE_MODELS,
    PGameSpec,
    TreeInstance,
    TreeSpec,
    analyze,
    get_tree_model,
    level_start,
    make_tree,
    parse_tree_spec,
)

# sha256 (first 16 hex digits) of edge_value + optimal_child + path_score of make_tree before
# the registry existed (commit 3e4be75): the registry must not move a single value.
PINNED = [
    ("constant(1,5)", 4, 8, 0, "734f95359e37d16c"),
    ("constant'(1,13)", 4, 8, 3, "114c74a7b641cc71"),
    ("random(4,3)", 4, 8, 0, "97184fc9feb9e6cd"),
    ("random(4,3)", 4, 8, 17, "4ade8b44eba6fd7a"),
    ("random(7,2)", 3, 6, 5, "7754ba7c03c22472"),
    ("random(1,0)", 2, 10, 123, "2c2dcfa2f5d7b5f7"),
]


@pytest.mark.parametrize("spec, b, d, seed, digest", PINNED)
def test_seed001_instances_are_byte_identical_to_before_the_registry(spec, b, d, seed, digest):
    tree = make_tree(spec, b, d, seed)
    scores = tree.path_score.astype(np.int8)  # stored as int16 since 4820fdf; values fit int8
    assert np.array_equal(scores, tree.path_score)
    data = tree.edge_value.tobytes() + tree.optimal_child.tobytes() + scores.tobytes()
    assert hashlib.sha256(data).hexdigest()[:16] == digest


def test_every_model_parses_its_example_and_its_defaults():
    for name, model in TREE_MODELS.items():
        spec = parse_tree_spec(model.example)
        assert spec.text == model.example
        if model.modifier:
            assert spec.modifiers[-1].model == name
            assert parse_tree_spec(f"random(4,3)+{name}").modifiers[-1] == model.parse(())
        else:
            assert spec.model == name
            assert parse_tree_spec(name) == model.parse(()) == model.spec(*model.defaults.values())


def test_seed001_examples_are_accepted_by_make_tree_and_analyze():
    for name in ("constant", "constant'", "random"):
        example = TREE_MODELS[name].example
        assert isinstance(make_tree(example, 2, 4, 1), TreeInstance)
        assert analyze(example, 2, 4, 1).tree == example


def test_specs_read_as_before():
    assert parse_tree_spec("random(4,3)") == TreeSpec("random", 4, 3)
    assert parse_tree_spec("PGame( 31 )") == PGameSpec(31)
    assert parse_tree_spec("pgame()") == PGameSpec(127)


@pytest.mark.parametrize("bad, said", [
    ("pgame(0)", "tree pgame parameter m = 0: must be an integer in .1, 1048576."),
    ("pgame(1,2)", "pgame(m) takes 1 numbers"),
    ("constant(1)", "constant(a,b) takes 2 numbers"),
    ("constant(a,5)", "tree constant parameter a = 'a': must be an integer >= 1"),
    ("random(4,3)+trap(2,0.2)", "the level k is odd"),
    ("random(4,3)+trap(3,1.5)", "tree trap parameter p = 1.5: must be a finite number in"),
    ("random(4,3)+end(x)", "tree end parameter p_end = 'x'"),
    ("trap(3,0.2)", "write a model, then any modifiers"),
    ("random(4,3)+pgame", "write a model, then any modifiers"),
    ("tree(1,2)", "unknown tree model 'tree'"),
    ("constant(1,5", "the parenthesis after 'constant' is not closed"),
])
def test_bad_specs_are_one_line(bad, said):
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")) as error:
        parse_tree_spec(bad)
    assert "\n" not in str(error.value)


def test_pgame_and_modified_trees_reach_make_tree_and_analyze():
    game = make_tree("pgame(5)", 2, 4, 0)
    assert game.edge_value.shape == (31,) and game.spec == PGameSpec(5)
    assert analyze("pgame(5)", 2, 4, 0).optimal_moves.tolist() == game.optimal_moves.tolist()
    trapped = make_tree("random(4,3)+trap(3,0.2)", 4, 6, 2)
    assert trapped.spec.text == "random(4,3)+trap(3,0.2)"
    assert trapped.terminal[: level_start(4, 6)].any()  # traps end the game early


def test_unknown_model_name_is_one_line():
    with pytest.raises(ValueError, match="unknown tree model 'foo': use one of constant"):
        get_tree_model("foo")


def test_trees_list_json_holds_every_model(capsys):
    assert main(["trees", "list", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [record["name"] for record in records] == list(TREE_MODELS)
    for record in records:
        assert set(record) == {"name", "params", "description", "citation", "example",
                               "domains"}
        assert set(record["domains"]) == set(record["params"])
        assert record["description"] and record["citation"]
    by_name = {record["name"]: record for record in records}
    assert by_name["pgame"]["params"] == {"m": 127} and by_name["pgame"]["example"] == "pgame(127)"
    assert by_name["trap"]["params"] == {"k": 3, "p": 0.2}
    assert by_name["trap"]["domains"] == {"k": "an integer >= 1", "p": "a finite number in [0, 1]"}


def test_trees_list_table(capsys):
    assert main(["trees", "list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in TREE_MODELS) and "e.g. random(4,3)" in out


@pytest.mark.parametrize("name", list(TREE_MODELS))
def test_every_example_is_accepted_by_analyze_and_failure_rate(name, capsys, tmp_path):
    example = TREE_MODELS[name].example
    assert main(["analyze", example, "--depth", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tree"] == example
    # depth 2: every example's scores fit int16, so the search shares the suite's kernels
    assert main(["failure-rate", "--tree", example, "--depth", "2", "--runs", "2",
                 "--max-budget", "4", "--out", str(tmp_path / "curve.csv")]) == 0


def test_decisive_keeps_instances_whose_root_moves_differ_in_game_value():
    """``+decisive`` (trees/decisive.py): every instance it gives has a root move of worse game
    value than the root's; a decisive instance is kept as drawn, the others drawn again from
    the tree seed's stream (the same instance at every call); modifiers before it are redrawn
    with the model."""
    kept = 0
    for seed in range(24):
        base = make_tree("pgame(127)", 2, 8, seed)
        instance = make_tree("pgame(127)+decisive", 2, 8, seed)
        assert not instance.optimal.all()
        assert np.array_equal(instance.edge_value,
                              make_tree("pgame(127)+decisive", 2, 8, seed).edge_value)
        if not base.optimal.all():
            assert np.array_equal(instance.edge_value, base.edge_value)
            kept += 1
    assert 0 < kept < 24  # both branches taken
    ended = make_tree("pgame(127)+end(0.3)+decisive", 3, 4, 2)
    assert not ended.optimal.all() and ended.terminal[1:13].any()
