"""The rules protocols and the dispatch generated from them (``games.rules``)."""

import pickle
import types

import numpy as np
import pytest
from numba.core.errors import TypingError

from games import Game, SolitaireGame, chance, compiled, get_game, pig
from games.rules import GAME_RULES, RulesKey


def test_an_unknown_game_id_is_an_error_in_compiled_code():
    state = get_game("breakthrough").initial_array()
    with pytest.raises(TypingError, match="not a game or chance rules key"):
        compiled.is_terminal(99, state)
    # another protocol's key, where its protocol lacks the function
    with pytest.raises(TypingError, match="not a game rules key"):
        compiled.winner(get_game("pig").game_id, state)
    with pytest.raises(TypingError, match="not a chance rules key"):
        chance.score(get_game("breakthrough").game_id, np.zeros(8, dtype=np.int64))


def _module_without(name):
    module = types.ModuleType("games.made_up")
    for function in GAME_RULES:
        if function != name:
            setattr(module, function, lambda *args: None)
    return module


@pytest.mark.parametrize("missing", ["decisive_action", "quality"])
def test_registering_a_module_lacking_a_protocol_function_names_it(missing):
    with pytest.raises(ValueError, match=f"^games.made_up lacks {missing}\\(\\) of the game "):
        Game("made-up", "a game", _module_without(missing), lambda: None, 1)
    with pytest.raises(ValueError, match="lacks legal_actions"):
        SolitaireGame("made-up", "a game", types.ModuleType("empty"), pig.initial_state, 2, 1.0)


def test_keys_name_their_module_and_survive_pickling():
    key = get_game("amazons").game_id
    assert key == get_game("amazons8").game_id == RulesKey("games.amazons", "game")
    assert pickle.loads(pickle.dumps(key)) == key != get_game("checkers").game_id
