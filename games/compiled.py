"""The compiled game interface: one nopython entry point per operation of the rules protocol.

A search engine written with ``@njit(cache=True)`` calls these with the ``game_id`` of a
:class:`games.Game`, its rules module's :class:`games.rules.RulesKey`: each module's key has its
own numba type, so a kernel is compiled once per rules module and calls that module's functions
directly (``games.rules.protocol_function``), nothing Python-level in the playout loop and no
branch on the game. Anything but a registered game's key (an integer id, a chance game's key) is
a typing error when the kernel compiles. (Numba can cache a kernel that names compiled functions
as globals, but not one that receives them as arguments or closes over them: those recompile in
every process. Hence a typed key, not function objects. Kernels are cached per version of the
sources they import, ``bandits.kernel_cache``, so an edited rules module is compiled afresh.)

Contract, for every game (states are small integer arrays, actions ``int64``):
- ``legal_actions(gid, state, out) -> n``: the legal actions in ``out[:n]``; n == 0 iff terminal.
  ``out`` needs ``Game.max_actions`` slots. The state is left unchanged.
- ``apply_action(gid, state, action)``: in place (copy the state first to keep it).
- ``current_player``, ``is_terminal``; at a terminal ``winner`` (0, 1 or -1 for a draw) and
  ``quality`` (q for the winner: the paper's measure over the framework's normaliser, DESIGN
  §9, in [-1, 1] except Amazons' mobility / 16; 0 for a draw, which gets no bonus).
- ``policy_action(gid, state, out, rng) -> action``: one step of the game's playout policy
  (seed 000 Sect. 6.1), -1 at a terminal; ``random_action`` is the uniform policy. ``rng`` is
  a ``bandits.rng.seed_state(seed)`` array. ``decisive_action(gid, state, out, n, rng)``: the
  moves the policy always plays, drawn uniformly among ``out[:n]`` (seed 000 Sect. 6.1:
  decisive moves in Breakthrough, Cannon and Chinese Checkers); -1 if none (a game without such
  a rule returns -1). A module may also define ``random_action(state, out, rng)``
  (``games.rules.OPTIONAL_GAME_RULES``): the same move from the same random numbers as the
  default below, found faster (the bitboard games: Breakthrough, Checkers, Pentalath, Cannon;
  Amazons, whose moves are counted on masks).
- ``playout(gid, state, out, rng, uniform) -> moves``: play to the end in place.
Adding a game: a module with the functions of ``games.rules.GAME_RULES`` and one line in
``games.registry``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint

from .rules import protocol_function

# the four operations the chance games' protocol shares (``games.chance`` calls these too)
_SHARED = ("game", "chance")
_legal_actions = protocol_function(_SHARED, "legal_actions")
_apply_action = protocol_function(_SHARED, "apply_action")
_current_player = protocol_function("game", "current_player")
_is_terminal = protocol_function(_SHARED, "is_terminal")
_winner = protocol_function("game", "winner")
_quality = protocol_function("game", "quality")
_policy_action = protocol_function(_SHARED, "policy_action")
_decisive_action = protocol_function("game", "decisive_action")


@njit(cache=True)
def legal_actions(gid, state, out):
    return _legal_actions(gid, state, out)


@njit(cache=True)
def apply_action(gid, state, action):
    _apply_action(gid, state, action)


@njit(cache=True)
def current_player(gid, state):
    return _current_player(gid, state)


@njit(cache=True)
def is_terminal(gid, state):
    return _is_terminal(gid, state)


@njit(cache=True)
def winner(gid, state):
    return _winner(gid, state)


@njit(cache=True)
def quality(gid, state):
    return _quality(gid, state)


@njit(cache=True)
def policy_action(gid, state, out, rng):
    return _policy_action(gid, state, out, rng)


@njit(cache=True)
def decisive_action(gid, state, out, n, rng):
    """A move among ``out[:n]`` that the game's playout policy always plays, drawn uniformly;
    -1 if none or the game has no such rule."""
    return _decisive_action(gid, state, out, n, rng)


@njit(cache=True)
def _uniform_action(gid, state, out, rng):
    n = _legal_actions(gid, state, out)
    return out[randint(rng, n)] if n > 0 else -1


_random_action = protocol_function("game", "random_action", default=_uniform_action)


@njit(cache=True)
def random_action(gid, state, out, rng):
    """A uniformly random legal action, ``out[randint(rng, n)]`` of the n legal ones; -1 at a
    terminal."""
    return _random_action(gid, state, out, rng)


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
