"""Can't Stop solitaire: pairing rules by hand, the bust probability, the antithetic
ranking against a reference sort, the default policy, search."""

import itertools

import numpy as np
import pytest

from bandits.rng import seed_state
from games import CHANCE, cantstop, get_game
from mcts.stochastic import StochasticConfig, search

GAME = get_game("cantstop")


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


def chance_states(n_games=6, seed=3):
    """The chance nodes (dice to roll) of random games, many with busts possible."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(n_games):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                found.append(state.array.copy())
            actions = state.legal_actions()
            state.apply(actions[rng.integers(len(actions))])
    return found


def reference_ranking(state):
    """The ranking of the module docstring by sorting, outcome by outcome: by decreasing value
    of the best pairing (100 / height per playable sum), then the smallest outcome with the
    same dice, then the outcome."""
    playable = cantstop.playable(state)
    keys, first = [], {}
    for o in range(1296):
        dice = [(o // 6**i) % 6 + 1 for i in range(4)]
        best = 0.0
        for p in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
            sums = (dice[p[0]] + dice[p[1]] - 2, dice[p[2]] + dice[p[3]] - 2)
            best = max(best, sum(100 / cantstop.HEIGHTS[c] for c in sums if playable >> c & 1))
        multiset = first.setdefault(tuple(sorted(dice)), o)
        keys.append((-round(best, 9), multiset, o))
    return [key[2] for key in sorted(keys)]


def ranking(state):
    return [int(cantstop.ranked_outcome(state, r)) for r in range(1296)]


def test_antithetic_ranking_matches_the_reference_sort():
    states = chance_states()
    assert len(states) > 50
    for state in states[::10]:
        assert ranking(state) == reference_ranking(state)


def test_antithetic_ranking_is_a_permutation_with_busts_last():
    for state in chance_states(seed=4):
        ranked = ranking(state)
        assert sorted(ranked) == list(range(1296))
        busts = [bool(cantstop.feature(state, o)) for o in ranked]
        n_busts = sum(busts)
        assert n_busts == round(1296 * cantstop.feature_probability(state))
        assert not any(busts[: 1296 - n_busts])  # every lucky outcome before every bust


def outcome(dice):
    return sum((d - 1) * 6**i for i, d in enumerate(dice))


def test_antithetic_ranking_by_hand():
    """At the start the best roll is 1111 (2 + 2: 200 points), then the orders of 1166 (2 + 12).
    With only column 7 open: rolls that pair 7 + 7 first, then those with one 7, then busts."""
    state = cantstop.initial_state(3)
    state[cantstop.PHASE] = 1
    ranked = ranking(state)
    assert ranked[0] == outcome((1, 1, 1, 1))
    assert set(ranked[1:7]) == {outcome(d) for d in set(itertools.permutations((1, 1, 6, 6)))}
    state[cantstop.TEMP + 0] = state[cantstop.TEMP + 10] = 3  # 2 and 12 finished this turn
    state[cantstop.TEMP + 5], state[cantstop.USED] = 1, 3
    sevens = [sum(cantstop._SUMS[o] == 5) for o in range(1296)]  # pair sums equal to 7
    double = [o for o in range(1296) if any(cantstop._SUMS[o, p] == cantstop._SUMS[o, p + 3] == 5
                                            for p in range(3))]
    single = [o for o in range(1296) if sevens[o] and o not in double]
    ranked = ranking(state)
    cut = len(double) + len(single)
    assert set(ranked[: len(double)]) == set(double)
    assert set(ranked[len(double): cut]) == set(single)
    assert not any(sevens[o] for o in ranked[cut:])


def test_default_policy_of_seed_003():
    """Roll to start a turn, stop right after finishing a column, else re-roll with p 0.85;
    pairings uniformly at random."""
    out = np.empty(GAME.max_actions, dtype=np.int64)

    def draws(state, n):
        return np.array([cantstop.policy_action(state, out, seed_state(k)) for k in range(n)])

    state = cantstop.initial_state(3)
    assert set(draws(state, 50)) == {cantstop.ROLL}
    state[cantstop.TEMP + 0], state[cantstop.USED], state[cantstop.FINISHED] = 3, 1, 1
    assert set(draws(state, 50)) == {cantstop.STOP}
    state[cantstop.FINISHED] = 0
    assert np.mean(draws(state, 4000) == cantstop.ROLL) == pytest.approx(0.85, abs=0.02)
    pairing = rolled((1, 2, 3, 4))
    picks = np.bincount(draws(pairing.array, 3000))
    assert set(np.flatnonzero(picks)) == set(pairing.legal_actions())
    assert picks[picks > 0].min() > 900  # 3 legal pairings, about 1000 each


def test_search_runs_with_every_technique():
    state = rolled((1, 2, 3, 4))
    config = StochasticConfig(c=GAME.ucb_c, cv=True, crn=True, av=True)
    result = search(GAME, state.array, 64, config, seed=1)
    assert result.visits.sum() == 64 and result.action in state.legal_actions()
    assert np.all(np.isfinite(result.values))
