"""Can't Stop solitaire: conformance, pairing rules by hand, the bust probability, search."""

import numpy as np
import pytest
from games_conformance import check_game_conformance

from games import CHANCE, cantstop, get_game
from mcts.stochastic import StochasticConfig, search

GAME = get_game("cantstop")


def test_conformance():
    check_game_conformance(GAME, n_games=5, seed=2)


def rolled(dice, progress=None, temp=None, used=0):
    state = cantstop.initial_state(3)
    if progress:
        for column, height in progress.items():
            state[cantstop.PROGRESS + column - 2] = height
    if temp:
        for column, height in temp.items():
            state[cantstop.TEMP + column - 2] = height
    state[cantstop.USED], state[cantstop.PHASE] = used, 1
    state = GAME.state(state)
    assert state.current_player() == CHANCE
    state.apply(sum((d - 1) * 6**i for i, d in enumerate(dice)))
    return state


def moves(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_pairings_use_both_sums_when_possible():
    assert moves(rolled((1, 2, 3, 4))) == ["3+7", "4+6", "5+5"]


def test_third_marker_limits_the_pairings():
    state = rolled((1, 2, 3, 4), temp={4: 1, 9: 2}, used=2)
    assert moves(state) == ["3", "4+6", "5+5", "7"]  # 3+7 needs two new markers


def test_no_legal_pairing_loses_the_turn():
    state = rolled((1, 1, 1, 1), progress={2: 1}, temp={5: 3, 6: 2, 7: 4}, used=3)
    assert state.array[cantstop.TURNS] == 2 and not state.array[cantstop.TEMP:].any()
    assert state.array[cantstop.PROGRESS] == 1


def test_bust_probability_of_six_seven_eight():
    """The well-known 92% success chance with markers on 6, 7 and 8."""
    state = cantstop.initial_state(3)
    state[cantstop.TEMP + 4: cantstop.TEMP + 7] = 1
    state[cantstop.USED] = 3
    assert cantstop.feature_probability(state) == pytest.approx(104 / 1296)
    busts = sum(cantstop.feature(state, o) for o in range(1296))
    assert busts == 104


def test_antithetic_ranking_is_a_permutation():
    state = cantstop.initial_state(3)
    ranked = {int(cantstop.ranked_outcome(state, r)) for r in range(0, 1296, 7)}
    assert len(ranked) == len(range(0, 1296, 7))


def test_search_runs_with_every_technique():
    state = rolled((1, 2, 3, 4))
    result = search(GAME, state.array, 64, StochasticConfig(c=5500.0, cv=True, crn=True,
                                                            av=True), seed=1)
    assert result.visits.sum() == 64 and result.action in state.legal_actions()
    assert np.all(np.isfinite(result.values))
