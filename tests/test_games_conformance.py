"""Every registered game through the shared conformance check (``games_conformance``, STYLE rule
6) and its move counts from the start (perft), in one table; the rules of each game are tested
in its own file."""

import pytest
from games_conformance import check_game_conformance

from games import GAMES, get_game, perft

# name: (random games of the conformance check, their seed, {perft depth: positions})
TABLE = {
    "breakthrough": (50, 1, {0: 1, 1: 22, 2: 484, 3: 11132, 4: 256036}),
    "checkers": (50, 2, {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768}),
    "amazons": (5, 4, {1: 2176, 2: 4307152}),
    "amazons8": (20, 3, {1: 1232, 2: 1331198}),
    # 8 town places each; then Dark has 32 steps and 10 cannon slides, 9 when its town stands
    # behind one of its five column cannons (4 of the 8 places): 64 * 41.5 = 2656
    "cannon": (20, 1, {0: 1, 1: 8, 2: 64, 3: 2656, 4: 111376}),
    # each side opens with 6 steps and 4 hops out of its triangle (10 x 10 = 100)
    "chinesecheckers": (10, 1, {0: 1, 1: 10, 2: 100, 3: 1800, 4: 32400}),
    "pentalath": (30, 1, {0: 1, 1: 61, 2: 61 * 60, 3: 61 * 60 * 59}),
    "pig": (30, 3, {}),  # one-player chance games: no perft
    "cantstop": (5, 2, {}),
    "dominion": (4, 5, {}),
}
PERFT = [(name, depth, nodes) for name, (_, _, counts) in TABLE.items()
         for depth, nodes in counts.items()]


def test_the_table_covers_every_registered_game():
    assert set(TABLE) == set(GAMES)


@pytest.mark.parametrize("name", TABLE)
def test_conformance(name):
    n_games, seed, _ = TABLE[name]
    check_game_conformance(get_game(name), n_games=n_games, seed=seed)


@pytest.mark.parametrize("name, depth, nodes", PERFT)
def test_perft(name, depth, nodes):
    assert perft(get_game(name), depth) == nodes
