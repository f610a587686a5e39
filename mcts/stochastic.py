"""Compiled UCT for one-player chance games (seed 003 Sect. 2.2) with its variance reduction
(Sect. 3; DESIGN §7), one search per call.

The tree holds decision states; an edge (s, a) keeps the moments of the returns X (the final
score, point scale) and control variates Y of the trajectories through it, and its children are
the distinct states its chance outcomes led to. One simulation: from the root, UCB (Eq. 1: X_bar
+ c sqrt(log T_s / T_{s,a}), ``bandits.UCB1``'s index on the point scale through the one
selection of ``mcts.core.child_indices``, unexplored actions first, ties at random) picks the
action; its chance outcomes (one or several in a row) are drawn and the trajectory moves to the
matching child. A state not yet in the tree is added (expansion, one node per simulation), its first
action and the rest of the trajectory follow the default policy (rollout). Backup: every edge of
the tree on the trajectory observes (X, Y), Y being the sum of I[b] - P[b] over the chance
events after it (Eq. 4).

Variance reduction, any combination (``StochasticConfig``):
- ``cv``: edges are valued by the control-variate estimate of Eq. 2/3 (``enhancements.variance``).
- ``crn``: the trajectory of the k-th visit of a root edge is driven by the k-th stream of chance
  ranks, shared by all root actions (seed 003 Sect. 4.2: a batch of outcomes driving the whole
  trajectory, shared at the root only so that no shared events conflict).
- ``av``: visits 2j and 2j + 1 of a root edge use stream j, the second mirrored (rank r -> n-1-r),
  so each trajectory is paired with its antithetic one.
The move played is the root action of largest estimate (Sect. 2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import UCB1, Arm, index_tables
from bandits.hooks import INDEX, child_lost
from bandits.rng import next_u64, randint, seed_state
from enhancements.variance import MOMENTS, N, chance_stream, estimate, observe
from games import SolitaireGame, SolitaireState, chance

from .core.child_indices import index_children
from .core.children import child_arm, implements
from .core.growth import grown
from .core.ties import pick_best

NO_CHILD = -1


class StochasticConfig(NamedTuple):
    """UCB constant (point scale; seed 003: 100 for Pig) and the variance-reduction switches."""

    c: float = 100.0
    cv: bool = False
    cv_offline: float = 6.0  # c of Eq. 2 while T_{s,a} < 50 (seed 003 Sect. 4.2, Pig)
    crn: bool = False
    av: bool = False


DEFAULT = StochasticConfig()


@dataclass(frozen=True)
class StochasticResult:
    """The chosen action and the root's edges after the search."""

    action: int
    actions: np.ndarray  # int64 [edges]
    visits: np.ndarray  # float64 [edges]
    values: np.ndarray  # float64 [edges]; estimated expected final score
    checkpoints: np.ndarray  # int64 [K]; simulation counts of the recorded estimates
    recorded: np.ndarray  # float64 [K, edges]; root estimates after checkpoints[i] simulations


def search(game: SolitaireGame, state: SolitaireState | np.ndarray, budget: int,
           config: StochasticConfig = DEFAULT, seed: int = 0,
           checkpoints: np.ndarray | list[int] | None = None) -> StochasticResult:
    """Search a decision state for ``budget`` simulations; the root estimates are also recorded
    after each simulation count in ``checkpoints`` (ascending, at most ``budget``)."""
    array = state.array if isinstance(state, SolitaireState) else np.asarray(state)
    if budget < 1:
        raise ValueError(f"budget {budget} is too small; use 1 simulation or more")
    if chance.is_terminal(game.game_id, array) or chance.n_outcomes(game.game_id, array) > 0:
        raise ValueError("search needs a decision state; pass a non-terminal state that is "
                         "not awaiting a chance outcome")
    marks = np.asarray(checkpoints if checkpoints is not None else [budget], dtype=np.int64)
    if marks.size == 0 or np.any(np.diff(marks) <= 0) or marks[0] < 1 or marks[-1] > budget:
        raise ValueError(f"checkpoints must ascend within 1..{budget}; pass e.g. [1, 2, 4]")
    actions, visits, values, recorded, action = _search(
        game.game_id, array.astype(np.int64), game.max_actions, budget, config, marks,
        index_tables(budget), seed_state(seed))
    return StochasticResult(int(action), actions, visits, values, marks, recorded)


