"""The selection policies on plain stochastic bandits: cumulative regret against
time beside its bounds, and the probability of recommending a wrong arm, with the fixed-budget
pure-exploration baselines beside it.

A study is a :class:`BanditStudy` (problems as ``bandits.arms`` specs, policy entries as
``mctslab compare`` takes them, horizon N, runs R, seed); :func:`bandit` runs it and returns one
tidy table, a row per estimate: ``problem``, ``kind`` ("policy", "baseline" or "bound"),
``method``, ``measure``, ``t``, ``runs``, ``estimate``, ``stderr``, ``ci_low``, ``ci_high``.

* ``measure == "regret"``: the pseudo-regret R(t) = sum_i Delta_i T_i(t) of a policy, its mean
  over the runs with a Student-t 95% interval; for the bounds (``kind == "bound"``) the
  Lai-Robbins rate sum_{Delta_i > 0} Delta_i / K_i ln t (``bandits.arms``; Lai & Robbins 1985,
  Thm. 2) and UCB1's finite-time bound 8 sum_{Delta_i > 0} ln t / Delta_i + (1 + pi^2 / 3)
  sum_i Delta_i (Auer, Cesa-Bianchi & Fischer 2002, Thm. 1), whose UCB1 is ucb1 at its
  default c = sqrt 2;
* ``measure == "wrong_most_pulled"`` / ``"wrong_best_mean"``: the share of a policy's runs whose
  recommendation after t pulls (the most pulled arm, the arm of best empirical mean) is not
  an arm of mean mu*, with its Wilson 95% interval: the flat analogue of the failure rate;
* ``measure == "wrong"`` (``kind == "baseline"``): the same share for uniform allocation,
  successive rejects and sequential halving (``bandits.pure_exploration``), run afresh at every
  budget t, as these algorithms need their budget in advance.

Seeds: run r of a policy draws its two streams from SeedSequence(seed, spawn_key=(0, r)), of a
baseline at budget T from SeedSequence(seed, spawn_key=(1, T, r)); runs are computed in blocks
on threads, and the numbers do not depend on the blocks or the threads. With a ``store``
(``experiments.runtime.store.KeyedStore``) every (problem, method) keeps its runs' outcomes
(pulls and recommendations) under a key of its configuration without the number of runs: a
study asking for more runs computes only the new ones, one asking for fewer reads the first R,
and either gives the numbers a study of R runs from scratch gives.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np
from tqdm.auto import tqdm

from bandits import index_tables, make_policy
from bandits.arms import Arms, parse_arms
from bandits.flat import RULES, flat_runs
from bandits.pure_exploration import (
    ALGORITHMS,
    check_budget,
    halving_rounds,
    minimum_budget,
    pure_exploration_runs,
    rejects_schedule,
)

_POLICY_RUN, _BASELINE_RUN = 0, 1
CHUNK_RUNS = 25  # runs per task on a thread (and per step of the progress bar)
# pulls per task at most: a Ctrl-C waits for the running tasks to end (a thread cannot be
# stopped), so a task is kept to about a tenth of a second
TASK_PULLS = 2_000_000
PRESETS = {
    # Garivier & Cappe 2011, Sect. 6: scenario 1 (two arms) and scenario 2 (ten arms)
    "garivier-cappe": ("bernoulli(0.9,0.8)",
                       "bernoulli(0.1,0.05,0.05,0.05,0.02,0.02,0.02,0.01,0.01,0.01)"),
}
DEFAULT_POLICIES = ("ucb1", "klucb", "thompson")
COLUMNS = ["problem", "kind", "method", "measure", "t", "runs", "estimate", "stderr", "ci_low",
           "ci_high"]
# of the runs' random streams: stored results of another are recomputed (2: sequential halving
# pulls the arms of a round in turns)
STREAM_VERSION = 2

if TYPE_CHECKING:  # pandas and scipy on use: every `mctslab` command imports this module
    import pandas as pd


def log_grid(horizon: int, per_decade: int = 10) -> np.ndarray:
    """int64 [G]: about ``per_decade`` points per decade from 1 to ``horizon``, rounded,
    distinct, with every power of ten below the horizon and the horizon itself."""
    points = math.ceil(per_decade * math.log10(horizon)) + 1
    tens = [10**k for k in range(int(math.log10(horizon)) + 1)]
    spaced = np.round(np.geomspace(1, horizon, max(points, 2))).astype(np.int64)
    return np.union1d(spaced, np.array(tens, np.int64))


@dataclass(frozen=True)
class BanditStudy:
    """Problems (arms specs) x policies (entries such as ``ucb1`` or ``ucb1(c=0.5)``) x
    baselines, R runs of N pulls; ``budgets`` of the baselines (empty: every point of a grid of
    5 per decade from the smallest budget all of them accept)."""

    problems: tuple[str, ...]
    policies: tuple[str, ...] = DEFAULT_POLICIES
    baselines: tuple[str, ...] = tuple(ALGORITHMS)
    horizon: int = 10_000
    runs: int = 200
    seed: int = 0
    budgets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.horizon < 1:
            raise ValueError(f"horizon {self.horizon} must be at least 1 pull")
        if self.runs < 2:
            raise ValueError(f"runs {self.runs} must be at least 2 (an interval needs two)")
        if not self.problems:
            raise ValueError("no problem given: name arms such as bernoulli(0.9,0.8), or a "
                             f"preset ({', '.join(PRESETS)})")
        for name in self.baselines:
            if name not in ALGORITHMS:
                raise ValueError(f"unknown baseline {name!r}: use one of {', '.join(ALGORITHMS)}")
        beyond = [budget for budget in self.budgets if budget > self.horizon]
        if beyond:
            raise ValueError(f"budget {beyond[0]:,} is beyond the horizon {self.horizon:,}: the "
                             "baselines' budgets are at most --horizon pulls")
        for problem in self.problems:
            arms = parse_arms(problem)
            for budget in self.budgets:
                for name in self.baselines:
                    check_budget(name, budget, len(arms.means))
            if self.baselines and not len(self.baseline_budgets(arms)):
                raise ValueError(f"horizon {self.horizon} is below the smallest budget the "
                                 f"baselines accept on {problem}: raise --horizon, give "
                                 "--budgets, or run no baseline (--baselines with no name)")
        for entry in self.policies:
            _policy(entry)
        for kind, names in (("policy", self.policies), ("baseline", self.baselines),
                            ("problem", self.problems)):
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                raise ValueError(f"{kind} {twice[0]} is given twice: give each once")

    def baseline_budgets(self, arms: Arms) -> np.ndarray:
        """The budgets the baselines run at on ``arms``."""
        if self.budgets:
            return np.array(sorted(set(self.budgets)), np.int64)
        low = max((minimum_budget(name, len(arms.means)) for name in self.baselines),
                  default=1)
        grid = log_grid(self.horizon, 5)
        return grid[grid >= low]


def _policy(entry: str):
    """The record of a policy entry (``ucb1``, ``ucb1(c=0.5)``, ``package.module:object``)."""
    from ..curves.entries import parse_entry

    name, params = parse_entry(entry, "policy")
    return make_policy(name, **params)


def policy_seeds(seed: int, first: int, n: int) -> np.ndarray:
    """uint64 [n, 2]: the two stream seeds of policy runs first .. first + n - 1."""
    return np.array([np.random.SeedSequence(seed, spawn_key=(_POLICY_RUN, r))
                     .generate_state(2, np.uint64) for r in range(first, first + n)],
                    np.uint64).reshape(n, 2)


def baseline_seeds(seed: int, budget: int, first: int, n: int) -> np.ndarray:
    """uint64 [n]: the seeds of baseline runs first .. first + n - 1 at ``budget``."""
    return np.array([np.random.SeedSequence(seed, spawn_key=(_BASELINE_RUN, budget, r))
                     .generate_state(1, np.uint64)[0] for r in range(first, first + n)],
                    np.uint64)


def _blocks(first: int, runs: int, pulls_per_run: int) -> list[tuple[int, int]]:
    """(first run, runs) of each task: ``CHUNK_RUNS`` runs, fewer when they would pull more
    than ``TASK_PULLS`` times (a run's seeds are its index's, so the numbers stay)."""
    size = max(1, min(CHUNK_RUNS, TASK_PULLS // max(pulls_per_run, 1)))
    end = first + runs
    return [(start, min(size, end - start)) for start in range(first, end, size)]


def _on_threads(task, blocks, bar, pulls_per_run):
    """``task(first, n)`` for every block, on numba's threads (the kernels release the GIL),
    results in the blocks' order; the bar counts pulls."""
    def counted(block):
        value = task(*block)
        bar.update(block[1] * pulls_per_run)
        return value

    threads = min(numba.get_num_threads(), len(blocks))
    if threads <= 1:
        return [counted(block) for block in blocks]
    pool = ThreadPoolExecutor(threads)
    try:
        return list(pool.map(counted, blocks))
    finally:  # on an interrupt, blocks not started are dropped
        pool.shutdown(cancel_futures=True)


