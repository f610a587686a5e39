"""Studies and runners: failure-rate curves, the policies on plain bandits, the results store,
the ``mctslab`` command; the seed papers' studies are in ``experiments.papers``."""

from .bandit_study import bandit
from .curve import Curve
from .failure import failure_block, failure_counts, failure_rate

__all__ = ["Curve", "bandit", "failure_block", "failure_counts", "failure_rate"]
