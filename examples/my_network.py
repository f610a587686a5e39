"""A user's networks for guided search on a synthetic tree (docs/extending.md): a prior that
prefers the move of the highest immediate score for the mover (a one-ply heuristic, blind to
the exact values) and a value that reads the node's score so far through a logistic curve.
Run them with
PYTHONPATH=examples mctslab failure-rate --tree "constant(1,5)" --policy puct \\
    --prior my_network:prior --evaluate my_network:value"""

import math

import numpy as np

from mcts.synthetic import PriorNetwork, ValueNetwork

SHARPNESS = 2.0  # logits per point of score


def greedy_logits(tree, node, depth):
    """The children's scores so far, as the mover sees them (max at even depths), times
    SHARPNESS."""
    b = tree.branching
    children = tree.path_score[node * b + 1:node * b + 1 + b].astype(np.float64)
    return SHARPNESS * (children if depth % 2 == 0 else -children)


def logistic_value(tree, node, depth):
    """Max's chance of winning read from the score so far: 1 / (1 + e^-score)."""
    return 1.0 / (1.0 + math.exp(-float(tree.path_score[node])))


prior = PriorNetwork("greedy", greedy_logits, "the children's scores so far, for the mover")
value = ValueNetwork("logistic", logistic_value, "a logistic curve of the score so far")
