"""Studies and runners: failure-rate curves, the results store, the ``mctslab`` command; the
seed papers' studies are in ``experiments.papers``."""

from .curve import Curve
from .failure import failure_block, failure_counts, failure_rate

__all__ = ["Curve", "failure_block", "failure_counts", "failure_rate"]
