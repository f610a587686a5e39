"""Studies and runners: failure-rate curves, storage, statistics and the ``mctslab`` command."""

from .curve import Curve
from .failure import failure_block, failure_counts, failure_rate

__all__ = ["Curve", "failure_block", "failure_counts", "failure_rate"]
