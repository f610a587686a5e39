"""Compiled MCTS on synthetic trees, many independent runs per call (DESIGN.md §3-5).

One iteration (``_playouts``: the one search loop, ``mcts.core.search_loop``, with this engine's
steps): descend from the root by the bandit policy to a leaf of the
search tree (``_descend``, ``_select``); a leaf visited before is expanded (all b children) and
one child, drawn uniformly, is played out (``_grow``); uniformly random playout to a terminal
(``_playout``), rewarded by the reward rule (``mcts.synthetic.score_reward``: the outcome against
the current effective threshold, the linear score, or a user's rule; terminals reached inside the
tree: threshold 0, and proven; ``terminals_at_threshold``: at the effective threshold too, an
ablation); a node ends the game where the instance's ``terminal`` says, at any depth; max's
value of the playout (its reward, or seed 000's shaped reward: ``mcts.synthetic.shaping``) backed up
along the path by the backup rule (``mcts.core.backup``: negamax, a discount per ply or a user's
rule); MCTS-Solver with draws (``mcts.core.solver``: a solved root ends the run); then the threshold
adjuster (``_adjust``), and with ``config.rescore`` the exact re-scoring of the stored rewards
(``mcts.synthetic.rescoring``; an ablation, DESIGN.md §5). After playout t = 2^k the final move is
the chosen move (``search_tree.chosen_move``, ``mcts.core.final_move``: a root child proven won,
else the most visited, the best mean or the max-robust child not proven lost); the run fails when it
is outside the instance's set of correct moves (``tree_arrays``: the optimal outcome's moves,
or the best minimax score's). A run watched by ``mctslab inspect`` is the same loop, its
records hooks compiled away when off (``mcts.synthetic.tracing``).

Options are data: the built-in adjusters and their parameters, the restart, the freeze, the
shaping, the re-scoring, the discount, the built-in reward rules, the final-move rule and the
failure's set of correct moves are values read at run time, so a kernel is compiled per policy
record and b (and the integer type of the tree's scores), and per plug-in adjuster, backup rule
or reward rule (docs/performance.md lists them); each root policy (``mcts.core.root_policies``:
sequential halving or the Gumbel root choosing the root's children) has a kernel of its own, so
the plain search's compiles its hooks away. The tree and its views are
``mcts.core.search_tree``; the children's indices, by the policy's hooks where it has them
(``bandits.hooks``: KL-UCB's and Bayes-UCB's caches, Thompson's draws),
``mcts.core.child_indices``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from bandits import at_depth, cache_columns, reads_second_moment, with_own_evaluation
from bandits.indexing import ix
from bandits.rng import randint, seed_state, uniform
from bandits.ties import pick_best
from enhancements.adjusters import next_threshold, observe_playout, reads_scores, start_adjuster
from enhancements.thresholds import effective_threshold

from ..core.backup import Discount, PlayoutValue, reads_end
from ..core.child_indices import INDEX, after_backup, index_children
from ..core.final_move import MOST_VISITS
from ..core.root_policies import has_root, new_root_state, root_pick, set_root_priors
from ..core.root_specs import NoRoot, state_bytes
from ..core.search_loop import make_search_loop
from ..core.search_tree import (
    BASE_EPOCH,
    CHILD_BASE,
    FIRST_CHILD,
    PARENT_BASE,
    VISITS,
    ChildrenView,
    SearchTree,
    chosen_move,
    new_tree,
    node_capacity,
    parent_count,
)
from ..core.solver import DRAW, LOSS, NO_CHILD, UNPROVEN, WIN, prove, solver_choice
from .guidance import Guidance, NoGuidance, network_key
from .guided_steps import guided_reward, is_guided, plays_out, root_value, set_priors
from .networks import is_network, prior_table, value_table
from .rescoring import histogram_bytes, new_histograms, record_playout, rescore_tree
from .score_reward import ScoreReward, is_outcome, playout_reward
from .shaping import Bonuses, max_value, shapes, start_shaping
from .tracing import (
    last_playout,
    log_playout,
    new_log,
    new_root_trace,
    new_watch,
    watch_between,
    watch_root,
)

# The version of the engines' random streams (every engine's), stored with every result: a
# change that moves any run's numbers (another draw, another order of draws) bumps it and
# regenerates tests/golden, so that stored results of two versions are never mixed.
# 2: ties by one rule in every engine (bandits.ties), the final move too; 3: sequential halving
# pulls the arms of a round in turns (``bandits.sequential_halving``), and a root policy's
# move keeps the solver's rules (``mcts.core.root_policies.root_choice``)
STREAM_VERSION = 3


class TreeArrays(NamedTuple):
    """What the search reads of a ``trees.TreeInstance``."""

    path_score: np.ndarray  # [n_nodes] integers; the score of a terminal
    terminal: np.ndarray  # bool [n_nodes]; the game ends at the node
    correct: np.ndarray  # bool [b]; the root moves that are no failure
    # int64 [n_nodes, or 0 unguided]: the minimax scores a guided search's oracle reads
    # (``mcts.synthetic.guidance``)
    minimax: np.ndarray
    key: np.uint64  # the instance's network key (``Guidance.per_instance``): its seed
    # a user's networks' tables (``mcts.synthetic.networks``), empty unless one guides:
    logits: np.ndarray  # float64 [n_inner, b]: a prior's logits over each node's children
    values: np.ndarray  # float64 [n_nodes]: a value's max's value of each node


# the middle of the playout rewards' range [0, 1]: the root's raw value v of the Gumbel root's
# completed Q (``mcts.core.gumbel_root``)
MIDDLE_REWARD = 0.5
FAILURES = ("outcome", "score")  # the failure's sets of correct root moves, by name


def tree_arrays(instance, failure: str = "outcome", prior: str = "",
                evaluate: str = "") -> TreeArrays:
    """The arrays of ``instance`` the search reads; a run fails outside the root moves of the
    optimal outcome (``failure="outcome"``, seed 001: ``TreeInstance.optimal``) or of the best
    minimax score (``"score"``, Kocsis & Szepesvari 2006: ``TreeInstance.best_score``); a
    search guided by a ``prior`` or an ``evaluate`` spec (``mcts.synthetic.guidance``) reads
    the minimax scores too, and a user's network's tables."""
    if failure not in FAILURES:
        raise ValueError(f"failure {failure!r} is not one of {', '.join(FAILURES)}")
    correct = instance.optimal if failure == "outcome" else instance.best_score
    guided = bool(prior or evaluate)
    minimax = instance.minimax.value if guided else np.zeros(0, np.int64)
    logits = prior_table(prior, instance) if is_network(prior) else np.zeros((0, 0))
    values = value_table(evaluate, instance) if is_network(evaluate) else np.zeros(0)
    return TreeArrays(instance.path_score, instance.terminal, correct, minimax,
                      np.uint64(instance.seed % 2**64), logits, values)


class SearchConfig(NamedTuple):
    """Everything a search needs besides the tree and the policy. Its values are read at run
    time, so one kernel serves them all; what selects a kernel is the policy's record, b, the
    adjuster's record type (``Builtin`` for seed 001's, by ``enhancements.engine_adjuster``; a
    plug-in's own), the backup rule's record type, the reward rule's, the root policy's record
    class and the guidance's."""

    # b zeros: b = len(children) is a compile-time constant, so the loops over children unroll;
    # one kernel is compiled per b
    children: tuple
    depth: int
    search_depth: int  # nodes at this depth are never expanded (depth: no limit; 1: one-ply)
    adjuster: tuple  # ``enhancements.adjusters``: a Builtin record or a plug-in's
    restart: bool  # exploration restart of seed 001, Eqs. 6-8
    freeze: int  # playouts under a threshold before it may change
    score_low: int  # bounds of every terminal score
    score_high: int
    shaping: tuple = Bonuses()  # ``mcts.synthetic.shaping``: seed 000's bonuses (k = 0: none)
    rescore: bool = False  # ``mcts.synthetic.rescoring``: stored rewards re-scored exactly
    backup: tuple = Discount()  # ``mcts.core.backup``: the rule (gamma = 1: seed 001's backup)
    # the policy's columns kept in the tree between selections (``bandits.hooks``: KL-UCB's
    # roots, Bayes-UCB's points; False: every index computed at every selection, what the
    # caches must equal)
    cache_indices: bool = True
    reward: tuple = ScoreReward()  # ``mcts.synthetic.score_reward``: the rule (the outcome)
    final_move: int = MOST_VISITS  # ``mcts.core.final_move``: the rule of the move played
    # MCTS-Solver on (the default); off, no node is ever proven: Kocsis & Szepesvari's UCT,
    # whose best-score failure an outcome solver would bend (docs/design.md)
    solver: bool = True
    # ``mcts.core.root_policies``: sequential halving or the Gumbel root choosing the root's
    # children over the whole budget (a kernel of its own); NoRoot: the policy at the root too
    root: tuple = NoRoot()
    # a terminal reached inside the tree rewarded at the effective threshold, as a playout's
    # (an ablation; off: at threshold 0, its true value, DESIGN.md §3); proven either way
    terminals_at_threshold: bool = False
    # Kocsis & Szepesvari 2006, Sect. 2.1, "the tree is built by adding the information
    # gathered during an episode to it": every node an episode reaches is expanded and
    # selected through, down to a terminal or the episode's stop (off: seed 000's Algorithm 1,
    # one expansion per playout, of a leaf visited before, then a random playout)
    store_episodes: bool = False
    # Sect. 2.1's "approximate iterative deepening": an episode stops at a node of n visits
    # with probability 1/n (always at one never visited), played out at random from there
    # (with one expansion per playout, a stop at a leaf visited before still expands it)
    stop_episodes: bool = False
    # ``mcts.synthetic.guidance``: a prior and a value of known quality, and mctx's search
    # (a leaf visited before expanded and its child chosen by the policy; raw values kept);
    # NoGuidance: the unguided search, its guided steps compiled away (a kernel apart)
    guidance: tuple = NoGuidance()


