"""The presets of ``mctslab compare --preset``: the atlas and the trap study."""

from __future__ import annotations

# The atlas: how each policy's cost grows with bias, on seed 001's biased trees,
# a P-game with Kocsis & Szepesvari's values [0, 127] and a trap tree (all with int16 scores:
# one kernel per policy).
ATLAS_TREES = (
    *(f"constant(1,{b})" for b in range(1, 8)),
    "constant'(1,13)",
    *(f"random(4,{q})" for q in range(5)),
    "pgame(127)",
    "random(4,3)+trap(3,0.2)",
)
# maxfreq with exact re-scoring beside the paper's method
ATLAS_ADJUSTERS = ("plain", "maxfreq", "maxfreq(rescore=1)", "static")
# the root policies built for the simple regret, UCB1 below the root
ATLAS_ROOTS = ("ucb1(root=sh)", "ucb1(root=gumbel)")

# The trap study (Ramanujan, Sabharwal & Selman 2010): UCT against alpha-beta and flat
# Monte-Carlo as the traps deepen (level k: the opponent wins within k plies) and thicken (a
# share p of the strictly suboptimal moves made traps), on the atlas's trap tree's base; the base
# alone is the row without traps. Alpha-beta with draw leaves sees a level-k trap once its
# iteration reaches depth k + 1; with playout leaves it scores the horizon as MCTS would.
TRAP_LEVELS = (1, 3, 5)
TRAP_DENSITIES = (0.1, 0.3, 0.6)
TRAP_TREES = ("random(4,3)", *(f"random(4,3)+trap({k},{p:g})" for k in TRAP_LEVELS
                               for p in TRAP_DENSITIES))
TRAP_POLICIES = ("ucb1", "alphabeta", "alphabeta(leaf=playout)", "flatmc")

PRESETS = ("atlas", "traps")


def preset_lists(name: str) -> dict:
    """The trees, policies and adjusters of a preset (``PRESETS``), and its name."""
    if name == "atlas":
        from bandits import POLICIES

        return {"trees": list(ATLAS_TREES), "policies": [*POLICIES, *ATLAS_ROOTS],
                "adjusters": list(ATLAS_ADJUSTERS), "name": "atlas"}
    if name == "traps":
        return {"trees": list(TRAP_TREES), "policies": list(TRAP_POLICIES),
                "adjusters": ["plain"], "name": "traps"}
    raise ValueError(f"unknown preset {name!r}: use {' or '.join(PRESETS)}")
