"""The compiled game interface: one nopython entry point per operation, dispatched on a game id.

A search engine written with ``@njit(cache=True)`` calls these with the ``game_id`` of a
:class:`games.Game`; the branch is resolved by the CPU's predictor and the rules are inlined, so
nothing Python-level runs in the playout loop. (Numba can cache a kernel that names compiled
functions as globals, but not one that receives them as arguments or closes over them: those
recompile in every process. Hence ids, not function objects. Numba's cache of a kernel does not
notice edits to the rules it inlines from other modules: after changing a rules module, delete
``__pycache__`` of ``games/`` and of the engines.)

Contract, for every game (states are small ``int8`` arrays, actions ``int64``):
- ``legal_actions(gid, state, out) -> n``: the legal actions in ``out[:n]``; n == 0 iff terminal.
  ``out`` needs ``Game.max_actions`` slots. The state is left unchanged.
- ``apply_action(gid, state, action)``: in place (copy the state first to keep it).
- ``current_player``, ``is_terminal``; at a terminal ``winner`` (0, 1 or -1 for a draw) and
  ``quality`` (q for the winner: the paper's measure over the framework's normaliser, DESIGN
  §9, in [-1, 1] except Amazons' mobility / 16; 0 for a draw, which gets no bonus).
- ``policy_action(gid, state, out, rng) -> action``: one step of the game's playout policy
  (seed 000 Sect. 6.1), -1 at a terminal; ``random_action`` is the uniform policy. ``rng`` is
  a ``bandits.rng.seed_state(seed)`` array. ``decisive_action(gid, state, out, n, rng)``: the
  moves the policy always plays (-1 if none; games without such a rule need no branch).
- ``playout(gid, state, out, rng, uniform) -> moves``: play to the end in place.
Adding a game: give it these functions in its module and one branch in each dispatcher here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from . import amazons, breakthrough, cannon, checkers, chinese_checkers, pentalath

BREAKTHROUGH, CHECKERS, AMAZONS, CANNON, CHINESE_CHECKERS, PENTALATH = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def legal_actions(gid, state, out):
    if gid == BREAKTHROUGH:
        return breakthrough.legal_actions(state, out)
    if gid == CHECKERS:
        return checkers.legal_actions(state, out)
    if gid == CANNON:
        return cannon.legal_actions(state, out)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.legal_actions(state, out)
    if gid == PENTALATH:
        return pentalath.legal_actions(state, out)
    return amazons.legal_actions(state, out)


@njit(cache=True)
def apply_action(gid, state, action):
    if gid == BREAKTHROUGH:
        breakthrough.apply_action(state, action)
    elif gid == CHECKERS:
        checkers.apply_action(state, action)
    elif gid == CANNON:
        cannon.apply_action(state, action)
    elif gid == CHINESE_CHECKERS:
        chinese_checkers.apply_action(state, action)
    elif gid == PENTALATH:
        pentalath.apply_action(state, action)
    else:
        amazons.apply_action(state, action)


@njit(cache=True)
def current_player(gid, state):
    if gid == BREAKTHROUGH:
        return breakthrough.current_player(state)
    if gid == CHECKERS:
        return checkers.current_player(state)
    if gid == CANNON:
        return cannon.current_player(state)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.current_player(state)
    if gid == PENTALATH:
        return pentalath.current_player(state)
    return amazons.current_player(state)


@njit(cache=True)
def is_terminal(gid, state):
    if gid == BREAKTHROUGH:
        return breakthrough.is_terminal(state)
    if gid == CHECKERS:
        return checkers.is_terminal(state)
    if gid == CANNON:
        return cannon.is_terminal(state)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.is_terminal(state)
    if gid == PENTALATH:
        return pentalath.is_terminal(state)
    return amazons.is_terminal(state)


@njit(cache=True)
def winner(gid, state):
    if gid == BREAKTHROUGH:
        return breakthrough.winner(state)
    if gid == CHECKERS:
        return checkers.winner(state)
    if gid == CANNON:
        return cannon.winner(state)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.winner(state)
    if gid == PENTALATH:
        return pentalath.winner(state)
    return amazons.winner(state)


@njit(cache=True)
def quality(gid, state):
    if gid == BREAKTHROUGH:
        return breakthrough.quality(state)
    if gid == CHECKERS:
        return checkers.quality(state)
    if gid == CANNON:
        return cannon.quality(state)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.quality(state)
    if gid == PENTALATH:
        return pentalath.quality(state)
    return amazons.quality(state)


@njit(cache=True)
def policy_action(gid, state, out, rng):
    if gid == BREAKTHROUGH:
        return breakthrough.policy_action(state, out, rng)
    if gid == CHECKERS:
        return checkers.policy_action(state, out, rng)
    if gid == CANNON:
        return cannon.policy_action(state, out, rng)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.policy_action(state, out, rng)
    if gid == PENTALATH:
        return pentalath.policy_action(state, out, rng)
    return amazons.policy_action(state, out, rng)


@njit(cache=True)
def decisive_action(gid, state, out, n, rng):
    """A move among ``out[:n]`` that the game's playout policy always plays (seed 000 Sect. 6.1:
    decisive moves in Breakthrough, Cannon and Chinese Checkers), drawn uniformly; -1 if none or
    the game has no such rule."""
    if gid == BREAKTHROUGH:
        return breakthrough.decisive_action(state, out, n, rng)
    if gid == CANNON:
        return cannon.decisive_action(state, out, n, rng)
    if gid == CHINESE_CHECKERS:
        return chinese_checkers.decisive_action(state, out, n, rng)
    return -1


@njit(cache=True)
def random_action(gid, state, out, rng):
    """A uniformly random legal action, -1 at a terminal."""
    n = legal_actions(gid, state, out)
    return out[randint(rng, n)] if n > 0 else -1


@njit(cache=True)
def playout(gid, state, out, rng, uniform):
    """Play ``state`` to its end in place, by the uniform policy if ``uniform`` else by the
    game's playout policy; return the number of moves played (d_NT of seed 000, Eq. 2)."""
    moves = 0
    while True:
        if uniform:
            action = random_action(gid, state, out, rng)
        else:
            action = policy_action(gid, state, out, rng)
        if action < 0:
            return moves
        apply_action(gid, state, action)
        moves += 1


@njit(cache=True)
def perft(gid, state, depth, max_actions):
    """The number of move sequences of length ``depth`` from ``state`` (iterative DFS)."""
    if depth == 0:
        return np.int64(1)
    states = np.empty((depth, state.size), dtype=state.dtype)
    actions = np.empty((depth, max_actions), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    next_index = np.zeros(depth, dtype=np.int64)
    states[0] = state
    count[0] = legal_actions(gid, states[0], actions[0])
    if depth == 1:
        return count[0]
    total = np.int64(0)
    level = 0
    while level >= 0:
        if next_index[level] == count[level]:
            level -= 1
            continue
        child = level + 1
        states[child] = states[level]
        apply_action(gid, states[child], actions[level, next_index[level]])
        next_index[level] += 1
        n = legal_actions(gid, states[child], actions[child])
        if child == depth - 1:
            total += n
        else:
            count[child], next_index[child], level = n, 0, child
    return total
