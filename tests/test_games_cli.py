"""``mctslab games list`` and ``mctslab games perft``: output, JSON key ``nodes``, errors."""

import json

import pytest

from experiments.cli import main


def test_list(capsys):
    assert main(["games", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("breakthrough", "checkers", "amazons", "amazons8"):
        assert name in out


def test_perft_json(capsys):
    assert main(["games", "perft", "checkers", "--depth", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 302 and out["game"] == "checkers" and out["depth"] == 3


def test_perft_table(capsys):
    assert main(["games", "perft", "breakthrough", "--depth", "2"]) == 0
    assert "= 484" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["games", "perft", "chess", "--depth", "2"], "unknown game 'chess'"),
    (["games", "perft", "checkers", "--depth", "-1"], "argument --depth: -1"),
])
def test_bad_input_is_one_line_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_depth_is_a_usage_error(capsys):
    assert main(["games", "perft", "checkers"]) == 2
    err = capsys.readouterr().err
    assert "--depth" in err and err.count("\n") == 1
