"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import analyze, games, plot, study

COMMANDS = [analyze, study, plot, games]
