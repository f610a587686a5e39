"""Where a tuning on a synthetic tree model keeps its runs (``experiments.tuning.synthetic``):
``tune.json`` holds the tuning (its runs, values and alpha may grow: the stored runs are
reused), ``runs/`` one block per candidate and look, under a key of everything that determines
its runs, read back only when it holds exactly the units asked for."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mcts import STREAM_VERSION

from ..comparisons.grid import RULES
from ..comparisons.stats import failure_bits
from ..curves.curve import Curve
from ..curves.failure import simulate_block
from ..runtime.store import TUNE_FILE, KeyedStore, claim

RUNS_FOLDER = "runs"
LAYOUT = 1


@dataclass(frozen=True)
class Block:
    """Units ``first .. first + n - 1`` of one candidate: unit u is run u // trees on tree
    instance u % trees."""

    curve: Curve
    seed: int
    trees: int
    first: int
    n: int

    @property
    def identity(self) -> dict:
        config = {key: value for key, value in self.curve.to_dict().items()
                  if key not in ("runs", "trees")}
        return {"curve": config, "seed": self.seed, "trees": self.trees,
                "stream_version": STREAM_VERSION}

    @property
    def key(self) -> str:
        digest = hashlib.sha256(json.dumps(self.identity, sort_keys=True).encode()).hexdigest()
        return f"{digest[:16]}-u{self.first:06d}-{self.n:06d}"

    @property
    def metadata(self) -> dict:
        return {**self.identity, "first": self.first, "n": self.n, "layout": LAYOUT}


def compute_block(block: Block) -> pd.DataFrame:
    """The block's runs: unit, failed_bits and playouts (simulated), tree by tree."""
    units = np.arange(block.first, block.first + block.n)
    trees, runs = units % block.trees, units // block.trees
    bits = np.empty(block.n, np.int64)
    playouts = np.empty(block.n, np.int64)
    for tree in np.unique(trees):
        at = np.flatnonzero(trees == tree)  # consecutive runs of one instance
        failed, spent = simulate_block(block.curve, int(tree), int(runs[at[0]]), len(at),
                                       block.seed)
        bits[at], playouts[at] = failure_bits(failed), spent
    return pd.DataFrame({"unit": units, "failed_bits": bits, "playouts": playouts})


def read_block(store: KeyedStore, block: Block) -> pd.DataFrame | None:
    table = store.read_matching(block.key, block.metadata)
    if table is None or table.num_rows != block.n:
        return None
    frame = table.to_pandas()
    expected = np.arange(block.first, block.first + block.n)
    return frame if np.array_equal(frame["unit"].to_numpy(), expected) else None


def claim_tune_folder(folder: str | Path, tuning) -> Path:
    """Make ``folder`` the home of ``tuning`` (a ``synthetic.Tuning``; ``tune.json``), or refuse
    one that holds another tuning, naming the first field that differs; runs, values and alpha
    may change (the stored runs are reused)."""
    def refusal(stored: dict) -> str:
        wanted = {**tuning.to_dict(), "layout": LAYOUT}
        name = next((key for key in sorted({*wanted, *stored} - set(GROWABLE))
                     if stored.get(key) != wanted.get(key)), "layout")
        return (f"{folder} holds a tuning of {name} {stored.get(name)}, this asks {name} "
                f"{wanted.get(name)}: use another --out folder")

    return claim(folder, TUNE_FILE, {**tuning.to_dict(), "layout": LAYOUT},
                 refusal=refusal, records=GROWABLE, optional=("search_depth", *RULES))


# what a tuning may change in its folder: the stored runs are reused
GROWABLE = ("runs", "alpha", "values")
