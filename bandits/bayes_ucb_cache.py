"""Bayes-UCB's quantiles bounded per child between selections (``bandits.hooks``): each child
keeps a point of its posterior that bounds its quantile, carried by a recurrence per win or
loss, and quantiles are computed only for the children that could be the best
(``index_by_cached_quantiles``), choosing exactly as computing every quantile would.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bayes_ucb import (
    bayesucb_carry,
    bayesucb_log_level,
    bayesucb_point,
    bayesucb_shapes,
    bayesucb_slope,
    bayesucb_tail,
    bayesucb_value,
)
from .hooks import INDEX, PolicyHooks, child_count, child_lost, child_mean
from .indexing import ix

# columns of a child's row: a point x of the child's posterior Beta(SHAPE_A, SHAPE_B), the
# level ln(1 / G) of the posterior's upper tail G there, the quantile's slope G / f(x) in that
# level (``bandits.bayes_ucb.bayesucb_slope``), a bound on the relative rounding error the
# recurrences carried into them (``_carry``) and two pads (rows of 64 bytes, aligned to the
# cache lines). A row of zeros (a run's start) has no point; SHAPE_A, never below 1 for a
# posterior, is set to -1 to drop one (``forget_point``).
POINT, POINT_LEVEL, SHAPE_A, SLOPE, SHAPE_B, CARRIED_ERROR = 0, 1, 2, 3, 4, 5
COLUMNS = 8
# rows of the selection's scratch values [3, b] beside INDEX: an upper bound on a child's
# quantile, and how it is known: the times its bounds were refined in this selection (at most
# ``_REFINES``), or EXACT
UPPER, KNOWN = 1, 2
EXACT = 3.0
# a bound on a quantile (computed to ~1e-15) must clear the best known one by this to skip it
_QUANTILE_MARGIN = 1e-9
_ROUNDING = 2.0 ** -52  # relative rounding error of one floating-point operation (ulp)
# a point whose G and slope may be this far off, relatively, after its recurrences is dropped
# (its bounds, widened by the error, would be too loose to be worth keeping)
_CARRIED_ERROR = 1e-3
_FRESH_ERROR = 64.0 * _ROUNDING  # that of G and s computed at a point from their formulas
# a refinement costs a continued fraction, a quantile several: two refinements, as Newton
# steps, mostly narrow the bounds from ~1e-4 to far below the gaps between children's indices
_REFINES = 2.0


@njit
def _quantile(cache, child, a, b, mean, n_explore, t, c, tables):
    """Bayes-UCB's index of ``child`` (posterior Beta(a, b)) at the parent's t', the exact
    value, kept as the child's point at its level with its slope (or no point where the slope
    is infinite: the quantile 0 at t' = 1)."""
    value = bayesucb_value(mean, n_explore, t, c, tables)
    slope = bayesucb_slope(a, b, value, bayesucb_tail(t, c, tables))
    if slope < np.inf:
        # the quantile is within ~ulp of the true one (4 ulp of 1 allowed): the level of G at
        # it within that over the slope
        _keep(cache, child, value, bayesucb_log_level(t, c, tables), slope, a, b,
              _FRESH_ERROR + 4.0 * _ROUNDING / slope)
    else:
        _keep(cache, child, 0.0, -np.inf, np.inf, a, b, 0.0)
    return value


@njit(inline="always")  # per child of a selection whose point moves
def _keep(cache, child, point, level, slope, a, b, error):
    """Keep ``child``'s point of Beta(a, b) (no point: 0 at level -inf with slope inf, whose
    bounds are [0, inf])."""
    cache[child, POINT] = point
    cache[child, POINT_LEVEL] = level
    cache[child, SLOPE] = slope
    cache[child, SHAPE_A] = a
    cache[child, SHAPE_B] = b
    cache[child, CARRIED_ERROR] = error


@njit(inline="always")  # per child of a selection: the hot path
def _unit_step(cache, child, a, b):
    """Whether Beta(a, b) is ``child``'s point's Beta(a0, b0) after one more win, (a0 + 1, b0),
    or loss, (a0, b0 + 1), up to the rounding of the mean times the count (~1e-13: a change of
    the quantile far inside the margin)."""
    a0, b0, tolerance = cache[child, SHAPE_A], cache[child, SHAPE_B], 8.0 * _ROUNDING * (a + b)
    return ((abs(a - a0 - 1.0) <= tolerance and abs(b - b0) <= tolerance)
            or (abs(a - a0) <= tolerance and abs(b - b0 - 1.0) <= tolerance))


