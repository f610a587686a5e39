"""A policy's parameters tuned on a synthetic tree model by racing (``race``): the values of a
grid (``space``) run on the same units, each a run (tree instance j, run seed r), and dropped
once shown worse than the best, until the last look or a single survivor.

The loss of a run is its failure (seed 001, Sect. V-A: a wrong root move) at the one budget
asked, or the normalised area of its 0/1 failure curve over log2 of several budgets
(``experiments.comparisons.stats.failure_area``). Unit u is run u // M on tree instance u % M
(M tree instances), drawn as every failure-rate run is (``experiments.curves.failure``): the
instances from ``seed``, the runs' random streams from (``seed``, j, r), the same for every
candidate (common random numbers), so that the paired tests compare like with like.

Every look's runs of a candidate are stored in ``out/runs/`` under a key of everything that
determines them (``synthetic_store``), so a tuning interrupted, or run again with more runs or
other values, computes only what it lacks; the race's decisions follow from the stored runs
alone, hence the same seed gives the same numbers whatever the workers.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from specs import NUMBER

from ..comparisons.grid import RULES
from ..comparisons.stats import area_rows, run_failures
from ..curves.curve import Curve
from ..curves.entries import method_fields
from ..intervals import wilson_interval
from ..runtime.pool import Pool, check_options
from ..runtime.store import KeyedStore, write_atomically
from ..studies.execution import on_one_thread
from .race import dropped_at_look, look_sizes
from .space import ParamRange, candidates, check_ranges
from .synthetic_store import RUNS_FOLDER, Block, claim_tune_folder, compute_block, read_block

# the sizes of a tuning when not given: 16 values of one parameter, or 7 x 7 of two, each
# raced over up to 2,048 runs on 16 instances
DEFAULTS = {"values": {1: 16, 2: 7}, "runs": 2048, "trees": 16, "alpha": 0.05}


@dataclass(frozen=True)
class Tuning:
    """The parameters ``params`` of ``policy`` (an entry, ``ucbv(zeta=1.2)``: its fixed
    parameters) under ``adjuster`` on the tree model ``tree`` (b, d), raced over ``values``
    values per parameter, at most ``runs`` runs each on ``trees`` instances (looks after
    ``trees``, 2 ``trees``, 4 ``trees``... runs: ``race.look_sizes``),
    at level ``alpha``; the loss is the failure at ``budgets`` (one: the failure rate; several:
    the area). ``search_depth`` 1 makes the search one-ply (seed 001, Sect. IV-A): a bandit
    over the root's moves, each played out at random. ``reward``, ``final_move``, ``failure``
    and ``solver`` are the search's rules (``Curve``'s), a comparison's when it tunes its
    cells."""

    tree: str
    policy: str
    params: tuple[ParamRange, ...]
    adjuster: str = "plain"
    budgets: tuple[int, ...] = (4096,)
    branching: int = 4
    depth: int = 8
    search_depth: int | None = None
    values: int | None = None
    runs: int = DEFAULTS["runs"]
    trees: int = DEFAULTS["trees"]
    alpha: float = DEFAULTS["alpha"]
    seed: int = 0
    reward: str = RULES["reward"]
    final_move: str = RULES["final_move"]
    failure: str = RULES["failure"]
    solver: bool = RULES["solver"]
    fixed: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "budgets", tuple(sorted({int(b) for b in self.budgets})))
        if self.values is None:
            object.__setattr__(self, "values", DEFAULTS["values"].get(len(self.params), 7))
        for budget in self.budgets:
            if budget < 1 or budget & (budget - 1):
                raise ValueError(f"budget {budget} is not a power of two: use e.g. 4096")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha {self.alpha} must lie in (0, 1), e.g. --alpha 0.05")
        fields = method_fields(self.policy, self.adjuster)
        object.__setattr__(self, "fixed", fields)
        check_ranges(fields["policy"], self.params, fields["policy_params"])
        look_sizes(self.runs, self.trees)  # checks runs >= trees
        for values in (self.grid[0], self.grid[-1]):
            self.curve(values)  # names, shapes and values checked before any run

    @property
    def grid(self) -> list[dict[str, float]]:
        """The candidate values, one dict per candidate."""
        return candidates(self.params, self.values)

    @property
    def max_budget(self) -> int:
        return self.budgets[-1]

    @property
    def loss_name(self) -> str:
        return (f"failure rate at {self.max_budget:,} playouts" if len(self.budgets) == 1 else
                f"area of the failure curve over {self.budgets[0]:,}..{self.max_budget:,}")

    def curve(self, values: dict[str, float]) -> Curve:
        """The failure-rate curve of one candidate."""
        fixed = self.fixed
        return Curve(tree=self.tree, branching=self.branching, depth=self.depth,
                     search_depth=self.search_depth, runs=1, trees=self.trees,
                     max_budget=self.max_budget, **self.rules(),
                     **{**fixed, "policy_params": {**fixed["policy_params"], **values}})

    def rules(self) -> dict:
        return {name: getattr(self, name) for name in RULES}

    def sizes(self) -> list[int]:
        """Runs every candidate left has at each look (``race.look_sizes``)."""
        return look_sizes(self.runs, self.trees)

    def to_dict(self) -> dict:
        return {"tree": self.tree, "policy": self.policy, "adjuster": self.adjuster,
                "params": [one.to_dict() for one in self.params], "budgets": list(self.budgets),
                "branching": self.branching, "depth": self.depth,
                **({"search_depth": self.search_depth} if self.search_depth else {}),
                "values": self.values,
                "runs": self.runs, "trees": self.trees,
                "alpha": self.alpha, "seed": self.seed,
                # the rules at their defaults are left out, as tunings before them stored
                **{name: value for name, value in self.rules().items()
                   if value != RULES[name]}}

    def losses(self, bits: np.ndarray) -> np.ndarray:
        """The loss of each run from its failure bits: its failure at the one budget, or the
        normalised area of its failure curve over log2 of the budgets."""
        failed = run_failures(bits, self.max_budget)
        columns = [budget.bit_length() - 1 for budget in self.budgets]
        return area_rows(np.array(self.budgets, float), failed[:, columns].astype(float))


# --- the race


@dataclass
class _Race:
    """The race's state: each candidate's failure bits and losses so far, its playouts (all,
    and those simulated by this call rather than read from the store), and the look that
    dropped it."""

    tuning: Tuning
    losses: list[np.ndarray]
    playouts: list[int]
    dropped: list[int | None]
    bits: list[np.ndarray]
    simulated: int = 0
    stored: int = 0

    @property
    def left(self) -> list[int]:
        return [i for i, look in enumerate(self.dropped) if look is None]


def tune(tree: str, policy: str, params, *, adjuster: str = "plain",
         budgets=(4096,), branching: int = 4, depth: int = 8,
         search_depth: int | None = None, values: int | None = None,
         runs: int = DEFAULTS["runs"], trees: int = DEFAULTS["trees"],
         alpha: float = DEFAULTS["alpha"], seed: int = 0,
         out: str | Path | None = None, workers: int | None = None,
         scheduler: str | None = None, progress: bool | None = None,
         **rules) -> pd.DataFrame:
    """Tune ``params`` (``"c=0.05..5:log"`` or ``ParamRange``s) of ``policy`` on ``tree`` by
    racing (module docstring); with ``out``, the runs are stored there and a second call
    resumes. One row per candidate value: the parameters, runs, loss (mean), ci_low and
    ci_high (95%: Wilson's for a failure rate, normal for an area), dropped_after (runs at
    the look that dropped it; 0 if it stayed), kept (not shown worse), chosen (the least
    loss among those kept) and playouts (simulated). ``frame.attrs["summary"]`` holds the
    chosen values, the interval of each parameter's kept values and the playouts spent
    against a full grid's. ``rules``: the search's ``reward``, ``final_move``, ``failure`` and
    ``solver`` (``Curve``'s; defaults: seed 001's)."""
    from .space import parse_range

    unknown = sorted(set(rules) - set(RULES))
    if unknown:
        raise ValueError(f"tune() has no option {unknown[0]!r}: the rules are "
                         f"{', '.join(RULES)}")

    ranges = tuple(one if isinstance(one, ParamRange) else parse_range(one)
                   for one in ([params] if isinstance(params, str | ParamRange) else params))
    tuning = Tuning(tree, policy, ranges, adjuster=adjuster, budgets=tuple(budgets),
                    branching=branching, depth=depth, search_depth=search_depth,
                    values=values, runs=runs, trees=trees, alpha=alpha, seed=seed, **rules)
    return run_tuning(tuning, out, workers=workers, scheduler=scheduler, progress=progress)


def run_tuning(tuning: Tuning, out: str | Path | None = None, *, workers: int | None = None,
               scheduler: str | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Race ``tuning``'s candidates (``tune``), storing the runs in ``out`` if given."""
    check_options(workers, scheduler)
    store = None
    if out is not None:
        folder = claim_tune_folder(out, tuning)
        store = KeyedStore(folder / RUNS_FOLDER)
        store.check_writable()
        store.remove_temporary_files()
    grid = tuning.grid
    curves = [tuning.curve(values) for values in grid]
    race = _Race(tuning, [np.empty(0)] * len(grid), [0] * len(grid), [None] * len(grid),
                 [np.empty(0, np.int64)] * len(grid))
    sizes = tuning.sizes()
    bar = tqdm(total=len(grid) * sizes[-1], unit=" runs", desc="tune", file=sys.stderr,
               dynamic_ncols=True,
               disable=not (sys.stderr.isatty() if progress is None else progress))
    start = time.perf_counter()
    with bar, Pool(workers, scheduler) as pool:
        done = 0
        for look, size in enumerate(sizes):
            left = race.left
            blocks = [Block(curves[i], tuning.seed, tuning.trees, done, size - done)
                      for i in left]
            bar.set_postfix_str(f"look {look + 1}/{len(sizes)}, {len(left)} of {len(grid)} "
                                "values left", refresh=False)
            for i, frame in zip(left, _runs(blocks, store, pool, workers, scheduler, bar,
                                            race), strict=True):
                race.losses[i] = np.concatenate([race.losses[i],
                                                 tuning.losses(frame["failed_bits"])])
                race.bits[i] = np.concatenate([race.bits[i], frame["failed_bits"]])
                race.playouts[i] += int(frame["playouts"].sum())
            dropped = dropped_at_look(np.column_stack([race.losses[i] for i in left]),
                                      tuning.alpha / len(sizes))
            for i, out_now in zip(left, dropped, strict=True):
                if out_now:
                    race.dropped[i] = size
            bar.total -= int(dropped.sum()) * (sizes[-1] - size)
            done = size
            if len(race.left) == 1:
                break
        table = _table(race)
        curves = _budget_curves(race, table, store, pool, workers, scheduler, bar)
    table.attrs["summary"] = _summary(race, table, time.perf_counter() - start)
    if out is not None:
        _write_results(Path(out), tuning, table, curves)
    return table