@njit(cache=True)
def expansions(budget, depth, store_episodes):
    """The most expansions a run of ``budget`` playouts in a tree of ``depth`` makes: one per
    playout, or one per node of an episode's path when it stores episodes
    (``SearchConfig.store_episodes``)."""
    return budget * depth if store_episodes else budget


def memory_per_run(config: SearchConfig, budget: int, policy) -> int:
    """Bytes of working memory one run under the typed ``policy`` allocates."""
    per_node = (4 * (3 if config.restart else 2) + 8 * (2 if reads_second_moment(policy) else 1)
                + 1 + (12 if config.restart else 0) + 8 * cache_columns(policy)
                + (16 if isinstance(config.guidance, Guidance) else 0))
    capacity = node_capacity(len(config.children),
                             expansions(budget, config.depth, config.store_episodes))
    return capacity * per_node + 8 * (
        config.score_high - config.score_low + 1  # at most a histogram of the scores
    ) + histogram_bytes(config, capacity) + state_bytes(config.root, len(config.children), budget)


@njit(inline="always")  # per selection
def _select(tree, parent, depth, first, config, epoch, rng, tables, policy, values):
    """Child of an expanded ``parent`` at ``depth``, whose children start at row ``first``, by
    the solver (``mcts.core.solver.solver_choice``), then the policy (ties at random; its record
    for the depth, ``bandits.at_depth``); ``values`` (float64 [3, b]) is scratch, its row INDEX
    the children's indices."""
    b, stats = len(config.children), tree.stats
    won, losses, open_child = solver_choice(tree.proven, first, b, rng)
    if won != NO_CHILD:
        return won
    skip_losses = losses < b
    if config.restart and tree.snapshot[parent, BASE_EPOCH] != epoch:
        snapshot = tree.snapshot
        snapshot[parent, BASE_EPOCH] = epoch
        snapshot[parent, PARENT_BASE] = stats[parent, VISITS]
        for child in range(first, first + b):
            stats[child, CHILD_BASE] = stats[child, VISITS]
    if losses == b - 1:
        return open_child
    view = ChildrenView(tree, tree.index_cache, first, b,
                        parent_count(tree, parent, config.restart), config.restart, skip_losses)
    record = at_depth(policy, depth, config.depth - depth)
    if is_guided(config.guidance):  # mctx's parent value counts the parent's own evaluation
        record = with_own_evaluation(record, tree.raw_value[parent])
    best = index_children(view, config.cache_indices, tables, record, rng, values)
    return first + pick_best(values[INDEX], 0, b, best, rng)


