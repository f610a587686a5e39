"""What a watched synthetic search records (issue 44, ``mctslab inspect``).

``mcts.synthetic.trace_search`` runs the search of ``mcts.synthetic.search`` (same seed, same
random stream, same tree) and after each playout count t of a sorted ``grid`` records here
(:func:`record_root`) the root's children: their
visits, reward sums (the mover's, so mean = sum / visits), indices, proven values, the move the
run would play if stopped there, and the adjuster's theta and effective threshold. A per-playout
log (``PlayoutLog``) keeps every playout's terminal score, max's reward and the effective
threshold after it, for the threshold's whole trajectory (seed 001, Sect. IV-B).

Watching changes nothing: at t = 2^k the move recorded is the one the engine draws for its
failure record (``_chosen_move``); elsewhere it and the indices are computed on a copy of the
random stream, and the indices by the policy's plain index of each child (never its columns
per node), so the run's draws, tree and failures are the engine's bit for bit (tests pin it).
After a restart's threshold change the indices use the root's last snapshot. Once the root is
solved the search stops and later grid points repeat its last state (played counts the
playouts run).

The traced loop is ``mcts.synthetic._playouts``'s, step for step, with the records added: the
engine's kernel is untouched, so tracing off costs nothing. A change to one loop is a change to
the other; ``tests/test_inspect.py`` checks that they agree.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .child_indices import INDEX, index_children
from .search_tree import FIRST_CHILD, REWARD_SUM, VISITS, parent_count
from .solver import LOSS, NO_CHILD


class RootTrace(NamedTuple):
    """The root after each grid point g (after playout grid[g]); a leading run axis for
    :func:`trace_runs`."""

    played: np.ndarray  # int64 [g]; playouts simulated (fewer than grid[g] once solved)
    visits: np.ndarray  # int64 [g, b]; the root children's visits
    reward_sums: np.ndarray  # float64 [g, b]; the children's mover's reward sums
    indices: np.ndarray  # float64 [g, b]; the policy's index (-inf: skipped, nan: unexpanded)
    proven: np.ndarray  # int8 [g, b]; ``mcts.solver`` values for the child's mover (max)
    chosen: np.ndarray  # int64 [g]; the move played if the run stopped there
    theta: np.ndarray  # float64 [g]; the adjuster's threshold
    threshold: np.ndarray  # float64 [g]; the effective threshold playouts are scored at


class PlayoutLog(NamedTuple):
    """Every playout t = 1 .. budget (arrays of length 0: no log)."""

    score: np.ndarray  # int64 [budget]; the terminal's score (0 for a playout stopped at a proof)
    reward: np.ndarray  # float64 [budget]; max's outcome 1, 1/2 or 0
    threshold: np.ndarray  # float64 [budget]; the effective threshold after the playout


@njit(cache=True)
def new_root_trace(runs, points, b):
    """A ``RootTrace`` of ``runs`` x ``points`` grid points, zeros (indices nan)."""
    return RootTrace(np.zeros((runs, points), np.int64), np.zeros((runs, points, b), np.int64),
                     np.zeros((runs, points, b)), np.full((runs, points, b), np.nan),
                     np.zeros((runs, points, b), np.int8), np.zeros((runs, points), np.int64),
                     np.zeros((runs, points)), np.zeros((runs, points)))


@njit(cache=True)
def new_log(budget):
    """A ``PlayoutLog`` of ``budget`` playouts."""
    return PlayoutLog(np.zeros(budget, np.int64), np.zeros(budget), np.zeros(budget))


@njit
def _root_indices(tree, config, tables, policy, rng, values, out):
    """The root children's indices into ``out`` as the next selection would compute them
    (children proven lost skipped unless all are), by the plain index of each child and a
    copy of the random stream: no draw and no column of the run changes."""
    b, first = len(config.children), tree.stats[0, FIRST_CHILD]
    losses = 0
    for k in range(b):
        losses += tree.proven[first + k] == LOSS
    index_children(tree, first, b, parent_count(tree, 0, config.restart), losses < b,
                   config.restart, False, tables, policy, rng.copy(), values)
    out[:] = values[INDEX]


@njit
def record_root(root, run, g, tree, config, tables, policy, rng, values, chosen, theta,
                theta_eff):
    """Grid point g of run ``run``: the root of ``tree`` now, the move ``chosen`` and the
    thresholds; the indices by ``_root_indices`` (``rng`` and ``values`` are the run's: only
    copied or overwritten scratch)."""
    b, first = len(config.children), tree.stats[0, FIRST_CHILD]
    root.played[run, g] = tree.stats[0, VISITS]
    root.theta[run, g], root.threshold[run, g] = theta, theta_eff
    root.chosen[run, g] = chosen
    if first == NO_CHILD:
        return
    for k in range(b):
        root.visits[run, g, k] = tree.stats[first + k, VISITS]
        root.reward_sums[run, g, k] = tree.rewards[first + k, REWARD_SUM]
        root.proven[run, g, k] = tree.proven[first + k]
    _root_indices(tree, config, tables, policy, rng, values, root.indices[run, g])
