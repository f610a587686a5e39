"""``mctslab inspect GAME``: a position of a real game searched on a grid of
playouts; its last point is one search bit for bit, without bonuses the grid is one search
watched, the page renders, and bad input is one line."""


import numpy as np
import pytest
from chromium import image_widths, needs_chromium

from experiments.cli import main
from experiments.inspect import game_position, search_position
from experiments.inspect.position import one_search
from experiments.tournaments.match import load_game
from games import get_game
from mcts.games import search
from mcts.players import parse_player

MOVES = "a2a3 h7h6 b2b3"
BUDGET = 256


@pytest.fixture(scope="module")
def breakthrough():
    game = get_game("breakthrough")
    return game, game_position(game, MOVES)


def test_the_position_is_the_moves_played(breakthrough):
    game, state = breakthrough
    played = game.new_initial_state()
    for text in MOVES.split():
        played.apply(played.string_to_action(text))
    assert np.array_equal(state.array, played.array)
    first = str(game.new_initial_state().string_to_action("a2a3"))  # an action id
    assert np.array_equal(game_position(game, first).array, game_position(game, "a2a3").array)
    randomly = game_position(game, MOVES, random_plies=5, seed=3)
    again = game_position(game, MOVES, random_plies=5, seed=3)
    assert np.array_equal(randomly.array, again.array)
    assert not np.array_equal(randomly.array, state.array)


def test_the_last_grid_point_is_one_search(breakthrough):
    game, state = breakthrough
    player = parse_player("uct", "breakthrough")
    frame = search_position(game, state, player, BUDGET, seed=5)
    last = frame[frame["playouts"] == BUDGET]
    result = search(game, state, BUDGET, player.config, 5)
    assert np.array_equal(last["action"], result.actions)
    assert np.array_equal(last["visits"], result.visits)
    visited = result.visits > 0
    assert np.array_equal(last["value"][visited], result.values[visited])
    assert last.loc[last["chosen"], "action"].item() == result.action


def _is_one_search(frame) -> bool:
    """Whether the grid points can be prefixes of one search: no move's visits fall, the
    visits add up to the playouts, and a move not visited between two points keeps its
    value."""
    visits = frame.pivot(index="playouts", columns="action", values="visits").to_numpy()
    values = frame.pivot(index="playouts", columns="action", values="value").to_numpy()
    kept = (np.diff(visits, axis=0) == 0) & (visits[1:] > 0)
    return bool((np.diff(visits, axis=0) >= 0).all()
                and (visits.sum(axis=1) == np.unique(frame["playouts"])).all()
                and (values[1:][kept] == values[:-1][kept]).all())


@pytest.mark.parametrize("spec", ["uct", "thompson+mast"])
def test_without_bonuses_the_grid_is_one_search_watched(breakthrough, spec):
    """Without bonuses the points are one search's prefixes and the table says so; with them
    (their warm-up a share of the budget) they are not, and the table says each point is its
    own search."""
    game, state = breakthrough
    player = parse_player(spec, "breakthrough")
    frame = search_position(game, state, player, BUDGET, seed=1, per_octave=2)
    assert one_search(player) and frame["one_search"].all() and _is_one_search(frame)
    assert one_search(parse_player("uct+quality", "breakthrough"))
    shaped = parse_player("uct+qb(k=8,a=0.5)", "breakthrough")
    frame = search_position(game, state, shaped, BUDGET, seed=1, per_octave=2)
    assert not one_search(shaped) and not frame["one_search"].any()
    assert not _is_one_search(frame)


def test_the_command_writes_the_page(tmp_path, capsys, saved_figures):
    prefix = tmp_path / "bt"
    assert main(["inspect", "breakthrough", "--moves", MOVES, "--max-budget", str(BUDGET),
                 "--player", "uct(c=0.5)", "--width", "3", "--out", str(prefix)]) == 0
    out = capsys.readouterr().out
    assert "uct(c=0.5)" in out and str(prefix / "index.html") in out
    top, bottom = saved_figures["search.png"].axes
    assert top.get_xscale() == "log" and len(top.get_lines()) == 3 + 1
    assert len(bottom.get_lines()) == 3 + 1  # and the zero line
    page = (prefix / "index.html").read_text()
    assert page.count("<img") == 1 and "first t playouts of one search" in page
    assert (prefix / "search.csv").stat().st_size > 0


@needs_chromium
def test_the_page_renders_in_chromium(tmp_path):
    assert main(["inspect", "breakthrough", "--moves", MOVES, "--max-budget", "64",
                 "--out", str(tmp_path / "bt")]) == 0
    widths = image_widths(tmp_path / "bt" / "index.html", tmp_path)
    assert len(widths) == 1 and widths[0] > 0, widths


def test_an_openspiel_position_is_searched_by_the_generic_engine(tmp_path):
    pytest.importorskip("pyspiel")
    from mcts.generic import generic_search

    game = load_game("openspiel:tic_tac_toe")
    state = game_position(game, "4 0")
    player = parse_player("uct", "openspiel:tic_tac_toe")
    frame = search_position(game, state, player, 32, seed=2)
    last = frame[frame["playouts"] == 32]
    result = generic_search(game, state, 32, player.config, np.random.default_rng(2))
    assert np.array_equal(last["visits"], result.visits)
    assert last.loc[last["chosen"], "action"].item() == result.action
    visits = frame.pivot(index="playouts", columns="action", values="visits")
    assert (np.diff(visits.to_numpy(), axis=0) >= 0).all()
    with pytest.raises(ValueError, match="position is terminal"):
        game_position(game, "0 3 1 4 2")
    with pytest.raises(ValueError, match="game is over after move 5"):
        game_position(game, "0 3 1 4 2 5")


@pytest.mark.parametrize("argv, message", [
    (["nosuch"], "unknown game 'nosuch'"),
    (["breakthrough", "--moves", "a2a3 a2a3"], "'a2a3' (move 2) is not legal there"),
    (["breakthrough", "--tree", "constant(1,5)"], "not both"),
    (["breakthrough", "--adjuster", "maxfreq"], "--adjuster is an option of --tree"),
    (["breakthrough", "--run", "2"], "--run is an option of --tree"),
    (["--tree", "constant(1,5)", "--player", "uct"], "--player is an option of GAME"),
    (["breakthrough", "--player", "nosuch"], "nosuch"),
])
def test_bad_input_is_one_line(argv, message, tmp_path, capsys):
    assert main(["inspect", *argv, "--max-budget", "16", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
