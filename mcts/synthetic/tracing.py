"""What a watched synthetic search records (``mctslab inspect``).

``mcts.synthetic.trace_search`` runs the search of ``mcts.synthetic.search`` (same seed, same
random stream, same tree) and after each playout count t of a sorted ``grid`` records here
(:func:`record_root`) the root's children: their
visits, reward sums (the mover's, so mean = sum / visits), indices, proven values, the move the
run would play if stopped there, and the adjuster's theta and effective threshold. A per-playout
log (``PlayoutLog``) keeps every playout's terminal score, max's reward and the effective
threshold after it, for the threshold's whole trajectory (seed 001, Sect. IV-B).

Watching changes nothing: at t = 2^k the move recorded is the one the engine draws for its
failure record (``search_tree.chosen_move``); elsewhere it and the indices are computed on a
copy of the random stream, and the indices by the policy's plain index of each child (never its
columns per node), so the run's draws, tree and failures are the engine's bit for bit (tests pin
it). After a restart's threshold change the indices use the root's last snapshot. Once the root
is solved the search stops and later grid points repeat its last state (played counts the
playouts run).

The records are hooks of the engine's one loop (``mcts.synthetic._playouts``), read from a
:class:`Watch`; the engine passes None for it, and each hook is then nothing, compiled away, so
tracing off costs nothing and a watched run is the engine's own loop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..core.child_indices import INDEX, index_children
from ..core.search_tree import (
    FIRST_CHILD,
    REWARD_SUM,
    VISITS,
    ChildrenView,
    chosen_move,
    parent_count,
)
from ..core.solver import LOSS, NO_CHILD


class RootTrace(NamedTuple):
    """The root after each grid point g (after playout grid[g]); a leading run axis for
    :func:`trace_runs`."""

    played: np.ndarray  # int64 [g]; playouts simulated (fewer than grid[g] once solved)
    visits: np.ndarray  # int64 [g, b]; the root children's visits
    reward_sums: np.ndarray  # float64 [g, b]; the children's mover's reward sums
    indices: np.ndarray  # float64 [g, b]; the policy's index (-inf: skipped, nan: unexpanded)
    proven: np.ndarray  # int8 [g, b]; ``mcts.core.solver`` values for the child's mover (max)
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


class Watch(NamedTuple):
    """What a watched run records (``mctslab inspect``): grid points, where to put them, and the
    run's own scratch for draws the run must not see."""

    grid: np.ndarray  # int64 [g]; increasing playout counts within 1..stop
    root: RootTrace  # with a leading run axis
    run: int  # the row of ``root``
    log: PlayoutLog  # arrays of length 0: no log
    stop: int  # the run stops after this playout (<= its budget)
    cursor: np.ndarray  # int64 [1]; the next grid point
    spare: np.ndarray  # uint64 [4]; a copy of the run's stream (``bandits.rng``)


@njit(cache=True)
def new_watch(grid, root, run, log, stop):
    """A :class:`Watch` of ``grid`` into row ``run`` of ``root``, logging into ``log``."""
    return Watch(grid, root, run, log, stop, np.zeros(1, np.int64), np.zeros(4, np.uint64))


def _watched(watch) -> bool:
    return isinstance(watch, types.BaseNamedTuple) and watch.instance_class is Watch


def last_playout(watch, budget):
    """The playouts a run makes: its budget, or a watched run's ``stop`` (compiled code only,
    as every hook below; with ``watch`` None each is nothing, compiled away)."""
    raise NotImplementedError("last_playout runs inside compiled kernels only")


# once per search: a call (unwatched, the budget)
@overload(last_playout, jit_options={"cache": True})
def _last_playout(watch, budget):
    if _watched(watch):
        return lambda watch, budget: watch.stop
    return lambda watch, budget: budget


def log_playout(watch, t, score, reward, threshold):
    """Playout ``t``'s terminal score, max's reward and the effective threshold after it."""
    raise NotImplementedError("log_playout runs inside compiled kernels only")


# a call, per playout (LLVM drops it when unwatched): inlined in numba's IR inside a step of
# the search loop, numba dropped its writes
@overload(log_playout, jit_options={"cache": True})
def _log_playout(watch, t, score, reward, threshold):
    if not _watched(watch):
        return lambda watch, t, score, reward, threshold: None

    def log(watch, t, score, reward, threshold):
        if watch.log.score.shape[0] > 0:
            watch.log.score[t - 1], watch.log.reward[t - 1] = score, reward
            watch.log.threshold[t - 1] = threshold

    return log


