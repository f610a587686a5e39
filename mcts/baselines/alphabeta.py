"""Alpha-beta with iterative deepening on synthetic trees, a baseline at MCTS's budget
(Kocsis & Szepesvari 2006, Sect. 4 and Fig. 2; Ramanujan, Sabharwal &
Selman, ICAPS 2010 and 2011).

The budget unit is the **leaf evaluated**, the unit of a playout: MCTS spends one terminal
(one playout) per iteration, alpha-beta one evaluation per leaf of its search, a terminal
(its score) or a node at the depth limit (the horizon). Interior nodes expanded are counted
apart (``counts[EXPANDED]``) and cost nothing. Kocsis & Szepesvari compare the searches at
equal "iterations"; their text was not found in the reference corpora searched for this
module, so which unit they charged alpha-beta is not known here, and a reproduction of their
Fig. 2 must say that the unit is ours.

- Values are terminal scores for the max player (moving at even plies), minimax as
  ``trees.minimax``; fail-soft alpha-beta with an explicit stack, children in their natural
  order (0 .. b-1) at every node, no transposition table, no reordering between iterations.
- Iteration k searches to depth k (a node of ply k is a horizon leaf unless terminal); the
  iterations run k = 1, 2, ... until one evaluates no horizon leaf (the search was exact: at
  the latest k = d).
- A horizon leaf evaluates to (``leaf``): ``DRAW_LEAF`` score 0 (the draw at threshold 0: no
  knowledge), ``PLAYOUT_LEAF`` the score of one uniformly random playout from it, or
  ``HEURISTIC_LEAF`` its exact minimax score plus Gaussian noise of standard deviation
  ``sigma`` in score units (Ramanujan et al.'s noisy heuristic; sigma = 0 is an oracle).
- The move of an iteration is the first root move (in natural order) of the best value:
  alpha-beta proves only bounds for the moves after it, so a tie is not seen.
- When the budget runs out inside an iteration, that iteration is dropped and the move of
  the last complete one is played; before any completes (a budget below b leaves, the cost
  of iteration 1) the move is uniformly random, drawn once per run. With ``until_exact``
  (``alphabeta(partial=random)``) the random move stands until the search is exact: Kocsis &
  Szepesvari's rule, "it would pick a move randomly, if the search has not been completed
  within a number of leaf nodes" (Sect. 3.1; their footnote 8 says the best-looking move
  instead changes nothing). Its move before then does not depend on the search, so it is one
  search to the tree's depth, with no shallower iteration to pay for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.indexing import ix
from bandits.rng import normal, randint, seed_state

DRAW_LEAF, PLAYOUT_LEAF, HEURISTIC_LEAF = 0, 1, 2  # a horizon leaf's evaluation
LEAVES, EXPANDED = 0, 1  # columns of the counts


@njit(inline="always")  # per leaf of the alpha-beta search
def _leaf_value(node, path_score, terminal, exact, b, leaf, sigma, rng):
    """The value of a leaf of the search: a terminal's score, else the horizon's evaluation."""
    if terminal[ix(node)]:
        return float(path_score[ix(node)])
    if leaf == PLAYOUT_LEAF:
        while not terminal[ix(node)]:
            node = node * b + 1 + randint(rng, b)
        return float(path_score[ix(node)])
    if leaf == HEURISTIC_LEAF:
        return exact[ix(node)] + sigma * normal(rng)
    return 0.0


@njit(cache=True)
def iteration(path_score, terminal, exact, b, limit, leaf, sigma, allowed, rng, counts):
    """One alpha-beta search to depth ``limit`` evaluating at most ``allowed`` leaves:
    (complete, best root move, root value, a horizon leaf was evaluated, leaves evaluated).
    Incomplete when leaf ``allowed + 1`` was due. ``counts`` (int64 [2]) gains the leaves
    evaluated and the interior nodes expanded (the root included)."""
    node = np.zeros(limit + 1, np.int64)
    following = np.zeros(limit + 1, np.int64)  # the next child to search
    alpha = np.empty(limit + 1)
    beta = np.empty(limit + 1)
    value = np.empty(limit + 1)  # fail-soft: the best child value found so far
    alpha[0], beta[0], value[0] = -np.inf, np.inf, -np.inf
    counts[EXPANDED] += 1
    ply, best, used, horizon = 0, -1, 0, False
    while True:
        if following[ply] < b:
            child = node[ply] * b + 1 + following[ply]
            following[ply] += 1
            if terminal[ix(child)] or ply + 1 == limit:
                if used == allowed:
                    return False, best, value[0], horizon, used
                used += 1
                counts[LEAVES] += 1
                horizon |= not terminal[ix(child)]
                v = _leaf_value(child, path_score, terminal, exact, b, leaf, sigma, rng)
            else:
                ply += 1
                node[ply], following[ply] = child, 0
                alpha[ply], beta[ply] = alpha[ply - 1], beta[ply - 1]
                value[ply] = -np.inf if ply % 2 == 0 else np.inf
                counts[EXPANDED] += 1
                continue
        else:
            if ply == 0:
                return True, best, value[0], horizon, used
            v = value[ply]
            ply -= 1
        if ply % 2 == 0:  # max to move
            if v > value[ply]:
                value[ply] = v
                if ply == 0:
                    best = following[0] - 1
            alpha[ply] = max(alpha[ply], v)
        else:
            value[ply] = min(value[ply], v)
            beta[ply] = min(beta[ply], v)
        if alpha[ply] >= beta[ply]:  # the rest of this node's children cannot matter
            following[ply] = b


@njit(cache=True)
def deepening(path_score, terminal, optimal, exact, b, depth, leaf, sigma, budget, rng,
              failed, counts, until_exact=False):
    """Iterative deepening within ``budget`` leaves; ``failed[k]`` (bool [log2(budget) + 1])
    is whether the move played with 2^k leaves lies outside ``optimal`` (bool [b]): the move
    of the last iteration complete within 2^k leaves (``until_exact``: one search to the
    tree's depth, a random move before it completes). Returns the leaves evaluated and the
    move played with the whole budget."""
    fallback = randint(rng, b)  # the move before any iteration completes
    move, spent, record = fallback, 0, 0
    for limit in range(depth if until_exact else 1, depth + 1):
        complete, best, _, horizon, used = iteration(path_score, terminal, exact, b, limit,
                                                    leaf, sigma, budget - spent, rng, counts)
        if not complete:
            spent += used
            break
        while record < failed.shape[0] and 2**record < spent + used:
            failed[record] = not optimal[move]
            record += 1
        spent += used
        if not (until_exact and horizon):
            move = best
        if not horizon:  # exact: a deeper iteration gives the same move
            break
    failed[record:] = not optimal[move]
    return spent, move


@njit(cache=True, nogil=True)
def alphabeta_runs(path_score, terminal, optimal, exact, b, depth, leaf, sigma, budget, seeds,
                   until_exact):
    """Independent runs, one per seed: failures bool [runs, log2(budget) + 1] and leaves
    evaluated int64 [runs]. ``exact`` (minimax scores, int64 [n_nodes]) is read by
    ``HEURISTIC_LEAF`` only; ``until_exact`` as :func:`deepening`'s. The GIL is released, so
    callers spread blocks over threads."""
    failed = np.zeros((seeds.shape[0], int(np.log2(budget)) + 1), np.bool_)
    played = np.zeros(seeds.shape[0], np.int64)
    counts = np.zeros(2, np.int64)
    for run in range(seeds.shape[0]):
        played[run], _ = deepening(path_score, terminal, optimal, exact, b, depth, leaf, sigma,
                                   budget, seed_state(seeds[run]), failed[run], counts,
                                   until_exact)
    return failed, played
