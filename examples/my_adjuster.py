"""A threshold at the mean playout score so far (+ offset), for a tree whose scores are
centred away from 0. Run it with
PYTHONPATH=examples mctslab failure-rate --tree "random(4,3)" --adjuster my_adjuster:adjuster"""

from typing import NamedTuple

from numba import njit

from enhancements import Adjuster


class MeanScore(NamedTuple):
    offset: float = 0.0  # added to the mean score
    reads_scores = True  # observe the terminal score below proven nodes too


@njit(inline="always")  # once per search, not hot: inlined only as its sibling hooks are
def start(adjuster, score_low, score_high):
    return 0.0, (0.0, 0)  # theta, and the state: the sum of the scores and their number


@njit(inline="always")  # after every playout: the hot path
def observe(adjuster, state, score, reward, theta, since_change):
    total, count = state
    return total + score, count + 1


@njit(inline="always")  # per playout once the threshold has held the freeze
def threshold(adjuster, state, theta, since_change):
    total, count = state
    return total / count + adjuster.offset, state


adjuster = Adjuster("mean_score", MeanScore, start, observe, threshold,
                    description="theta = the mean playout score + offset")