@njit  # once per recorded grid point: a call
def _copy_stream(rng, copy):
    """``copy[:] = rng`` element by element: an array-to-array assignment needs numba's
    reference counting, which the engine's loop is compiled without."""
    for i in range(rng.shape[0]):
        copy[i] = rng[i]


def watch_root(watch, t, tree, config, tables, policy, rng, values, chosen, theta, theta_eff,
               solved):
    """Record the root of ``tree`` at the grid points at ``t`` (all those left once the root
    is ``solved``: the tree stays as it is), with the move ``chosen`` and the thresholds."""
    raise NotImplementedError("watch_root runs inside compiled kernels only")


# The hooks below are inlined in numba's IR so that an unwatched run compiles them away; a
# watched run's recording, once per grid point, is a call (its loop, inlined at the engine's
# call sites, tripped numba's scope check: NumbaIRAssumptionWarning).
@overload(watch_root, inline="always", jit_options={"cache": True})
def _watch_root(watch, t, tree, config, tables, policy, rng, values, chosen, theta, theta_eff,
                solved):
    if not _watched(watch):
        return (lambda watch, t, tree, config, tables, policy, rng, values, chosen, theta,
                theta_eff, solved: None)
    return (lambda watch, t, tree, config, tables, policy, rng, values, chosen, theta,
            theta_eff, solved: _record_points(watch, t, tree, config, tables, policy, rng,
                                              values, chosen, theta, theta_eff, solved))


@njit
def _record_points(watch, t, tree, config, tables, policy, rng, values, chosen, theta,
                   theta_eff, solved):
    """:func:`watch_root` of a watched run."""
    grid, g = watch.grid, watch.cursor[0]
    while g < grid.shape[0] and (solved or grid[g] == t):
        _copy_stream(rng, watch.spare)
        _record_root(watch.root, watch.run, g, tree, config, tables, policy, watch.spare,
                     values, chosen, theta, theta_eff)
        g += 1
    watch.cursor[0] = g


def watch_between(watch, t, tree, config, tables, policy, rng, values, theta, theta_eff):
    """Record the root at a grid point ``t`` between the engine's failure records, with the
    move drawn on a copy of the run's stream: the run goes on as if unwatched."""
    raise NotImplementedError("watch_between runs inside compiled kernels only")


# inlined in numba's IR: per playout; compiled away when unwatched
@overload(watch_between, inline="always", jit_options={"cache": True})
def _watch_between(watch, t, tree, config, tables, policy, rng, values, theta, theta_eff):
    if not _watched(watch):
        return (lambda watch, t, tree, config, tables, policy, rng, values, theta, theta_eff:
                None)
    return (lambda watch, t, tree, config, tables, policy, rng, values, theta, theta_eff:
            _record_between(watch, t, tree, config, tables, policy, rng, values, theta,
                            theta_eff))


@njit
def _record_between(watch, t, tree, config, tables, policy, rng, values, theta, theta_eff):
    """:func:`watch_between` of a watched run."""
    g = watch.cursor[0]
    if g < watch.grid.shape[0] and watch.grid[g] == t:
        _copy_stream(rng, watch.spare)
        chosen = chosen_move(tree, len(config.children), config.final_move, watch.spare, values)
        _record_points(watch, t, tree, config, tables, policy, rng, values, chosen, theta,
                       theta_eff, False)


@njit
def _root_indices(tree, config, tables, policy, spare, values, out):
    """The root children's indices into ``out`` as the next selection would compute them
    (children proven lost skipped unless all are), by the plain index of each child and
    ``spare``, a copy of the run's random stream: no draw and no column of the run changes.
    (No allocation: it runs inside the engine's loop, compiled without reference counting.)"""
    b, first = len(config.children), tree.stats[0, FIRST_CHILD]
    losses = 0
    for k in range(b):
        losses += tree.proven[first + k] == LOSS
    view = ChildrenView(tree, tree.index_cache, first, b,
                        parent_count(tree, 0, config.restart), config.restart, losses < b)
    index_children(view, None, tables, policy, spare, values)
    for k in range(b):
        out[k] = values[INDEX, k]


@njit
def _record_root(root, run, g, tree, config, tables, policy, spare, values, chosen, theta,
                 theta_eff):
    """Grid point g of run ``run``: the root of ``tree`` now, the move ``chosen`` and the
    thresholds; the indices by ``_root_indices`` (``spare``, a copy of the run's stream, and
    ``values``, the run's scratch, only drawn from and overwritten)."""
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
    _root_indices(tree, config, tables, policy, spare, values, root.indices[run, g])