@njit(inline="always")  # per child of a selection whose posterior moved
def _carry(cache, child, a, b):
    """Move ``child``'s point x to its posterior's new shapes (a, b). After one more win or
    loss (``_unit_step``), by the recurrences (``bandits.bayes_ucb.bayesucb_carry``), the
    relative error carried in G and s growing by the step's rounding (that of l_x = ln(1 / G)
    included) times the recurrence's growth factor; after any other change (the restart's
    snapshot, several visits) by G and f at x computed afresh
    (``bandits.bayes_ucb.bayesucb_point``). No point where there was none."""
    old_a, old_b, slope = cache[child, SHAPE_A], cache[child, SHAPE_B], cache[child, SLOPE]
    if not 0.0 < slope < np.inf:  # no point (a row of zeros: none yet)
        _keep(cache, child, 0.0, -np.inf, np.inf, a, b, 0.0)
        return
    point, level = cache[child, POINT], cache[child, POINT_LEVEL]
    if _unit_step(cache, child, a, b):
        win = a > old_a + 0.5
        new_level, new_slope, growth = bayesucb_carry(point, level, slope, old_a, old_b, win)
        error = (cache[child, CARRIED_ERROR] + _ROUNDING * (abs(level) + 16.0)) * growth
        if error <= _CARRIED_ERROR:
            _keep(cache, child, point, new_level, new_slope, a, b, error)
            return
    new_level, new_slope = bayesucb_point(point, a, b)
    _keep(cache, child, point if new_slope < np.inf else 0.0, new_level, new_slope, a, b,
          _FRESH_ERROR)


@njit(inline="always")  # per child of a selection: the hot path
def _bounds(cache, child, a, b, level):
    """Bounds on ``child``'s quantile at ``level`` from its point (``_point_bounds``)."""
    return _point_bounds(cache[child, POINT], cache[child, POINT_LEVEL], cache[child, SLOPE],
                         cache[child, CARRIED_ERROR], a, b, level)


@njit(inline="always")  # per child of a selection: the hot path
def _point_bounds(point, point_level, slope, error, a, b, level):
    """Bounds on the quantile Q(l) of Beta(a, b) at ``level`` l from its point x = ``point`` =
    Q(l_x), l_x = ``point_level``, with slope s = Q'(l_x) and carried error e; d = l - l_x.

    Above, the tangent x + s d (Q is concave). Below, from -Q'' = Q' (1 + Q' h), h = (ln f)'(Q)
    = (a - 1) / Q - (b - 1) / (1 - Q): where h <= 0 (Q at or beyond the mode, which holds
    between l and l_x if it holds at the lower end, Q being increasing) -Q'' <= Q', so Q'
    shrinks at most as e^-d, and Q(l) >= x + s (1 - e^-d) >= x + s (d - d^2 / 2) for
    0 <= d <= 1, Q(l) >= x - s (e^-d - 1) >= x + s (d - d^2) for -1 <= d < 0. Else x itself
    for d >= 0 (Q increasing), or none (-inf). Both are widened by the point's carried error
    e (relative, in G and s): e s for l_x and 4 e s |d| for s in the linear and square terms.
    No point: [0, inf], computed whenever it could be the best."""
    if not slope < np.inf:
        return 0.0, np.inf
    gap = level - point_level
    reach = gap * slope
    widen = error * (slope + 4.0 * abs(reach))
    low = -np.inf
    if abs(gap) <= 1.0:
        low = point + reach - slope * gap * gap * (0.5 if gap >= 0.0 else 1.0) - widen
        lowest = min(low, point)
        if (a - 1.0) * (1.0 - lowest) > (b - 1.0) * lowest:  # below the mode: h > 0 there
            low = -np.inf
    if reach >= widen:
        low = max(low, point)
    return low, point + reach + widen


