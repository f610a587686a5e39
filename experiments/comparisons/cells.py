"""The store of a comparison's cells: every run of a cell kept under a key of everything that
determines its numbers, so a comparison grows.

A cell's identity is its curve without the run counts (tree spec, b, d, policy and its
parameters, adjuster and its options, re-scoring, budgets 2^0 .. max_budget), the grid's seed
and the engine's random-stream version (``mcts.STREAM_VERSION``). Run r on tree instance j of a
cell draws its randomness from (the cell's seed, j, r) alone (``experiments.curves.failure``), the
cell's seed being a digest of the grid's seed and the identity; tree instance j derives from
the grid's seed and j alone, so every cell of a configuration searches the same instances.
Hence the runs of a cell never depend on the grid around it, on ``runs`` or on
``trees_per_model``: a grid run into a folder computes only the runs it lacks (a new policy's
cells, runs 50..99 after ``--runs 100``, new instances) and reuses the rest bit for bit.

Layout (files written atomically by ``experiments.runtime.store``)::

    cells.json                          the folder's seed, which every cell must share
    cells/<identity>-t<j>-r<first>-<n>.parquet  runs first .. first+n-1 on instance j:
                                        run (int64), failed_bits (int64: bit k set when the
                                        run chose a wrong root move at 2^k playouts)

A block's metadata holds its identity in full, its instance and its runs; a file whose
metadata differs from what is asked is never read. A folder of another seed is refused in one
line naming the field (its instances are other trees: nothing could be paired).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from mcts import STREAM_VERSION

from ..curves.curve import Curve
from ..curves.failure import failure_block
from ..curves.kernels import KernelProgress
from ..runtime.pool import Pool, check_options
from ..runtime.store import CELLS_FILE, KeyedStore, claim
from ..studies.execution import RunSummary, on_one_thread, ready_kernels
from .grid import Grid, damaged_file, open_grid, reading_grid
from .stats import RUN_COLUMNS, failure_bits

CELL_FOLDER = "cells"
LAYOUT = 1  # of the cell store; study folders (study.json, shards/) are earlier compares
_BLOCK_KEY = re.compile(r"^(?P<cell>[0-9a-f]{16})-t(?P<tree>\d+)-r(?P<first>\d+)-(?P<n>\d+)$")


def cell_identity(curve: Curve, seed: int) -> dict:
    """Everything that determines the numbers of a cell's runs: the curve but its run counts,
    the grid's seed and the random-stream version."""
    config = {name: value for name, value in curve.to_dict().items()
              if name not in ("runs", "trees")}
    return {"curve": config, "seed": seed, "stream_version": STREAM_VERSION}