@njit(inline="always")  # at most once per playout
def _expand(tree, node, n_nodes, b, epoch, restart):
    """Add all b children of ``node`` after the ``n_nodes`` existing ones; return the new count.
    Children born after a threshold change have no earlier exploration to forget."""
    tree.stats[node, FIRST_CHILD] = n_nodes
    if restart:
        tree.snapshot[node, BASE_EPOCH] = epoch
        tree.snapshot[node, PARENT_BASE] = 0
    return n_nodes + b


@njit(inline="always")  # per playout
def _playout(game, tree_node, b, rng):
    """Uniformly random moves from ``tree_node`` to a terminal (none when it is one); its
    score (int64, whatever integer type ``path_score`` has) and the moves made."""
    moves = 0
    while not game.terminal[ix(tree_node)]:
        tree_node = tree_node * b + 1 + randint(rng, b)
        moves += 1
    return np.int64(game.path_score[ix(tree_node)]), moves


@njit(inline="always")  # per playout that reaches a terminal in the tree
def _prove(tree, path, depth, score, b):
    """Prove the terminal at the end of ``path`` with its true value (``mcts.core.solver.prove``):
    the mover into it at ``depth`` (max at odd depths) wins if the score is on its side."""
    leaf = DRAW if score == 0 else WIN if (score > 0) == (depth % 2 == 1) else LOSS
    prove(tree.proven, path, depth, leaf, tree.stats[:, FIRST_CHILD], b)


