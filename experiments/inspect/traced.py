"""One run of a curve, watched: run r on tree instance j of a curve is the run that
``experiments.curves.failure`` simulates for it (same instance, same seed, same configuration),
traced (``mcts.synthetic.trace_search``, ``mcts.synthetic.tracing``) on a log-spaced grid of
playouts; :func:`trace` is its tidy table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from bandits import index_tables, make_policy
from mcts import trace_runs, trace_search, tree_arrays
from mcts.core.search_tree import FIRST_CHILD, VISITS, SearchTree
from mcts.core.solver import DRAW, LOSS, WIN
from mcts.synthetic.tracing import PlayoutLog, RootTrace, new_log, new_root_trace
from trees import Minimax, TreeInstance, solve_minimax

from ..curves.curve import Curve
from ..curves.failure import curve_arrays, run_seeds, search_config, tree_instance

PROVEN = {0: "", WIN: "won", DRAW: "draw", LOSS: "lost"}  # for the child's mover, max


def playout_grid(max_budget: int, per_octave: int = 4, stop: int | None = None) -> np.ndarray:
    """int64 [g]: 1 .. ``stop`` (default ``max_budget``), ``per_octave`` points per doubling
    rounded to integers, every power of two among them (the curve's budgets)."""
    stop = max_budget if stop is None else stop
    octaves = np.log2(stop)
    points = np.round(2.0 ** np.linspace(0, octaves, int(octaves * per_octave) + 1))
    powers = 2 ** np.arange(int(octaves) + 1)
    return np.unique(np.concatenate([points, powers, [stop]])).astype(np.int64)


@dataclass(frozen=True)
class RunTrace:
    """Run ``run`` on tree instance ``tree_index`` of ``curve`` (seed ``seed``), watched at
    ``grid`` and stopped after ``stop`` playouts: the root (``mcts.synthetic.tracing.RootTrace``,
    one run), every playout (``PlayoutLog``), the search tree then, the instance and its exact
    minimax."""

    curve: Curve
    run: int
    tree_index: int
    seed: int
    stop: int
    grid: np.ndarray  # int64 [g]
    root: RootTrace  # arrays without the run axis
    log: PlayoutLog
    tree: SearchTree
    instance: TreeInstance
    minimax: Minimax


def _check_run(curve: Curve, run: int, tree_index: int, stop: int) -> None:
    if not 0 <= run < curve.runs:
        raise ValueError(f"run {run} is not a run of the curve: it has runs 0..{curve.runs - 1} "
                         "per tree (raise --runs or lower --run)")
    if not 0 <= tree_index < curve.trees:
        raise ValueError(f"tree {tree_index} is not a tree of the curve: it has trees "
                         f"0..{curve.trees - 1}")
    if not 1 <= stop <= curve.max_budget:
        raise ValueError(f"{stop} playouts is beyond the run: it has 1..{curve.max_budget} "
                         "(raise --max-budget)")


def trace_run(curve: Curve, run: int = 0, *, seed: int = 0, tree_index: int = 0,
              stop: int | None = None, per_octave: int = 4,
              tree_seed: int | None = None) -> RunTrace:
    """Run ``run`` of ``curve`` on its tree ``tree_index`` under ``seed`` (the curve's own run:
    ``failure.run_seeds``), traced up to ``stop`` playouts (default the curve's budget); the
    tree instance is ``tree_seed``'s when given (a comparison cell's: its grid's seed, the
    runs its cell's seed, as ``failure.failure_block`` reads them), else ``seed``'s."""
    stop = curve.max_budget if stop is None else stop
    _check_run(curve, run, tree_index, stop)
    instance = tree_instance(curve.tree, curve.branching, curve.depth,
                             seed if tree_seed is None else tree_seed, tree_index)
    config = search_config(curve, instance)
    grid = playout_grid(curve.max_budget, per_octave, stop)
    root = new_root_trace(1, grid.size, curve.branching)
    log = new_log(stop)
    tree = trace_search(curve_arrays(curve, instance), config, curve.max_budget,
                        run_seeds(seed, tree_index, run, 1)[0], index_tables(curve.max_budget),
                        make_policy(curve.policy, **curve.policy_params), grid, root, 0, log,
                        stop)
    return RunTrace(curve, run, tree_index, seed, stop, grid,
                    RootTrace(*(column[0] for column in root)), log, tree, instance,
                    solve_minimax(instance))


def trace_block(curve: Curve, tree_index: int, first_run: int, n_runs: int, seed: int,
                grid: np.ndarray, tree_seed: int | None = None) -> RootTrace:
    """Runs first_run .. first_run + n_runs - 1 of ``curve`` on its tree ``tree_index``, the
    root of each at ``grid`` (a ``RootTrace`` with a leading run axis); the tree's seed as
    :func:`trace_run`'s."""
    instance = tree_instance(curve.tree, curve.branching, curve.depth,
                             seed if tree_seed is None else tree_seed, tree_index)
    seeds = run_seeds(seed, tree_index, first_run, n_runs)
    return trace_runs(curve_arrays(curve, instance), search_config(curve, instance),
                      curve.max_budget, seeds, index_tables(curve.max_budget),
                      make_policy(curve.policy, **curve.policy_params), grid)


def trace_frame(traced: RunTrace) -> pd.DataFrame:
    """One row per grid point and root move: playouts (the grid point), played (playouts simulated,
    fewer once the root is solved), move, visits, share (of the root's children's visits),
    mean (max's mean reward), index (the policy's, as the next selection computes it),
    proven (won, draw, lost for max, else ""), minimax (the move's exact score), optimal
    (the curve's correct moves by the exact analysis, ``--failure``), chosen (the move
    played if stopped there), failed (the run's failure there), theta and threshold (the
    adjuster's and the effective one); a guided run's prior and value of each move too."""
    root, b = traced.root, traced.curve.branching
    visits = root.visits.astype(np.float64)
    total = visits.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(total > 0, visits / total, np.nan)
        mean = np.where(visits > 0, root.reward_sums / visits, np.nan)
    optimal = np.asarray(tree_arrays(traced.instance, traced.curve.failure).correct, bool)
    g = traced.grid.size
    moves = np.tile(np.arange(b), g)
    chosen = np.repeat(root.chosen, b)
    return pd.DataFrame({
        "playouts": np.repeat(traced.grid, b),
        "played": np.repeat(root.played, b),
        "move": moves,
        "visits": root.visits.ravel(),
        "share": share.ravel(),
        "mean": mean.ravel(),
        "index": root.indices.ravel(),
        "proven": [PROVEN[int(value)] for value in root.proven.ravel()],
        "minimax": np.tile(traced.minimax.root_children, g),
        "optimal": optimal[moves],
        "chosen": moves == chosen,
        "failed": ~optimal[chosen],
        "theta": np.repeat(root.theta, b),
        "threshold": np.repeat(root.threshold, b),
        **_guidance_columns(traced, g),
    })


def _guidance_columns(traced: RunTrace, points: int) -> dict:
    """A guided run's root moves' prior and value (``mcts.synthetic.guidance``): the prior
    the search read and each move's first evaluation for the root's mover (NaN before it),
    as the run's tree holds them at its stop; none for an unguided run."""
    curve, tree, b = traced.curve, traced.tree, traced.curve.branching
    if not (curve.prior or curve.evaluate):
        return {}
    first = tree.stats[0, FIRST_CHILD]
    if first < 0:
        return {"prior": np.full(points * b, np.nan), "value": np.full(points * b, np.nan)}
    rows = slice(first, first + b)
    value = np.where(tree.stats[rows, VISITS] > 0, 1.0 - tree.raw_value[rows], np.nan)
    return {"prior": np.tile(tree.prior[rows], points), "value": np.tile(value, points)}


def log_frame(traced: RunTrace) -> pd.DataFrame:
    """One row per playout t: its terminal score, max's reward and the effective threshold
    after it (0 rows past a solved root's last playout)."""
    played = int(traced.tree.stats[0, 0])
    return pd.DataFrame({"playout": np.arange(1, played + 1),
                         "score": traced.log.score[:played],
                         "reward": traced.log.reward[:played],
                         "threshold": traced.log.threshold[:played]})


def trace(tree: str | Curve, policy: str = "ucb1", adjuster: str = "plain", *, run: int = 0,
          max_budget: int = 2**14, seed: int = 0, tree_index: int = 0, per_octave: int = 4,
          **options) -> pd.DataFrame:
    """The tidy trace (:func:`trace_frame`) of run ``run`` of the curve ``tree`` x ``policy``
    x ``adjuster`` (a ``Curve``, or its fields: ``options`` are the other ``Curve`` fields,
    e.g. ``shaping``, ``discount``, ``branching``); the same run as the curve's run ``run``
    under ``seed``."""
    curve = tree if isinstance(tree, Curve) else Curve(
        tree=tree, policy=policy, adjuster=adjuster, max_budget=max_budget,
        runs=max(run + 1, options.pop("runs", 1)), trees=max(tree_index + 1, options.pop(
            "trees", 1)), **options)
    return trace_frame(trace_run(curve, run, seed=seed, tree_index=tree_index,
                                 per_octave=per_octave))
