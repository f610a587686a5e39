"""Playout policies of the game MCTS (seed 000 Sect. 6.1; DESIGN §9): uniform, the game's own
policy, and MAST with epsilon-greedy selection (Finnsson & Bjornsson 2008).

MAST learns, per search (reset for every move), the mean outcome Q(p, a) in [-1, 1] of each action
code a whenever player p played it in an iteration, tree path and playout alike, from p's view:
+1 win, -1 loss, 0 draw (the unshaped outcome, as the seed's framework does). One MAST playout
step: a move the game's policy always plays if there is one (``games.compiled.decisive_action``:
decisive moves in Breakthrough); else, with probability epsilon, a move of the game's own
playout policy (uniform, or weighted as Breakthrough's capture preference: the framework draws its
random move from the same weighted list); else the legal move of highest Q (moves never seen have
Q = 0; ties uniformly at random). So epsilon is the share of policy moves and epsilon = 1 is the
game's own policy. The framework's ``mastEps`` changed meaning over its history (first the share
of random moves, later that of greedy ones, its Breakthrough value rewritten from 0.7 to
1 - 0.7): both readings give Breakthrough 70% random moves and 30% greedy ones, our 0.7.

The table is keyed by ``2 * action + player`` in an open-addressing hash table (linear probing,
load kept at most 1/2, capacity doubled beyond), so it serves any game's action encoding (whole
Amazons moves are codes below 10^6, checkers moves are bit fields).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import uniform
from bandits.ties import pick_best
from games import compiled

UNIFORM, POLICY, MAST = 0, 1, 2  # playout kinds
EMPTY = -1  # an unused slot of the table's keys
MEAN, COUNT = 0, 1  # columns of the table's stats
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def new_table(capacity=1024):
    """An empty MAST table: keys int64 [capacity] (a power of 2), stats float64 [capacity, 2]
    (mean, count) and the number of keys in use, int64 [1]."""
    return (np.full(capacity, EMPTY, dtype=np.int64), np.zeros((capacity, 2)),
            np.zeros(1, dtype=np.int64))


@njit(inline="always")  # per move of a playout
def mast_key(action, player):
    return 2 * action + player


@njit(cache=True)
def _slot(keys, key):
    """The slot holding ``key``, or the empty slot where it would go (Fibonacci hashing)."""
    mask = keys.size - 1
    h = np.uint64(key) * _GOLDEN
    slot = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))
    while keys[slot] != key and keys[slot] != EMPTY:
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def mast_value(keys, stats, key):
    """Q of ``key``: its mean outcome, 0 if never seen."""
    slot = _slot(keys, key)
    return stats[slot, MEAN] if keys[slot] == key else 0.0


@njit(cache=True)
def mast_update(keys, stats, used, key, outcome):
    """Add one outcome to Q(key) (running mean); returns the (possibly regrown) keys, stats."""
    if 2 * (used[0] + 1) > keys.size:
        bigger, more, _ = new_table(2 * keys.size)
        for slot in range(keys.size):
            if keys[slot] != EMPTY:
                target = _slot(bigger, keys[slot])
                bigger[target] = keys[slot]
                more[target] = stats[slot]
        keys, stats = bigger, more
    slot = _slot(keys, key)
    if keys[slot] == EMPTY:
        keys[slot] = key
        used[0] += 1
    stats[slot, COUNT] += 1.0
    stats[slot, MEAN] += (outcome - stats[slot, MEAN]) / stats[slot, COUNT]
    return keys, stats


@njit(cache=True)
def mast_action(gid, state, out, values, rng, epsilon, keys, stats):
    """One MAST epsilon-greedy step (see the module's docstring); -1 at a terminal. ``values``
    (float64, as long as ``out``) is scratch for the moves' values; ties at random
    (``bandits.ties``)."""
    n = compiled.legal_actions(gid, state, out)
    if n == 0:
        return -1
    action = compiled.decisive_action(gid, state, out, n, rng)
    if action >= 0:
        return action
    if uniform(rng) < epsilon:
        return compiled.policy_action(gid, state, out, rng)
    player, best = compiled.current_player(gid, state), -np.inf
    for i in range(n):
        values[i] = mast_value(keys, stats, mast_key(out[i], player))
        best = max(best, values[i])
    return out[pick_best(values, 0, n, best, rng)]


@njit(cache=True)
def playout(gid, state, out, values, rng, kind, epsilon, keys, stats, trail):
    """Play ``state`` to its end in place by policy ``kind``; return (moves played = d_NT of seed
    000 Eq. 2, trail) with the MAST keys of the moves in ``trail[:moves]`` (MAST only; ``trail``
    is regrown when full); ``values`` is scratch (``mast_action``)."""
    moves = 0
    while True:
        if kind == UNIFORM:
            action = compiled.random_action(gid, state, out, rng)
        elif kind == POLICY:
            action = compiled.policy_action(gid, state, out, rng)
        else:
            action = mast_action(gid, state, out, values, rng, epsilon, keys, stats)
        if action < 0:
            return moves, trail
        if kind == MAST:
            if moves == trail.size:
                longer = np.empty(2 * trail.size, dtype=np.int64)
                longer[:moves] = trail
                trail = longer
            trail[moves] = mast_key(action, compiled.current_player(gid, state))
        compiled.apply_action(gid, state, action)
        moves += 1
