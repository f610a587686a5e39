"""Shards: a curve split into (tree instance, block of runs) pieces that can run anywhere.

A shard's key is a stable string, ``<curve key>-t<tree index>-b<block index>``, and its seed
derives from the study seed and the curve key only. The engine seeds every run from
(seed, tree index, run index), so a shard's failures do not depend on which worker computes it,
when, or how many other shards run beside it. Tree instances derive from the study seed alone:
every curve of a tree model searches the same instances, as in seed 001.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..curves.curve import Curve
from ..curves.failure import failure_block


def curve_seed(study_seed: int, curve: Curve) -> int:
    """A 63-bit seed for ``curve`` in a study: SHA-256 of the study seed and the curve key."""
    digest = hashlib.sha256(f"{study_seed}:{curve.key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Shard:
    """Runs ``first_run .. first_run + n_runs - 1`` of ``curve`` on tree instance ``tree_index``."""

    curve: Curve
    tree_index: int
    block: int
    first_run: int
    n_runs: int
    study_seed: int

    @property
    def key(self) -> str:
        return f"{self.curve.key}-t{self.tree_index:03d}-b{self.block:03d}"

    @property
    def seed(self) -> int:
        return curve_seed(self.study_seed, self.curve)

    @property
    def playouts(self) -> int:
        """Playouts the shard spends: every run searches up to the curve's largest budget."""
        return self.n_runs * self.curve.max_budget


def plan_shards(curve: Curve, block: int, study_seed: int) -> list[Shard]:
    """Every shard of ``curve`` with ``block`` runs each (the last block of an instance may be
    shorter), tree instance by tree instance."""
    return [
        Shard(curve, tree, first // block, first, min(block, curve.runs - first), study_seed)
        for tree in range(curve.trees)
        for first in range(0, curve.runs, block)
    ]


def count_failures(shard: Shard) -> np.ndarray:
    """Failures per budget over the shard's runs: int64 [len(curve.budgets)]."""
    failed = failure_block(shard.curve, shard.tree_index, shard.first_run, shard.n_runs,
                           shard.seed, tree_seed=shard.study_seed)
    return np.asarray(failed, dtype=bool).sum(axis=0, dtype=np.int64)