def policy_runs(entry: str, arms: Arms, horizon: int, runs: int, seed: int, grid: np.ndarray,
                bar=None, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """pulls int64 [R, G, K] and recommended int64 [R, G, 2] of the ``runs`` runs from run
    ``first`` of the policy ``entry`` on ``arms`` (``bandits.flat.flat_runs``)."""
    policy, tables = _policy(entry), index_tables(horizon)
    bar = bar if bar is not None else tqdm(disable=True)

    def task(first, n):
        return flat_runs(policy, arms.family, arms.params, horizon, grid,
                         policy_seeds(seed, first, n), tables)

    done = _on_threads(task, _blocks(first, runs, horizon), bar, horizon)
    return (np.concatenate([p for p, _ in done]), np.concatenate([r for _, r in done]))


def baseline_runs(name: str, arms: Arms, budget: int, runs: int, seed: int,
                  bar=None, first: int = 0) -> np.ndarray:
    """int64 [R]: the arm each of the ``runs`` runs from run ``first`` of baseline ``name``
    recommends at ``budget``."""
    check_budget(name, budget, len(arms.means))
    schedule, rounds = rejects_schedule(budget, len(arms.means)), halving_rounds(len(arms.means))
    bar = bar if bar is not None else tqdm(disable=True)

    def task(first, n):
        return pure_exploration_runs(ALGORITHMS[name], arms.family, arms.params, budget,
                                     schedule, rounds, baseline_seeds(seed, budget, first, n))

    return np.concatenate(_on_threads(task, _blocks(first, runs, budget), bar, budget))


def prepare_flat_kernel(entry: str | None) -> tuple[float, float]:
    """Compile (or load from the cache) the plain-bandit loop of the policy ``entry`` (None:
    the baselines' loop) by a run of two pulls; the wall and CPU seconds it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    arms = parse_arms("bernoulli(0.6,0.4)")
    if entry is None:
        baseline_runs("uniform", arms, 2, 1, 0)
    else:
        policy_runs(entry, arms, 2, 1, 0, log_grid(2))
    return time.perf_counter() - wall, time.process_time() - cpu


def regret_rows(pulls: np.ndarray, arms: Arms, grid: np.ndarray) -> pd.DataFrame:
    """Mean pseudo-regret sum_i Delta_i T_i(t) per grid point with its standard error and
    Student-t 95% interval over the runs."""
    import pandas as pd
    from scipy import stats

    regret = pulls @ arms.gaps  # [R, G]
    runs = regret.shape[0]
    mean, stderr = regret.mean(axis=0), regret.std(axis=0, ddof=1) / math.sqrt(runs)
    half = stats.t.ppf(0.975, runs - 1) * stderr
    return pd.DataFrame({"measure": "regret", "t": grid, "runs": runs, "estimate": mean,
                         "stderr": stderr, "ci_low": mean - half, "ci_high": mean + half})


def wrong_rows(recommended: np.ndarray, arms: Arms, t: np.ndarray, measure: str
               ) -> pd.DataFrame:
    """The share of runs recommending an arm of mean below mu* (``recommended`` int [R, G]),
    with its standard error and Wilson 95% interval, per point ``t``."""
    import pandas as pd

    from ..curves.curve import rate_columns

    wrong = (arms.means[recommended] < arms.best).sum(axis=0)
    runs = recommended.shape[0]
    rates = rate_columns(wrong, np.full(len(t), runs))
    return pd.DataFrame({"measure": measure, "t": t, "runs": runs,
                         "estimate": rates["failure_rate"], "stderr": rates["stderr"],
                         "ci_low": rates["ci_low"], "ci_high": rates["ci_high"]})


def bound_rows(arms: Arms, grid: np.ndarray) -> pd.DataFrame:
    """The Lai-Robbins rate and UCB1's bound (Auer et al. 2002, Thm. 1) at every point."""
    import pandas as pd

    gaps, log_t = arms.gaps, np.log(grid.astype(float))
    suboptimal = gaps > 0
    lai_robbins = (gaps[suboptimal] / arms.divergences()[suboptimal]).sum() * log_t
    auer = (8.0 * (1.0 / gaps[suboptimal]).sum() * log_t
            + (1.0 + math.pi**2 / 3.0) * gaps.sum())
    rows = []
    for method, values in (("Lai-Robbins", lai_robbins), ("UCB1 bound (Auer et al.)", auer)):
        rows.append(pd.DataFrame({"kind": "bound", "method": method, "measure": "regret",
                                  "t": grid, "runs": 0, "estimate": values, "stderr": np.nan,
                                  "ci_low": np.nan, "ci_high": np.nan}))
    return pd.concat(rows, ignore_index=True)


def _config(study: BanditStudy, problem: str, kind: str, method: str, points) -> dict:
    return {"problem": problem, "kind": kind, "method": method, "horizon": study.horizon,
            "seed": study.seed, "points": [int(x) for x in points],
            "stream_version": STREAM_VERSION}


def _key(config: dict) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:20]


