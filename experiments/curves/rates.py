"""Failure-rate curves from Python and the command line: a curve's failure counts over all its
runs (its kernel readied first, ``experiments.curves.kernels``), rates, and the tidy DataFrame of
``experiments.failure_rate``; the blocks of runs they sum are ``experiments.curves.failure``'s."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import numba
import numpy as np
from tqdm.auto import tqdm

from .curve import Curve, curve_columns, rate_columns, standard_error
from .entries import method_fields
from .failure import CHUNK_RUNS, simulate_block
from .kernels import kernel_name, prepare_kernel

if TYPE_CHECKING:
    import pandas as pd


def _as_curve(tree, policy, adjuster, runs, trees, budgets, branching, depth, options) -> Curve:
    """The curve of ``failure_rate``'s arguments; ``policy`` and ``adjuster`` are entries as
    ``compare`` and the command line read them (``entries.method_fields``: ``ucb1(c=0.1)``,
    ``package.module:object(k=v)``), whose parameters join ``options``' policy_params and
    adjuster_params (one given twice is refused)."""
    method = method_fields(policy, adjuster)
    for kind, entry in (("policy", policy), ("adjuster", adjuster)):
        given = dict(options.pop(f"{kind}_params", None) or {})
        twice = sorted(set(given) & set(method[f"{kind}_params"]))
        if twice:
            raise ValueError(f"{kind} parameter {twice[0]} is given twice: in {kind}_params "
                             f"and in the {kind} {entry!r}; give it once")
        method[f"{kind}_params"].update(given)
    root = options.pop("root", "")
    if root and method["root"]:
        raise ValueError(f"root={root} is given twice: also in the policy {policy!r}")
    method["root"] = method["root"] or root
    for flag in ("rescore", "terminals_at_threshold"):
        method[flag] = method[flag] or bool(options.pop(flag, False))
    if isinstance(budgets, (int, np.integer)):
        max_budget = int(budgets)
    else:
        budgets = [int(x) for x in budgets]
        if not budgets:
            raise ValueError("budgets is empty: give e.g. budgets=16384 or [1, 2, 4, ..., 16384]")
        max_budget = max(budgets)
    return Curve(tree=tree, runs=runs, trees=trees, max_budget=max_budget,
                 branching=branching, depth=depth, **method, **options)


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

    ``policy`` and ``adjuster`` are named as ``compare`` and the command line name them
    (``"ucb1(c=0.1)"``, ``"package.module:object(k=2)"``, ``"maxfreq(offset=-0.5)"``).
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
