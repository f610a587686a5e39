"""Pig solitaire: the dice rules by hand, the expectimax solution against an
independent recursion, and ``mctslab games solve``."""

import json
from functools import cache

import numpy as np
import pytest

from experiments.cli import main
from games import CHANCE, get_game, pig
from games.pig_solver import solve_pig

GAME = get_game("pig")


def after(turns, banked, total, action, dice=None):
    state = GAME.state(pig.from_values(turns, banked, total))
    state.apply(action)
    if dice is not None:
        assert state.current_player() == CHANCE
        state.apply(6 * (dice[0] - 1) + dice[1] - 1)
    return tuple(int(v) for v in state.array[:3])


def test_dice_rules():
    assert after(3, 10, 7, pig.STOP) == (2, 17, 0)
    assert after(3, 10, 7, pig.ROLL, (4, 6)) == (3, 10, 17)
    assert after(3, 10, 7, pig.ROLL, (1, 6)) == (2, 10, 0)
    assert after(3, 10, 7, pig.ROLL, (5, 1)) == (2, 10, 0)
    assert after(3, 10, 7, pig.ROLL, (1, 1)) == (2, 0, 0)
    assert after(1, 10, 7, pig.STOP) == (0, 17, 0)


def test_antithetic_outcome_mirrors_each_die():
    for o in range(36):
        d1, d2 = pig.dice(o)
        assert pig.dice(35 - pig.ranked_outcome(None, o)) == (7 - d1, 7 - d2)
    ones = sum(pig.feature(None, o) for o in range(36))
    assert ones / 36 == pytest.approx(pig.feature_probability(None)) == 11 / 36


def brute_force_value(turns, cap):
    """Expectimax over the 36 ordered dice outcomes, memoised, with a stop forced at k >= cap
    (the closure the solver uses)."""

    @cache
    def v(t, b, k):
        if t == 0:
            return float(b)
        stop = v(t - 1, b + k, 0)
        if k >= cap:
            return stop
        roll = 0.0
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                if d1 == d2 == 1:
                    roll += v(t - 1, 0, 0)
                elif 1 in (d1, d2):
                    roll += v(t - 1, b, 0)
                else:
                    roll += v(t, b, k + d1 + d2)
        return max(stop, roll / 36)

    return v(turns, 0, 0), v


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_solution_matches_brute_force(turns):
    solution = solve_pig(turns, cap=30)
    expected, v = brute_force_value(turns, 30)
    assert solution.value(pig.initial_state(turns)) == pytest.approx(expected, rel=1e-12)
    for t, b, k in [(turns, 0, 8), (1, 12, 15), (1, 40, 22), (turns, 0, 29)]:
        if b <= (turns - t) * 41:
            assert solution.value(pig.from_values(t, b, k)) == pytest.approx(v(t, b, k))


def test_cap_does_not_bind():
    """Stopping is optimal from turn total 19 on, so a cap of 30 and one of 100 agree."""
    small, large = solve_pig(4, cap=30), solve_pig(4, cap=100)
    assert small.stop_from == large.stop_from < 30
    start = pig.initial_state(4)
    assert small.value(start) == pytest.approx(large.value(start), rel=1e-12)
    assert large.optimal_action(start) == pig.ROLL
    assert large.optimal_action(pig.from_values(4, 0, large.stop_from)) == pig.STOP


def test_one_turn_q_values_by_hand():
    """T = 1, k >= 18: every roll without a 1 leads to a stop, so Q_roll = (25 k + 200) / 36
    (200 = sum of d1 + d2 over the 25 outcomes without a 1): roll at 18, stop at 19."""
    solution = solve_pig(1)
    assert solution.q_values(pig.from_values(1, 0, 18)) == pytest.approx((650 / 36, 18))
    assert solution.q_values(pig.from_values(1, 0, 19)) == pytest.approx((675 / 36, 19))
    assert solution.stop_from == 19


def test_outside_the_tables_is_a_clear_error():
    solution = solve_pig(2, cap=30)
    with pytest.raises(ValueError, match="outside this solution"):
        solution.value(pig.from_values(3, 0, 0))
    with pytest.raises(ValueError, match="decision states"):
        solution.q_values(np.array([2, 0, 0, 1]))


def test_cli_solve(capsys):
    assert main(["games", "solve", "pig", "--turns", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == pytest.approx(brute_force_value(2, 100)[0]) and out["action"] == "roll"
    assert main(["games", "solve", "breakthrough", "--turns", "2"]) == 2
    err = capsys.readouterr().err
    assert "only pig" in err and err.count("\n") == 1