def _stored_outcomes(store, config: dict) -> dict[str, np.ndarray]:
    """The outcomes kept under ``config`` (each int64 [runs, ...]), empty when none are."""
    found = store.read_matching(_key(config), config) if store is not None else None
    if found is None or found.num_rows == 0:
        return {}
    shapes = config["shapes"]
    return {name: np.array(found.column(name).to_pylist(), np.int64).reshape(-1, *shape)
            for name, shape in shapes.items()}


def _write_outcomes(store, config: dict, outcomes: dict[str, np.ndarray]) -> None:
    import pyarrow as pa

    table = pa.table({name: pa.array(list(values.reshape(len(values), -1)),
                                     pa.list_(pa.int64()))
                      for name, values in outcomes.items()})
    store.write(_key(config), table, config)


def _outcomes(study, arms, kind, method, grid, budgets, store, bar) -> dict[str, np.ndarray]:
    """The outcomes of the study's R runs of one (problem, method): for a policy ``pulls``
    [R, G, K] and ``recommended`` [R, G, 2], for a baseline ``chosen`` [R, B]; the runs kept in
    ``store`` are read, the others computed and added to it."""
    points = grid if kind == "policy" else budgets
    k = len(arms.means)
    config = {**_config(study, arms.spec, kind, method, points),
              "shapes": ({"pulls": [len(grid), k], "recommended": [len(grid), len(RULES)]}
                         if kind == "policy" else {"chosen": [len(budgets)]})}
    kept = _stored_outcomes(store, config)
    have = len(next(iter(kept.values()))) if kept else 0
    pulls_per_run = study.horizon if kind == "policy" else int(budgets.sum())
    bar.update(min(have, study.runs) * pulls_per_run)
    if have < study.runs:
        new = study.runs - have
        if kind == "policy":
            pulls, recommended = policy_runs(method, arms, study.horizon, new, study.seed,
                                             grid, bar, first=have)
            fresh = {"pulls": pulls, "recommended": recommended}
        else:
            fresh = {"chosen": np.stack([baseline_runs(method, arms, int(b), new, study.seed,
                                                       bar, first=have) for b in budgets],
                                        axis=1)}
        kept = {name: np.concatenate([kept[name], values]) if kept else values
                for name, values in fresh.items()}
        if store is not None:
            _write_outcomes(store, config, kept)
    return {name: values[: study.runs] for name, values in kept.items()}


