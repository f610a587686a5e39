"""Failure-rate runs: the probability that MCTS picks a wrong root move after t playouts
(seed 001, Sect. V-A), for t = 2^0 .. 2^n, each run yielding the whole curve.

Seeds: tree instance j of a curve is drawn from SeedSequence(tree_seed, spawn_key=(0, j)) and
run r on it from SeedSequence(seed, spawn_key=(1, j, r)), so any split of the runs into blocks,
threads or workers gives the same numbers. ``tree_seed`` defaults to ``seed``; a study passes its
own seed so that every curve of a tree model searches the same instances (as in seed 001).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from threading import Lock

import numba
import numpy as np
from cachetools import LRUCache, cached

from bandits import index_tables, make_policy
from enhancements import engine_adjuster, make_adjuster
from mcts import SearchConfig, memory_per_run, run_searches, tree_arrays
from mcts.baselines import baseline_memory, is_baseline, run_baseline
from mcts.core.backup import Discount, load_backup
from mcts.core.final_move import FINAL_MOVES
from mcts.core.root_specs import parse_root
from mcts.synthetic.guidance import make_guidance
from mcts.synthetic.score_reward import check_reward_range, load_reward
from mcts.synthetic.shaping import engine_shaping, parse_shaping
from trees import TreeInstance, analyze, make_tree

from .curve import Curve
from .prior_agreement import prior_noise

_TREE, _RUN = 0, 1
# Runs per block: the progress bar moves once a block is done (UCB1: about half a second at
# budget 2^14). A block's runs go to the threads a few at a time, each thread taking the next
# few when it is free, so a core slowed by other load never keeps the others waiting: split
# evenly up front (as numba's prange does), each block took as long as its slower half.
CHUNK_RUNS = 256
TASK_PLAYOUTS = 2**15  # budgeted playouts per task (UCB1: ~5 ms); fewer tasks cost more waiting


def instance_seed(seed: int, tree_index: int) -> int:
    """Seed of tree instance ``tree_index`` under ``seed``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(_TREE, tree_index))
    return int(sequence.generate_state(1, np.uint64)[0])


def run_seeds(seed: int, tree_index: int, first_run: int, n_runs: int) -> np.ndarray:
    """uint64 [n_runs] seeds of runs first_run .. first_run + n_runs - 1 on one tree."""
    return np.array(
        [np.random.SeedSequence(seed, spawn_key=(_RUN, tree_index, r))
         .generate_state(1, np.uint64)[0] for r in range(first_run, first_run + n_runs)],
        dtype=np.uint64,
    )


# Instances kept for the next block or curve on them, by size: hundreds of b=4, d=8 trees, one
# of b=2, d=24 (a count bound let a random-tree study on the largest trees exhaust the memory).
TREE_CACHE_BYTES = 512 * 2**20


@cached(LRUCache(TREE_CACHE_BYTES, getsizeof=lambda instance: instance.nbytes), lock=Lock())
def tree_instance(tree: str, branching: int, depth: int, seed: int,
                  tree_index: int) -> TreeInstance:
    return make_tree(tree, branching, depth, instance_seed(seed, tree_index))


def score_bounds(instance: TreeInstance) -> tuple[int, int]:
    """Lowest and highest score of the instance's reachable terminals."""
    scores = instance.path_score[instance.terminals()[0]]
    return int(scores.min()), int(scores.max())


def search_config(curve: Curve, instance: TreeInstance) -> SearchConfig:
    """The engine's configuration of ``curve`` on one tree instance (the static adjuster's
    threshold is the instance's, by exact analysis)."""
    params = dict(curve.adjuster_params)
    if curve.adjuster == "static":
        params["theta"] = analyze(instance).static_threshold
    low, high = score_bounds(instance)
    reward = load_reward(curve.reward)
    check_reward_range(reward, low, high)
    return SearchConfig(
        children=(0,) * curve.branching,
        depth=curve.depth,
        search_depth=curve.search_depth,
        adjuster=engine_adjuster(make_adjuster(curve.adjuster, **params)),
        restart=bool(curve.restart),
        freeze=int(curve.freeze),
        score_low=low,
        score_high=high,
        shaping=engine_shaping(parse_shaping(curve.shaping)),
        rescore=bool(curve.rescore),
        backup=load_backup(curve.backup) if curve.backup else Discount(curve.discount),
        reward=reward,
        final_move=FINAL_MOVES[curve.final_move],
        solver=bool(curve.solver),
        root=parse_root(curve.root),
        terminals_at_threshold=bool(curve.terminals_at_threshold),
        store_episodes=bool(curve.store_episodes),
        stop_episodes=bool(curve.stop_episodes),
        guidance=make_guidance(curve.prior, curve.evaluate, curve.network,
                               prior_noise(curve.prior, instance)),
    )