@njit(inline="always")  # per playout stopped at a proven node
def _proven_reward(value, depth):
    """The max player's reward of a node proven ``value`` for the mover into it at ``depth``."""
    if value == DRAW:
        return 0.5
    return 1.0 if (value == WIN) == (depth % 2 == 1) else 0.0


@njit(inline="always")  # per node of a path, in the descent
def _episode_stops(tree, node, config, rng):
    """Whether the episode stops at ``node`` (``SearchConfig.stop_episodes``): with
    probability 1/n after n visits, always after none."""
    if not config.stop_episodes:
        return False
    visits = tree.stats[ix(node), VISITS]
    return visits == 0 or uniform(rng) * visits < 1.0


@njit(inline="always")  # per playout
def _descend(tree, path, config, epoch, rng, tables, policy, values, stop_at_proven, roots, t,
             game, n_nodes, network):
    """Select from the root down to a leaf of the search tree, or with ``stop_at_proven`` to
    the first proven node, keeping the path; the root's child of playout ``t`` by the root
    policy if there is one (``mcts.core.root_policies``, its state ``roots``). An episode that
    stores what it visits (``SearchConfig.store_episodes``) expands every leaf it meets above
    the search depth and below which the game goes on; one stopped by the episode rule stops
    where it draws so. A guided search (``SearchConfig.guidance``) expands a leaf visited
    before there, its children's priors drawn from the ``network``, and selects on to the
    new child, as mctx's ``simulate`` does. Returns the node, its depth, its place in the game
    tree and the nodes in the tree."""
    b = len(config.children)
    node, depth, tree_node = np.int64(0), 0, np.int64(0)  # typed: one compile of _select
    while not _episode_stops(tree, node, config, rng):
        if tree.stats[ix(node), FIRST_CHILD] == NO_CHILD:
            if not (depth < config.search_depth and not game.terminal[ix(tree_node)]
                    and (config.store_episodes or (is_guided(config.guidance)
                                                   and tree.stats[ix(node), VISITS] >= 1))):
                break
            n_nodes = _expand(tree, node, n_nodes, b, epoch, config.restart)
            set_priors(config.guidance, game, tree_node, depth, b, network, tree.prior,
                       tree.stats[ix(node), FIRST_CHILD])
        first = tree.stats[ix(node), FIRST_CHILD]
        pick = root_pick(config.root, roots, depth, tree.stats, tree.rewards, t)
        if pick != NO_CHILD:  # the root policy's child
            node = first + pick
        else:
            node = _select(tree, node, depth, first, config, epoch, rng, tables, policy, values)
        tree_node = tree_node * b + 1 + (node - first)
        depth += 1
        path[ix(depth)] = node
        if stop_at_proven and tree.proven[ix(node)] != UNPROVEN:
            break
    return node, depth, tree_node, n_nodes


