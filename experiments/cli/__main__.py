"""``python -m experiments.cli``: the ``mctslab`` program."""

from .mctslab import program

program()