def play(game: SolitaireGame, state: np.ndarray, budget: int,
         config: StochasticConfig = DEFAULT, seed: int = 0) -> float:
    """The final score of one game from ``state`` with a search of ``budget`` simulations
    before every decision; the dice come from their own stream of ``seed``."""
    return _play(game.game_id, np.asarray(state, dtype=np.int64), game.max_actions, budget,
                 config, index_tables(budget), seed_state(seed))


@njit(cache=True)
def _play(gid, start, max_actions, budget, config, tables, rng):
    state = start.copy()
    dice = seed_state(next_u64(rng))
    marks = np.array([budget], dtype=np.int64)
    while not chance.is_terminal(gid, state):
        n = chance.n_outcomes(gid, state)
        if n > 0:
            chance.apply_outcome(gid, state, randint(dice, n))
            continue
        action = _search(gid, state, max_actions, budget, config, marks, tables, rng)[4]
        chance.apply_action(gid, state, action)
    return chance.score(gid, state)


@njit(cache=True)
def _search(gid, root, max_actions, budget, config, marks, tables, rng):
    size = root.size
    n_nodes_max = budget + 1
    states = np.empty((n_nodes_max, size), dtype=np.int64)
    first_edge = np.zeros(n_nodes_max, dtype=np.int64)
    n_edges = np.zeros(n_nodes_max, dtype=np.int64)
    sibling = np.full(n_nodes_max, NO_CHILD, dtype=np.int64)  # next child of the same edge
    edge_action = np.empty(64, dtype=np.int64)
    edge_child = np.full(64, NO_CHILD, dtype=np.int64)
    moments = np.zeros((64, MOMENTS))
    out = np.empty(max_actions, dtype=np.int64)
    values = np.empty((3, max_actions))  # scratch of the selections (row INDEX: the indices)
    scores = values[INDEX]
    no_columns = np.zeros((1, 1))  # the policy's columns: none kept (``EdgeChildren``)
    path = np.empty(budget + 2, dtype=np.int64)
    path_y = np.empty(budget + 2)
    recorded = np.zeros((marks.size, max_actions))
    states[0] = root
    n_edges[0] = chance.legal_actions(gid, root, out)
    edge_action[: n_edges[0]] = out[: n_edges[0]]
    n_edges_used = n_edges[0]
    n_nodes = 1
    base = next_u64(rng)
    streamed = config.crn or config.av
    state = root.copy()
    stream = seed_state(base)
    mark = 0
    for m in range(budget):
        state[:] = root
        node, depth, y_sum = 0, 0, 0.0
        mirrored, in_tree, fresh = False, True, False
        while not chance.is_terminal(gid, state):
            if in_tree:
                if fresh:
                    edge = _edge_of(first_edge[node], n_edges[node], edge_action,
                                    chance.policy_action(gid, state, out, rng))
                else:
                    edge = _select(moments, no_columns, first_edge[node], n_edges[node], config,
                                    tables, rng, values)
                path[depth], path_y[depth] = edge, y_sum
                depth += 1
                action = edge_action[edge]
                if node == 0 and streamed:
                    key, mirrored = chance_stream(np.int64(moments[edge, N]), edge, n_edges[0],
                                                  config.crn, config.av)
                    stream = seed_state(base + np.uint64(key))
            else:
                action = chance.policy_action(gid, state, out, rng)
            chance.apply_action(gid, state, action)
            y_sum = _chance_events(gid, state, config, streamed, mirrored, stream, rng, y_sum)
            if not in_tree:
                continue
            if fresh:
                in_tree = False
                continue
            child = _find_child(states, sibling, edge_child[edge], state)
            if child == NO_CHILD:
                child, n_nodes = n_nodes, n_nodes + 1
                states[child] = state
                sibling[child], edge_child[edge] = edge_child[edge], child
                edge_action, moments, edge_child, n_edges_used = _add_edges(
                    gid, state, out, child, first_edge, n_edges, edge_action, moments,
                    edge_child, n_edges_used)
                fresh = True
            node = child
        x = chance.score(gid, state)
        for i in range(depth):
            observe(moments[path[i]], x, y_sum - path_y[i])
        while mark < marks.size and marks[mark] == m + 1:
            for e in range(n_edges[0]):
                recorded[mark, e] = estimate(moments[e], config.cv, config.cv_offline)
            mark += 1
    count = n_edges[0]
    estimates = np.empty(count)
    for e in range(count):
        estimates[e] = estimate(moments[e], config.cv, config.cv_offline)
    best = _argmax(estimates, moments, count, rng, scores)
    return (edge_action[:count].copy(), moments[:count, N].copy(), estimates,
            recorded[:, :count].copy(), edge_action[best])