def cell_key(identity: dict) -> str:
    """16 hex digits of the SHA-256 of the identity's canonical JSON."""
    text = json.dumps(identity, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cell_seed(identity: dict) -> int:
    """The 63-bit seed of a cell's runs (not of its trees, which are the grid seed's)."""
    digest = hashlib.sha256(f"run-seed:{cell_key(identity)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Block:
    """Runs ``first_run .. first_run + n_runs - 1`` of ``curve`` on tree instance ``tree_index``
    under the grid seed ``seed``."""

    curve: Curve
    seed: int
    tree_index: int
    first_run: int
    n_runs: int

    @property
    def identity(self) -> dict:
        return cell_identity(self.curve, self.seed)

    @property
    def key(self) -> str:
        return (f"{cell_key(self.identity)}-t{self.tree_index:03d}-r{self.first_run:06d}-"
                f"{self.n_runs:06d}")

    @property
    def metadata(self) -> dict:
        return {"cell": self.identity, "tree_index": self.tree_index,
                "first_run": self.first_run, "n_runs": self.n_runs, "layout": LAYOUT}

    @property
    def playouts(self) -> int:
        """The block's budgeted playouts: a root policy's run searches once per budget 2^k."""
        budget = self.curve.max_budget
        return self.n_runs * (2 * budget - 1 if self.curve.root else budget)


def cell_store(folder: str | Path) -> KeyedStore:
    return KeyedStore(Path(folder) / CELL_FOLDER)


def _differing(stored: dict, wanted: dict) -> str:
    fields = [key for key in wanted if stored.get(key) != wanted[key]]
    return fields[0] if fields else next(iter(set(stored) ^ set(wanted)), "?")


def claim_cells(folder: str | Path, grid: Grid) -> Path:
    """Make ``folder`` a home of cells of ``grid``'s seed, or refuse (a ValueError naming the
    field) a folder whose cells, or earlier comparison, have another seed. Nothing is written
    when refused."""
    folder = Path(folder)
    wanted = {"seed": grid.seed, "layout": LAYOUT}
    with reading_grid(folder):  # a stored grid's plug-ins are not imported
        earlier = open_grid(folder) if folder.is_dir() else None
    if earlier is not None and earlier.seed != grid.seed:
        raise ValueError(_refusal(folder, "seed", earlier.seed, grid.seed))

    def read(home: Path) -> dict:
        try:
            stored = json.loads((home / CELLS_FILE).read_text())
        except (OSError, ValueError) as error:
            raise damaged_file(home / CELLS_FILE, f"unreadable ({error})") from None
        if not isinstance(stored, dict) or set(wanted) - set(stored):
            raise damaged_file(home / CELLS_FILE, "damaged")
        return stored

    def refusal(stored: dict) -> str:
        field = _differing(stored, wanted)
        return _refusal(folder, field, stored.get(field), wanted.get(field))

    return claim(folder, CELLS_FILE, wanted, read=read, refusal=refusal)


def _refusal(folder: Path, field: str, stored, wanted) -> str:
    if field == "layout":  # no option sets it: the folder is of another version of the lab
        return (f"{folder} holds cells of layout {stored}, this version of the lab writes "
                f"layout {wanted}: use another --out folder (or the lab's version that wrote it)")
    return (f"{folder} holds cells of {field} {stored}, this grid asks {field} {wanted}: "
            f"{field} differs; use --{field} {stored}, or another --out folder")


def _stored_blocks(folder: Path) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """(cell key, tree index) -> [(first run, runs)] of the block files in ``folder``."""
    found: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for path in (folder / CELL_FOLDER).glob("*.parquet"):
        match = _BLOCK_KEY.match(path.stem)
        if match:
            found.setdefault((match["cell"], int(match["tree"])), []).append(
                (int(match["first"]), int(match["n"])))
    return found


def _cover(runs: int, block: int, stored: list[tuple[int, int]]
           ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(stored blocks to read, new blocks to compute) that together hold runs 0 .. runs - 1:
    from each run on, the longest stored block starting there, else new blocks of ``block``
    runs up to the next stored start."""
    starts: dict[int, int] = {}
    for first, n in stored:
        starts[first] = max(n, starts.get(first, 0))
    reuse, new, position = [], [], 0
    while position < runs:
        if position in starts:
            reuse.append((position, starts[position]))
            position += starts[position]
            continue
        stop = min([first for first in starts if first > position] + [runs])
        for first in range(position, stop, block):
            new.append((first, min(block, stop - first)))
        position = stop
    return reuse, new


def plan_blocks(grid: Grid, folder: str | Path) -> tuple[list[Block], list[Block]]:
    """(stored blocks to reuse, blocks to compute) for every cell and instance of ``grid``."""
    stored = _stored_blocks(Path(folder))
    reuse, new = [], []
    for curve in grid.curves():
        key = cell_key(cell_identity(curve, grid.seed))
        for tree_index in range(grid.trees_per_model):
            old, missing = _cover(grid.runs, grid.block, stored.get((key, tree_index), []))
            reuse += [Block(curve, grid.seed, tree_index, f, n) for f, n in old]
            new += [Block(curve, grid.seed, tree_index, f, n) for f, n in missing]
    return reuse, new


def read_block(folder: str | Path, block: Block) -> np.ndarray | None:
    """int64 [n_runs] failure bits of ``block``, or None when its file is missing, unreadable
    or not exactly this block's."""
    table = cell_store(folder).read_matching(block.key, block.metadata)
    if table is None or table.num_rows != block.n_runs:
        return None
    try:
        run = table.column("run").to_numpy()
        bits = table.column("failed_bits").to_numpy().astype(np.int64)
    except (KeyError, ValueError):
        return None
    expected = np.arange(block.first_run, block.first_run + block.n_runs)
    limit = 1 << len(block.curve.budgets)
    ok = np.array_equal(run, expected) and np.all((bits >= 0) & (bits < limit))
    return bits if ok else None


def write_block(folder: str | Path, block: Block, bits: np.ndarray) -> Path:
    frame = pd.DataFrame({"run": np.arange(block.first_run, block.first_run + block.n_runs,
                                           dtype=np.int64),
                          "failed_bits": np.asarray(bits, dtype=np.int64)})
    return cell_store(folder).write(block.key, frame, block.metadata)


def compute_block(block: Block) -> np.ndarray:
    """The failure bits of ``block``'s runs."""
    return failure_bits(failure_block(block.curve, block.tree_index, block.first_run,
                                      block.n_runs, cell_seed(block.identity),
                                      tree_seed=block.seed))


@dataclass(frozen=True)
class GrowSummary(RunSummary):
    """``RunSummary`` over blocks of runs, and the grid cells that had runs computed."""

    cells: int = 0
    cells_computed: int = 0


def grow(grid: Grid, folder: str | Path, *, workers: int | None = None,
         scheduler: str | None = None, progress: bool | None = None) -> GrowSummary:
    """Compute and store the runs of ``grid`` that ``folder`` lacks (``plan_blocks``); stored
    runs are reused as they are. A damaged block is computed again."""
    check_options(workers, scheduler)
    folder = claim_cells(folder, grid)
    store = cell_store(folder)
    store.folder.mkdir(exist_ok=True)
    store.remove_temporary_files()
    reuse, new = plan_blocks(grid, folder)
    damaged = [block for block in reuse if read_block(folder, block) is None]
    pending = new + damaged
    total = sum(block.playouts for block in reuse + new)
    start = time.perf_counter()
    bar = tqdm(total=total, initial=total - sum(block.playouts for block in pending),
               unit=" playouts", unit_scale=True, desc=grid.name, file=sys.stderr,
               dynamic_ncols=True,
               disable=not (sys.stderr.isatty() if progress is None else progress))
    playouts, searching = 0, 0.0
    kernels = KernelProgress([block.curve for block in pending])
    if pending and not bar.disable:
        bar.write(kernels.announce(), file=sys.stderr)
    with bar, Pool(workers, scheduler) as pool:
        bar.set_postfix_str(kernels.note())
        for _ in ready_kernels(pool, (block.curve for block in pending), kernels):
            bar.set_postfix_str(kernels.note())
        jobs = [(compute_block, block.curve, block) for block in pending]
        for i, (bits, kernel_seconds, seconds) in pool.completed(on_one_thread, jobs):
            write_block(folder, pending[i], bits)
            kernels.finished(i, kernel_seconds)
            playouts += pending[i].playouts
            searching += seconds
            bar.set_postfix_str(kernels.note(), refresh=False)
            bar.update(pending[i].playouts)
    computed_cells = {cell_key(block.identity) for block in pending}
    return GrowSummary(len(reuse) + len(new), len(reuse) - len(damaged), len(pending), playouts,
                       time.perf_counter() - start, searching, kernels.seconds,
                       cells=grid.cells, cells_computed=len(computed_cells))


def run_table(grid: Grid, folder: str | Path) -> pd.DataFrame:
    """The stored runs of ``grid``'s cells, one row per run (``stats.RUN_COLUMNS``),
    runs 0 .. grid.runs - 1 of every instance; an instance with runs missing is left out.
    ``config`` reads ``SPEC b=B d=D``; ``policy`` and ``adjuster`` are the grid's entries."""
    stored = _stored_blocks(Path(folder))
    parts = []
    for curve, (config, policy, adjuster) in grid.labelled():
        key = cell_key(cell_identity(curve, grid.seed))
        for tree_index in range(grid.trees_per_model):
            old, missing = _cover(grid.runs, grid.block, stored.get((key, tree_index), []))
            blocks = [read_block(folder, Block(curve, grid.seed, tree_index, f, n))
                      for f, n in old]
            if missing or any(bits is None for bits in blocks):
                continue
            bits = np.concatenate(blocks)[:grid.runs]
            parts.append(pd.DataFrame({
                "config": config,
                "policy": policy, "adjuster": adjuster, "tree_index": tree_index,
                "run": np.arange(grid.runs), "max_budget": curve.max_budget,
                "failed_bits": bits}))
    if not parts:
        return pd.DataFrame({c: pd.Series(dtype="object" if c in ("config", "policy",
                                                                  "adjuster") else "int64")
                             for c in RUN_COLUMNS})
    return pd.concat(parts, ignore_index=True)[RUN_COLUMNS]
