"""Compiled UCT for one-player chance games (seed 003 Sect. 2.2) with its variance reduction
(Sect. 3; DESIGN §7), one search per call.

The tree holds decision states; an edge (s, a) keeps the moments of the returns X (the final
score, point scale) and control variates Y of the trajectories through it, and its children are
the distinct states its chance outcomes led to: a chance node. One simulation (the one search
loop, ``mcts.core.search_loop``, with this engine's steps): from the root, UCB (Eq. 1: X_bar + c
sqrt(log T_s / T_{s,a}), ``bandits.UCB1``'s index on the point scale through the one selection
of ``mcts.core.child_indices``, unexplored actions first, ties at random) picks the action; its
chance outcomes (one or several in a row) are drawn and the trajectory moves to the matching
child. A state not yet in the tree is added (expansion, one node per simulation), its first
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
from bandits.ties import pick_best
from enhancements.variance import MOMENTS, N, chance_stream, estimate, observe
from games import SolitaireGame, SolitaireState, chance

from .core.child_indices import index_children
from .core.children import child_arm, implements
from .core.growth import grown
from .core.root_specs import NoRoot
from .core.search_loop import make_search_loop
from .core.solver import NO_CHILD


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


class ChanceSearch(NamedTuple):
    """One search as a domain of the one search loop (``mcts.core.search_loop``): the game,
    the root's state, the options, the tables, no root policy, the nodes' states and edges (a
    node's edges are rows ``first_edge .. first_edge + n_edges`` of the walk's edge arrays; the
    nodes below an edge, the distinct states its chance outcomes led to, a list by
    ``sibling``), the path of edges with the control variates' sums before each, the
    recorded estimates and the scratch the steps share."""

    gid: int
    position: np.ndarray
    config: StochasticConfig
    budget: int
    tables: np.ndarray
    root: tuple  # NoRoot: the root's edges are selected by Eq. 1 as every node's
    roots: tuple
    second_moment: bool
    states: np.ndarray  # int64 [nodes, size]
    first_edge: np.ndarray
    n_edges: np.ndarray
    sibling: np.ndarray  # the next node below the same edge
    path: np.ndarray  # the edges of the trajectory in the tree, from the root's
    path_y: np.ndarray  # y_sum before each of them
    marks: np.ndarray
    recorded: np.ndarray  # float64 [marks, max actions]: the root's estimates at the marks
    base: np.uint64  # the key of the trajectories' streams (common random numbers)
    streamed: bool
    state: np.ndarray  # the trajectory's state
    out: np.ndarray  # legal actions
    values: np.ndarray  # float64 [3, max actions]: the selections' scratch (row INDEX)
    no_columns: np.ndarray  # the policy's columns: none kept (``EdgeChildren``)


class ChanceWalk(NamedTuple):
    """What a search carries from one simulation to the next: the edge arrays (grown as they
    fill), the nodes and edges used, the root edge's stream of chance ranks and the next
    mark."""

    edge_action: np.ndarray
    edge_child: np.ndarray  # the first node below each edge
    moments: np.ndarray  # float64 [edges, MOMENTS] (``enhancements.variance``)
    n_nodes: int
    n_edges_used: int
    stream: np.ndarray
    mark: int


@njit(cache=True)
def _search(gid, root, max_actions, budget, config, marks, tables, rng):
    n_nodes_max = budget + 1
    out = np.empty(max_actions, dtype=np.int64)
    first_edge = np.zeros(n_nodes_max, dtype=np.int64)
    n_edges = np.zeros(n_nodes_max, dtype=np.int64)
    states = np.empty((n_nodes_max, root.size), dtype=np.int64)
    states[0] = root
    n_edges[0] = chance.legal_actions(gid, root, out)
    edge_action = np.empty(64, dtype=np.int64)
    edge_action[: n_edges[0]] = out[: n_edges[0]]
    base = next_u64(rng)
    domain = ChanceSearch(gid, root, config, budget, tables, NoRoot(), None, False, states,
                          first_edge, n_edges, np.full(n_nodes_max, NO_CHILD, dtype=np.int64),
                          np.empty(budget + 2, dtype=np.int64), np.empty(budget + 2), marks,
                          np.zeros((marks.size, max_actions)), base, config.crn or config.av,
                          root.copy(), out, np.empty((3, max_actions)), np.zeros((1, 1)))
    walk, _, _ = _search_loop(domain, ChanceWalk(edge_action, np.full(64, NO_CHILD, np.int64),
                                                 np.zeros((64, MOMENTS)), np.int64(1),
                                                 n_edges[0], seed_state(base), np.int64(0)),
                              rng)
    count, moments = n_edges[0], walk.moments
    estimates = np.empty(count)
    for e in range(count):
        estimates[e] = estimate(moments[e], config.cv, config.cv_offline)
    best = _argmax(estimates, moments, count, rng, domain.values[INDEX])
    return (walk.edge_action[:count].copy(), moments[:count, N].copy(), estimates,
            domain.recorded[:, :count].copy(), walk.edge_action[best])


@njit(inline="always")  # per simulation: a step of the search loop
def _stopped(domain, walk, t):
    return t >= domain.budget


@njit(inline="always")  # per simulation: a step of the search loop
def _descend(domain, walk, t, rng):
    """From the root, Eq. 1's edge at each node of the tree (a new node's first action by the
    default policy), each action followed by its chance events, down to the first state not
    yet in the tree (added: one node per simulation, its first action taken) or a terminal.
    Under common random numbers or antithetic variates the root edge's visit sets the stream
    of the whole trajectory. Returns the walk and the leaf: the edges taken, y_sum and whether
    the stream is mirrored."""
    gid, config, state, out = domain.gid, domain.config, domain.state, domain.out
    n_edges, first_edge = domain.n_edges, domain.first_edge
    edge_action, edge_child, moments = walk.edge_action, walk.edge_child, walk.moments
    n_nodes, n_edges_used, stream = walk.n_nodes, walk.n_edges_used, walk.stream
    state[:] = domain.position
    node, depth, y_sum = 0, 0, 0.0
    mirrored, fresh = False, False
    while not chance.is_terminal(gid, state):
        if fresh:
            edge = _edge_of(first_edge[node], n_edges[node], edge_action,
                            chance.policy_action(gid, state, out, rng))
        else:
            edge = _select(moments, domain.no_columns, first_edge[node], n_edges[node], config,
                           domain.tables, rng, domain.values)
        domain.path[depth], domain.path_y[depth] = edge, y_sum
        depth += 1
        if node == 0 and domain.streamed:
            key, mirrored = chance_stream(np.int64(moments[edge, N]), edge, n_edges[0],
                                          config.crn, config.av)
            stream = seed_state(domain.base + np.uint64(key))
        chance.apply_action(gid, state, edge_action[edge])
        y_sum = _chance_events(gid, state, config, domain.streamed, mirrored, stream, rng,
                               y_sum)
        if fresh:  # the new node's first action leaves the tree
            break
        child = _find_child(domain.states, domain.sibling, edge_child[edge], state)
        if child == NO_CHILD:
            child, n_nodes = n_nodes, n_nodes + 1
            domain.states[child] = state
            domain.sibling[child], edge_child[edge] = edge_child[edge], child
            edge_action, moments, edge_child, n_edges_used = _add_edges(
                gid, state, out, child, first_edge, n_edges, edge_action, moments, edge_child,
                n_edges_used)
            fresh = True
        node = child
    walk = ChanceWalk(edge_action, edge_child, moments, n_nodes, n_edges_used, stream,
                      walk.mark)
    return walk, (depth, y_sum, mirrored)


@njit(inline="always")  # per simulation: a step of the search loop
def _evaluate(domain, walk, leaf, t, rng):
    """The rollout by the default policy from the leaf to a terminal, chance events as in the
    tree; the gains are the final score X and the trajectory's y_sum."""
    gid, state = domain.gid, domain.state
    depth, y_sum, mirrored = leaf
    while not chance.is_terminal(gid, state):
        chance.apply_action(gid, state, chance.policy_action(gid, state, domain.out, rng))
        y_sum = _chance_events(gid, state, domain.config, domain.streamed, mirrored,
                               walk.stream, rng, y_sum)
    return walk, None, depth, (chance.score(gid, state), y_sum)


