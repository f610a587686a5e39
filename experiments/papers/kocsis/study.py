"""Kocsis & Szepesvari (2006), the P-game experiment of Fig. 2: the study, its per-tree
failure rates with 95% intervals over trees, and the exact random-pick level of each panel.

Each panel is a P-game shape (B, D) with move values uniform in [0, 127] (``pgame(127)``,
``trees.pgame``). The methods (``METHODS``):

- ``uct-paper``: UCT as the paper ran it (Sect. 2.1, 3.1 and footnote 7): rewards the sum of the
  move values along the path (``reward="sum"``), negamax, the bias (ln t / s)^((D+d)/(2D+d))
  with no constant in front (UCB1, c = 1, ``depth_exponent=kocsis``), every state an episode
  visits stored (``store_episodes``), episodes stopped with probability inversely proportional
  to a state's visits (``stop_episodes``), the final move of best average, no solver;
- ``uct``: the lab's UCT with the paper's bias exponent, final move and no solver: outcome
  rewards 1, 1/2, 0, c = sqrt 2, one node added a playout; ``uct+sum``, ``uct+episodes`` and
  ``uct+stop`` switch on one of the paper's options each (the ablation), and ``uct+solver``
  the lab's outcome MCTS-Solver (docs/design.md);
- ``mmmc``: Monte-Carlo planning with minimax value update: uniform selection (epsilon-greedy
  at epsilon 1), every state of an episode stored, the root move of best minimax value over the
  stored means (``final_move="minimax"``);
- ``alphabeta``: iterative deepening at the same budget of leaves evaluated, horizon leaves
  scored by one random playout, a random move until the search is exact (Sect. 3.1: "it would
  pick a move randomly, if the search has not been completed"; ``mcts.baselines``);
  ``alphabeta-best`` plays the last complete iteration's move instead (footnote 8: "choosing
  the best looking action ... does not influence the results");
- ``flatmc``: flat Monte-Carlo, playouts round-robin over the root moves, the best mean.

A failure is a root move outside the moves of best minimax score (``failure="score"``), on
every tree. The search-free levels (``levels``) choose another reading of the paper's
"incorrect move": a move of worse game value (win, draw, loss) than the root's, over the trees
whose root moves do not all have the same game value. Fig. 2's methods run under it too,
named ``value:...`` (``BY_VALUE``): ``value:uct`` the paper's UCT with outcome rewards (under
this reading every move of the root's game value is correct, so the outcome suffices), c = 1,
the episodes stored and stopped; ``value:uct-unstopped`` without the stopping; ``value:mmmc``,
``value:alphabeta``, ``value:flatmc`` as above on those trees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from ...curves.curve import Curve
from ...curves.failure import tree_instance
from ...runtime.pool import completed
from ...studies.shards import plan_shards
from ...studies.store import read_shard
from ...studies.study import Study

TREE = "pgame(127)"
DECISIVE_TREE = f"{TREE}+decisive"


@dataclass(frozen=True)
class Panel:
    """One panel of Fig. 2: the P-game's branching B and depth D."""

    branching: int
    depth: int

    @property
    def name(self) -> str:
        return f"B={self.branching} D={self.depth}"


@dataclass(frozen=True)
class Effort:
    """Trees x runs per tree at every point, budgets 2^0 .. ``max_budget``."""

    trees: int
    runs: int
    max_budget: int

    @property
    def points(self) -> int:
        return self.trees * self.runs


PANELS = (Panel(2, 20), Panel(8, 8))
# Fig. 3's shapes: the depths at B = 2 and the branchings at D = 8 whose iterations to a
# failure rate it plots (the quick scale a subset; shapes of Fig. 2 are its curves)
FIG3_SHAPES = {"quick": {"depth": (4, 6, 8, 10, 12, 20), "branching": (2, 3, 4, 5, 8)},
               "paper": {"depth": tuple(range(4, 21, 2)), "branching": tuple(range(2, 9))}}
FIG3_METHODS = ("uct", "alphabeta")
# by B: quick, about a tenth of the paper's trees (a B=8, D=8 instance is 19 M nodes, seconds
# to draw) and 2^12 iterations; paper: Sect. 3.1's 200 trees x 200 runs a point
SCALES = {
    "quick": {2: Effort(40, 10, 2**12), **{b: Effort(16, 10, 2**12) for b in (3, 4, 5)},
              8: Effort(16, 25, 2**12)},
    "paper": {b: Effort(200, 200, 2**14) for b in range(2, 9)},
}
# runs per shard: quick, one shard per tree (a B=8 shard readies its 19 M-node tree for the
# engine in about 0.6 s, which more shards would repeat); paper, two per tree
BLOCKS = {"quick": 25, "paper": 100}


