"""Failure-rate runs: the probability that MCTS picks a wrong root move after t playouts
(seed 001, Sect. V-A), for t = 2^0 .. 2^n, each run yielding the whole curve.

Seeds: tree instance j of a curve is drawn from SeedSequence(tree_seed, spawn_key=(0, j)) and
run r on it from SeedSequence(seed, spawn_key=(1, j, r)), so any split of the runs into blocks,
threads or workers gives the same numbers. ``tree_seed`` defaults to ``seed``; a study passes its
own seed so that every curve of a tree model searches the same instances (as in seed 001).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from threading import Lock
from typing import TYPE_CHECKING

import numba
import numpy as np
from cachetools import LRUCache, cached
from tqdm.auto import tqdm

from bandits import index_tables, make_policy
from enhancements import engine_adjuster, make_adjuster
from mcts import SearchConfig, memory_per_run, run_searches, tree_arrays
from mcts.backup import Discount, load_backup
from mcts.shaping import engine_shaping, parse_shaping
from trees import TreeInstance, analyze, make_tree

from .curve import Curve, curve_columns, rate_columns, standard_error
from .kernels import kernel_name, prepare_kernel

if TYPE_CHECKING:
    import pandas as pd

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
    )


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
    config = search_config(curve, instance)
    seeds = run_seeds(seed, tree_index, first_run, n_runs)
    tables, policy = _tables(curve.max_budget), make_policy(curve.policy, **curve.policy_params)

    game = tree_arrays(instance)

    def runs(part: np.ndarray):
        return run_searches(game, config, curve.max_budget, part, tables, policy)

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


@lru_cache(maxsize=8)
def _tables(budget: int):
    return index_tables(budget)


def _as_curve(tree, policy, adjuster, runs, trees, budgets, branching, depth, options) -> Curve:
    if isinstance(budgets, (int, np.integer)):
        max_budget = int(budgets)
    else:
        budgets = [int(x) for x in budgets]
        if not budgets:
            raise ValueError("budgets is empty: give e.g. budgets=16384 or [1, 2, 4, ..., 16384]")
        max_budget = max(budgets)
    return Curve(tree=tree, policy=policy, adjuster=adjuster, runs=runs, trees=trees,
                 max_budget=max_budget, branching=branching, depth=depth, **options)


def warm_up(curve: Curve, seed: int = 0) -> None:
    """Compile the search kernel ``curve`` runs, or load it from the cache, by a search of one
    playout (``experiments.kernels``)."""
    instance = tree_instance(curve.tree, curve.branching, curve.depth, seed, 0)
    run_searches(tree_arrays(instance), search_config(curve, instance), 1,
                 run_seeds(seed, 0, 0, 1), _tables(1),
                 make_policy(curve.policy, **curve.policy_params))


def failure_counts(curve: Curve, seed: int = 0, workers: int | None = None,
                   progress: bool = False) -> tuple[np.ndarray, int, float, float]:
    """Failures per budget summed over all runs of the curve, the playouts simulated, the
    seconds the search took and the seconds its kernel took to compile or load (apart: a
    kernel compiles once, then comes from the cache). A plug-in numba cannot compile is a
    one-line ValueError."""
    if workers is not None:
        if workers < 1:
            raise ValueError(f"workers = {workers} must be at least 1")
        numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))
    if progress:
        tqdm.write(f"preparing {kernel_name(curve)}: compiled on first use (10-15 "
                   "CPU-seconds), then loaded from the cache", file=sys.stderr)
    compile_seconds = prepare_kernel(curve, seed)[0]
    failures, played = np.zeros(len(curve.budgets), np.int64), 0
    start = time.perf_counter()
    blocks = [(j, r, min(CHUNK_RUNS, curve.runs - r))
              for j in range(curve.trees) for r in range(0, curve.runs, CHUNK_RUNS)]
    with tqdm(total=curve.total_runs, unit="run", disable=not progress, leave=False,
              desc=curve.label) as bar:
        for j, r, n in blocks:
            failed, simulated = simulate_block(curve, j, r, n, seed)
            failures += failed.sum(axis=0)
            played += int(simulated.sum())
            bar.update(n)
    return failures, played, time.perf_counter() - start, compile_seconds


def rates(curve: Curve, failures: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Failure rate per budget and its standard error sqrt(r (1 - r) / (n - 1))."""
    rate = failures / curve.total_runs
    return rate, standard_error(rate, curve.total_runs)


def curve_frame(curve: Curve, failures: np.ndarray, seed: int | None = None) -> pd.DataFrame:
    """Tidy rows from failure counts per budget: the curve's identity (``curve_columns``), the
    ``seed`` when given, then budget, runs, failures, failure_rate, stderr, ci_low, ci_high
    (Wilson 95%): what ``mctslab failure-rate --out`` stores and ``plots`` draws as it is."""
    import pandas as pd  # on use: `mctslab failure-rate --json` starts faster without it

    identity = {**curve_columns(curve), **({} if seed is None else {"seed": seed})}
    numbers = pd.DataFrame({"budget": curve.budgets, "runs": curve.total_runs,
                            "failures": np.asarray(failures, np.int64)})
    rates = rate_columns(numbers["failures"], numbers["runs"])
    return numbers.assign(**rates, **identity)[
        ["budget", "failure_rate", "stderr", "runs", "failures", "ci_low", "ci_high",
         *identity]]


def failure_rate(tree, policy: str = "ucb1", adjuster: str = "plain", *, runs: int = 100,
                 trees: int = 1, budgets=2**14, seed: int = 0, branching: int = 4, depth: int = 8,
                 workers: int | None = None, progress: bool = False, **options) -> pd.DataFrame:
    """One failure-rate curve as a DataFrame: budget, failure_rate, stderr, runs, then
    failures, the Wilson 95% interval (ci_low, ci_high), the curve's identity and the seed
    (``curve_frame``), so that ``plots.failure.plot_failure_curves`` draws it as it is.

    ``budgets`` is the largest budget (a power of two) or a list of powers of two; ``runs`` are
    per tree instance, ``trees`` instances (random trees). Other options go to :class:`Curve`
    (policy_params, adjuster_params, restart, freeze, search_depth, shaping, rescore,
    discount).
    """
    curve = _as_curve(tree, policy, adjuster, runs, trees, budgets, branching, depth, options)
    failures = failure_counts(curve, seed, workers, progress)[0]
    frame = curve_frame(curve, failures, seed)
    if not isinstance(budgets, (int, np.integer)):
        missing = sorted({int(x) for x in budgets} - set(curve.budgets))
        if missing:
            raise ValueError(
                f"budget {missing[0]} is not a power of two: failures are recorded at 2^k")
        frame = frame[frame.budget.isin(budgets)].reset_index(drop=True)
    return frame


def memory_per_curve_run(curve: Curve) -> int:
    """Bytes of working memory one run of the curve allocates (one run per thread at a time)."""
    instance = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0)
    return memory_per_run(search_config(curve, instance), curve.max_budget,
                          make_policy(curve.policy, **curve.policy_params))
