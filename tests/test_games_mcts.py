"""The compiled MCTS for real games: solved positions, budgets, seeds and shaped rewards."""

import pytest

from bandits import make_policy
from games import get_game
from mcts.games import LOSS, ONLINE, WIN, GameSearchConfig, search
from mcts.games.playouts import MAST, UNIFORM

KLUCB, THOMPSON = make_policy("klucb"), make_policy("thompson")


def board(size, **cells):
    rows = [["."] * size for _ in range(size)]
    for name, piece in cells.items():
        rows[size - int(name[1:])]["abcdefghij".index(name[0])] = piece
    return ["".join(row) for row in rows]


@pytest.mark.parametrize("config", [
    GameSearchConfig(), GameSearchConfig(policy=KLUCB, qb_k=2.0),
    GameSearchConfig(policy=THOMPSON, playout=MAST, epsilon=0.7),
], ids=["uct", "klucb+qb", "thompson+mast"])
def test_breakthrough_win_in_one_is_proven_and_played(config):
    game = get_game("breakthrough")
    state = game.from_board(board(8, c7="w", a2="w", h2="b", g3="b"))
    result = search(game, state, 500, config, seed=1)
    assert state.action_to_string(result.action) in ("c7c8", "c7b8", "c7d8")
    assert WIN in result.proven and result.playouts < 500


@pytest.mark.parametrize("config", [
    GameSearchConfig(), GameSearchConfig(policy=KLUCB), GameSearchConfig(policy=THOMPSON),
], ids=["uct", "klucb", "thompson"])
def test_breakthrough_must_stop_the_runner(config):
    """Black threatens b2-b1 (and a1/c1); White's only defence is capturing b2 with a1 or c1,
    which wins (h5 outruns h7): the search proves it, or at least that h5h6 loses."""
    game = get_game("breakthrough")
    state = game.from_board(board(8, b2="b", a1="w", c1="w", h7="b", h5="w"))
    result = search(game, state, 3000, config, seed=2)
    assert state.action_to_string(result.action) in ("a1xb2", "c1xb2")
    losing = [state.action_to_string(a)
              for a, p in zip(result.actions, result.proven, strict=True) if p == LOSS]
    assert WIN in result.proven or "h5h6" in losing


def test_checkers_capture_of_the_last_piece():
    game = get_game("checkers")
    state = game.from_board(board(8, c3="o", d4="+", h2="o"))
    result = search(game, state, 100, seed=3)
    assert state.action_to_string(result.action) == "c3xe5" and result.playouts < 100


def test_amazons_move_that_walls_in_the_opponent():
    game = get_game("amazons8")
    state = game.from_board(board(8, a1="B", a2="#", b2="#", h1="B", h2="#", g1="#", g2="#",
                                  a8="B", a7="#", b8="#", b7="#", h8="B", h7="#", g8="#", g7="#",
                                  d4="W", d5="W", e4="W", e5="W"))
    result = search(game, state, 4000, seed=4)
    text = state.action_to_string(result.action)
    assert text.endswith("/b1"), text  # the only arrow that walls in the last black queen
    assert WIN in result.proven


def test_expansion_proves_a_win_in_one_at_once():
    """The root's expansion finds a winning step among 8 moves (the framework's solver): one
    playout, from the winning child, settles the search."""
    game = get_game("breakthrough")
    state = game.from_board(board(8, d7="w", a2="w", b2="w", h2="b", g4="b"))
    for seed in range(5):
        result = search(game, state, 1000, GameSearchConfig(), seed=seed)
        assert result.playouts == 1 and len(result.actions) == 8
        assert state.action_to_string(result.action) in ("d7c8", "d7d8", "d7e8")


@pytest.mark.parametrize("config", [
    GameSearchConfig(), GameSearchConfig(rb_k=8.0), GameSearchConfig(qb_k=2.0, qb_a=ONLINE),
    GameSearchConfig(rb_k=8.0, rb_a=ONLINE, qb_k=2.0, playout=UNIFORM),
    GameSearchConfig(playout=MAST, epsilon=0.7), GameSearchConfig(quality=True),
    GameSearchConfig(policy=KLUCB, qb_k=2.0), GameSearchConfig(policy=THOMPSON, rb_k=8.0),
])
def test_budget_and_seed_determine_the_search(config):
    game = get_game("breakthrough")
    state = game.new_initial_state()
    first = search(game, state, 2000, config, seed=5)
    again = search(game, state, 2000, config, seed=5)
    assert first.playouts == 2000 and first.visits.sum() == 2000  # the root is expanded at once
    assert first.action == again.action and (first.visits == again.visits).all()
    assert len(first.actions) == 22 and first.action in state.legal_actions()


def test_bad_budget_and_terminal_positions_are_refused():
    game = get_game("breakthrough")
    with pytest.raises(ValueError, match="budget"):
        search(game, game.new_initial_state(), 0)
    with pytest.raises(ValueError, match="terminal"):
        search(game, game.from_board(board(8, a8="w", h1="w")), 10)