def curve_arrays(curve: Curve, instance: TreeInstance):
    """The arrays of ``instance`` the curve's search reads (``mcts.synthetic.tree_arrays``:
    its failure rule's correct moves; a guided curve's minimax scores too)."""
    return tree_arrays(instance, curve.failure, curve.prior, curve.evaluate)


def failure_block(curve: Curve, tree_index: int, first_run: int, n_runs: int, seed: int,
                  tree_seed: int | None = None) -> np.ndarray:
    """bool [n_runs, len(curve.budgets)]: True where run first_run + r on tree instance
    ``tree_index`` picked a wrong root move at budget curve.budgets[k]."""
    return simulate_block(curve, tree_index, first_run, n_runs, seed, tree_seed)[0]


def simulate_block(curve: Curve, tree_index: int, first_run: int, n_runs: int, seed: int,
                   tree_seed: int | None = None):
    """(failures as in :func:`failure_block`, playouts simulated per run int64 [n_runs]); the
    runs are spread over ``numba.get_num_threads()`` threads."""
    if n_runs < 1 or first_run < 0:
        raise ValueError(f"a block needs n_runs >= 1 and first_run >= 0, got {n_runs}, {first_run}")
    instance = tree_instance(curve.tree, curve.branching, curve.depth,
                             seed if tree_seed is None else tree_seed, tree_index)
    seeds = run_seeds(seed, tree_index, first_run, n_runs)
    game = curve_arrays(curve, instance)
    runs = _runner(curve, instance, game)

    threads = min(numba.get_num_threads(), n_runs)
    if threads == 1:
        return runs(seeds)
    tasks = min(max(n_runs * curve.max_budget // TASK_PLAYOUTS, threads), n_runs)
    pool = ThreadPoolExecutor(threads)
    try:
        done = list(pool.map(runs, np.array_split(seeds, tasks)))
    finally:  # on an interrupt, runs not started are dropped
        pool.shutdown(cancel_futures=True)
    return np.concatenate([failed for failed, _ in done]), np.concatenate([n for _, n in done])


def _runner(curve: Curve, instance: TreeInstance, game):
    """The function of a part of the seeds that runs them: a baseline player's
    (``mcts.baselines``, judged by the same set of correct moves as MCTS), else the MCTS
    kernel under the curve's configuration."""
    if is_baseline(curve.policy):
        return lambda part: run_baseline(curve.policy, curve.policy_params, instance,
                                         game.correct, curve.max_budget, part)
    config = search_config(curve, instance)
    tables, policy = _tables(curve.max_budget), make_policy(curve.policy, **curve.policy_params)
    return lambda part: run_searches(game, config, curve.max_budget, part, tables, policy)


@lru_cache(maxsize=8)
def _tables(budget: int):
    return index_tables(budget)


def warm_up(curve: Curve, seed: int = 0) -> None:
    """Compile the search kernel ``curve`` runs, or load it from the cache, by a search of one
    playout (``experiments.curves.kernels``)."""
    instance = tree_instance(curve.tree, curve.branching, curve.depth, seed, 0)
    game = curve_arrays(curve, instance)
    if is_baseline(curve.policy):
        run_baseline(curve.policy, curve.policy_params, instance, game.correct, 1,
                     run_seeds(seed, 0, 0, 1))
        return
    run_searches(game, search_config(curve, instance), 1, run_seeds(seed, 0, 0, 1), _tables(1),
                 make_policy(curve.policy, **curve.policy_params))


def memory_per_curve_run(curve: Curve) -> int:
    """Bytes of working memory one run of the curve allocates (one run per thread at a time)."""
    instance = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0)
    if is_baseline(curve.policy):
        return baseline_memory(curve.policy, curve.policy_params, instance)
    return memory_per_run(search_config(curve, instance), curve.max_budget,
                          make_policy(curve.policy, **curve.policy_params))