@njit(inline="always")  # per child of a selection moved by part of a visit
def _step_bounds(cache, child, a, b, level):
    """Bounds on ``child``'s quantile at ``level`` when its posterior moved from its point's
    Beta(a0, b0) to Beta(a, b) within a0 <= a <= a0 + 1, b0 <= b <= b0 + 1 (a draw's half
    point each, or the restart's fraction of one more visit), its point kept as it is: Q is
    increasing in a and decreasing in b, so Q(a0, b0 + 1) <= Q(a, b) <= Q(a0 + 1, b0), the
    point carried to either by its recurrence (``bandits.bayes_ucb.bayesucb_carry``). [0, inf]
    if either carry is too inexact."""
    point, point_level = cache[child, POINT], cache[child, POINT_LEVEL]
    slope, error = cache[child, SLOPE], cache[child, CARRIED_ERROR]
    a0, b0 = cache[child, SHAPE_A], cache[child, SHAPE_B]
    rounding = _ROUNDING * (abs(point_level) + 16.0)
    win_level, win_slope, win_growth = bayesucb_carry(point, point_level, slope, a0, b0, True)
    loss_level, loss_slope, loss_growth = bayesucb_carry(point, point_level, slope, a0, b0,
                                                         False)
    win_error, loss_error = (error + rounding) * win_growth, (error + rounding) * loss_growth
    if not (win_error <= _CARRIED_ERROR and loss_error <= _CARRIED_ERROR):
        return 0.0, np.inf
    low = _point_bounds(point, loss_level, loss_slope, loss_error, a0, b0 + 1.0, level)[0]
    high = _point_bounds(point, win_level, win_slope, win_error, a0 + 1.0, b0, level)[1]
    return low, high


@njit(inline="always")  # per child of a selection: the hot path
def _within_step(cache, child, a, b):
    """Whether Beta(a, b) is within one visit of ``child``'s point's posterior Beta(a0, b0):
    a0 <= a <= a0 + 1, b0 <= b <= b0 + 1 (up to the rounding of the mean times the count),
    from a point (``_step_bounds``)."""
    a0, b0, tolerance = cache[child, SHAPE_A], cache[child, SHAPE_B], 8.0 * _ROUNDING * (a + b)
    return (0.0 < cache[child, SLOPE] < np.inf and a0 - tolerance <= a <= a0 + 1.0 + tolerance
            and b0 - tolerance <= b <= b0 + 1.0 + tolerance)


@njit
def _refine(cache, child, a, b, level, high):
    """Bounds on ``child``'s quantile at ``level`` from a new point y = ``high`` (its upper
    bound, in (0, 1)), where G and f are computed afresh: its level is then close to the
    selection's, so both bounds of ``_bounds`` are tight (second order in the gap)."""
    y_level, y_slope = bayesucb_point(high, a, b)
    if y_slope < np.inf:
        _keep(cache, child, high, y_level, y_slope, a, b, _FRESH_ERROR)
    return _bounds(cache, child, a, b, level)


@njit(inline="always")  # once per selection, into its one caller
def _bound_children(view, tables, values, level):
    """Each child's lower and upper bound on its quantile at ``level`` into ``values[INDEX]``
    and ``values[UPPER]`` from its point, carried or stepped to its posterior's shapes first
    (:func:`index_by_cached_quantiles`); -inf for a lost child, +inf for an unvisited one.
    Returns whether a child is unvisited."""
    cache, first = view.cache, view.first
    unvisited = False
    for j in range(view.b):
        k, child = ix(j), ix(first + j)
        values[INDEX, k] = values[UPPER, k] = -np.inf
        values[KNOWN, k] = 0.0
        if child_lost(view, j):
            continue
        n_explore = child_count(view, j)
        if n_explore <= 0:
            values[INDEX, k], unvisited = np.inf, True
            continue
        shape_a, shape_b = bayesucb_shapes(child_mean(view, j, tables), n_explore)
        if cache[child, SHAPE_A] == shape_a and cache[child, SHAPE_B] == shape_b:
            values[INDEX, k], values[UPPER, k] = _bounds(cache, child, shape_a, shape_b, level)
        elif not _unit_step(cache, child, shape_a, shape_b) and _within_step(cache, child,
                                                                             shape_a, shape_b):
            values[INDEX, k], values[UPPER, k] = _step_bounds(cache, child, shape_a, shape_b,
                                                              level)
        else:
            _carry(cache, child, shape_a, shape_b)
            values[INDEX, k], values[UPPER, k] = _bounds(cache, child, shape_a, shape_b, level)
    return unvisited