@njit(inline="always")  # per playout
def _grow(tree, path, node, depth, tree_node, n_nodes, game, config, epoch, rng):
    """Expand a leaf visited before (above the search depth, not a terminal; not when the
    search stores episodes or is guided, whose descent expands) and step to one of its
    children, drawn uniformly, where the playout starts: (node, depth, place, nodes in the
    tree). An episode stopped inside the tree (``SearchConfig.stop_episodes``) plays out from
    where it stopped."""
    if (depth < config.search_depth and tree.stats[node, VISITS] >= 1
            and tree.stats[node, FIRST_CHILD] == NO_CHILD and not config.store_episodes
            and not is_guided(config.guidance) and not game.terminal[ix(tree_node)]):
        b = len(config.children)
        n_nodes = _expand(tree, node, n_nodes, b, epoch, config.restart)
        move = randint(rng, b)
        node = tree.stats[node, FIRST_CHILD] + move
        tree_node = tree_node * b + 1 + move
        depth += 1
        path[depth] = node
    return node, depth, tree_node, n_nodes


@njit  # once per search: a call
def _reads_terminal(config):
    """Whether a playout must reach its terminal below a proven node. Below one the search
    follows proven wins and avoids proven losses down to a terminal of exactly the proven
    value, so its reward is known at the node, and the descent stops there (same rewards and
    root statistics in distribution); but an adjuster that reads scores needs the terminal's
    score, shaping its depth and score, a discount or a user's backup rule its depth, exact
    re-scoring every score, a reward rule other than the outcome the terminal's score, and
    terminals rewarded at the effective threshold the terminal's score against it."""
    return (reads_scores(config.adjuster) or shapes(config.shaping) or config.rescore
            or reads_end(config.backup) or not is_outcome(config.reward)
            or config.terminals_at_threshold)


@njit(inline="always")  # per playout
def _adjust(adjuster, state, theta, theta_eff, since_change, epoch, score, reward, freeze):
    """The adjuster observes one playout and, once the effective threshold has held ``freeze``
    playouts, sets theta; a change of the effective threshold opens a new epoch (t_c of
    Eqs. 6-8). Returns (theta, state, effective threshold, playouts under it, epoch)."""
    since_change += 1
    state = observe_playout(adjuster, state, score, reward, theta, since_change)
    if since_change >= freeze:
        theta, state = next_threshold(adjuster, state, theta, since_change)
        if effective_threshold(theta) != theta_eff:
            return theta, state, effective_threshold(theta), 0, epoch + 1
    return theta, state, theta_eff, since_change, epoch


@njit(cache=True)
def search(game, config, budget, seed, tables, policy, failed):
    """One run of ``budget`` playouts on the tree ``game`` (``tree_arrays`` of an instance);
    ``failed[k]`` is set after playout 2^k. ``policy`` is a typed bandit policy
    (``bandits.make_policy``); ``tables`` cover counts up to ``budget``. Returns the search
    tree (for inspection); its root's visits are the playouts simulated."""
    network = network_key(config.guidance, game.key, seed)
    tree, path, values, (theta, state), statistics, histograms, roots = _workspace(
        config, budget, cache_columns(policy) if config.cache_indices else 0,
        reads_second_moment(policy), game, network)
    _playouts(tree, path, values, theta, state, statistics, seed_state(seed), game, config, budget,
              tables, policy, failed, histograms, roots, None, network)
    return tree


@njit(cache=True)
def _workspace(config, budget, index_columns, second_moment, game, network):
    """What one run of ``budget`` playouts needs: a new tree (with the policy's columns per
    node, ``index_columns`` of them, none for 0; a column of squared rewards if
    ``second_moment``), the selection path, the selection scratch, the adjuster's first
    threshold and state, the shaping's statistics, the nodes' score histograms (of one cell
    unless the config re-scores) and the root policy's state (``mcts.core.root_policies``;
    its raw value of the root a guided search's evaluation of it by the ``network``, not a
    playout, as mctx evaluates its root before its simulations)."""
    capacity = node_capacity(len(config.children),
                             expansions(budget, config.depth, config.store_episodes))
    tree = new_tree(capacity, config.restart, index_columns, second_moment, config.depth,
                    is_guided(config.guidance))
    path = np.zeros(config.depth + 1, np.int64)
    adjuster = start_adjuster(config.adjuster, config.score_low, config.score_high)
    histograms = new_histograms(config.rescore, capacity, config.score_low, config.score_high)
    raw = root_value(config.guidance, game, len(config.children),
                     effective_threshold(adjuster[0]), network, MIDDLE_REWARD)
    if is_guided(config.guidance):
        tree.raw_value[0] = raw
    return (tree, path, np.empty((3, len(config.children))), adjuster,
            start_shaping(config.shaping), histograms,
            new_root_state(config.root, len(config.children), budget, raw,
                           is_guided(config.guidance)))