def default_values(tuning: Tuning) -> dict[str, float]:
    """The tuned parameters' values at the policy's defaults (the registry's, a plug-in's)."""
    from mcts.baselines import player_info

    defaults = player_info(tuning.fixed["policy"]).defaults
    return {one.name: float(defaults[one.name]) for one in tuning.params}


def _budget_curves(race: _Race, table: pd.DataFrame, store: KeyedStore | None, pool: Pool,
                   workers, scheduler, bar) -> pd.DataFrame:
    """The failure curves over every budget 2^0 .. the largest, of the chosen candidate and of
    the policy's defaults, both over the chosen candidate's runs (the same units): a value
    tuned at one budget may fail at another (a cliff), which these show. The default's runs
    missing from the race (a value not among the candidates, or dropped early) are computed
    and stored as a candidate's. Columns: which ("chosen", "default"), the parameters,
    budget, runs, failures, failure_rate, ci_low, ci_high (Wilson 95%)."""
    tuning = race.tuning
    names = [one.name for one in tuning.params]
    chosen = table.index[table["chosen"]][0]
    size = len(race.bits[chosen])
    default = default_values(tuning)
    same = [i for i, values in enumerate(tuning.grid) if values == default]
    bits = race.bits[same[0]][:size] if same else np.empty(0, np.int64)
    if len(bits) < size:
        block = Block(tuning.curve(default), tuning.seed, tuning.trees, len(bits),
                      size - len(bits))
        bar.total += block.n
        bits = np.concatenate([bits, _runs([block], store, pool, workers, scheduler, bar,
                                           race)[0]["failed_bits"]])
    budgets = 2 ** np.arange(tuning.max_budget.bit_length())
    rows = []
    for which, values, runs in (("chosen", dict(zip(names, table.loc[chosen, names])),
                                 race.bits[chosen]), ("default", default, bits)):
        failures = run_failures(runs, tuning.max_budget).sum(axis=0)
        low, high = wilson_interval(failures, len(runs))
        rows.append(pd.DataFrame({"which": which, **{n: float(values[n]) for n in names},
                                  "budget": budgets, "runs": len(runs), "failures": failures,
                                  "failure_rate": failures / len(runs), "ci_low": low,
                                  "ci_high": high}))
    return pd.concat(rows, ignore_index=True)


