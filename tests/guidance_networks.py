"""Networks for the tests of a user's guidance (``mcts.synthetic.networks``): the oracle
written again from the tree's arrays, and networks that break the rules."""

import numpy as np

from mcts.synthetic import PriorNetwork, ValueNetwork


def _outcome(scores):
    return np.where(scores > 0, 1.0, np.where(scores == 0, 0.5, 0.0))


def oracle_logits(tree, node, depth):
    """The children's exact outcome at threshold 0 as the mover sees it: ``oracle(tau=1)``."""
    b = tree.branching
    outcome = _outcome(tree.minimax[node * b + 1:node * b + 1 + b])
    return outcome if depth % 2 == 0 else 1.0 - outcome


def exact_value(tree, node, depth):
    """Max's exact outcome at threshold 0: ``value(sigma=0)`` under the plain adjuster."""
    return float(_outcome(tree.minimax[node]))


oracle = PriorNetwork("oracle", oracle_logits, "the oracle at tau = 1, written again")
exact = ValueNetwork("exact", exact_value, "the exact outcome, written again")
wrong_shape = PriorNetwork("wrong_shape", lambda tree, node, depth: np.zeros(tree.branching + 1))
not_finite = PriorNetwork("not_finite", lambda tree, node, depth: np.full(tree.branching, np.nan))
too_high = ValueNetwork("too_high", lambda tree, node, depth: 1.5)
not_a_network = oracle_logits