class SyntheticSearch(NamedTuple):
    """One run as a domain of the one search loop (``mcts.core.search_loop``): its preallocated
    tree, path, selection scratch (``values``), score histograms (``mcts.synthetic.rescoring``) and
    shaping statistics, the instance, the options and the policy, the failure record, the root
    policy and its state, the watch of ``mctslab inspect`` (None: not watched) and what the
    steps read of the options once per search."""

    tree: SearchTree
    path: np.ndarray
    values: np.ndarray
    game: TreeArrays
    config: SearchConfig
    budget: int
    tables: np.ndarray
    policy: NamedTuple
    failed: np.ndarray
    histograms: np.ndarray
    statistics: tuple
    root: tuple
    roots: tuple
    watch: object
    network: np.uint64  # the key of a guided search's network (``mcts.synthetic.guidance``)
    last: int  # the playouts it makes: the budget, or a watched run's stop
    second_moment: bool
    stop_at_proven: bool  # a playout ends at a proven node (``_reads_terminal``)
    span: int  # the scores' range, a shaped reward's scale


class Walk(NamedTuple):
    """What a run carries from one playout to the next: the adjuster's threshold and state,
    the effective threshold, the playouts under it and its epoch (t_c of seed 001's Eqs. 6-8),
    the nodes in the tree, the next failure record and its playout count, and whether the root
    is solved."""

    theta: float
    state: tuple
    theta_eff: float
    since_change: int
    epoch: int
    n_nodes: int
    record: int
    next_record: int
    solved: bool


# Compiled without reference counting (numba's private ``_nrt`` flag): it allocates nothing, and
# the increfs numba's pruning leaves in its loops are pure cost.
@njit(cache=True, _nrt=False, error_model="numpy")
def _playouts(tree, path, values, theta, state, statistics, rng, game, config, budget, tables,
              policy, failed, histograms, roots, watch, network):
    """The playouts of :func:`search` (``mcts.core.search_loop``, its steps below) into its
    preallocated tree, path, selection scratch, score histograms (``mcts.synthetic.rescoring``) and
    root policy's state (``roots``), from the adjuster's first ``theta`` and ``state`` and the
    shaping's ``statistics``; a run ``watch``ed by ``mctslab inspect``
    (``mcts.synthetic.tracing.Watch``, None: not watched, its hooks compiled away) records at its
    grid points and may stop before its budget; a guided search's oracle reads the ``network``
    key (``mcts.synthetic.guidance``). Under a root policy the failure is recorded once,
    into ``failed[0]``, after the budget (its schedule reads the budget, so a curve makes one search
    per budget)."""
    b = len(config.children)
    # typed, not literal, so that numba compiles each callee once (for int64), not also for
    # the literal first value
    n_nodes, epoch = np.int64(1), np.int64(0)
    if has_root(config.root):  # every playout passes through a child of the root policy's choosing
        n_nodes = _expand(tree, 0, n_nodes, b, epoch, config.restart)
        if is_guided(config.guidance):
            set_priors(config.guidance, game, 0, 0, b, network, tree.prior, 1)
            set_root_priors(config.root, roots, tree.prior, 1)
    domain = SyntheticSearch(tree, path, values, game, config, budget, tables, policy, failed,
                             histograms, statistics, config.root, roots, watch, network,
                             last_playout(watch, budget), reads_second_moment(policy),
                             not _reads_terminal(config),
                             config.score_high - config.score_low + 1)
    _, _, choice = _search_loop(domain, Walk(theta, state, effective_threshold(theta),
                                             np.int64(0), epoch, n_nodes, np.int64(0),
                                             np.int64(1), False), rng)
    if choice != NO_CHILD:  # the root policy's move
        tree.played[0] = choice
        failed[0] = not game.correct[choice]


