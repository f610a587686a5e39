"""One position of a real game searched on a grid of playouts, shown as a
synthetic run is: the root's children, their visits, shares, mean values and proven values at
each grid point.

Grid point t is the search of budget t from the position with the player's configuration and
the same seed (``mcts.players.Player.search``: ``mcts.games`` for the lab's games,
``mcts.generic`` for OpenSpiel's). A search's random stream does not depend on its budget (the
index tables and the stream are the same for every budget, and the final move is drawn after
the last playout) unless the seed's bonuses shape the rewards: their warm-up is the first
``mcts.core.rewards.WARMUP`` share of the budget. So without bonuses (rb, qb; ``quality`` is
unshaped) the grid is one search watched after t playouts, its last point that search bit for
bit; with bonuses, or a root policy (whose schedule reads the budget), each point is its own
search of budget t (``one_search`` False says so).

A position is the start, then ``moves`` (each a move as the game writes it, ``mctslab play``'s
notation, or an action id) and ``random_plies`` plies played uniformly at random (chance
outcomes drawn by their probabilities), from ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mcts.core.root_specs import NoRoot
from mcts.core.solver import DRAW, LOSS, WIN
from mcts.players import Player

from .traced import playout_grid

NAMED = {WIN: "won", DRAW: "draw", LOSS: "lost"}  # proven values for the root's mover
COLUMNS = ("playouts", "played", "action", "move", "visits", "share", "value", "proven",
           "chosen", "one_search")
_SHOWN = 12  # legal moves named in an error


def _legal_text(state) -> str:
    legal = state.legal_actions()
    names = [state.action_to_string(a) for a in legal[:_SHOWN]]
    return ", ".join(names) + (f" (+{len(legal) - _SHOWN} more)" if len(legal) > _SHOWN else "")


def _action_of(state, token: str, ply: int) -> int:
    """The legal action ``token`` names (its text, else its id); a one-line ValueError else."""
    legal = state.legal_actions()
    for action in legal:
        if state.action_to_string(action) == token:
            return action
    if token.isdigit() and int(token) in legal:
        return int(token)
    raise ValueError(f"--moves: {token!r} (move {ply}) is not legal there; legal: "
                     f"{_legal_text(state)}")


def game_position(game, moves: str = "", random_plies: int = 0, seed: int = 0):
    """The state after ``moves`` (whitespace-separated) and ``random_plies`` random plies from
    the start (module docstring); a one-line ValueError if a move is illegal or the game ends
    before the position, or the position is terminal or a chance node."""
    state = game.new_initial_state()
    tokens = moves.split()
    for ply, token in enumerate(tokens, 1):
        if state.is_terminal():
            raise ValueError(f"--moves: the game is over after move {ply - 1}; "
                             f"{len(tokens) - ply + 1} moves are left over")
        state.apply(_action_of(state, token, ply))
    rng = np.random.default_rng(seed)
    for ply in range(random_plies):
        if state.is_terminal():
            raise ValueError(f"--random-plies {random_plies}: the game is over after "
                             f"{ply} random plies (seed {seed}); ask for fewer")
        outcomes = state.chance_outcomes()
        if outcomes is not None:
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    if state.is_terminal():
        raise ValueError("the position is terminal: nothing to search (give fewer moves)")
    if state.chance_outcomes() is not None:
        raise ValueError("the position is a chance node: give its outcome in --moves")
    return state


def one_search(player: Player) -> bool:
    """Whether the player's searches of every budget share one random stream: no root policy
    and no reward shaping whose warm-up scales with the budget (module docstring)."""
    config = player.config
    return isinstance(config.root, NoRoot) and (
        config.quality or (config.rb_k <= 0 and config.qb_k <= 0))


def search_position(game, state, player: Player, max_budget: int, seed: int = 0,
                    per_octave: int = 4) -> pd.DataFrame:
    """One row per grid point (``traced.playout_grid``) and root move: ``COLUMNS``. played:
    the playouts the search ran (fewer once the root is solved); move: the action's text;
    share: of the root children's visits; value: the mover's mean reward (NaN unvisited);
    proven: won, draw, lost for the mover, else ""; chosen: the move the search of that budget
    plays; one_search: whether the grid is one search watched."""
    frames = []
    shared = one_search(player)
    for budget in playout_grid(max_budget, per_octave):
        result = player.search(game, state, int(budget), seed)
        visits = np.asarray(result.visits, np.float64)
        values = np.where(visits > 0, np.asarray(result.values, np.float64), np.nan)
        proven = getattr(result, "proven", np.zeros(visits.size, np.int8))
        frames.append(pd.DataFrame({
            "playouts": int(budget), "played": int(result.playouts),
            "action": np.asarray(result.actions, np.int64),
            "move": [state.action_to_string(int(a)) for a in result.actions],
            "visits": visits, "share": visits / max(visits.sum(), 1.0),
            "value": values,
            "proven": [NAMED.get(int(p), "") for p in proven],
            "chosen": np.asarray(result.actions) == result.action, "one_search": shared}))
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]
