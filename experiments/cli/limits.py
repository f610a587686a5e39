"""Sizes checked before anything is allocated or written: each command estimates its peak
memory and refuses, in one line (the estimate, the limit, the option to change), what will
not fit in the memory available.

The limit is ``MCTSLAB_MEMORY_LIMIT`` (a positive, finite number of bytes, or with a K/M/G/T
suffix: ``64M``) when set, else the machine's available memory (``MemAvailable`` of
/proc/meminfo, else psutil's). The estimates count the large arrays and lists a command holds
at once; they err high by the interpreter's few hundred MB they leave out.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

from ..curves.curve import Curve

ENV = "MCTSLAB_MEMORY_LIMIT"
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
ITEM_BYTES = 200  # one planned block or shard (a tuple or dataclass) held in a list
TABLES = 6  # float64 columns of bandits.index_tables, each max_budget + 1 long
PIG_ARRAYS = 2  # float64 value arrays of games.pig_solver (roll, stop)
PERFT_MAX_NODES = 10**9  # `games perft` refuses larger estimated counts (minutes of work)
GAME_ROW_BYTES = 64  # one game of a tournament table, in its block and in the whole table
PATH_BYTES = 8  # an int64 of a game search's path (mcts.games: budget + 2 of them)
NODE_BYTES = 2 * (32 + 24 + 1)  # a game-tree row (nodes, stats, proven), its capacity doubled
CANDIDATE_BYTES = 4096  # a tuning's candidate: its values (a dict), its Curve and its race row
RUN_BYTES = 64  # a tuning's run of a candidate: its loss, twice, and its stored row (3 int64s)
# pulls or playouts a command starts at most, whatever the memory: at the engines' 10^7-10^8 a
# second on 2 cores, 10^13 is days to weeks of work, which a typo (`--runs 1e9`) asks for
MAX_WORK = 10**13


def memory_limit() -> tuple[int, str]:
    """(bytes, where the figure comes from)."""
    given = os.environ.get(ENV, "").strip()
    if given:  # "B" alone is no size: refused below, not read as unset
        text = given.upper().removesuffix("B")
        unit = text[-1] if text and text[-1] in _UNITS else ""
        try:
            number = float(text.removesuffix(unit)) * _UNITS[unit]
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number >= 1):
            raise ValueError(f"{ENV}={os.environ[ENV]!r} is not a size: write a positive "
                             "number of bytes, e.g. 4G or 1073741824")
        return int(number), ENV
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024, "available memory"
    except OSError:
        pass
    import psutil

    return int(psutil.virtual_memory().available), "available memory"


def size(count: float) -> str:
    """``3.2 GiB``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if count < 1024 or unit == "TiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def check_work(count: float, what: str, advice: str) -> None:
    """A one-line ValueError when a command would make more than ``MAX_WORK`` pulls or
    playouts (``count``): what makes them and ``advice`` (the option to change)."""
    if count > MAX_WORK:
        raise ValueError(f"{what} make {count:.3g} pulls or playouts, more than the {MAX_WORK:.0e} "
                         f"that finish within days on this machine: {advice}")


def check_memory(estimate: float, what: str, advice: str) -> None:
    """A one-line ValueError when ``estimate`` bytes exceed the limit: what needs it, the
    estimate, the limit and ``advice`` (the option to change)."""
    limit, source = memory_limit()
    if estimate > limit:
        raise ValueError(f"{what} needs about {size(estimate)} of memory, more than the "
                         f"{size(limit)} of {source}: {advice}")


def _threads(workers: int | None) -> int:
    import numba

    return min(workers or numba.get_num_threads(), numba.config.NUMBA_NUM_THREADS)


def curve_memory(curve: Curve, threads: int = 1) -> int:
    """Peak bytes of one curve's runs in one process: the index tables, ``threads`` runs at
    once, a block's failures, and the tree instance."""
    from ..curves.failure import CHUNK_RUNS, memory_per_curve_run, tree_instance

    instance = tree_instance(curve.tree, curve.branching, curve.depth, 0, 0)
    budgets = len(curve.budgets)
    return (TABLES * 8 * (2 * curve.max_budget + 1) + threads * memory_per_curve_run(curve)
            + CHUNK_RUNS * budgets * 9 + instance.nbytes)


def _too_big(curve: Curve) -> bool:
    """A budget whose index tables alone outgrow the limit: checked before building a tree
    or a configuration for it."""
    return TABLES * 8 * 2 * curve.max_budget > memory_limit()[0]


