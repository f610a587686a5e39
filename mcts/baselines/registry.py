"""Players beside MCTS on synthetic trees: flat Monte-Carlo
(``mcts.baselines.flat_mc``) and alpha-beta with iterative deepening (``mcts.baselines.alphabeta``),
each named where a bandit policy is (``Curve.policy``, ``--policy``, study files, compare grids) and
run at the same budget, a playout or a leaf evaluated.

    flatmc                          round-robin playouts from the root moves, best mean
    alphabeta                       horizon leaves evaluate to a draw (score 0)
    alphabeta(leaf=playout)         ... to one uniformly random playout's score
    alphabeta(leaf=heuristic,sigma=S)  ... to the exact minimax score + N(0, S^2)
    alphabeta(partial=random)       a random move until the search is exact (Kocsis &
                                    Szepesvari's; default: the last complete iteration's)

A record here reads like ``bandits.PolicyInfo`` (defaults, check, stored, to_dict), so the
curve, its labels and tables take either (:func:`player_info`); the run itself is
:func:`run_baseline`, called before the MCTS kernel would be. A baseline plays no MCTS
option: the adjuster is ``plain`` and nothing else is set (:func:`check_baseline`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from bandits import get_policy
from specs import Domain, at_least, check_values

from .alphabeta import DRAW_LEAF, HEURISTIC_LEAF, PLAYOUT_LEAF, alphabeta_runs
from .flat_mc import flat_mc_runs

_LEAVES = Domain("integer", 0, 2, words=(("draw", float(DRAW_LEAF)),
                                         ("playout", float(PLAYOUT_LEAF)),
                                         ("heuristic", float(HEURISTIC_LEAF))))
# the move of an alpha-beta search cut by its budget: the last complete iteration's, or a
# random one until the search is exact (``mcts.baselines.alphabeta``)
BEST_PARTIAL, RANDOM_PARTIAL = 0, 1
_PARTIAL = Domain("integer", 0, 1, words=(("best", float(BEST_PARTIAL)),
                                          ("random", float(RANDOM_PARTIAL))))


@dataclass(frozen=True)
class Baseline:
    """A baseline player's name, its parameters with their defaults and domains, how to name
    and cite it, and its functions: ``run(params, instance, optimal, budget, seeds)`` ->
    (failures, spent) as :func:`run_baseline` returns them, ``check(params, branching,
    max_budget)`` raising a one-line ValueError, ``memory(params, instance)`` bytes per run."""

    name: str
    defaults: Mapping[str, float]
    label: str
    description: str
    citation: str
    run: Callable
    check_curve: Callable
    memory: Callable
    domains: Mapping[str, Domain] = field(default_factory=dict)
    later: Mapping[str, float] = field(default_factory=dict)  # added later: {name: default}

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(self.defaults)

    def check(self, values: Mapping) -> dict[str, float]:
        """``values`` checked against the domains, as floats (``specs.check_values``)."""
        checked = check_values(self.name, values, self.domains)
        return {key: float(value) for key, value in checked.items()}

    def stored(self, values: Mapping) -> dict:
        """``values`` without the parameters added later at their defaults, so that results
        stored before keep their keys."""
        return {key: value for key, value in values.items()
                if not (key in self.later and value == self.later[key])}

    def to_dict(self) -> dict:
        return {"name": self.name, "params": dict(self.defaults),
                "description": self.description, "citation": self.citation,
                "domains": {key: domain.describe() for key, domain in self.domains.items()}}


def _run_flat(params, instance, optimal, budget, seeds):
    return flat_mc_runs(instance.path_score, instance.terminal, optimal, instance.branching,
                        budget, seeds)


def _run_alphabeta(params, instance, optimal, budget, seeds):
    leaf = int(params["leaf"])
    exact = instance.minimax.value if leaf == HEURISTIC_LEAF else np.zeros(0, np.int64)
    return alphabeta_runs(instance.path_score, instance.terminal, optimal, exact,
                          instance.branching, instance.depth, leaf, float(params["sigma"]),
                          budget, seeds, params.get("partial", BEST_PARTIAL) == RANDOM_PARTIAL)


def _check_flat(params, branching, max_budget) -> None:
    """Any budget: one playout chooses a move."""


def _check_alphabeta(params, branching, max_budget) -> None:
    """sigma without the heuristic leaf; a budget below b leaves, the cost of iteration 1
    (it evaluates every root move): a smaller budget never chooses a move."""
    if params["sigma"] != 0 and params["leaf"] != HEURISTIC_LEAF:
        raise ValueError("alphabeta parameter sigma is read with leaf=heuristic only: write "
                         "alphabeta(leaf=heuristic,sigma=...)")
    if max_budget < branching:
        least = 1 << (branching - 1).bit_length()
        raise ValueError(f"alphabeta budget {max_budget} is below one depth-1 iteration "
                         f"(b = {branching} leaves): use --max-budget {least} or more")


def _run_memory(instance) -> int:
    """A run's stack or sums."""
    return 48 * (instance.depth + instance.branching + 1)


