"""Golden searches: the exact root statistics of the game engines (``mcts.games`` for every
built-in policy and some enhancements, ``mcts.stochastic`` with its variance reduction,
``mcts.generic`` on OpenSpiel games) after a fixed budget from seeded positions, and the moves
of whole seeded games (``experiments.tournaments.match``), pinned so that a refactor of an
engine which changes a single choice fails here. Floats are compared exactly (JSON keeps a
float's repr).

Regenerate (only for a change that moves the numbers on purpose, said so in its commit):
``MCTSLAB_UPDATE_GOLDEN=1 python -m pytest -n 0 tests/test_golden_engines.py``.
"""

from pathlib import Path

import numpy as np
import pytest
from golden_values import golden_values, missing_pin

from bandits import POLICIES
from experiments.tournaments.match import load_game, play_game
from games import get_game
from games.openspiel import PREFIX, load_openspiel
from mcts import stochastic
from mcts.players import parse_player

GOLDEN = Path(__file__).parent / "golden" / "engines.json"
SEED = 2024
OPENING_SEED = 0
ALL_POLICIES = (*POLICIES, "puct(qtransform=parent_and_siblings)")
# (engine, game, player spec / variance reduction / "player1 vs player2", options). Openings:
# middlegames (16 and 10 plies); Breakthrough after 35 plies, whose root the solver proves won
# (most policies), and after 37, and Checkers after 43, where children are proven lost.
CASES = [
    *[("search", game, policy, {"plies": plies, "budget": 300})
      for game, plies in (("breakthrough", 16), ("breakthrough", 35), ("breakthrough", 37))
      for policy in ALL_POLICIES],
    *[("search", "checkers", policy, {"plies": plies, "budget": 300})
      for plies in (10, 43) for policy in ALL_POLICIES],
    *[("search", "breakthrough", spec, {"plies": 0, "budget": 300})
      for spec in ("uct", "uct+qb", "uct+rb", "uct+rb(a=online)+qb(a=online)",
                   "uct+mast(eps=0.3)", "uct+random", "uct+quality", "thompson+qb")],
    *[("search", "checkers", spec, {"plies": 10, "budget": 300})
      for spec in ("uct+qb", "klucb+rb", "uct+mast")],
    *[("search", "pentalath", spec, {"plies": 10, "budget": 300})
      for spec in ("uct", "thompson+qb")],
    *[("stochastic", game, variant, {"plies": plies, "budget": 400})
      for game, plies in (("pig", 6), ("cantstop", 3), ("dominion", 0))
      for variant in ("plain", "cv", "crn", "av", "cv+crn+av")],
    *[("play", game, "plain", {"budget": 20, "games": 3})
      for game in ("pig", "cantstop", "dominion")],
    *[("generic", "openspiel:tic_tac_toe", policy, {"plies": 2, "budget": 200})
      for policy in ALL_POLICIES],
    *[("generic", "openspiel:pig(winscore=20)", policy, {"plies": 3, "budget": 200})
      for policy in ("uct", "thompson", "puct(qtransform=parent_and_siblings)")],
    ("match", "breakthrough", "uct+qb vs uct", {"playouts": 30}),
    ("match", "checkers", "klucb vs uct+rb", {"playouts": 30}),
    ("match", "openspiel:tic_tac_toe", "thompson vs uct", {"playouts": 50}),
]


def _case_id(case) -> str:
    engine, game, spec, options = case
    return f"{engine} {game} {spec} " + ",".join(f"{k}={v}" for k, v in options.items())


def _opening(game, plies: int):
    """The position after ``plies`` uniformly random moves from the start (chance outcomes drawn
    by their probabilities, also after the last move up to a decision), from ``OPENING_SEED``."""
    rng = np.random.default_rng(OPENING_SEED)
    state = game.new_initial_state()
    while plies > 0 or state.chance_outcomes() is not None:
        outcomes = state.chance_outcomes()
        if outcomes is None:
            state.apply(int(rng.choice(state.legal_actions())))
            plies -= 1
        else:
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
    return state


def _root(result) -> dict:
    """The chosen move and the root's children of a search result, exactly."""
    root = {"action": result.action, "actions": result.actions.tolist(),
            "visits": result.visits.tolist(), "values": result.values.tolist()}
    if hasattr(result, "proven"):
        root["proven"] = result.proven.tolist()
    return root


def _game(name: str):
    return load_openspiel(name) if name.startswith(PREFIX) else get_game(name)


def _search(name, spec, options) -> dict:
    game = _game(name)
    result = parse_player(spec, name).search(game, _opening(game, options["plies"]),
                                             options["budget"], SEED)
    return {**_root(result), "playouts": result.playouts}


def _stochastic_config(game, variant: str) -> stochastic.StochasticConfig:
    flags = {flag: True for flag in variant.split("+") if flag != "plain"}
    return stochastic.StochasticConfig(c=game.ucb_c, cv_offline=game.cv_offline, **flags)


def _stochastic(name, variant, options) -> dict:
    game, budget = get_game(name), options["budget"]
    result = stochastic.search(game, _opening(game, options["plies"]), budget,
                               _stochastic_config(game, variant), SEED,
                               checkpoints=[budget // 2, budget])
    return {**_root(result), "halfway": result.recorded[0].tolist()}


def _play(name, variant, options) -> dict:
    """Final scores of whole games, one seed each."""
    game = get_game(name)
    return {"scores": [stochastic.play(game, game.initial_array(), options["budget"],
                                       _stochastic_config(game, variant), SEED + i)
                       for i in range(options["games"])]}


def _match(name, specs, options) -> dict:
    players = tuple(parse_player(spec, name) for spec in specs.split(" vs "))
    moves = []
    record = play_game(load_game(name), players, options["playouts"],
                       np.random.default_rng(SEED),
                       on_move=lambda state, seat, result: moves.append(result.action))
    return {"winner": record.winner, "plies": record.plies, "moves": moves}


_ENGINES = {"search": _search, "generic": _search, "stochastic": _stochastic, "play": _play,
            "match": _match}


def _measure(case) -> dict:
    engine, game, spec, options = case
    return _ENGINES[engine](game, spec, options)


@pytest.fixture(scope="module")
def golden() -> dict:
    return golden_values(GOLDEN, CASES, _case_id, _measure,
                         lambda case: case[2] if case[2] in POLICIES else None)


def _slow(case) -> bool:
    """Checkers' pins of the policies but UCB1 and KL-UCB (whose kernel its klucb+rb case
    compiles anyway) run with ``-m slow``: the policies' code in the games engine is pinned on
    Breakthrough, Checkers' rules under UCB1, and a kernel of a policy and a game costs 7-8
    CPU-s to compile cold."""
    engine, game, spec, _ = case
    return engine == "search" and game == "checkers" and spec in ALL_POLICIES and spec not in (
        "ucb1", "klucb")


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if _slow(c) else c
                                  for c in CASES], ids=_case_id)
def test_golden_engine(case, golden):
    if case[1].startswith(PREFIX):
        pytest.importorskip("pyspiel")
    assert _case_id(case) in golden, missing_pin(_case_id(case))
    assert _measure(case) == golden[_case_id(case)]
