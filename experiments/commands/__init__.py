"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import (
    analyze,
    failure_rate,
    games,
    play,
    plot,
    registry,
    reproduce,
    study,
    tournament,
)

COMMANDS = [analyze, failure_rate, reproduce, study, plot, registry, games, play, tournament]
