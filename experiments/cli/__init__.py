"""The ``mctslab`` command: the program and its handling of errors and Ctrl-C (``mctslab``),
its sub-commands (``commands``), the types of their options (``params``) and the checks of
their sizes against the machine (``limits``). On every other package of ``experiments``;
``python -m experiments.cli`` runs it too."""

from .mctslab import INTERRUPTED, build_parser, interrupted, main, os_error_line, program

__all__ = ["INTERRUPTED", "build_parser", "interrupted", "main", "os_error_line", "program"]
