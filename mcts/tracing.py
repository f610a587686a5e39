"""One synthetic search, watched: the root after chosen playout counts (issue 44, ``mctslab
inspect``).

:func:`trace_search` runs the search of ``mcts.synthetic.search`` (same seed, same random stream,
same tree) and after each playout count t of a sorted ``grid`` records the root's children: their
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

The loop is ``mcts.synthetic._playouts``'s, step for step, with the records added: the engine's
kernel is untouched, so tracing off costs nothing. A change to one loop is a change to the
other; ``tests/test_inspect.py`` checks that they agree.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import cache_columns, reads_second_moment
from bandits.indexing import ix
from bandits.rng import seed_state
from enhancements.thresholds import effective_threshold

from .backup import back_up
from .child_indices import INDEX, after_backup, index_children
from .rescoring import record_playout, rescore_tree
from .search_tree import FIRST_CHILD, REWARD_SUM, VISITS, parent_count
from .shaping import max_value
from .solver import LOSS, NO_CHILD, UNPROVEN
from .synthetic import (
    _adjust,
    _chosen_move,
    _descend,
    _grow,
    _max_reward,
    _playout,
    _prove,
    _proven_reward,
    _reads_terminal,
    _workspace,
)


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
def _record_root(root, run, g, t, tree, config, tables, policy, rng, values, chosen, theta,
                 theta_eff):
    """Grid point g of run ``run``: the root after ``t`` playouts; ``chosen`` < 0 asks for the
    move played, computed on a copy of the random stream."""
    b, first = len(config.children), tree.stats[0, FIRST_CHILD]
    root.played[run, g] = tree.stats[0, VISITS]
    root.theta[run, g], root.threshold[run, g] = theta, theta_eff
    if chosen < 0:
        chosen = _chosen_move(tree, b, rng.copy(), values)
    root.chosen[run, g] = chosen
    if first == NO_CHILD:
        return
    for k in range(b):
        root.visits[run, g, k] = tree.stats[first + k, VISITS]
        root.reward_sums[run, g, k] = tree.rewards[first + k, REWARD_SUM]
        root.proven[run, g, k] = tree.proven[first + k]
    _root_indices(tree, config, tables, policy, rng, values, root.indices[run, g])


@njit(cache=True)
def trace_search(game, config, budget, seed, tables, policy, grid, root, run, log, stop):
    """``mcts.synthetic.search`` (same arguments, its ``failed`` record left out) watched at
    the playout counts of ``grid`` (int64 [g], increasing, within 1..stop) into row ``run`` of
    ``root`` (``new_root_trace``), and every playout into ``log`` (``new_log``, or length 0),
    stopped after playout ``stop`` <= budget (the budget still sets what depends on it, as
    seed 000's warm-up). Returns the search tree then."""
    tree, path, values, (theta, state), statistics, histograms = _workspace(
        config, budget, cache_columns(policy) if config.cache_indices else 0,
        reads_second_moment(policy))
    _traced_playouts(tree, path, values, theta, state, statistics, seed_state(seed), game,
                     config, budget, tables, policy, histograms, grid, root, run, log, stop)
    return tree


@njit(cache=True)
def _traced_playouts(tree, path, values, theta, state, statistics, rng, game, config, budget,
                     tables, policy, histograms, grid, root, run, log, stop):
    """``mcts.synthetic._playouts`` with the records of :func:`trace_search`."""
    b, adjuster = len(config.children), config.adjuster
    theta_eff = effective_threshold(theta)
    since_change, epoch = np.int64(0), np.int64(0)
    n_nodes, next_record, g = np.int64(1), 1, 0
    span = config.score_high - config.score_low + 1
    stop_at_proven = not _reads_terminal(config)
    logged = log.score.shape[0] > 0
    for t in range(1, stop + 1):
        node, depth, tree_node = _descend(tree, path, config, epoch, rng, tables, policy, values,
                                          stop_at_proven)
        score, in_tree = 0, False
        moves, scored_at = 0, 0.0
        stopped = stop_at_proven and tree.proven[ix(node)] != UNPROVEN
        if stopped:
            reward = _proven_reward(tree.proven[node], depth)
        else:
            node, depth, tree_node, n_nodes = _grow(tree, path, node, depth, tree_node, n_nodes,
                                                    game, config, epoch, rng)
            in_tree = game.terminal[ix(tree_node)]
            score, moves = _playout(game, tree_node, b, rng)
            scored_at = 0.0 if in_tree else theta_eff
            reward = _max_reward(score, scored_at)
            if config.rescore:
                record_playout(histograms, path, depth, score, in_tree)
        value = max_value(config.shaping, statistics, policy, reward, score - scored_at, span,
                          depth + moves, t - 1, budget)
        back_up(tree, path, depth, depth + moves, value, config.backup,
                reads_second_moment(policy))
        if logged:
            log.score[t - 1], log.reward[t - 1], log.threshold[t - 1] = score, reward, theta_eff
        if not stopped and in_tree:
            _prove(tree, path, depth, score, b)
            if tree.proven[0] != UNPROVEN:  # solved: the move and the root stay as they are
                chosen = _chosen_move(tree, b, rng, values)
                while g < grid.shape[0]:
                    _record_root(root, run, g, grid[g], tree, config, tables, policy, rng,
                                 values, chosen, theta, theta_eff)
                    g += 1
                return
        after_backup(tree, path, depth, b, config.restart, config.cache_indices, epoch,
                     policy, tables)
        before = theta_eff
        theta, state, theta_eff, since_change, epoch = _adjust(
            adjuster, state, theta, theta_eff, since_change, epoch, score, reward, config.freeze)
        if logged:
            log.threshold[t - 1] = theta_eff
        if config.rescore:
            rescore_tree(histograms, tree, n_nodes, b, before, theta_eff,
                         reads_second_moment(policy),
                         config.cache_indices and cache_columns(policy) > 0, policy)
        chosen = -1
        if t == next_record:  # the engine's failure record: the same draw
            chosen = _chosen_move(tree, b, rng, values)
            next_record *= 2
        while g < grid.shape[0] and grid[g] == t:
            _record_root(root, run, g, t, tree, config, tables, policy, rng, values, chosen,
                         theta, theta_eff)
            g += 1


@njit(cache=True, nogil=True)
def trace_runs(game, config, budget, seeds, tables, policy, grid):
    """:func:`trace_search` of one run per seed, one after another, without logs: a
    ``RootTrace`` with a leading run axis."""
    root = new_root_trace(seeds.shape[0], grid.shape[0], len(config.children))
    empty = new_log(0)
    for run in range(seeds.shape[0]):
        trace_search(game, config, budget, seeds[run], tables, policy, grid, root, run, empty,
                     budget)
    return root
