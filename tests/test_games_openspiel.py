"""Cross-check against OpenSpiel: along random games, the sets of legal whole moves, the
terminals and the returns must agree position by position.

Encodings: OpenSpiel's Breakthrough seats its player 0 at the top (ours at the bottom), so its
ranks are mirrored; its checkers and Amazons split a move into several actions by the same player
(one per jump; queen, destination, arrow), which are chained here into whole moves.
"""

import re

import numpy as np
import pytest

from games import get_game

pyspiel = pytest.importorskip("pyspiel")


def _squares(text):
    return tuple(re.findall(r"[a-j]\d+", text))


def breakthrough_moves(ours, theirs):
    mirror = {f"{col}{rank}": f"{col}{9 - rank}" for col in "abcdefgh" for rank in range(1, 9)}
    mine = {tuple(mirror[sq] for sq in _squares(ours.action_to_string(a))): a
            for a in ours.legal_actions()}
    other = {_squares(theirs.action_to_string(theirs.current_player(), a)): [a]
             for a in theirs.legal_actions()}
    return mine, other


def checkers_moves(ours, theirs):
    mine = {_squares(ours.action_to_string(a)): a for a in ours.legal_actions()}
    other = {}
    player = theirs.current_player()

    def chain(state, squares, actions):
        for action in state.legal_actions():
            text = state.action_to_string(player, action)
            child = state.child(action)
            path = squares + _squares(text)[len(squares) > 0:]
            if not child.is_terminal() and child.current_player() == player:
                chain(child, path, actions + [action])
            else:
                other[path] = actions + [action]

    chain(theirs, (), [])
    return mine, other


def amazons_moves(ours, theirs):
    cells = int(ours.array[-9]) ** 2
    mine = {(a // cells ** 2, a // cells % cells, a % cells): a for a in ours.legal_actions()}
    other = {}
    for origin in theirs.legal_actions():
        lifted = theirs.child(origin)
        for to in lifted.legal_actions():
            for arrow in lifted.child(to).legal_actions():
                other[(origin, to, arrow)] = [origin, to, arrow]
    return mine, other


CASES = [
    ("breakthrough", "breakthrough", {}, breakthrough_moves, 40),
    ("checkers", "checkers", {}, checkers_moves, 40),
    ("amazons8", "amazons", {"board_size": 8}, amazons_moves, 20),
    ("amazons", "amazons", {}, amazons_moves, 6),
]


@pytest.mark.parametrize("name, spiel_name, params, moves, n_games", CASES,
                         ids=[case[0] for case in CASES])
def test_same_legal_moves_along_random_games(name, spiel_name, params, moves, n_games):
    game, spiel_game = get_game(name), pyspiel.load_game(spiel_name, params)
    rng = np.random.default_rng(11)
    positions = 0
    for _ in range(n_games):
        ours, theirs = game.new_initial_state(), spiel_game.new_initial_state()
        while True:
            positions += 1
            assert ours.is_terminal() == theirs.is_terminal()
            if ours.is_terminal():
                assert ours.returns() == tuple(theirs.returns())
                break
            mine, other = moves(ours, theirs)
            assert mine.keys() == other.keys()
            key = sorted(mine)[rng.integers(len(mine))]
            ours.apply(mine[key])
            for action in other[key]:
                theirs.apply_action(action)
    assert positions > 100


def test_play_traces_an_openspiel_game(tmp_path, capsys):
    """`play --trace` of a game the generic engine searches: its roots, no child proven (the
    generic engine proves nothing), where it raised AttributeError after the game."""
    import pandas as pd

    from experiments.cli import main

    trace = tmp_path / "trace.csv"
    assert main(["play", "openspiel:tic_tac_toe", "--player1", "uct", "--player2", "uct",
                 "--playouts", "20", "--trace", str(trace)]) == 0
    rows = pd.read_csv(trace, keep_default_na=False)
    assert rows["proven"].eq("").all() and rows.groupby("ply")["chosen"].sum().eq(1).all()
    assert f"wrote the root of every move to {trace}" in capsys.readouterr().out


def test_a_move_proven_won_before_any_playout_says_so():
    from experiments.cli.commands.play import search_summary
    from mcts.games import LOSS, UNPROVEN, WIN, SearchResult

    actions = np.array([3, 5, 8])
    proven = np.array([UNPROVEN, WIN, LOSS], np.int8)
    found = SearchResult(5, actions, np.zeros(3), np.zeros(3), proven, 0)
    assert search_summary(found) == "proven won before any playout"
    searched = SearchResult(3, actions, np.array([6.0, 3.0, 1.0]), np.array([0.5, 0.2, 0.0]),
                            proven, 10)
    assert search_summary(searched) == "visits 6/10, value +0.500"