@njit(inline="always")  # per playout: a step of the search loop
def _stopped(domain, walk, t):
    return (t >= domain.last) | walk.solved  # no branch (a step is inlined)


@njit(inline="always")  # per playout: a step of the search loop
def _descend_step(domain, walk, t, rng):
    node, depth, tree_node, n_nodes = _descend(
        domain.tree, domain.path, domain.config, walk.epoch, rng, domain.tables, domain.policy,
        domain.values, domain.stop_at_proven, domain.roots, t, domain.game, walk.n_nodes,
        domain.network)
    walk = Walk(walk.theta, walk.state, walk.theta_eff, walk.since_change, walk.epoch, n_nodes,
                walk.record, walk.next_record, walk.solved)
    return walk, (node, depth, tree_node)


@njit(inline="always")  # per playout: a step of the search loop
def _evaluate(domain, walk, leaf, t, rng):
    """Reward a playout stopped at a proven node by its proof; else grow the tree at the leaf
    and play out to a terminal, rewarded at the effective threshold (a terminal inside the
    tree: at 0, its true value). Max's value of it (``mcts.synthetic.shaping``) is what is backed
    up."""
    tree, game, config = domain.tree, domain.game, domain.config
    node, depth, tree_node = leaf
    n_nodes = walk.n_nodes
    score, in_tree = 0, False  # the terminal's score; did the search tree reach it?
    moves, scored_at = 0, 0.0  # the playout's moves; the threshold it is scored at
    stopped = domain.stop_at_proven and tree.proven[ix(node)] != UNPROVEN
    if stopped:
        reward = _proven_reward(tree.proven[node], depth)
    else:
        node, depth, tree_node, n_nodes = _grow(tree, domain.path, node, depth, tree_node,
                                                n_nodes, game, config, walk.epoch, rng)
        in_tree = game.terminal[ix(tree_node)]
        if plays_out(config.guidance, in_tree):
            score, moves = _playout(game, tree_node, len(config.children), rng)
        at_zero = in_tree and not config.terminals_at_threshold  # its true value
        scored_at = 0.0 if at_zero else walk.theta_eff
        reward = playout_reward(config.reward, score, scored_at, config.score_low,
                                config.score_high)
        reward = guided_reward(config.guidance, game, tree_node, len(config.children),
                               walk.theta_eff, domain.network, reward, in_tree)
        if config.rescore:
            record_playout(domain.histograms, domain.path, depth, score, at_zero)
    value = max_value(config.shaping, domain.statistics, domain.policy, reward,
                      score - scored_at, domain.span, depth + moves, t - 1, domain.budget)
    if is_guided(config.guidance) and tree.stats[ix(node), VISITS] == 0:  # first evaluation
        tree.raw_value[ix(node)] = value if depth % 2 == 0 else 1.0 - value
    walk = Walk(walk.theta, walk.state, walk.theta_eff, walk.since_change, walk.epoch, n_nodes,
                walk.record, walk.next_record, walk.solved)
    return (walk, (np.int64(score), reward, in_tree and not stopped), depth,
            PlayoutValue(value, depth + moves, config.backup))


@njit(inline="always")  # per playout: a step of the search loop
def _statistics(domain, walk):
    return domain.tree.stats, domain.tree.rewards, domain.tree.proven


