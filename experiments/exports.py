"""The names a package of ``experiments`` hands on, each imported from its module when first
asked for (PEP 562): importing one module of a package then costs that module alone. The
``mctslab`` program imports its sub-commands before it can catch a Ctrl-C
(``experiments.cli.mctslab.program``), and a package's other modules import scipy, statsmodels
or matplotlib, which take most of a second."""

from collections.abc import Callable
from importlib import import_module


def lazy_exports(package: str, modules: dict[str, tuple[str, ...]]
                 ) -> tuple[list[str], Callable[[str], object]]:
    """``(__all__, __getattr__)`` of ``package``: the names of ``modules`` (each module of the
    package, as ``".grid"``, to the names it hands on), sorted, and the module-level hook that
    imports a name's module on first use."""
    home = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> object:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(home[name], package), name)

    return sorted(home), __getattr__