def _method_rows(study, arms, kind, method, grid, budgets, store, bar) -> pd.DataFrame:
    """One (problem, method)'s rows from its runs' outcomes (``_outcomes``)."""
    import pandas as pd

    outcomes = _outcomes(study, arms, kind, method, grid, budgets, store, bar)
    if kind == "policy":
        parts = [regret_rows(outcomes["pulls"], arms, grid)] + [
            wrong_rows(outcomes["recommended"][:, :, k], arms, grid, f"wrong_{rule}")
            for k, rule in enumerate(RULES)]
    else:
        parts = [wrong_rows(outcomes["chosen"], arms, budgets, "wrong")]
    rows = pd.concat(parts, ignore_index=True).assign(problem=arms.spec, kind=kind,
                                                      method=method)
    return rows[COLUMNS]


def run_study(study: BanditStudy, *, store=None, progress: bool = False) -> pd.DataFrame:
    """Every row of ``study`` (the module docstring), problems in order, then policies, then
    baselines, then bounds."""
    import pandas as pd

    plans = []
    for problem in study.problems:
        arms = parse_arms(problem)
        plans.append((arms, log_grid(study.horizon), study.baseline_budgets(arms)))
    total = sum(study.runs * (study.horizon * len(study.policies)
                              + int(budgets.sum()) * len(study.baselines))
                for _, _, budgets in plans)
    frames = []
    with tqdm(total=total, unit="pull", unit_scale=True, disable=not progress,
              leave=False, desc="bandit") as bar:
        for (arms, grid, budgets) in plans:
            methods = [("policy", p) for p in study.policies]
            methods += [("baseline", b) for b in study.baselines]
            for kind, method in methods:
                frames.append(_method_rows(study, arms, kind, method, grid, budgets, store,
                                           bar))
            frames.append(bound_rows(arms, grid).assign(problem=arms.spec)[COLUMNS])
    return pd.concat(frames, ignore_index=True)


def bandit(problems, policies=DEFAULT_POLICIES, *, horizon: int = 10_000, runs: int = 200,
           seed: int = 0, baselines=tuple(ALGORITHMS), budgets=(), workers: int | None = None,
           progress: bool = False) -> pd.DataFrame:
    """The tidy table of the module docstring for ``problems`` (an arms spec, a list of them,
    or a preset name of ``PRESETS``) and ``policies``; ``workers`` threads (default all)."""
    if isinstance(problems, str):
        problems = PRESETS.get(problems, (problems,))
    if workers is not None:
        numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))
    study = BanditStudy(tuple(problems), tuple(policies), tuple(baselines), horizon, runs, seed,
                        tuple(int(b) for b in budgets))
    return run_study(study, progress=progress)


def study_dict(study: BanditStudy) -> dict:
    """The study as JSON-ready settings (the report states them)."""
    return {**asdict(study), "stream_version": STREAM_VERSION}