@njit(inline="always")  # per simulation: a step of the search loop
def _back_up(domain, walk, depth, gains):
    """Every edge of the tree on the trajectory observes (X, Y), Y the sum of I[b] - P[b] over
    the chance events after it (Eq. 4)."""
    x, y_sum = gains
    for i in range(depth):
        observe(walk.moments[domain.path[i]], x, y_sum - domain.path_y[i])


@njit(inline="always")  # a step of the search loop, typed but never run (below)
def _statistics(domain, walk):
    """Never read: the loop reads a tree's statistics under a root policy only, and the chance
    tree keeps none of the columns a root policy reads (``ChanceSearch.root`` is NoRoot)."""
    return walk.moments, walk.moments, domain.sibling


@njit(inline="always")  # per simulation: a step of the search loop
def _learn(domain, walk, evaluation, depth, gains, t, rng):
    """The root's estimates recorded at the marks (checkpoints) reached."""
    mark, marks = walk.mark, domain.marks
    while mark < marks.size and marks[mark] == t:
        for e in range(domain.n_edges[0]):
            domain.recorded[mark, e] = estimate(walk.moments[e], domain.config.cv,
                                                domain.config.cv_offline)
        mark += 1
    return ChanceWalk(walk.edge_action, walk.edge_child, walk.moments, walk.n_nodes,
                      walk.n_edges_used, walk.stream, mark)


_search_loop = make_search_loop(_stopped, _descend, _evaluate, _statistics, _learn, _back_up)


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
    (``bandits.ties``); ``values`` (float64 [3, max actions]) is scratch."""
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
