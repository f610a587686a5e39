"""The presets of ``mctslab compare --preset``: the atlas, the trap study and the guidance
study."""

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

# The guidance study: PUCT and Gumbel MuZero without playouts, guided by an oracle prior of a
# ladder of measured top-1 agreements (chance: uniform; 1: exact, tau 0.25) and values of a
# ladder of noises (``mcts.synthetic.guidance``), against UCB1 with random playouts; budgets up
# to 2^12, with and without MaxFrequency; the guided searches, which play no playouts, take
# no MaxFrequency (``experiments.comparisons.grid``: an adjuster that reads playout scores is
# not crossed with a search evaluated by value).
GUIDANCE_TREES = ("constant(1,5)", "constant'(1,13)", "random(4,3)", "pgame(127)")
PRIOR_AGREEMENTS = (0.5, 0.7, 0.9)
PRIOR_LADDER = ("uniform", *(f"oracle(tau=0.25,agreement={a})" for a in PRIOR_AGREEMENTS),
                "oracle(tau=0.25)")
VALUE_NOISES = (0, 0.1, 0.3, 1)
GUIDED_SEARCHES = ("puct(qtransform=parent_and_siblings)", "gumbel_muzero")
GUIDANCE_BUDGET = 2**12


def guided_entry(search: str, prior: str, sigma: float) -> str:
    """The policy entry of ``search`` guided by ``prior`` and values of noise ``sigma``."""
    guidance = f"prior={prior},evaluate=value(sigma={sigma:g})"
    return f"{search[:-1]},{guidance})" if search.endswith(")") else f"{search}({guidance})"


GUIDANCE_POLICIES = ("ucb1", *(guided_entry(search, prior, sigma) for search in GUIDED_SEARCHES
                               for prior in PRIOR_LADDER for sigma in VALUE_NOISES))

PRESETS = ("atlas", "traps", "guidance")


def preset_lists(name: str) -> dict:
    """The trees, policies and adjusters of a preset (``PRESETS``), and its name."""
    if name == "atlas":
        from bandits import POLICIES

        return {"trees": list(ATLAS_TREES), "policies": [*POLICIES, *ATLAS_ROOTS],
                "adjusters": list(ATLAS_ADJUSTERS), "name": "atlas"}
    if name == "traps":
        return {"trees": list(TRAP_TREES), "policies": list(TRAP_POLICIES),
                "adjusters": ["plain"], "name": "traps"}
    if name == "guidance":
        return {"trees": list(GUIDANCE_TREES), "policies": list(GUIDANCE_POLICIES),
                "adjusters": ["plain", "maxfreq"], "name": "guidance",
                "max_budget": GUIDANCE_BUDGET}
    raise ValueError(f"unknown preset {name!r}: use {' or '.join(PRESETS)}")
