"""Plain-Python transcription of mctx's Gumbel root (Danihelka et al. 2022; mctx's
``gumbel_muzero_policy`` with a uniform prior and ``qtransform_completed_by_mix_value``), on
top of the reference MCTS (``reference_mcts``, UCB1 below the root): an oracle for
``mcts.core.root_policies``' Gumbel root written apart from it, lists and loops as mctx's are."""

from __future__ import annotations

import math
import random

from reference_mcts import (
    LOSS,
    WIN,
    Node,
    ReferenceSearch,
    best_score_moves,
    optimal_moves,
)


def considered_visit_sequence(max_considered: int, simulations: int) -> list[int]:
    """mctx's ``get_sequence_of_considered_visits``: the visit count a child must have to be
    visited at each simulation."""
    if max_considered <= 1:
        return list(range(simulations))
    log2max = math.ceil(math.log2(max_considered))
    sequence, visits, considered = [], [0] * max_considered, max_considered
    while len(sequence) < simulations:
        extra = max(1, int(simulations / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return sequence[:simulations]


class ReferenceGumbel(ReferenceSearch):
    """A search of ``budget`` playouts whose root children are chosen by the Gumbel root."""

    def __init__(self, instance, budget: int, *, m: int = 16, c_visit: float = 50.0,
                 c_scale: float = 1.0, raw_value: float = 0.5, **options):
        super().__init__(instance, budget=budget, **options)
        b = self.branching
        self.root.children = [Node(1 + k, 1, 0) for k in range(b)]
        self.gumbel = [-math.log(self.rng.expovariate(1.0)) for _ in range(b)]
        self.table = considered_visit_sequence(min(m, b), budget)
        self.c_visit, self.c_scale, self.raw_value = c_visit, c_scale, raw_value

    def _sigma(self) -> list[float]:
        """sigma(completed and rescaled q) of every root child."""
        children = self.root.children
        visits = [child.visits for child in children]
        q = [child.reward_sum / child.visits if child.visits else 0.0 for child in children]
        total = sum(visits)
        seen = [qa for qa, n in zip(q, visits) if n > 0]
        weighted = sum(seen) / len(seen) if seen else 0.0  # uniform prior
        mixed = (self.raw_value + total * weighted) / (total + 1)
        completed = [qa if n > 0 else mixed for qa, n in zip(q, visits)]
        low, high = min(completed), max(completed)
        rescaled = [(value - low) / max(high - low, 1e-8) for value in completed]
        return [(self.c_visit + max(visits)) * self.c_scale * value for value in rescaled]

    def _argmax_at(self, visits: int) -> int:
        scores = [g + s for g, s in zip(self.gumbel, self._sigma())]
        candidates = [k for k, child in enumerate(self.root.children) if child.visits == visits]
        return max(candidates, key=lambda k: (scores[k], -k))  # the first of the best

    def _choose_child(self, node: Node) -> Node:
        if node is not self.root:
            return super()._choose_child(node)
        simulation = sum(child.visits for child in node.children)
        return node.children[self._argmax_at(self.table[simulation])]

    def gumbel_move(self) -> int:
        """The solver's move once the root is proven; else a child proven won, or the argmax
        of g + sigma(q) among the most visited unless it is proven lost while another child
        is not: then the most visited of those not lost (ties uniformly)."""
        if self.root.proven is not None:
            return self.best_move()
        children = self.root.children
        won = [child for child in children if child.proven == WIN]
        if won:
            return won[0].index - 1
        pick = self._argmax_at(max(child.visits for child in children))
        allowed = [child for child in children if child.proven != LOSS]
        if children[pick].proven != LOSS or not allowed:
            return pick
        most = max(child.visits for child in allowed)
        return self._pick([child for child in allowed if child.visits == most]).index - 1


def gumbel_failure_rate(instance, budgets, runs: int, *, seed: int = 0,
                        failure: str = "outcome", **options) -> list[float]:
    """Fraction of ``runs`` Gumbel-root searches (one per budget and run, run k seeded by
    "seed:k:budget") whose move is not a correct one, per budget."""
    correct = optimal_moves(instance) if failure == "outcome" else best_score_moves(instance)
    rates = []
    for budget in budgets:
        wrong = 0
        for run in range(runs):
            search = ReferenceGumbel(instance, budget,
                                     rng=random.Random(f"{seed}:{run}:{budget}"), **options)
            for _ in range(budget):
                search.step()
            wrong += search.gumbel_move() not in correct
        rates.append(wrong / runs)
    return rates
