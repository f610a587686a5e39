"""Playout policies: the MAST table (a hash table that regrows) and the epsilon-greedy step."""

import numpy as np
from test_games_mcts import board

from bandits.rng import seed_state
from games import compiled, get_game
from mcts.games.playouts import (
    EMPTY,
    MAST,
    mast_action,
    mast_key,
    mast_update,
    mast_value,
    new_table,
    playout,
)


def test_table_means_survive_regrowth():
    keys, stats, used = new_table(4)
    outcomes = {}
    for key in range(0, 4000, 7):
        for outcome in (1.0, -1.0, 1.0):
            keys, stats = mast_update(keys, stats, used, key, outcome)
        outcomes[key] = 1.0 / 3.0
    assert used[0] == len(outcomes) and keys.size >= 2 * used[0]
    assert np.count_nonzero(keys != EMPTY) == used[0]
    for key, mean in outcomes.items():
        assert abs(mast_value(keys, stats, key) - mean) < 1e-12
    assert mast_value(keys, stats, 1) == 0.0  # never seen


def test_greedy_step_plays_the_best_action_and_decisive_moves_first():
    game = get_game("breakthrough")
    state = game.initial_array()
    out = np.empty(game.max_actions, dtype=np.int64)
    scores = np.empty(game.max_actions)
    n = compiled.legal_actions(game.game_id, state, out)
    keys, stats, used = new_table()
    favourite = out[5]
    keys, stats = mast_update(keys, stats, used, mast_key(favourite, 0), 1.0)
    keys, stats = mast_update(keys, stats, used, mast_key(out[3], 1), 1.0)  # other player's
    rng = seed_state(1)
    picks = {mast_action(game.game_id, state, out, scores, rng, 0.0, keys, stats)
             for _ in range(20)}
    assert picks == {favourite} and n == 22
    near_win = game.from_board(board(8, c7="w", a2="w", h2="b", g3="b")).array
    wins = {mast_action(game.game_id, near_win, out, scores, rng, 0.0, keys, stats)
            for _ in range(30)}
    assert {game.rules.action_to_string(near_win, a) for a in wins} <= {"c7b8", "c7c8", "c7d8"}


def test_mast_playout_records_its_moves():
    game = get_game("amazons8")
    state = game.initial_array()
    out = np.empty(game.max_actions, dtype=np.int64)
    keys, stats, _ = new_table()
    trail = np.empty(4, dtype=np.int64)
    moves, trail = playout(game.game_id, state, out, np.empty(out.size), seed_state(3), MAST,
                           0.5, keys, stats, trail)
    assert compiled.is_terminal(game.game_id, state) and trail.size >= moves > 4
    assert set(trail[:moves] % 2) == {0, 1}
