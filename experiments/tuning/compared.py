"""``compare --tuned``: each policy of a grid also at its constant tuned for each tree
configuration and adjuster, tuned on tree instances apart from the ones compared.

The tunings race (``synthetic``) on the area under the failure curve over the grid's budgets
2^0 .. max_budget, the comparison's own summary, with the instances and runs of
``tuning_seed(grid.seed)``: tree instance j of a tuning is drawn from that seed, the compared
ones from the grid's, so that no compared instance was seen while tuning (a tuned constant
would otherwise be fitted to the instances it is then judged on). Each tuning is stored in
``DIR/tuning/<config>-<policy>-<adjuster>/`` and resumes as any tuning does.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from bandits import POLICIES

from ..comparisons.grid import Grid
from ..curves.entries import parse_entry
from .space import ParamRange
from .synthetic import Tuning, run_tuning
from .synthetic_store import GROWABLE

TUNING_FOLDER = "tuning"
# The constant tuned per policy and its range: the registry's (``bandits.PolicyInfo.tuned``).
TUNED = {name: ParamRange(*info.tuned) for name, info in POLICIES.items() if info.tuned}
# values per constant; the runs of a tuning are those of a compared cell
VALUES = {"quick": 8, "full": 16}


def tuning_seed(grid_seed: int) -> int:
    """The seed of the tunings' instances and runs for a grid of ``grid_seed``: a digest, so
    that it is none of the seeds a user gives a grid (small integers)."""
    digest = hashlib.sha256(f"tuning-instances:{grid_seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def tunable(policy: str) -> ParamRange | None:
    """The range ``compare --tuned`` tunes ``policy``'s entry over, or None: a policy without
    a constant, a plug-in, a root policy's entry, or an entry that fixes the constant."""
    name, params = parse_entry(policy, "policy")
    limits = TUNED.get(name)
    if limits is None or limits.name in params or "root" in params:
        return None
    return limits


def tunings(grid: Grid) -> list[Tuning]:
    """The tunings of ``grid``: one per tree, tunable policy and adjuster."""
    budgets = tuple(2**k for k in range(grid.max_budget.bit_length()))
    runs = grid.runs * grid.trees_per_model
    return [Tuning(tree, policy, (limits,), adjuster=adjuster, budgets=budgets,
                   branching=grid.branching, depth=grid.depth, values=VALUES[grid.scale],
                   runs=runs, trees=grid.trees_per_model, seed=tuning_seed(grid.seed),
                   reward=grid.reward, final_move=grid.final_move, failure=grid.failure,
                   solver=grid.solver)
            for tree in grid.trees for adjuster in grid.adjusters for policy in grid.policies
            if (limits := tunable(policy)) is not None]


def tuning_folder(out: str | Path, tuning: Tuning) -> Path:
    """The tuning's folder under ``out/tuning/``: its tree, policy and adjuster, then a digest
    of the rest of what fixes its runs (sizes, budgets, rules), so that a comparison grown to
    other sizes or rules tunes again beside the earlier tunings instead of being refused by
    them. More runs or values, or another alpha, reuse the folder (``claim_tune_folder``)."""
    fixed = {key: value for key, value in tuning.to_dict().items() if key not in GROWABLE}
    digest = hashlib.sha256(json.dumps(fixed, sort_keys=True).encode()).hexdigest()[:8]
    name = re.sub(r"[^A-Za-z0-9.=-]+", "_",
                  f"{tuning.tree}-b{tuning.branching}-d{tuning.depth}-{tuning.policy}-"
                  f"{tuning.adjuster}").strip("_")
    return Path(out) / TUNING_FOLDER / f"{name}-{digest}"


def tune_grid(grid: Grid, out: str | Path, *, workers: int | None = None,
              scheduler: str | None = None, progress: bool | None = None
              ) -> tuple[Grid, pd.DataFrame]:
    """``grid`` with a cell at tuned constants beside every tunable policy's (``Grid.tuned``)
    and the table of tunings: tree, policy, adjuster, the parameter, chosen, low and high (the
    values not shown worse), kept, candidates, playouts."""
    plan = tunings(grid)
    if not plan:
        raise ValueError("--tuned: no policy of the grid has a constant to tune (tuned: "
                         f"{', '.join(TUNED)}, unless the entry fixes it)")
    show = sys.stderr.isatty() if progress is None else progress
    records, rows = [], []
    for tuning in tqdm(plan, desc="tuning", unit=" tunings", file=sys.stderr,
                       dynamic_ncols=True, disable=not show):
        table = run_tuning(tuning, tuning_folder(out, tuning), workers=workers,
                           scheduler=scheduler, progress=False)
        summary = table.attrs["summary"]
        (name, value), = summary["chosen"].items()
        records.append({"tree": tuning.tree, "policy": tuning.policy,
                        "adjuster": tuning.adjuster, "params": {name: value}})
        low, high = summary["interval"][name]
        rows.append({"tree": tuning.tree, "policy": tuning.policy, "adjuster": tuning.adjuster,
                     "param": name, "chosen": value, "low": low, "high": high,
                     "at_edge": ",".join(summary["at_edge"].values()),
                     "kept": summary["kept"], "candidates": summary["candidates"],
                     "playouts": summary["playouts"]})
    return replace(grid, tuned=tuple(records)), pd.DataFrame(rows)
