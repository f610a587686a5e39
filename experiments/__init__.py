"""Studies and runners: failure-rate curves, the policies on plain bandits, the results store,
the ``mctslab`` command; the seed papers' studies are in ``experiments.papers``.

The names below are imported on first use (PEP 562): the ``mctslab`` program imports this
package before it can catch a Ctrl-C, and its compiled modules take most of a second to import
(``experiments.cli.program``)."""

from importlib import import_module

__all__ = ["Curve", "bandit", "failure_block", "failure_counts", "failure_rate"]
_MODULES = {"Curve": ".curve", "bandit": ".bandit_study", "failure_block": ".failure",
            "failure_counts": ".failure_curves", "failure_rate": ".failure_curves"}


def __getattr__(name: str):
    if name in _MODULES:
        return getattr(import_module(_MODULES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
