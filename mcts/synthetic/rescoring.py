"""Exact re-scoring of the rewards stored in the synthetic engine's tree after a threshold
change: an ablation of seed 001's method, which keeps every reward as it was scored
(DESIGN.md §5).

The engine's ``SearchConfig.rescore`` is a flag read at run time (one kernel for both):

* False (the default, the paper's method): a reward stays as scored; no histograms.
* True: each search-tree node keeps the histogram of the terminal scores of the playouts
  through it that were scored against the threshold (int32 [capacity, score_high - score_low
  + 1]). When the effective threshold changes from a to c, every node's reward sum becomes

      R(v) = F(v) + sum_s count_v(s) r_v(s, c),

  r_v(s, theta) the reward of v's mover (max: 1 above theta, 1/2 at it, 0 below; min: 1 minus
  that), F(v) the rewards of the playouts through v that ended on a terminal inside the search
  tree. Those are scored at threshold 0 (the game's true value, which the solver proves) and
  are never re-scored. Only scores between a and c change their reward, so the sums are moved
  by sum_{a <= s <= c} count_v(s) (r_v(s, c) - r_v(s, a)), counted in integer half points:
  no rounding. Re-scoring assumes the undiscounted backup (``mcts.core.backup``, gamma = 1).

What is exact, and what is not: after every change, each node's reward sum (and its sum of
squared rewards, which UCB1-Tuned and UCB-V read) is exactly what the same playouts,
each ending where it ended, would have summed had the current effective threshold been in
force from the start. A playout scored against the threshold stays so when its terminal later
joins the tree. The search itself is not replayed: the earlier playouts took the paths that
the earlier rewards chose, and the visit counts (with the exploration restart's snapshots,
Eqs. 6-8) are unchanged. Re-scoring needs every playout's terminal score, so with it the
descent never stops at a proven node (as for adjusters that read scores); under a proven node
it ends on a terminal inside the tree, scored at 0 as before.

Cost: ``depth`` increments per playout, and per change one pass over the nodes reading the
columns of the scores between the two thresholds (one or two for a step of 1 or 1/2).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits.indexing import ix

from ..core.child_indices import invalidate
from ..core.search_tree import FIRST_CHILD, NO_CHILD, REWARD_SUM, SQUARE_SUM


class ScoreHistograms(NamedTuple):
    """The played-out scores of every node, and the re-scoring pass's scratch."""

    counts: np.ndarray  # int32 [capacity, score_high - score_low + 1] (or [1, 1]: off); s - low
    max_into: np.ndarray  # bool [capacity or 1]; max made the move into the node (odd ply)
    low: int  # score_low, the score of column 0


def histogram_bytes(config, capacity: int) -> int:
    """Bytes of the histograms of one run of a tree of ``capacity`` nodes under the
    ``SearchConfig`` (0 without re-scoring): capacity x (4 bytes per score + 1)."""
    if not config.rescore:
        return 0
    scores = config.score_high - config.score_low + 1
    return capacity * (4 * scores + 1)


@njit(cache=True)
def new_histograms(rescore, capacity, score_low, score_high):
    """Empty histograms for ``capacity`` nodes; with ``rescore`` False, of one cell (unused)."""
    rows = capacity if rescore else 1
    scores = score_high - score_low + 1 if rescore else 1
    return ScoreHistograms(np.zeros((rows, scores), np.int32), np.zeros(rows, np.bool_),
                           np.int64(score_low))


@njit(inline="always")  # once per playout
def record_playout(histograms, path, depth, score, at_zero):
    """Count ``score`` at every node of ``path[1..depth]`` unless it was rewarded at threshold 0
    (``at_zero``: a terminal inside the tree, whose reward no threshold moves; called with
    re-scoring only)."""
    if not at_zero:
        column = ix(score - histograms.low)
        for ply in range(1, depth + 1):
            histograms.counts[ix(path[ix(ply)]), column] += 1


@njit(inline="always")  # per histogram cell re-scored
def _half(score, theta):
    """The max player's reward in half points: 2 above theta, 1 at it, 0 below."""
    return 2 if score > theta else 1 if score == theta else 0


@njit(cache=True)
def rescore_tree(histograms, tree, n_nodes, b, old, new, second_moment, cached, policy):
    """Move each of the first ``n_nodes`` nodes' reward sums (and squares, when kept) by the
    change of its played-out scores' rewards from effective threshold ``old`` to ``new``, in
    half points h (sum += h / 2; squares += w / 2 + h / 4 for the change w in rewards of 1:
    exact; squares kept for a policy reading the ``second_moment``); a node whose sum moved
    has its columns kept in the tree (``cached``) dropped by the ``policy``'s ``invalidate``
    hook (``bandits.hooks``: KL-UCB's root, Bayes-UCB's point). Nodes
    are visited in creation order, a parent before its children, so the ply's parity is
    handed down on the way."""
    if old == new:
        return
    counts, max_into, low = histograms.counts, histograms.max_into, histograms.low
    first_score = max(int(np.ceil(min(old, new))), low)
    last_score = min(int(np.floor(max(old, new))), low + counts.shape[1] - 1)
    if first_score > last_score:
        return
    stats, rewards, cache = tree.stats, tree.rewards, tree.index_cache
    max_into[0] = False
    for node in range(n_nodes):
        first = stats[node, FIRST_CHILD]
        if first != NO_CHILD:
            for k in range(b):
                max_into[first + k] = not max_into[node]
        if node == 0:
            continue
        half, wins = 0, 0
        for score in range(first_score, last_score + 1):
            count = counts[node, score - low]
            if count == 0:
                continue
            before, after = _half(score, old), _half(score, new)
            if max_into[node]:
                half += count * (after - before)
                wins += count * ((after == 2) - (before == 2))
            else:
                half -= count * (after - before)
                wins += count * ((after == 0) - (before == 0))
        if half != 0 or wins != 0:
            rewards[node, REWARD_SUM] += 0.5 * half
            if second_moment:
                rewards[node, SQUARE_SUM] += 0.5 * wins + 0.25 * half
            if cached:
                invalidate(policy, cache, node)
