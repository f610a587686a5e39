"""Our policies on OpenSpiel games through the adapter and the generic search (tic-tac-toe)."""

import numpy as np
import pytest

from bandits import POLICIES, make_policy
from mcts.games import GameSearchConfig
from mcts.generic import generic_search

pytest.importorskip("pyspiel")
from games.openspiel import load_openspiel

CONFIGS = [GameSearchConfig(policy=make_policy("ucb1", c=0.8)),
           GameSearchConfig(policy=make_policy("klucb")),
           GameSearchConfig(policy=make_policy("thompson"))]


def play(game, moves):
    state = game.new_initial_state()
    for move in moves:
        state.apply(move)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=["uct", "klucb", "thompson"])
def test_finds_the_winning_move_and_the_only_defence(config):
    game = load_openspiel("openspiel:tic_tac_toe")
    # x: 0, 4; o: 1, 2 -> x wins by 8 (diagonal)
    win = play(game, [0, 1, 4, 2])
    assert generic_search(game, win, 300, config, np.random.default_rng(1)).action == 8
    # x: 0, 1; o: 4 -> o must block at 2
    block = play(game, [0, 4, 1])
    assert generic_search(game, block, 600, config, np.random.default_rng(2)).action == 2


@pytest.mark.parametrize("config", CONFIGS, ids=["uct", "klucb", "thompson"])
def test_never_loses_against_random(config):
    game = load_openspiel("tic_tac_toe")
    rng = np.random.default_rng(5)
    for seat in (0, 1) * 3:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = generic_search(game, state, 300, config, rng).action
            else:
                action = int(rng.choice(state.legal_actions()))
            state.apply(action)
        assert state.returns()[seat] >= 0


def test_chance_games_and_refusals():
    game = load_openspiel("pig(winscore=10)")
    state = game.new_initial_state()
    result = generic_search(game, state, 200, CONFIGS[0], np.random.default_rng(0))
    assert result.action in state.legal_actions() and result.visits.sum() == 200
    with pytest.raises(ValueError, match="no game"):
        load_openspiel("no_such_game")
    with pytest.raises(ValueError, match="simultaneous"):
        load_openspiel("matrix_rps")


@pytest.mark.parametrize("name", list(POLICIES))
def test_every_registered_policy_plays_legal_tic_tac_toe(name):
    game = load_openspiel("tic_tac_toe")
    rng = np.random.default_rng(3)
    config = GameSearchConfig(policy=make_policy(name))
    state = game.new_initial_state()
    while not state.is_terminal():
        result = generic_search(game, state, 40, config, rng)
        assert result.action in state.legal_actions() and result.visits.sum() == 40
        state.apply(result.action)