@njit
def index_by_cached_quantiles(policy, view, tables, rng, values):
    """Bayes-UCB's indices of the children into ``values[INDEX]`` and their maximum, computing
    few quantiles.

    Each child keeps a point x of its posterior with the level l_x = ln(1 / G(x)) of the upper
    tail there and the slope s = G(x) / f(x). The quantile Q(l) is increasing and concave in
    the level l = ln(1 / tail) (``bandits.bayes_ucb.bayesucb_slope``), and x = Q(l_x), so at
    the selection's level l: Q(l) <= x + (l - l_x) s (the tangent), and Q(l) >= x if l >= l_x,
    or closer, to second order in l - l_x, by the bound on Q's curvature (``_point_bounds``).
    A point is where the child's quantile was last computed or its bounds refined, carried
    since to the posterior's new shapes (``_carry``: a recurrence per win or loss) without a
    quantile, or bounded through the posteriors of a win and a loss when its shapes moved by a
    fraction of one visit (``_step_bounds``: a draw, the restart's counts): mostly only the
    child visited last has moved, by one step. ``values[INDEX]`` holds the lower bounds,
    ``values[UPPER]`` the upper ones.

    Then, as lazy evaluation, until one child's lower bound is above every other's upper bound
    (it is the only best, and its lower bound serves as its index) or the best exact quantile
    is above every upper bound left (the children that reach it have their exact quantiles):
    take the child of the highest upper bound not computed; refine its bounds (``_refine``: G
    and f at its upper bound, a continued fraction), at most ``_REFINES`` times, or compute its
    quantile exactly, and so those of the children of the same posterior (the same value).
    The others keep lower values, so the choice and its ties (broken by the engine) are those
    computing every quantile gives. The bounds are widened by the relative error each point
    carries in G and s (``CARRIED_ERROR``, ``_point_bounds``) and trusted to
    ``_QUANTILE_MARGIN`` beyond that (rounding, ~1e-15)."""
    cache, first, b, t, c = view.cache, view.first, view.b, view.t, policy.c
    level = bayesucb_log_level(t, c, tables)
    if _bound_children(view, tables, values, level):
        return np.inf
    best = -np.inf  # the best exact quantile
    for _ in range(int(_REFINES + 1.0) * b + 1):  # each child refined, then computed: an end
        lead, m = -np.inf, ix(0)
        for j in range(b):
            if values[INDEX, ix(j)] > lead:
                lead, m = values[INDEX, ix(j)], ix(j)
        rival, top, k = -np.inf, -np.inf, ix(0)
        for j in range(b):
            if ix(j) != m:
                rival = max(rival, values[UPPER, ix(j)])
            if values[KNOWN, ix(j)] != EXACT and values[UPPER, ix(j)] > top:
                top, k = values[UPPER, ix(j)], ix(j)
        if rival < lead - _QUANTILE_MARGIN or top < best - _QUANTILE_MARGIN:
            break
        child = ix(first + k)
        n_explore = child_count(view, np.int64(k))
        mean = child_mean(view, np.int64(k), tables)
        shape_a, shape_b = bayesucb_shapes(mean, n_explore)
        if values[KNOWN, k] < _REFINES and 0.0 < top < 1.0:
            low, high = _refine(cache, child, shape_a, shape_b, level, top)
            values[INDEX, k] = max(values[INDEX, k], low)
            values[UPPER, k] = min(top, high)
            values[KNOWN, k] += 1.0
            continue
        value = _quantile(cache, child, shape_a, shape_b, mean, n_explore, t, c, tables)
        best = max(best, value)
        for j in range(b):  # the same posterior has the same quantile: its twins' too
            twin = ix(first + j)
            if values[UPPER, ix(j)] == -np.inf or values[KNOWN, ix(j)] == EXACT:
                continue
            twin_a, twin_b = bayesucb_shapes(child_mean(view, j, tables), child_count(view, j))
            if twin_a == shape_a and twin_b == shape_b:
                values[INDEX, ix(j)] = values[UPPER, ix(j)] = value
                values[KNOWN, ix(j)] = EXACT
                _keep(cache, twin, value, cache[child, POINT_LEVEL], cache[child, SLOPE],
                      shape_a, shape_b, cache[child, CARRIED_ERROR])
    return max(lead, best)


@njit(inline="always")  # per re-scored node: a single store
def forget_point(policy, cache, row):
    """A point carried for other rewards matches no posterior."""
    cache[row, SHAPE_A] = -1.0


HOOKS = PolicyHooks(COLUMNS, index_by_cached_quantiles, None, forget_point)
