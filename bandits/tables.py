"""Precomputed terms of the bandit indices, shared read-only by every run of a kernel call:
for counts 0..n the values ln t, ln max(ln t, 1), sqrt(ln t), 1/sqrt(T) and 1/T (count 0 maps to
0 in all), and Thompson's Gamma constants for the shapes 1 + k/2, k = 0..2n."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class IndexTables(NamedTuple):
    log: np.ndarray  # float64 [n + 1]; ln t
    log_log: np.ndarray  # float64 [n + 1]; ln max(ln t, 1), KL-UCB's ln ln t
    sqrt_log: np.ndarray  # float64 [n + 1]; sqrt(ln t)
    inv_sqrt: np.ndarray  # float64 [n + 1]; 1 / sqrt(T)
    inverse: np.ndarray  # float64 [n + 1]; 1 / T
    gamma_c: np.ndarray  # float64 [2n + 1]; 1 / sqrt(9 (a - 1/3)) for the shape a = 1 + k/2


def index_tables(max_count: int) -> IndexTables:
    """Tables for counts up to ``max_count`` (a run of t playouts needs t)."""
    counts = np.arange(max_count + 1, dtype=np.float64)
    counts[0] = np.inf
    log = np.log(np.maximum(counts, 1.0))
    log[0] = 0.0
    log_log = np.log(np.maximum(log, 1.0))
    shapes = 1.0 + 0.5 * np.arange(2 * max_count + 1)
    gamma_c = 1.0 / np.sqrt(9.0 * (shapes - 1.0 / 3.0))  # as bandits.rng.gamma_constant computes it
    return IndexTables(log, log_log, np.sqrt(log), 1.0 / np.sqrt(counts), 1.0 / counts, gamma_c)
