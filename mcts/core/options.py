"""Options of a search that exclude each other, and the one check that says so: for the synthetic
engine's options (``experiments.Curve``: --rescore, --shaping, --discount, --backup, --reward,
--root, --final-move) and the parts of a game player's spec (``mcts.players``: quality, rb,
qb, mast, random). Also the engine's flags that an adjuster entry spells ``name=1``."""

from __future__ import annotations

from collections.abc import Callable, Collection

# the synthetic engine's flags (``experiments.Curve`` fields) that compare's adjuster entries
# and the tables' adjuster labels carry as ``maxfreq(rescore=1)``
ADJUSTER_FLAGS = ("rescore", "terminals_at_threshold")

# (option, option, why they exclude each other)
EXCLUSIONS = (
    ("rescore", "shaping", "exact re-scoring keeps no shaped rewards to re-score"),
    ("rescore", "discount", "exact re-scoring re-scores undiscounted rewards"),
    ("backup", "discount", "a backup rule of one's own replaces the built-in discount"),
    ("backup", "rescore", "a backup rule of one's own replaces the backup re-scoring corrects"),
    ("reward", "rescore", "exact re-scoring re-scores the outcome, not another reward rule"),
    ("reward", "shaping", "the shaping's bonuses shape the outcome, not another reward rule"),
    ("root", "final_move", "a root policy plays its own move"),
    ("quality", "rb", "reward = quality replaces the outcome that the bonus shapes"),
    ("quality", "qb", "reward = quality replaces the outcome that the bonus shapes"),
    ("mast", "random", "both choose the playouts' moves"),
)


def check_exclusions(chosen: Collection[str], name: Callable[[str], str] = "--{}".format,
                     context: str = "") -> None:
    """A one-line ValueError for the first two ``chosen`` options that exclude each other,
    saying why and to drop one; ``name`` spells an option as the user wrote it, ``context``
    (e.g. "player spec 'uct+quality': ") opens the message."""
    for first, second, why in EXCLUSIONS:
        if first in chosen and second in chosen:
            raise ValueError(f"{context}{name(first)} and {name(second)} exclude each other "
                             f"({why}): drop one")
