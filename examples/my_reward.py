"""A reward rule of one's own: a win is worth more the larger its margin over the threshold,
r = 1/2 + 1/2 tanh((score - theta) / scale), a draw 1/2 (the outcome's ordering, smoothed by the
score). Run it with
PYTHONPATH=examples mctslab failure-rate --tree "random(4,2)" --reward my_reward:rule"""

import math
from typing import NamedTuple

from numba import njit

from mcts.synthetic.score_reward import RewardRule


class Margin(NamedTuple):
    scale: float = 2.0  # the margin that earns about 0.88


@njit
def reward(rule, score, theta, low, high):
    """Max's reward in [0, 1] of a terminal of ``score`` under the threshold ``theta``, in a
    tree whose terminal scores span ``low``..``high``."""
    return 0.5 + 0.5 * math.tanh((score - theta) / rule.scale)


rule = RewardRule("margin", Margin, reward,
                  description="1/2 + 1/2 tanh((score - theta) / scale)")
