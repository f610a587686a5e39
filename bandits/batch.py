"""Input handling shared by the batched ``<policy>_index`` functions."""

from __future__ import annotations

import numpy as np

from .tables import IndexTables, index_tables


def batch_arms(sums, counts, parent_counts) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                     IndexTables]:
    """Reward sums float64 [n], visit counts and parent visit counts int64 [n] (a scalar parent
    count is broadcast), and index tables covering the largest count."""
    counts = np.asarray(counts, dtype=np.int64)
    parents = np.broadcast_to(np.asarray(parent_counts, dtype=np.int64), counts.shape)
    largest = int(max(counts.max(), parents.max())) if counts.size else 0
    return (np.asarray(sums, dtype=np.float64), counts, np.ascontiguousarray(parents),
            index_tables(largest))
