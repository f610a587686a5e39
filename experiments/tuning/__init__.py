"""Parameters tuned for the least failure or the most wins: the parameter space a user writes
(``space``), racing on shared instances and runs (``race``, ``synthetic``) and the matches of a
real game (``games``). On ``curves`` and ``tournaments``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {})