def _alphabeta_memory(params, instance) -> int:
    heuristic = params["leaf"] == HEURISTIC_LEAF  # reads the minimax scores
    return _run_memory(instance) + (8 * instance.n_nodes if heuristic else 0)


BASELINES: dict[str, Baseline] = {
    info.name: info
    for info in (
        Baseline("flatmc", {}, "flat Monte-Carlo",
                 "uniform random playouts from each root move in turn; the best mean",
                 "Kocsis & Szepesvari 2006, Sect. 4 (MC)", _run_flat, _check_flat,
                 lambda params, instance: _run_memory(instance)),
        Baseline("alphabeta", {"leaf": float(DRAW_LEAF), "sigma": 0.0,
                               "partial": float(BEST_PARTIAL)},
                 "alpha-beta (iterative deepening)",
                 "iterative deepening, natural move order; budget = leaves evaluated; horizon "
                 "leaves: draw (score 0), a random playout, or heuristic = exact minimax "
                 "score + N(0, sigma^2); cut by the budget, the last complete iteration's "
                 "move (partial=best) or a random one until the search is exact "
                 "(partial=random)",
                 "Knuth & Moore 1975; Kocsis & Szepesvari 2006, Sect. 3.1; Ramanujan, "
                 "Sabharwal & Selman 2011", _run_alphabeta, _check_alphabeta,
                 _alphabeta_memory,
                 {"leaf": _LEAVES, "sigma": at_least(0), "partial": _PARTIAL},
                 {"partial": float(BEST_PARTIAL)}),
    )
}


def is_baseline(name: str) -> bool:
    return name in BASELINES


def player_info(name: str):
    """The record of player ``name``: a baseline's, else the bandit policy's
    (``bandits.get_policy``; an unknown name is its one-line ValueError)."""
    return BASELINES[name] if name in BASELINES else get_policy(name)


def check_baseline(name: str, params: Mapping, branching: int, max_budget: int,
                   options: set[str]) -> None:
    """One-line ValueErrors: an MCTS option set for a baseline (``options``, the names of
    those set), or the baseline's own check of its parameters and budget."""
    if options:
        raise ValueError(f"{name} is not an MCTS search: {min(options)} does not apply "
                         "(use the plain adjuster and no search options)")
    BASELINES[name].check_curve(params, branching, max_budget)


def run_baseline(name: str, params: Mapping, instance, optimal: np.ndarray, budget: int,
                 seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Runs of baseline ``name`` on ``instance`` (a ``trees.TreeInstance``), one per seed:
    failures bool [runs, log2(budget) + 1] against ``optimal`` (bool [b]: the set the MCTS
    curves are judged by) and the playouts or leaves spent, int64 [runs]."""
    return BASELINES[name].run(params, instance, optimal, budget, seeds)


def baseline_memory(name: str, params: Mapping, instance) -> int:
    """Bytes one run of baseline ``name`` allocates."""
    return BASELINES[name].memory(params, instance)