def _runs(blocks: list[Block], store: KeyedStore | None, pool: Pool, workers, scheduler,
          bar, race: _Race) -> list[pd.DataFrame]:
    """Each block's runs, read from the store or computed (and stored), in ``blocks``'
    order; the playouts computed are added to ``race.simulated``, those read to
    ``race.stored``. Without workers or a scheduler they run in this process, on numba's
    threads."""
    found = [None if store is None else read_block(store, block) for block in blocks]
    pending = [i for i, frame in enumerate(found) if frame is None]
    race.stored += sum(int(frame["playouts"].sum()) for frame in found if frame is not None)
    bar.update(sum(blocks[i].n for i in range(len(blocks)) if found[i] is not None))
    if workers is None and scheduler is None:
        results = ((i, compute_block(blocks[i])) for i in pending)
    else:
        jobs = [(compute_block, blocks[i].curve, blocks[i]) for i in pending]
        results = ((pending[j], frame) for j, (frame, _, _) in
                   pool.completed(on_one_thread, jobs))
    for i, frame in results:
        if store is not None:
            store.write(blocks[i].key, frame, blocks[i].metadata)
        race.simulated += int(frame["playouts"].sum())
        found[i] = frame
        bar.update(blocks[i].n)
    return found


def _interval(loss: np.ndarray, binary: bool) -> tuple[float, float]:
    n = len(loss)
    if binary:
        low, high = wilson_interval(int(loss.sum()), n)
        return float(low), float(high)
    half = 1.96 * loss.std(ddof=1) / np.sqrt(n) if n > 1 else np.inf
    return float(loss.mean() - half), float(loss.mean() + half)


