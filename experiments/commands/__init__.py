"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import analyze, games

COMMANDS = [analyze, games]
