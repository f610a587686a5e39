"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import analyze, failure_rate, games, plot, reproduce, study

COMMANDS = [analyze, failure_rate, reproduce, study, plot, games]
