"""Users' tree models (docs/extending.md): the example runs from the command line with its
optimal moves by plain recursion, and malformed models fail in one line with exit code 2."""

import json
import textwrap
from pathlib import Path

import pytest
from reference_mcts import optimal_moves

from experiments.cli import main
from trees import make_tree

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_model_is_analysed_and_searched(monkeypatch, capsys, tmp_path):
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    assert main(["analyze", "my_tree:model(3)", "--depth", "6", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    tree = make_tree("my_tree:model(3)", 4, 6, 0)
    assert tree.terminal[: tree.n_nodes - 4**6].any()  # it ends early somewhere
    assert result["optimal_moves"] == sorted(optimal_moves(tree))  # by plain recursion
    out = tmp_path / "curve.csv"
    assert main(["failure-rate", "--tree", "my_tree:model(2)", "--branching", "2", "--depth",
                 "6", "--runs", "30", "--max-budget", "1024", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["failure_rate"][-1] == 0.0


BAD_MODELS = {
    "shape": ("tree.edge_value = np.zeros(3, dtype=np.int64)", "do not fit b=2 d=4"),
    "type": ("tree.edge_value = tree.edge_value + 0.5", "use integers"),
    "no_end": ("tree.terminal[:] = False", "without a terminal"),
    "root": ("tree.terminal[0] = True", "the root is terminal"),
    "huge": ("tree.edge_value[1:] = 2**29", "exceeds"),
    "range": ("raise ValueError('a = 9 is out of range: use a <= 3')", "a = 9 is out of range"),
}


@pytest.mark.parametrize("name", BAD_MODELS)
def test_malformed_models_fail_in_one_line(name, monkeypatch, tmp_path, capsys):
    body, problem = BAD_MODELS[name]
    (tmp_path / f"bad_{name}.py").write_text(textwrap.dedent(f"""\
        import numpy as np
        from trees import Model

        def fill(tree, rng, a):
            {body}

        model = Model(fill, params={{"a": 1}})
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["analyze", f"bad_{name}:model(9)", "--branching", "2", "--depth", "4"]) == 2
    error = capsys.readouterr().err.strip()
    assert problem in error and f"bad_{name}:model(9)" in error and "\n" not in error


@pytest.mark.parametrize("spec, problem", [
    ("nowhere:model", "cannot import module 'nowhere'"),
    ("json:dumps", "not a tree model: define it as trees.Model"),
    ("treez(1,2)", "unknown tree model 'treez'"),
])
def test_unknown_models_fail_in_one_line(spec, problem, capsys, tmp_path):
    out = tmp_path / "curve.csv"
    assert main(["failure-rate", "--tree", spec, "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert problem in error and "\n" not in error and not out.exists()
