"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import analyze, failure_rate, games, plot, study

COMMANDS = [analyze, failure_rate, study, plot, games]
