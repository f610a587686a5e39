"""One subpackage per seed paper: its study definition, verdicts, report and figure specs, and
the ``reproduce_<paper>`` function behind ``mctslab reproduce <paper>``. They use the machinery
of ``experiments`` (``curves``, ``studies``, ``tournaments``, ``runtime``); nothing in the
machinery imports them but the CLI.

A paper's package is found here by its folder: its ``__init__.py`` says in ``ABOUT`` what it
reproduces (read without importing it, for ``mctslab reproduce --help``), and exports
``reproduce_<paper>(out, scale, *, workers, scheduler, seed, progress, formats)`` and, where a
paper-scale run is long, ``announce(scale, seed)``: the line printed before it starts."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path


def paper_names() -> list[str]:
    """The papers: every subpackage of this package, sorted."""
    return sorted(module.name for module in pkgutil.iter_modules(__path__) if module.ispkg)


def about(paper: str) -> str:
    """The ``ABOUT`` line of ``paper``'s package, read from its source without importing it."""
    tree = ast.parse((Path(__file__).parent / paper / "__init__.py").read_text())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "ABOUT"):
            return ast.literal_eval(node.value)
    return paper


def paper_module(paper: str):
    """``paper``'s package, imported."""
    return importlib.import_module(f"{__name__}.{paper}")