@dataclass(frozen=True)
class Method:
    """A method of the study: a policy or baseline, its parameters, the ``Curve`` options
    that set its rules, and the reading of the paper's failure: the trees it searches and the
    moves that count as correct (``failure``: ``score`` or ``outcome``)."""

    policy: str
    params: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    tree: str = TREE
    failure: str = "score"


_UCT = Method("ucb1", {"depth_exponent": 1}, {"final_move": "mean", "solver": False})
# the paper's options, each a Curve field or the policy's c (Sect. 2.1, 3.1)
PAPER_OPTIONS = {"sum": ({"c": 1.0}, {"reward": "sum"}),
                 "episodes": ({}, {"store_episodes": True}),
                 "stop": ({}, {"stop_episodes": True})}


def _with(method: Method, *names: str) -> Method:
    params, options = dict(method.params), dict(method.options)
    for name in names:
        params.update(PAPER_OPTIONS[name][0])
        options.update(PAPER_OPTIONS[name][1])
    return Method(method.policy, params, options)


def _by_game_value(method: Method) -> Method:
    """``method`` under the reading the search-free levels choose (``levels``): on the decisive
    trees only (``+decisive``: the root moves do not all have the same game value), a failure
    a root move of worse game value than the root's (``failure="outcome"``)."""
    return Method(method.policy, method.params, method.options, DECISIVE_TREE, "outcome")


# the paper's UCT under that reading: outcome rewards (every move of the root's game value is
# correct), the paper's bias with no constant in front
_UCT_BY_VALUE = Method("ucb1", {"depth_exponent": 1, "c": 1.0}, _UCT.options)

METHODS = {
    "uct-paper": _with(_UCT, *PAPER_OPTIONS),
    "uct": _UCT,
    **{f"uct+{name}": _with(_UCT, name) for name in PAPER_OPTIONS},
    "uct+solver": Method("ucb1", {"depth_exponent": 1}, {"final_move": "mean"}),
    "mmmc": Method("egreedy", {"epsilon": 1.0},
                   {"store_episodes": True, "final_move": "minimax", "solver": False}),
    "alphabeta": Method("alphabeta", {"leaf": "playout", "partial": "random"}),
    "alphabeta-best": Method("alphabeta", {"leaf": "playout"}),
    "flatmc": Method("flatmc"),
}
# Fig. 2's methods under the reading by game value on decisive trees, named by a "value:"
# prefix: the paper's UCT with outcome rewards, with and without the stopped episodes
METHODS |= {
    "value:uct": _by_game_value(_with(_UCT_BY_VALUE, "episodes", "stop")),
    "value:uct-unstopped": _by_game_value(_with(_UCT_BY_VALUE, "episodes")),
    **{f"value:{name}": _by_game_value(METHODS[name]) for name in ("mmmc", "alphabeta",
                                                                  "flatmc")},
}
# the lab's UCT, each of the paper's options alone, the solver, and all the paper's options
UCT_VARIANTS = ("uct", *(f"uct+{name}" for name in PAPER_OPTIONS), "uct+solver", "uct-paper")
# the methods of the paper's Fig. 2, by the lab's names, and the paper's names of them
PAPER_METHODS = {"uct-paper": "UCT", "alphabeta": "AB", "flatmc": "MC", "mmmc": "MMMC"}
# the same under the reading by game value, and the lab's name of the paper's curve each faces
BY_VALUE = {"value:uct": "uct-paper", "value:alphabeta": "alphabeta",
            "value:flatmc": "flatmc", "value:mmmc": "mmmc"}


def effort(scale: str, panel: Panel) -> Effort:
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}: use quick or paper")
    return SCALES[scale][panel.branching]


def method_curve(method: str, panel: Panel, scale: str) -> Curve:
    """The curve of ``method`` on ``panel`` at ``scale``."""
    return _curve(METHODS[method], panel, effort(scale, panel))


def _curve(method: Method, panel: Panel, size: Effort) -> Curve:
    return Curve(method.tree, method.policy, "plain", branching=panel.branching,
                 depth=panel.depth, runs=size.runs, trees=size.trees,
                 max_budget=size.max_budget, policy_params=method.params,
                 failure=method.failure, **method.options)


def fig3_panels(scale: str) -> list[Panel]:
    """Fig. 3's shapes at ``scale``: B = 2 at each depth, then D = 8 at each branching."""
    shapes = FIG3_SHAPES[scale]
    panels = [Panel(2, d) for d in shapes["depth"]] + [Panel(b, 8) for b in shapes["branching"]]
    return list(dict.fromkeys(panels))


