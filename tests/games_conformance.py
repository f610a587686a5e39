"""The conformance test every game's tests call (STYLE rule 6): random games through the checked
protocol, plus the compiled kernels, must keep the invariants of ``games.compiled`` (two-player
games) or ``games.chance`` (one-player chance games)."""

from __future__ import annotations

import numpy as np
import pytest

from bandits.rng import seed_state
from games import CHANCE, Game, SolitaireGame, chance, compiled

MAX_PLIES = 2000
MAX_QUALITY = 16.0  # q = winner's mobility / 16 in Amazons exceeds 1 (DESIGN §9); others <= 1


def check_game_conformance(game: Game | SolitaireGame, n_games: int = 10, seed: int = 0) -> None:
    """Random games: legal actions non-empty exactly until the terminal, distinct and within the
    buffer; ``legal_actions`` and ``child`` leave the state alone; replays are deterministic;
    returns are zero-sum in {-1, 0, 1} and q lies in [-1, MAX_QUALITY] at terminals; compiled
    playouts are determined by their seed and end at terminals. Chance games:
    ``check_chance_conformance``."""
    if isinstance(game, SolitaireGame):
        check_chance_conformance(game, n_games, seed)
        return
    rng = np.random.default_rng(seed)
    for _ in range(n_games):
        _check_random_game(game, rng)
    _check_compiled_playouts(game, seed)


def _check_random_game(game: Game, rng: np.random.Generator) -> None:
    state = game.new_initial_state()
    history = []
    while not state.is_terminal():
        assert len(history) < MAX_PLIES, "game too long"
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions) <= game.max_actions
        assert state.current_player() == len(history) % 2
        assert state.chance_outcomes() is None
        history.append(_random_step(state, actions, rng))
    assert state.legal_actions() == []
    returns = state.returns()
    assert returns in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} and sum(returns) == 0
    assert -1.0 <= state.quality() <= MAX_QUALITY
    with pytest.raises(ValueError, match="not legal"):
        state.apply(0)
    _assert_replays(game, history, state)
    assert isinstance(state.render(), str)


def _random_step(state, actions: list[int], rng: np.random.Generator) -> int:
    """Apply a uniformly drawn legal action, checking that ``child`` and ``legal_actions`` leave
    the state alone, that the action reads back from its text and that ``apply`` reaches the
    child; return the action."""
    before = state.array.copy()
    action = actions[rng.integers(len(actions))]
    child = state.child(action)
    assert np.array_equal(state.array, before) and state.legal_actions() == actions
    assert state.string_to_action(state.action_to_string(action)) == action
    state.apply(action)
    assert np.array_equal(state.array, child.array)
    return action


def _assert_replays(game: Game | SolitaireGame, history: list[int], state) -> None:
    """Replaying ``history`` from the start reaches ``state`` (the rules are deterministic)."""
    replay = game.new_initial_state()
    for action in history:
        replay.apply(action)
    assert np.array_equal(replay.array, state.array)


def _assert_seeded_playouts(play, seed: int) -> None:
    """``play(run_seed) -> (moves, final state)`` gives the same game for the same seed."""
    (moves, end), (moves_again, end_again) = play(seed), play(seed)
    play(seed + 1)
    assert moves == moves_again and np.array_equal(end, end_again)


def _check_compiled_playouts(game: Game, seed: int) -> None:
    out = np.empty(game.max_actions, dtype=np.int64)
    for uniform in (True, False):

        def play(run_seed, uniform=uniform):
            state = game.initial_array()
            moves = compiled.playout(game.game_id, state, out, seed_state(run_seed), uniform)
            assert moves > 0 and compiled.is_terminal(game.game_id, state)
            assert compiled.legal_actions(game.game_id, state, out) == 0
            assert -1.0 <= compiled.quality(game.game_id, state) <= MAX_QUALITY
            assert compiled.winner(game.game_id, state) in (-1, 0, 1)
            return moves, state

        _assert_seeded_playouts(play, seed)


def check_chance_conformance(game: SolitaireGame, n_games: int = 10, seed: int = 0) -> None:
    """The same invariants for a one-player chance game: the player is 0 at decision nodes and
    ``CHANCE`` exactly where ``chance_outcomes`` is a distribution over the legal outcomes;
    replaying actions and outcomes is deterministic; ``returns`` is the score; compiled playouts
    are determined by their seed and end at terminals with the score they report."""
    rng = np.random.default_rng(seed)
    for _ in range(n_games):
        _check_random_chance_game(game, rng)
    out = np.empty(game.max_actions, dtype=np.int64)

    def play(run_seed):
        state = game.initial_array()
        moves = chance.playout(game.game_id, state, out, seed_state(run_seed))
        assert moves > 0 and chance.is_terminal(game.game_id, state)
        assert chance.legal_actions(game.game_id, state, out) == 0
        return moves, state

    _assert_seeded_playouts(play, seed)


def _check_random_chance_game(game: SolitaireGame, rng: np.random.Generator) -> None:
    state = game.new_initial_state()
    history = []
    while not state.is_terminal():
        assert len(history) < MAX_PLIES, "game too long"
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions) <= game.max_actions
        outcomes = state.chance_outcomes()
        if state.current_player() == CHANCE:
            assert [o for o, _ in outcomes] == actions
            assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-12
        else:
            assert state.current_player() == 0 and outcomes is None
        history.append(_random_step(state, actions, rng))
    assert state.legal_actions() == [] and state.chance_outcomes() is None
    assert state.returns() == (state.score(),) and np.isfinite(state.score())
    with pytest.raises(ValueError, match="not legal"):
        state.apply(0)
    with pytest.raises(ValueError, match="one-player"):
        state.quality()
    _assert_replays(game, history, state)
    assert isinstance(state.render(), str)
