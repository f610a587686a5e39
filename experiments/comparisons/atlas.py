"""The atlas preset of ``mctslab compare --preset atlas`` (issue 29)."""

from __future__ import annotations

# The atlas (issues 29, 36): how each policy's cost grows with bias, on seed 001's biased trees,
# a P-game with Kocsis & Szepesvari's values [0, 127] and a trap tree (all with int16 scores:
# one kernel per policy).
ATLAS_TREES = (
    *(f"constant(1,{b})" for b in range(1, 8)),
    "constant'(1,13)",
    *(f"random(4,{q})" for q in range(5)),
    "pgame(127)",
    "random(4,3)+trap(3,0.2)",
)
# maxfreq with exact re-scoring beside the paper's method (issue 29 item 6)
ATLAS_ADJUSTERS = ("plain", "maxfreq", "maxfreq(rescore=1)", "static")
# the root policies built for the simple regret (issue 45), UCB1 below the root
ATLAS_ROOTS = ("ucb1(root=sh)", "ucb1(root=gumbel)")


def preset_lists(name: str) -> dict:
    """The trees, policies and adjusters of a preset (``atlas``), and its name."""
    if name != "atlas":
        raise ValueError(f"unknown preset {name!r}: use atlas")
    from bandits import POLICIES

    return {"trees": list(ATLAS_TREES), "policies": [*POLICIES, *ATLAS_ROOTS],
            "adjusters": list(ATLAS_ADJUSTERS), "name": "atlas"}