def check_curve(curve: Curve, workers: int | None = None) -> None:
    """``failure-rate``: the curve's runs on ``workers`` threads, and its list of blocks."""
    from ..curves.failure import CHUNK_RUNS

    blocks = curve.trees * -(-curve.runs // CHUNK_RUNS) * ITEM_BYTES
    if _too_big(curve):
        estimate = TABLES * 8 * 2 * curve.max_budget
    else:
        estimate = blocks + curve_memory(curve, _threads(workers))
    check_memory(estimate, f"{curve.label} ({curve.total_runs:,} runs up to budget "
                 f"{curve.max_budget:,})", "lower --runs, --trees or --max-budget")


def check_study(study, workers: int | None = None, scheduler: str | None = None) -> None:
    """``study run`` and ``compare``: the plan of shards in this process, plus, with local
    workers, each worker's largest curve (one thread each)."""
    shards = sum(curve.trees * -(-curve.runs // study.block) for curve in study.curves)
    estimate = 2 * shards * ITEM_BYTES  # the plan and the list of pending shards
    widest = max(study.curves, key=lambda curve: curve.max_budget)
    if _too_big(widest):
        estimate += TABLES * 8 * 2 * widest.max_budget
    elif scheduler is None:
        processes = workers or os.cpu_count() or 1
        # the static adjuster's record is plain's: same memory, no exact analysis to estimate
        kinds = {replace(curve, adjuster="plain", adjuster_params={}, runs=1, trees=1)
                 if curve.adjuster == "static" else replace(curve, runs=1, trees=1)
                 for curve in study.curves}
        estimate += processes * max(curve_memory(curve) for curve in kinds)
    check_memory(estimate, f"study {study.name} ({shards:,} shards)",
                 "lower runs, trees or max_budget (or the workers)")


def search_memory(playouts: int) -> int:
    """Bytes one game search of ``playouts`` allocates (``mcts.games``): the index tables, the
    path and at least one tree row per playout (an expansion adds every child of a leaf)."""
    return TABLES * 8 * (2 * playouts + 1) + PATH_BYTES * (playouts + 2) + NODE_BYTES * playouts


def check_search(playouts: int, processes: int = 1) -> None:
    """``play`` and ``tournament``: one search at a time in each of ``processes``."""
    where = "" if processes == 1 else f" in each of {processes} processes"
    check_memory(processes * search_memory(playouts),
                 f"a search of {playouts:,} playouts per move{where}",
                 "lower --playouts" + ("" if processes == 1 else " (or --workers)"))


def check_tournament(pairings: int, games: int, block: int, playouts: int,
                     workers: int | None = None, scheduler: str | None = None) -> None:
    """``tournament``: its plan of blocks and table of games in this process, then the search
    in each local process (one with a remote cluster, whose machines are its own)."""
    from ..runtime.pool import default_workers

    blocks = pairings * -(-games // block)
    check_memory(2 * blocks * ITEM_BYTES + pairings * games * GAME_ROW_BYTES,
                 f"{pairings:,} pairing{'s' * (pairings > 1)} of {games:,} games "
                 f"({blocks:,} blocks)", "lower --games (or the number of players)")
    local = scheduler is None or scheduler == "local"
    check_search(playouts, (workers or default_workers()) if local else 1)


def check_horizon(horizon: int) -> None:
    """``bandit``, before its study is planned: a run's index tables, one entry per pull up to
    the horizon (``bandits.index_tables``)."""
    check_memory(TABLES * 8 * (2 * horizon + 1), f"runs of {horizon:,} pulls",
                 "lower --horizon")


def check_bandit(study) -> None:
    """``bandit``: every run's regret at every recorded point (a grid of 5 per decade, and the
    baselines' budgets), per policy and baseline, and the runs' seeds."""
    from ..plain_bandits.study import log_grid

    check_horizon(study.horizon)
    points = 2 * len(log_grid(study.horizon)) + len(study.budgets)  # policies and baselines
    methods = len(study.policies) + len(study.baselines)
    check_memory(study.runs * 8 * (2 + points * max(methods, 1)) * len(study.problems),
                 f"{study.runs:,} runs of {len(study.problems)} problem(s) x {methods} methods",
                 "lower --runs")
    check_work(float(study.runs) * study.horizon * max(methods, 1) * len(study.problems),
               f"{study.runs:,} runs of {study.horizon:,} pulls x {len(study.problems)} "
               f"problem(s) x {methods} methods", "lower --horizon or --runs")


def check_tuning(parameters: int, values: int, runs: int, budget: int = 1) -> None:
    """``tune`` on a tree, before its candidates are listed: ``values`` per parameter make
    values ** parameters candidates, each raced over up to ``runs`` runs of ``budget``
    playouts."""
    candidates = values ** parameters
    check_memory(candidates * CANDIDATE_BYTES, f"{candidates:,} candidate values",
                 "lower --values")
    check_memory(candidates * runs * RUN_BYTES, f"{candidates:,} candidates of {runs:,} runs",
                 "lower --runs (or --values)")
    check_work(float(candidates) * runs * budget,
               f"{candidates:,} candidates x {runs:,} runs x {budget:,} playouts",
               "lower --runs or --values")


def check_pig(turns: int) -> None:
    """``games solve pig``: the solver's value arrays."""
    from games.pig_solver import DEFAULT_CAP

    cells = (turns + 1) * (turns * (DEFAULT_CAP + 11) + 1) * (DEFAULT_CAP + 12)
    check_memory(PIG_ARRAYS * 8 * cells, f"solving Pig for {turns} turns", "lower --turns")


def check_perft(game, depth: int) -> None:
    """``games perft``: refuse a count estimated above ``PERFT_MAX_NODES`` (the moves at depth
    1 times the mean branching of depth 2, to the power of the remaining plies)."""
    from games import perft

    if depth <= 2:
        return
    first, second = perft(game, 1), perft(game, 2)
    branching = second / max(first, 1)
    estimate = first * branching ** (depth - 1)
    if estimate > PERFT_MAX_NODES:
        deepest = 2
        while first * branching ** deepest <= PERFT_MAX_NODES:
            deepest += 1
        raise ValueError(f"perft({game.name}, {depth}) would visit about {estimate:.1e} "
                         f"positions, more than the {PERFT_MAX_NODES:.0e} perft allows: use "
                         f"--depth {deepest} or less")