def _table(race: _Race) -> pd.DataFrame:
    tuning = race.tuning
    binary = len(tuning.budgets) == 1
    rows = []
    for values, loss, playouts, dropped in zip(tuning.grid, race.losses, race.playouts,
                                               race.dropped, strict=True):
        low, high = _interval(loss, binary)
        rows.append({**values, "runs": len(loss), "loss": float(loss.mean()),
                     "ci_low": low, "ci_high": high, "dropped_after": dropped or 0,
                     "kept": dropped is None, "playouts": playouts})
    table = pd.DataFrame(rows)
    kept = table[table["kept"]]
    table["chosen"] = False
    table.loc[kept["loss"].idxmin(), "chosen"] = True
    return table


def _summary(race: _Race, table: pd.DataFrame, seconds: float) -> dict:
    tuning = race.tuning
    names = [one.name for one in tuning.params]
    chosen = table[table["chosen"]].iloc[0]
    kept = table[table["kept"]]
    budgeted = int(table["runs"].sum()) * tuning.max_budget
    grid = len(table) * tuning.sizes()[-1] * tuning.max_budget
    return {"chosen": {name: float(chosen[name]) for name in names},
            "loss": float(chosen["loss"]), "loss_name": tuning.loss_name,
            "interval": {name: [float(kept[name].min()), float(kept[name].max())]
                         for name in names},
            "at_edge": _at_edge(tuning, chosen, len(kept) < len(table)),
            "kept": len(kept), "candidates": len(table),
            "playouts": budgeted, "grid_playouts": grid, "share_of_grid": budgeted / grid,
            "simulated_playouts": race.simulated,
            "stored_playouts": race.stored,
            "default": default_values(tuning), "seconds": seconds}


def _at_edge(tuning: Tuning, chosen: pd.Series, resolved: bool) -> dict[str, str]:
    """The parameters whose chosen value is an end of its range ("low" or "high") that the
    parameter's domain goes beyond: the best may lie there, and a wider range would show it.
    None at a bound of the domain (KL-UCB's c = 0: no range goes lower), nor when the race
    was not ``resolved`` (every candidate kept: an end chosen among equals says nothing)."""
    from mcts.baselines import player_info

    if not resolved:
        return {}
    domains = getattr(player_info(tuning.fixed["policy"]), "domains", {}) or {}
    edges = {}
    for one in tuning.params:
        values, value = one.values(tuning.values), chosen[one.name]
        domain = domains.get(one.name, NUMBER)
        if value == values[0] and value != domain.low:
            edges[one.name] = "low"
        elif value == values[-1] and value != domain.high:
            edges[one.name] = "high"
    return edges


def _write_results(folder: Path, tuning: Tuning, table: pd.DataFrame,
                   curves: pd.DataFrame) -> None:
    from .report import write_report

    write_atomically(folder / "candidates.csv", table.to_csv(index=False).encode())
    write_atomically(folder / "curves.csv", curves.to_csv(index=False).encode())
    write_report(folder, tuning, table, curves)

