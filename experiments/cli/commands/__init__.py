"""Sub-commands of ``mctslab``, in the order ``--help`` lists them."""

from . import (
    analyze,
    bandit,
    compare,
    failure_rate,
    games,
    inspect,
    kernels,
    play,
    plot,
    registry,
    reproduce,
    study,
    tournament,
    tune,
)

__all__ = ["COMMANDS"]

COMMANDS = [analyze, failure_rate, inspect, reproduce, study, compare, bandit, plot, registry,
            games, play, tournament, tune,
            kernels]