def kocsis_study(scale: str = "quick", seed: int = 2015) -> Study:
    """Every method on Fig. 2's panels, and Fig. 3's methods on its other shapes,
    ``BLOCKS[scale]`` runs per shard."""
    effort(scale, PANELS[0])  # an unknown scale is one line
    curves = [method_curve(m, p, scale) for p in PANELS for m in METHODS]
    curves += [method_curve(m, p, scale) for p in fig3_panels(scale) if p not in PANELS
               for m in FIG3_METHODS]
    return Study(tuple(curves), seed=seed, block=BLOCKS[scale], name=f"kocsis-{scale}")


def curve_method(curve: Curve) -> tuple[str, Panel]:
    """(method, panel) of a curve of the study."""
    panel = Panel(curve.branching, curve.depth)
    size = Effort(curve.trees, curve.runs, curve.max_budget)
    for name, method in METHODS.items():
        if _curve(method, panel, size).key == curve.key:
            return name, panel
    raise ValueError(f"{curve.label} is not a curve of the Kocsis study")


def tree_rates(folder, study: Study) -> pd.DataFrame:
    """Failure rate per (panel, method, tree instance, budget) over the runs stored on that
    tree (trees with no stored run are left out)."""
    rows = []
    for curve in study.curves:
        method, panel = curve_method(curve)
        for tree in range(curve.trees):
            failures, runs = np.zeros(len(curve.budgets), np.int64), 0
            for shard in plan_shards(curve, study.block, study.seed):
                if shard.tree_index == tree:
                    counts = read_shard(folder, shard)
                    if counts is not None:
                        failures, runs = failures + counts, runs + shard.n_runs
            if runs:
                rows.append(pd.DataFrame({"panel": panel.name, "method": method, "tree": tree,
                                          "budget": curve.budgets, "failures": failures,
                                          "runs": runs}))
    frame = pd.concat(rows, ignore_index=True)
    return frame.assign(rate=frame["failures"] / frame["runs"])


def over_trees(rates: pd.DataFrame) -> pd.DataFrame:
    """Per (panel, method, budget): the mean over trees of the per-tree failure rate and its
    95% interval mean +- t_{n-1, 0.975} sd / sqrt(n), n trees (clipped to [0, 1]); with equal
    runs per tree the mean is the pooled failure rate."""
    grouped = rates.groupby(["panel", "method", "budget"], sort=False)
    table = pd.DataFrame({"trees": grouped.size(), "runs": grouped["runs"].sum(),
                          "failure_rate": grouped["rate"].mean(),
                          "sd": grouped["rate"].std()}).reset_index()
    n = table["trees"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(n > 1, stats.t.ppf(0.975, np.maximum(n - 1, 1)) * table["sd"]
                        / np.sqrt(n), np.nan)
    return table.assign(ci_low=np.clip(table["failure_rate"] - half, 0, 1),
                        ci_high=np.clip(table["failure_rate"] + half, 0, 1))


def move_set_sizes(instance) -> tuple[int, int]:
    """(best-score moves, optimal-outcome moves) at the root of ``instance``."""
    return int(instance.best_score.sum()), int(instance.optimal.sum())


def root_move_sets(branching: int, depth: int, seed: int, tree: int) -> tuple[int, int]:
    """:func:`move_set_sizes` of the study's tree ``tree``."""
    return move_set_sizes(tree_instance(TREE, branching, depth, seed, tree))


def random_pick_levels(panel: Panel, trees: int, seed: int, workers: int | None = 1,
                       scheduler: str | None = None) -> dict:
    """The failure rate of a move drawn uniformly at the root, exactly, on the study's tree
    instances 0 .. trees - 1 of ``panel`` (drawn on ``workers`` processes or the Dask cluster
    at ``scheduler``): mean over trees of 1 - |best-score moves| / B (the best-score failure)
    and of 1 - |optimal-outcome moves| / B (the lab's outcome failure), with the mean sizes of
    both sets and the count of roots with more than one best-score move."""
    jobs = [(panel.branching, panel.depth, seed, j) for j in range(trees)]
    sizes = np.zeros((trees, 2))
    for j, found in completed(root_move_sets, jobs, workers, scheduler):
        sizes[j] = found
    return pick_levels(panel, sizes)


def pick_levels(panel: Panel, sizes: np.ndarray) -> dict:
    """:func:`random_pick_levels` from the sizes of each tree's sets of best-score and
    optimal-outcome root moves (float [trees, 2])."""
    trees = len(sizes)
    best, optimal = sizes[:, 0], sizes[:, 1]
    level = 1 - best / panel.branching
    return {"panel": panel.name, "branching": panel.branching, "trees": trees,
            "score_level": level.mean(),
            "tied_roots": int((best > 1).sum()),
            "outcome_level": (1 - optimal / panel.branching).mean(),
            "best_moves": best.mean(), "optimal_moves": optimal.mean()}