@njit(inline="always")  # per chance event of a playout
def _chance_events(gid, state, config, streamed, mirrored, stream, rng, y_sum):
    """Resolve the chance event the last action left ``state`` at, or several in a row
    (Dominion's draws): outcomes from the run's stream, or under common random numbers from
    the root edge's ``stream`` (ranked and mirrored under antithetic variates); returns y_sum
    with each outcome's control variate b - P(b) added (seed 003 Eq. 4)."""
    n = chance.n_outcomes(gid, state)
    while n > 0:
        if streamed:
            rank = randint(stream, n)
            if mirrored:
                rank = n - 1 - rank
            outcome = chance.ranked_outcome(gid, state, rank) if config.av else rank
        else:
            outcome = randint(rng, n)
        if config.cv:
            y_sum += (1.0 if chance.feature(gid, state, outcome) else 0.0) \
                - chance.feature_probability(gid, state)
        chance.apply_outcome(gid, state, outcome)
        n = chance.n_outcomes(gid, state)
    return y_sum


@njit(inline="always")  # at most once per playout: a new node
def _add_edges(gid, state, out, child, first_edge, n_edges, edge_action, moments, edge_child,
               n_edges_used):
    """The edges of the new node ``child`` (its legal actions), the edge arrays grown to hold
    them; returns those arrays and the edges now used."""
    n = chance.legal_actions(gid, state, out)
    need = n_edges_used + n
    if need > edge_action.size:
        edge_action, moments = grown(edge_action, need, -1), grown(moments, need, 0.0)
        edge_child = grown(edge_child, need, NO_CHILD)
    first_edge[child], n_edges[child] = n_edges_used, n
    edge_action[n_edges_used: n_edges_used + n] = out[:n]
    return edge_action, moments, edge_child, n_edges_used + n


class EdgeChildren(NamedTuple):
    """A decision node's edges as the one selection reads them (``mcts.core.child_indices``): edge k
    is row ``first + k`` of ``moments`` (``enhancements.variance``), valued by its estimate
    (Eq. 1's X_bar, or the control-variate estimate of Eq. 2/3); no edge is out of the choice
    and no policy columns are kept. It implements what UCB1, this engine's policy, reads."""

    moments: np.ndarray
    cache: np.ndarray  # float64 [1, 1]; a placeholder
    first: int
    b: int
    t: int  # T_s, the sum of the edges' visits
    config: StochasticConfig


@implements(child_lost, EdgeChildren)
def _child_lost(view, k):
    return False


@implements(child_arm, EdgeChildren)
def _child_arm(view, k, tables, policy):
    edge = view.moments[view.first + k]
    return Arm(estimate(edge, view.config.cv, view.config.cv_offline), 0.0, np.int64(edge[N]),
               view.t, view.b, 1.0 / view.b)


@njit(cache=True)
def _select(moments, no_columns, first, count, config, tables, rng, values):
    """Eq. 1: the largest UCB1 index (``bandits.UCB1``: estimate + c sqrt(ln T_s / T_{s,a}), the
    estimate on the point scale, T_s the sum of the T_{s,a}; unexplored actions first, their
    index being +inf), by the one selection (``mcts.core.child_indices``); ties uniformly at random
    (``mcts.core.ties``); ``values`` (float64 [3, max actions]) is scratch."""
    total = 0
    for e in range(first, first + count):
        total += np.int64(moments[e, N])
    view = EdgeChildren(moments, no_columns, first, count, total, config)
    best = index_children(view, None, tables, UCB1(config.c, 0.0, 0.5), rng, values)
    return first + pick_best(values[INDEX], 0, count, best, rng)


@njit(cache=True)
def _argmax(values, moments, count, rng, scores):
    """The visited root edge of largest estimate, ties at random; ``scores`` is scratch."""
    best = -np.inf
    for e in range(count):
        scores[e] = values[e] if moments[e, N] > 0 else -np.inf
        best = max(best, scores[e])
    return pick_best(scores, 0, count, best, rng)


@njit(cache=True)
def _edge_of(first, count, edge_action, action):
    for e in range(first, first + count):
        if edge_action[e] == action:
            return e
    return -1


@njit(cache=True)
def _find_child(states, sibling, child, state):
    """The child in the list starting at ``child`` whose state equals ``state``, else NO_CHILD."""
    while child != NO_CHILD:
        same = True
        for i in range(state.size):
            if states[child, i] != state[i]:
                same = False
                break
        if same:
            return child
        child = sibling[child]
    return NO_CHILD
