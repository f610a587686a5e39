"""Variance reduction for stochastic MCTS (seed 003 Sect. 3) as compiled pure functions.

Control variates (Sect. 3.1): an edge (s, a) keeps the moments of its returns X and of its
control variate Y (Eq. 4: the sum over the trajectory's chance events of I[b] - P[b], so
E[Y] = 0), and estimates E[X] by Eq. 2 with mu_Y = 0:

    X_cv = mean(X) + c (mean(Y) - 0),   c = -Cov(X, Y) / Var(Y)  (online, once T >= 50)

and a fixed offline constant while T < 50 (seed 003 Sect. 4.2: 6.0 for Pig and Can't Stop).
With a fixed c the estimate is unbiased for any c; the online plug-in is consistent.

Common random numbers and antithetic variates (Sects. 3.2-3.3) drive a trajectory's chance
events by a stream of ranks: the stream of the k-th visit of a root edge is picked by
``chance_stream``, and a mirrored stream uses rank n - 1 - r wherever the plain one uses r.
"""

from __future__ import annotations

from numba import njit

N, SUM_X, SUM_Y, SUM_XY, SUM_YY = 0, 1, 2, 3, 4  # columns of an edge's moments
MOMENTS = 5
ONLINE_FROM = 50  # T_{s,a} from which c is estimated online (seed 003 Sect. 4.2)


@njit(cache=True)
def observe(moments, x, y):
    """Add one (return X, control variate Y) pair to an edge's moments."""
    moments[N] += 1.0
    moments[SUM_X] += x
    moments[SUM_Y] += y
    moments[SUM_XY] += x * y
    moments[SUM_YY] += y * y


@njit(cache=True)
def cv_coefficient(moments, offline):
    """c = -Cov(X, Y) / Var(Y) from the moments once T >= 50 (0 if Var(Y) = 0), else
    ``offline``."""
    n = moments[N]
    if n < ONLINE_FROM:
        return offline
    var = moments[SUM_YY] - moments[SUM_Y] * moments[SUM_Y] / n
    if var <= 1e-12 * n:
        return 0.0
    return -(moments[SUM_XY] - moments[SUM_X] * moments[SUM_Y] / n) / var


@njit(cache=True)
def estimate(moments, use_cv, offline):
    """The edge's value: mean(X), or mean(X) + c mean(Y) with control variates (Eq. 2)."""
    n = moments[N]
    if n == 0:
        return 0.0
    mean = moments[SUM_X] / n
    if use_cv:
        mean += cv_coefficient(moments, offline) * moments[SUM_Y] / n
    return mean


@njit(cache=True)
def chance_stream(visits, action_index, n_actions, crn, av):
    """(key, mirrored) of the stream driving the trajectory of a root edge's visit number
    ``visits`` (= T_{s,a} before the visit): CRN shares stream k across the actions (the list
    E_s of Sect. 3.2 indexed by T_{s,a}); AV pairs visits 2j and 2j + 1 on stream j, the second
    mirrored (Sect. 3.3); alone, each action has its own streams."""
    k = visits // 2 if av else visits
    mirrored = av and visits % 2 == 1
    key = k if crn else k * n_actions + action_index
    return key, mirrored