@njit(inline="always")  # per playout: a step of the search loop
def _learn(domain, walk, evaluation, depth, gains, t, rng):
    """Prove a terminal the tree reached (a solved root ends the run, its move recorded for
    every budget left), update the policy's cached indices, let the adjuster observe the
    playout, re-score the tree after a change of threshold, and record the chosen move after
    playout 2^k (a watched run: at its grid points too)."""
    tree, game, config, policy = domain.tree, domain.game, domain.config, domain.policy
    tables, values, watch, path = domain.tables, domain.values, domain.watch, domain.path
    b = len(config.children)
    score, reward, reached = evaluation
    theta, theta_eff, epoch, record = walk.theta, walk.theta_eff, walk.epoch, walk.record
    log_playout(watch, t, score, reward, theta_eff)
    if config.solver and reached:
        _prove(tree, path, depth, score, b)
        if tree.proven[0] != UNPROVEN:  # solved: the chosen move cannot change
            chosen = chosen_move(tree, b, config.final_move, rng, values)
            domain.failed[record:] = not game.correct[chosen]
            watch_root(watch, t, tree, config, tables, policy, rng, values, chosen, theta,
                       theta_eff, True)
            return Walk(theta, walk.state, theta_eff, walk.since_change, epoch, walk.n_nodes,
                        record, walk.next_record, True)
    after_backup(tree, path, depth, b, config.restart, config.cache_indices, epoch, policy,
                 tables)
    before = theta_eff
    theta, state, theta_eff, since_change, epoch = _adjust(
        config.adjuster, walk.state, theta, theta_eff, walk.since_change, epoch, score, reward,
        config.freeze)
    log_playout(watch, t, score, reward, theta_eff)  # the threshold after the playout
    if config.rescore:
        rescore_tree(domain.histograms, tree, walk.n_nodes, b, before, theta_eff,
                     domain.second_moment,
                     config.cache_indices and cache_columns(policy) > 0, policy)
    next_record = walk.next_record
    if t == next_record and not has_root(config.root):
        chosen = chosen_move(tree, b, config.final_move, rng, values)
        domain.failed[record] = not game.correct[chosen]
        record += 1
        next_record *= 2
        watch_root(watch, t, tree, config, tables, policy, rng, values, chosen, theta,
                   theta_eff, False)
    else:
        watch_between(watch, t, tree, config, tables, policy, rng, values, theta, theta_eff)
    return Walk(theta, state, theta_eff, since_change, epoch, walk.n_nodes, record, next_record,
                False)


_search_loop = make_search_loop(_stopped, _descend_step, _evaluate, _statistics, _learn,
                                _nrt=False, error_model="numpy")


@njit(cache=True, nogil=True)
def run_searches(game, config, budget, seeds, tables, policy):
    """Independent runs, one per seed, one after another: failures bool
    [runs, log2(budget) + 1] and playouts simulated int64 [runs] (fewer once a root is solved).
    Under a root policy a run is one search per budget 2^k, all from the run's seed, and its
    playouts are theirs summed. The GIL is released, so callers spread blocks of seeds over
    threads."""
    n_budgets = int(np.log2(budget)) + 1
    failed = np.zeros((seeds.shape[0], n_budgets), np.bool_)
    played = np.zeros(seeds.shape[0], np.int64)
    for run in range(seeds.shape[0]):
        if not has_root(config.root):
            played[run] = search(game, config, budget, seeds[run], tables, policy,
                                 failed[run]).stats[0, VISITS]
            continue
        for k in range(n_budgets):
            played[run] += search(game, config, 1 << k, seeds[run], tables, policy,
                                  failed[run, k:k + 1]).stats[0, VISITS]
    return failed, played


# Watched runs (``mcts.synthetic.tracing``): the loop of _playouts with the root recorded at
# chosen playout counts, a kernel apart so that the engine's costs nothing more.


@njit(cache=True)
def trace_search(game, config, budget, seed, tables, policy, grid, root, run, log, stop):
    """:func:`search` (same arguments, its ``failed`` record left out) watched at the playout
    counts of ``grid`` (int64 [g], increasing, within 1..stop) into row ``run`` of ``root``
    (``mcts.synthetic.tracing.new_root_trace``), and every playout into ``log``
    (``mcts.synthetic.tracing.new_log``, or length 0), stopped after playout ``stop`` <= budget (the
    budget still sets what depends on it, as seed 000's warm-up). Returns the search tree
    then."""
    network = network_key(config.guidance, game.key, seed)
    tree, path, values, (theta, state), statistics, histograms, roots = _workspace(
        config, budget, cache_columns(policy) if config.cache_indices else 0,
        reads_second_moment(policy), game, network)
    failed = np.zeros(int(np.log2(budget)) + 1, np.bool_)
    _playouts(tree, path, values, theta, state, statistics, seed_state(seed), game, config,
              budget, tables, policy, failed, histograms, roots,
              new_watch(grid, root, run, log, stop), network)
    return tree


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
