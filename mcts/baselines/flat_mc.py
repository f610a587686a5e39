"""Flat Monte-Carlo on synthetic trees, a baseline at MCTS's budget (the
"MC" of Kocsis & Szepesvari 2006, Fig. 2).

Playout t (t = 1 .. budget) starts with root move ``order[(t - 1) mod b]``, where ``order``
is a uniformly random permutation of the b moves drawn once per run (Fisher-Yates), then
plays uniformly random moves to a terminal; its reward is the max player's outcome against
threshold 0 (1 win, 0.5 draw, 0 loss: the reward MCTS backs up by default). So after t
playouts each move has been pulled floor(t / b) or ceil(t / b) times, and before b playouts
the moves tried are a uniformly random subset. The move played after t playouts is the move
of best mean reward among those pulled, ties uniformly at random (``bandits.ties.pick_best``);
a run fails at budget 2^k when it lies outside the ``optimal`` set given.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.indexing import ix
from bandits.rng import randint, seed_state
from bandits.ties import pick_best


@njit(inline="always")  # per playout
def _outcome(score):
    """The max player's reward against threshold 0."""
    return 1.0 if score > 0 else 0.0 if score < 0 else 0.5


@njit  # once per recorded budget: a call
def _chosen(sums, pulls, means, rng):
    """The pulled move of best mean (ties at random); ``means`` is scratch (float64 [b])."""
    for move in range(sums.shape[0]):
        means[move] = sums[move] / pulls[move] if pulls[move] > 0 else -np.inf
    return pick_best(means, 0, means.shape[0], means.max(), rng)


@njit(cache=True)
def flat_search(path_score, terminal, optimal, b, budget, rng, failed, sums, pulls):
    """One run of ``budget`` playouts: ``sums`` and ``pulls`` (float64 and int64 [b], zeros)
    become each root move's summed reward and playouts; ``failed[k]`` (bool
    [log2(budget) + 1]) whether the move played after 2^k playouts lies outside
    ``optimal`` (bool [b]). Returns the move played after the whole budget."""
    order = np.arange(b)
    for i in range(b - 1, 0, -1):
        j = randint(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    means = np.empty(b)
    record, next_record, move = 0, 1, 0
    for t in range(1, budget + 1):
        first = order[(t - 1) % b]
        node = np.int64(1 + first)
        while not terminal[ix(node)]:
            node = node * b + 1 + randint(rng, b)
        sums[first] += _outcome(path_score[ix(node)])
        pulls[first] += 1
        if t == next_record:
            move = _chosen(sums, pulls, means, rng)
            failed[record] = not optimal[move]
            record += 1
            next_record *= 2
    return move


@njit(cache=True, nogil=True)
def flat_mc_runs(path_score, terminal, optimal, b, budget, seeds):
    """Independent runs, one per seed: failures bool [runs, log2(budget) + 1] and playouts
    int64 [runs]. The GIL is released, so callers spread blocks over threads."""
    failed = np.zeros((seeds.shape[0], int(np.log2(budget)) + 1), np.bool_)
    played = np.full(seeds.shape[0], budget, np.int64)
    for run in range(seeds.shape[0]):
        flat_search(path_score, terminal, optimal, b, budget, seed_state(seeds[run]),
                    failed[run], np.zeros(b), np.zeros(b, np.int64))
    return failed, played
