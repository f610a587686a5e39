"""Plain-Python reference MCTS for the synthetic trees of seed 001 (Imagawa & Kaneko).

An independent, deliberately simple implementation: one search is a tree of ``Node`` objects and
one ``random.Random``. It is the statistical oracle for the compiled engine and the "plain-Python
UCT" baseline of the speed benchmark, so it follows the lab's fixed decisions (DESIGN.md §3-5):

* Selection by UCB1 / KL-UCB / Thompson sampling (seed 001, Eqs. 1-3), with the exploration
  restart of Eqs. 6-8 after a threshold change (lazy per-node snapshots, see ``Node``).
* A leaf is played out from on its first visit and expanded on its second: all b children are
  added and one of them, drawn uniformly, is played out from. Terminals (at any depth, as the
  instance's ``terminal`` says) in the tree are scored at threshold 0 (with
  ``terminals_at_threshold`` at the current effective threshold, an ablation) and proven;
  MCTS-Solver with draws backs proofs up.
* A run fails when its move is outside the optimal root moves, found here by plain recursive
  minimax (``optimal_moves``), or with ``failure="score"`` outside the root moves of best
  minimax score (``best_score_moves``, Kocsis & Szepesvari 2006).
* The move played is the most visited (``final_move="visits"``), the best mean (``"mean"``)
  or the max-robust child (``"robust"``: most visited and best mean, else the largest reward
  sum), after a root move proven won and passing over those proven lost.
* The playout's reward is the outcome (``reward="outcome"``), its score mapped linearly
  onto [0, 1] over the tree's terminal scores (``"linear"``) or the score itself (``"sum"``,
  Kocsis & Szepesvari 2006).
* Kocsis & Szepesvari's episodes: with ``store_episodes`` every node the descent reaches is
  expanded and selected through, down to a terminal; with ``stop_episodes`` the descent stops
  at a node of n visits with probability 1/n (always at n = 0) and plays out from there. The
  ``"minimax"`` final move plays the root child of best negamax value over the tree, leaves
  valued by their mean (their MMMC), computed here by recursion.
* UCB1 with ``depth_exponent`` 1: the bias c (ln t' / T')^((D + d) / (2D + d)) at a node of
  depth d, D the game's length left from the node: the tree's depth less d (Kocsis &
  Szepesvari 2006, Sect. 3.1).
* Playouts are uniformly random; their reward uses the current effective threshold.
* Threshold adjusters: plain, static (the oracle threshold of Eq. 5), score and value situational
  (Algorithms 1-2) and Maximum Frequency (Algorithm 3), with the 10-playout freeze.
* Reward shaping (seed 000, Eqs. 4-10; DESIGN.md §6), a spec as ``mcts.synthetic.shaping`` reads it:
the
  Relative Bonus on d = the depth of the terminal a playout reaches, the Qualitative Bonus on
  q = |score - threshold| / (score range + 1), b(lambda) = tanh(k lambda / 2), a fixed or
  |Cov(Y^w, Y) / Var(Y)|, per-winner statistics of the earlier playouts, none in the first 5%
  of the budget; max's value (r' + 1) / 2 for UCB1, (r' + R) / (2R) clipped to [0, 1] else.
* A discount gamma per ply (``discount``, ``mcts.core.backup``): the node at depth p of a playout
  ending at depth L keeps 1/2 + gamma^(L - p) (r - 1/2) of its mover's reward r.
* Optionally (``rescore``, an ablation of DESIGN.md §5) each node keeps the scores of the playouts
  through it, and on every threshold change its reward sum is recomputed from them at the new
  threshold; rewards of terminals reached inside the tree stay at their threshold-0 value.

Rewards are in {0, 0.5, 1} (shaped: real). A node's ``reward_sum`` and its proven value are from
the view of the player who made the move into it (max enters odd plies, min even ones).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable

import numpy as np
from scipy import special

from mcts.core.rewards import ONLINE
from mcts.synthetic.shaping import parse_shaping
from trees import TreeInstance, analyze

WIN, DRAW, LOSS = 1, 0, -1  # proven values, from the view of the player who moved into the node
SQRT2 = math.sqrt(2.0)
KLUCB_TOLERANCE = 1e-9
SHAPING_WARMUP = 0.05  # seed 000: the first 5% of the budget is not shaped


def outcome(score: int, threshold: float) -> float:
    """Max player's reward: 1 if score > threshold, 0.5 if equal, 0 below (seed 001, Sect. III)."""
    if score > threshold:
        return 1.0
    return 0.5 if score == threshold else 0.0


def effective_threshold(theta: float) -> float:
    """theta itself when integral, else floor(theta) + 0.5: scores are integers (DESIGN.md §5)."""
    return theta if theta == math.floor(theta) else math.floor(theta) + 0.5


# --- bandit indices -------------------------------------------------------------------------
# Each index takes the child's reward sum and visit count T_i (the mean uses all samples), the
# exploration counts T'_i and t' (equal to T_i and t without the restart), and the search rng.

Index = Callable[..., float]


def ucb1_index(total: float, count: int, fresh_count: int, fresh_parent: int,
               rng: random.Random, *, c: float = SQRT2, depth_exponent: float = 0.0,
               depth: int = 0, plies_left: int = 1) -> float:
    """mean_i + c sqrt(ln t' / T'_i) (seed 001, Eqs. 1 and 6); with ``depth_exponent`` 1 the
    power (D + d) / (2D + d) for a parent at ``depth`` d with D plies of the game left below
    it (``plies_left``) instead of the square root; +inf when T'_i = 0."""
    if fresh_count == 0:
        return math.inf
    if depth_exponent:
        power = (plies_left + depth) / (2 * plies_left + depth)
        return total / count + c * (math.log(fresh_parent) / fresh_count) ** power
    return total / count + c * math.sqrt(math.log(fresh_parent) / fresh_count)


def bernoulli_kl(p: float, q: float) -> float:
    """kl(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)) with 0 ln 0 = 0, for q < 1."""
    kl = 0.0
    if p > 0.0:
        kl += p * math.log(p / q)
    if p < 1.0:
        kl += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return kl


def klucb_upper(mean: float, bound: float) -> float:
    """Largest q in [mean, 1] with kl(mean, q) <= bound, by bisection to ``KLUCB_TOLERANCE``;
    exactly the mean when bound <= 0."""
    if bound <= 0.0 or mean >= 1.0:
        return mean
    low, high = mean, 1.0
    while high - low > KLUCB_TOLERANCE:
        middle = 0.5 * (low + high)
        if bernoulli_kl(mean, middle) <= bound:
            low = middle
        else:
            high = middle
    return low


def klucb_index(total: float, count: int, fresh_count: int, fresh_parent: int,
                rng: random.Random, *, c: float = 0.0) -> float:
    """max q: T'_i kl(mean_i, q) <= ln t' + c ln(max(ln t', 1)) (seed 001, Eqs. 2 and 7).

    +inf when T'_i = 0; for t' <= 1 the right-hand side is 0, so q = mean_i."""
    if fresh_count == 0:
        return math.inf
    log_t = math.log(fresh_parent)
    bound = log_t + c * math.log(max(log_t, 1.0))
    return klucb_upper(total / count, bound / fresh_count)


def thompson_index(total: float, count: int, fresh_count: int, fresh_parent: int,
                   rng: random.Random) -> float:
    """A draw from Beta(alpha + 1, beta + 1), alpha = mean_i T'_i, beta = (1 - mean_i) T'_i
    (seed 001, Eqs. 3 and 8); an unvisited child draws from Beta(1, 1)."""
    mean = total / count if count else 0.0
    return rng.betavariate(mean * fresh_count + 1.0, (1.0 - mean) * fresh_count + 1.0)


def ucb1tuned_index(total: float, count: int, fresh_count: int, fresh_parent: int,
                    rng: random.Random, *, square_sum: float) -> float:
    """UCB1-Tuned (Auer et al. 2002, Sect. 4): mean + sqrt(ln t' / T' min(1/4, V)),
    V = variance + sqrt(2 ln t' / T'); +inf when T'_i = 0."""
    if fresh_count == 0:
        return math.inf
    mean, log_ratio = total / count, math.log(fresh_parent) / fresh_count
    variance = max(square_sum / count - mean * mean, 0.0) + math.sqrt(2.0 * log_ratio)
    return mean + math.sqrt(log_ratio * min(0.25, variance))


def ucbv_index(total: float, count: int, fresh_count: int, fresh_parent: int,
               rng: random.Random, *, square_sum: float, zeta: float = 1.2,
               c: float = 1.0) -> float:
    """UCB-V (Audibert et al. 2009, Eq. 1): mean + sqrt(2 V E / T') + 3 c E / T',
    E = zeta ln t'; +inf when T'_i = 0."""
    if fresh_count == 0:
        return math.inf
    mean, exploration = total / count, zeta * math.log(fresh_parent) / fresh_count
    variance = max(square_sum / count - mean * mean, 0.0)
    return mean + math.sqrt(2.0 * variance * exploration) + 3.0 * c * exploration


def moss_index(total: float, count: int, fresh_count: int, fresh_parent: int,
               rng: random.Random, *, arms: int) -> float:
    """MOSS (Audibert & Bubeck 2009), horizon t': mean + sqrt(ln+(t' / (K T')) / T')."""
    if fresh_count == 0:
        return math.inf
    return total / count + math.sqrt(
        max(math.log(fresh_parent / (arms * fresh_count)), 0.0) / fresh_count)


def parent_and_siblings_q(total: float, count: int, fresh_count: int,
                          siblings: list[tuple[float, int, int]]) -> float:
    """mctx's ``qtransform_by_parent_and_siblings`` for one child, written as mctx writes it
    (arrays, the unvisited completed by the minimum): the node's value (here the siblings'
    reward over their visits), safe Q = the visited siblings' means else that value, their
    min and max with the value, then (Q or the min) - min over max(max - min, 1e-8).
    ``siblings``: (reward sum, visits, T') of the children the selection considers."""
    sums, visits, fresh = (np.array(column, dtype=float) for column in zip(*siblings))
    node_value = sums.sum() / visits.sum() if visits.sum() > 0 else 0.5
    qvalues = np.divide(sums, visits, out=np.zeros_like(sums), where=visits > 0)
    safe = np.where(fresh > 0, qvalues, node_value)
    low, high = min(node_value, safe.min()), max(node_value, safe.max())
    completed = total / count if fresh_count > 0 else low
    return (completed - low) / max(high - low, 1e-8)


def puct_index(total: float, count: int, fresh_count: int, fresh_parent: int,
               rng: random.Random, *, arms: int, siblings: list, c_init: float = 1.25,
               c_base: float = 19652.0, qtransform: float = 0.0) -> float:
    """PUCT (Silver et al. 2018) with prior 1/K; Q raw (an unvisited child's 1/2) or, with
    ``qtransform`` 1, by parent and siblings (``parent_and_siblings_q``)."""
    if qtransform:
        q = parent_and_siblings_q(total, count, fresh_count, siblings)
    else:
        q = total / count if count else 0.5
    scale = c_init + math.log((fresh_parent + c_base + 1.0) / c_base)
    return q + math.sqrt(fresh_parent) / (arms * (1.0 + fresh_count)) * scale


def egreedy_index(total: float, count: int, fresh_count: int, fresh_parent: int,
                  rng: random.Random, *, explore: bool, epsilon: float = 0.1) -> float:
    """Epsilon-greedy (Sutton & Barto 2018, Sect. 2.2) given the selection's coin: on an
    exploring selection 1/2 for every child (so the tie-break draws one uniformly), else the
    mean, +inf when T'_i = 0."""
    if explore:
        return 0.5
    if fresh_count == 0:
        return math.inf
    return total / count


def egreedy_coin(rng: random.Random, *, epsilon: float = 0.1) -> dict:
    """Epsilon-greedy's per-selection draw: explore with probability epsilon."""
    return {"explore": rng.random() < epsilon}


def bayesucb_index(total: float, count: int, fresh_count: int, fresh_parent: int,
                   rng: random.Random, *, c: float = 0.0) -> float:
    """Bayes-UCB (Kaufmann et al. 2012, Algorithm 1): the 1 - 1/(t' max(ln t', 1)^c) quantile of
    Beta(S + 1, T' - S + 1), S = mean T'; 0 when that level is 0 (t' = 1); +inf when T' = 0.
    The quantile is scipy's (Boost's) inverse of I_x, read on the lower tail of Beta(T' - S + 1,
    S + 1), i.e. ``scipy.stats.beta.isf`` without its per-call overhead."""
    if fresh_count == 0:
        return math.inf
    tail = 1.0 / (fresh_parent * max(math.log(fresh_parent), 1.0) ** c)
    if tail >= 1.0:
        return 0.0
    successes = total / count * fresh_count
    return 1.0 - float(special.betaincinv(fresh_count - successes + 1.0, successes + 1.0, tail))


POLICIES: dict[str, Index] = {"ucb1": ucb1_index, "klucb": klucb_index,
                              "thompson": thompson_index, "ucb1tuned": ucb1tuned_index,
                              "ucbv": ucbv_index, "moss": moss_index, "puct": puct_index,
                              "egreedy": egreedy_index, "bayesucb": bayesucb_index}
# what an index reads besides (total, count, T', t', rng), by keyword
CONTEXT = {"ucb1tuned": ("square_sum",), "ucbv": ("square_sum",), "moss": ("arms",),
           "puct": ("arms", "siblings")}
# a draw made once per selection (with the policy's parameters) whose keywords every child's
# index reads
BEGINS: dict[str, Callable[..., dict]] = {"egreedy": egreedy_coin}
# the indices that draw (from the run's stream): compared through the searches' failure rates
# (tests/test_engine.py), the others also one index at a time (tests/test_policy_indices.py)
DRAWS = {"thompson"}


# --- threshold adjusters --------------------------------------------------------------------
# An adjuster owns theta. It observes every iteration's terminal score and max's reward, may set
# theta when consulted (only after the freeze), and hears of every effective-threshold change.

class FixedThreshold:
    """``plain`` (theta = 0) and ``static`` (theta = argmax Delta of Eq. 5, an oracle)."""

    def __init__(self, theta: float = 0.0):
        self.theta = theta

    def observe(self, score: int, reward: float) -> None:
        pass

    def consult(self) -> None:
        pass

    def threshold_changed(self) -> None:
        pass


class ScoreSituational(FixedThreshold):
    """Dynamic komi by score (seed 001, Algorithm 1): every ``interval`` playouts,
    theta += rate * mean(score - theta) over the playouts since the last update, with
    rate = 1 / (1 + exp(c * phase)) and phase = 0 moves played + s."""

    def __init__(self, *, s: float = 0.2, c: float = 24.0, interval: int = 1):
        super().__init__(0.0)
        self.rate = 1.0 / (1.0 + math.exp(c * s))
        self.interval = interval
        self.excess = 0.0  # sum of (score - theta) since the last update
        self.count = 0  # playouts since the last update

    def observe(self, score: int, reward: float) -> None:
        self.excess += score - self.theta
        self.count += 1

    def consult(self) -> None:
        if self.count >= self.interval:
            self.theta += self.rate * self.excess / self.count
            self.excess, self.count = 0.0, 0


class ValueSituational(FixedThreshold):
    """Dynamic komi by value (seed 001, Algorithm 2): X = max's mean reward since the last
    threshold change, read once ``interval`` playouts ran under the current threshold. If
    X < x_lo: the ratchet takes theta when theta > 0, and theta -= 1; elif X > x_hi and
    theta < ratchet: theta += 1. The ratchet starts at +inf."""

    def __init__(self, *, x_lo: float = 0.05, x_hi: float = 0.9, interval: int = 10):
        super().__init__(0.0)
        self.x_lo, self.x_hi, self.interval = x_lo, x_hi, interval
        self.ratchet = math.inf
        self.wins = 0.0  # sum of max's rewards since the last change
        self.count = 0  # playouts since the last change (= the schedule's n_since_change)

    def observe(self, score: int, reward: float) -> None:
        self.wins += reward
        self.count += 1

    def consult(self) -> None:
        if self.count < self.interval:
            return
        x = self.wins / self.count
        if x < self.x_lo:
            if self.theta > 0:
                self.ratchet = self.theta
            self.theta -= 1
        elif x > self.x_hi and self.theta < self.ratchet:
            self.theta += 1

    def threshold_changed(self) -> None:
        self.wins, self.count = 0.0, 0


class MaxFrequency(FixedThreshold):
    """Maximum Frequency (seed 001, Algorithm 3): theta = mode of all playout scores + offset,
    no effect while the mode is 0. The mode is kept incrementally: the score just counted takes
    over when its count exceeds the mode's, or equals it and the score is strictly nearer theta
    (on an equal distance the incumbent stays; the first score observed is the first mode)."""

    def __init__(self, *, offset: float = 0.0):
        if not -0.5 <= offset <= 0.5:
            raise ValueError(f"maxfreq offset {offset} must lie in [-0.5, 0.5]")
        super().__init__(0.0)
        self.offset = offset
        self.histogram: dict[int, int] = {}
        self.mode: int | None = None

    def observe(self, score: int, reward: float) -> None:
        count = self.histogram.get(score, 0) + 1
        self.histogram[score] = count
        if self.mode is None:
            self.mode = score
        elif score != self.mode:
            mode_count = self.histogram[self.mode]
            if count > mode_count or (
                count == mode_count and abs(score - self.theta) < abs(self.mode - self.theta)
            ):
                self.mode = score

    def consult(self) -> None:
        if self.mode is not None and self.mode != 0:
            self.theta = self.mode + self.offset


ADJUSTERS = ("plain", "static", "score", "value", "maxfreq")


def make_adjuster(name: str, instance: TreeInstance, params: dict | None = None) -> FixedThreshold:
    """The adjuster ``name`` with keyword ``params``; ``static`` reads the exact analysis."""
    params = params or {}
    if name == "plain":
        return FixedThreshold(**params)
    if name == "static":
        return FixedThreshold(analyze(instance).static_threshold)
    if name == "score":
        return ScoreSituational(**params)
    if name == "value":
        return ValueSituational(**params)
    if name == "maxfreq":
        return MaxFrequency(**params)
    raise ValueError(f"unknown adjuster {name!r}: use one of {', '.join(ADJUSTERS)}")


class ThresholdSchedule:
    """The effective threshold around an adjuster: it is consulted after an iteration only once
    ``freeze`` iterations ran under the current effective threshold (seed 001, end of
    Sect. IV-B); every change of the effective threshold opens a new epoch (t_c of Eqs. 6-8)."""

    def __init__(self, adjuster: FixedThreshold, freeze: int = 10):
        self.adjuster = adjuster
        self.freeze = freeze
        self.threshold = effective_threshold(adjuster.theta)
        self.n_since_change = 0
        self.epoch = 0

    def record(self, score: int, reward: float) -> bool:
        """Account for one finished iteration; True when the effective threshold changed."""
        self.n_since_change += 1
        self.adjuster.observe(score, reward)
        if self.n_since_change < self.freeze:
            return False
        self.adjuster.consult()
        threshold = effective_threshold(self.adjuster.theta)
        if threshold == self.threshold:
            return False
        self.threshold = threshold
        self.n_since_change = 0
        self.epoch += 1
        self.adjuster.threshold_changed()
        return True


# --- the search -----------------------------------------------------------------------------

class Node:
    """A search-tree node: heap index into the tree instance, statistics of the move into it.

    ``child_base`` is T_i(t_c) of Eqs. 6-8 (taken by the parent), ``parent_base`` the node's own
    t_c (taken when it selects among its children) and ``snap_epoch`` the epoch in which the node
    last refreshed them. A node expanded in epoch e starts with (e, 0): its children's visits all
    come after t_c."""

    __slots__ = (
        "child_base",
        "children",
        "depth",
        "fixed_square",
        "fixed_sum",
        "index",
        "parent_base",
        "proven",
        "reward_sum",
        "scores",
        "snap_epoch",
        "square_sum",
        "visits",
    )

    def __init__(self, index: int, depth: int, epoch: int):
        self.index = index
        self.depth = depth
        self.visits = 0
        self.reward_sum = 0.0
        self.square_sum = 0.0
        self.children: list[Node] | None = None
        self.proven: int | None = None
        self.parent_base = 0
        self.child_base = 0
        self.snap_epoch = epoch
        self.scores: dict[int, int] = {}  # rescore: played-out score -> playouts through here
        self.fixed_sum = 0.0  # rescore: rewards of the terminals reached inside the tree
        self.fixed_square = 0.0


class Shaping:
    """Seed 000's bonuses for one search: ``value`` maps max's outcome of a playout to the
    reward backed up (the outcome itself without shaping)."""

    def __init__(self, instance: TreeInstance, spec: str, policy: str, budget: int):
        record = parse_shaping(spec)
        # (name, k, a): the bonuses in use
        self.bonuses = [(name, getattr(record, f"{name}_k"), getattr(record, f"{name}_a"))
                        for name in ("rb", "qb") if getattr(record, f"{name}_k", 0.0) > 0]
        self.bound = 1.0 + sum(1.0 if a == ONLINE else a for _, _, a in self.bonuses)
        self.seed_scale = policy == "ucb1"
        scores = instance.path_score[instance.terminals()[0]]
        self.span = int(scores.max()) - int(scores.min()) + 1
        self.warmup = SHAPING_WARMUP * budget
        self.played = 0
        self.seen = {name: [] for name, _, _ in self.bonuses}  # (winner, observation)

    def value(self, reward: float, margin: float, length: int) -> float:
        """Max's reward of a playout with outcome ``reward``, the winner's ``margin`` over the
        threshold and ``length`` moves from the root."""
        shaped, self.played = self.played >= self.warmup, self.played + 1
        if not self.bonuses or reward == 0.5:
            return reward
        winner = 0 if reward == 1.0 else 1
        gain = 1.0
        for name, k, a in self.bonuses:
            y = length if name == "rb" else margin / self.span
            seen = self.seen[name]
            mine = [value for w, value in seen if w == winner]
            if shaped and len(mine) > 1:
                mean = sum(mine) / len(mine)
                sd = math.sqrt(sum((v - mean) ** 2 for v in mine) / (len(mine) - 1))
                if sd > 0:
                    lam = (mean - y if name == "rb" else y - mean) / sd
                    weight = a if a != ONLINE else self._online_weight(seen)
                    gain += weight * math.tanh(k * lam / 2)
            seen.append((winner, y))
        gain = gain if winner == 0 else -gain
        if self.seed_scale:
            return (gain + 1.0) / 2.0
        return min(max((gain + self.bound) / (2.0 * self.bound), 0.0), 1.0)

    @staticmethod
    def _online_weight(seen: list[tuple[int, float]]) -> float:
        """a' = |Cov(Y^w, Y) / Var(Y)| over the earlier playouts, Y^w = Y when max won."""
        ys = [y for _, y in seen]
        wins = [y if w == 0 else 0.0 for w, y in seen]
        mean, mean_w = sum(ys) / len(ys), sum(wins) / len(wins)
        var = sum((y - mean) ** 2 for y in ys)
        cov = sum((yw - mean_w) * (y - mean) for yw, y in zip(wins, ys))
        return abs(cov / var) if var > 0 else 0.0


def solved_value(children: list[Node]) -> int | None:
    """MCTS-Solver with draws: the value of a node for its mover from its children's values
    (for their mover): LOSS if a child is a WIN, else once all are proven minus the best."""
    values = [child.proven for child in children]
    if WIN in values:
        return LOSS
    if None in values:
        return None
    return -max(values)


class ReferenceSearch:
    """One MCTS search on a tree instance; ``step()`` runs one playout (iteration)."""

    def __init__(self, instance: TreeInstance, *, policy: str = "ucb1",
                 adjuster: str = "plain", policy_params: dict | None = None,
                 adjuster_params: dict | None = None, restart: bool | None = None,
                 freeze: int = 10, rescore: bool = False,
                 rng: random.Random | int | None = None, shaping: str = "", budget: int = 1,
                 discount: float = 1.0, reward: str = "outcome", final_move: str = "visits",
                 terminals_at_threshold: bool = False, store_episodes: bool = False,
                 stop_episodes: bool = False):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")
        self.branching = instance.branching
        self.depth = instance.depth
        self.edges = instance.edge_value.tolist()
        self.terminal = instance.terminal.tolist()
        self.index_params = policy_params or {}
        self.index = POLICIES[policy]
        self.context = CONTEXT.get(policy, ())
        if policy == "ucb1" and self.index_params.get("depth_exponent"):
            self.context = ("depth", "plies_left")
        self.begin = BEGINS.get(policy)
        self.restart = adjuster == "maxfreq" if restart is None else restart
        self.schedule = ThresholdSchedule(make_adjuster(adjuster, instance, adjuster_params),
                                          freeze)
        self.rescore = rescore
        self.terminals_at_threshold = terminals_at_threshold
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.root = Node(0, 0, 0)
        self.final: int | None = None  # the move chosen once the root is solved
        self.shaping = Shaping(instance, shaping, policy, budget)
        self.discount = discount
        if reward not in ("outcome", "linear", "sum"):
            raise ValueError(f"unknown reward {reward!r}: use outcome, linear or sum")
        if final_move not in ("visits", "mean", "robust", "minimax"):
            raise ValueError(f"unknown final move {final_move!r}: use visits, mean, robust or "
                             "minimax")
        self.reward_rule = reward
        self.store_episodes, self.stop_episodes = store_episodes, stop_episodes
        self.final_move = final_move
        scores = instance.path_score[instance.terminals()[0]]
        self.score_low, self.score_high = int(scores.min()), int(scores.max())

    def step(self) -> None:
        """One iteration: select, expand on a second visit, play out (or score a terminal at
        threshold 0), back up, then let the threshold schedule see the score and reward; with
        ``rescore``, a threshold change recomputes every node's reward sum. Nothing once the
        root is solved: the search has ended (DESIGN.md §3)."""
        if self.root.proven is not None:
            return
        path, score = self._select()
        leaf = path[-1]
        if (not self.terminal[leaf.index] and leaf.visits >= 1 and leaf.children is None
                and not self.store_episodes):
            leaf = self._expand(leaf)
            path.append(leaf)
            score += self.edges[leaf.index]
        in_tree = self.terminal[leaf.index]
        at_zero = in_tree and not self.terminals_at_threshold
        if in_tree:
            self._prove_terminal(path, score)
            length = leaf.depth
            scored_at = 0.0 if at_zero else self.schedule.threshold
            reward = self._reward(score, scored_at)
        else:
            score, length = self._playout(leaf, score)
            scored_at = self.schedule.threshold
            reward = self._reward(score, scored_at)
        self._backup(path, self.shaping.value(reward, abs(score - scored_at), length), length)
        if self.rescore:
            self._keep_score(path, score, reward, at_zero)
        if self.schedule.record(score, reward) and self.rescore:
            self._rescore(self.root)

    def _select(self) -> tuple[list[Node], int]:
        """Descend while the node is expanded (storing episodes: while it is not a terminal;
        stopping episodes: until a stop is drawn); returns the path and the score along it."""
        node, score, path = self.root, 0, [self.root]
        while True:
            if self.stop_episodes and (node.visits == 0
                                       or self.rng.random() * node.visits < 1.0):
                break
            if node.children is None:
                if not self.store_episodes or self.terminal[node.index]:
                    break
                node.snap_epoch, node.parent_base = self.schedule.epoch, 0
                first = node.index * self.branching + 1
                node.children = [Node(first + k, node.depth + 1, self.schedule.epoch)
                                 for k in range(self.branching)]
            node = self._choose_child(node)
            score += self.edges[node.index]
            path.append(node)
        return path, score

    def _choose_child(self, node: Node) -> Node:
        """A proven win if any (uniformly); else the policy's argmax over the children not
        proven lost (over all if all are), ties uniformly at random."""
        if self.restart and node.snap_epoch < self.schedule.epoch:
            self._refresh_snapshots(node)
        children = node.children
        winning = [child for child in children if child.proven == WIN]
        if winning:
            return self._pick(winning)
        allowed = [child for child in children if child.proven != LOSS] or children
        parent_count = node.visits - node.parent_base if self.restart else node.visits
        selection = self.index_params
        if self.begin:
            selection = {**self.begin(self.rng, **self.index_params), **selection}
        best, ties = -math.inf, []
        for child in allowed:
            count = child.visits - child.child_base if self.restart else child.visits
            params = selection
            if self.context:
                params = {**self._context(child, children, allowed), **params}
            value = self.index(child.reward_sum, child.visits, count, parent_count, self.rng,
                               **params)
            if value > best:
                best, ties = value, [child]
            elif value == best:
                ties.append(child)
        return self._pick(ties)

    def _context(self, child: Node, children: list[Node], allowed: list[Node]) -> dict:
        """What the index reads besides the counts, by keyword (the siblings: the children
        the selection considers, as (reward sum, visits, T'))."""
        context = {"square_sum": child.square_sum, "arms": len(children),
                   "depth": child.depth - 1,
                   "plies_left": self.depth - (child.depth - 1)}
        if "siblings" in self.context:
            context["siblings"] = [
                (c.reward_sum, c.visits, c.visits - c.child_base if self.restart else c.visits)
                for c in allowed]
        return {key: context[key] for key in self.context}

    def _refresh_snapshots(self, node: Node) -> None:
        """Lazy T_i(t_c) of Eqs. 6-8: on the first selection at a node in a new epoch."""
        node.snap_epoch = self.schedule.epoch
        node.parent_base = node.visits
        for child in node.children:
            child.child_base = child.visits

    def _expand(self, node: Node) -> Node:
        """Add all b children (heap indices n*b+1+k) and return one drawn uniformly."""
        first = node.index * self.branching + 1
        node.snap_epoch, node.parent_base = self.schedule.epoch, 0
        node.children = [Node(first + k, node.depth + 1, self.schedule.epoch)
                         for k in range(self.branching)]
        return self._pick(node.children)

    def _playout(self, node: Node, score: int) -> tuple[int, int]:
        """Uniformly random moves from ``node`` to a terminal; the terminal score and depth."""
        index, b, edges, randrange = node.index, self.branching, self.edges, self.rng.randrange
        depth = node.depth
        while not self.terminal[index]:
            index = index * b + 1 + randrange(b)
            score += edges[index]
            depth += 1
        return score, depth

    def _prove_terminal(self, path: list[Node], score: int) -> None:
        """Prove a terminal in the tree at threshold 0 and back the proof up."""
        terminal = path[-1]
        if terminal.proven is None:
            max_value = (score > 0) - (score < 0)
            terminal.proven = max_value if terminal.depth % 2 else -max_value
            for parent in reversed(path[:-1]):  # up to the root: a solved root ends the search
                if parent.proven is not None:
                    break
                parent.proven = solved_value(parent.children)
                if parent.proven is None:
                    break

    def _reward(self, score: int, threshold: float) -> float:
        """Max's reward of a terminal: its outcome against ``threshold``, or with the linear
        rule (score - lowest) / (highest - lowest) over the tree's terminal scores."""
        if self.reward_rule == "outcome":
            return outcome(score, threshold)
        if self.reward_rule == "sum":
            return float(score)
        if self.score_high == self.score_low:
            return 0.5
        return (score - self.score_low) / (self.score_high - self.score_low)

    def _backup(self, path: list[Node], reward: float, length: int) -> None:
        """visits += 1 on the path; the reward for the mover into each non-root node,
        discounted by the plies down to the terminal at depth ``length``, and its square when
        the index reads the second moment (the plain-Python speed baseline, UCB1, pays nothing
        for it)."""
        squares = "square_sum" in self.context
        path[0].visits += 1
        for node in path[1:]:
            node.visits += 1
            mover_reward = reward if node.depth % 2 else 1.0 - reward
            if self.discount != 1.0:
                mover_reward = 0.5 + self.discount ** (length - node.depth) * (mover_reward - 0.5)
            node.reward_sum += mover_reward
            if squares:
                node.square_sum += mover_reward * mover_reward

    def _keep_score(self, path: list[Node], score: int, reward: float, at_zero: bool) -> None:
        """Note the playout at each non-root node of its path: its score, else (a terminal in
        the tree rewarded at threshold 0) its final reward."""
        for node in path[1:]:
            if at_zero:
                mover_reward = reward if node.depth % 2 else 1.0 - reward
                node.fixed_sum += mover_reward
                node.fixed_square += mover_reward * mover_reward
            else:
                node.scores[score] = node.scores.get(score, 0) + 1

    def _rescore(self, node: Node) -> None:
        """Every reward sum below ``node`` from its scores at the current threshold."""
        for child in node.children or ():
            child.reward_sum, child.square_sum = child.fixed_sum, child.fixed_square
            for score, count in child.scores.items():
                reward = outcome(score, self.schedule.threshold)
                mover_reward = reward if child.depth % 2 else 1.0 - reward
                child.reward_sum += count * mover_reward
                child.square_sum += count * mover_reward * mover_reward
            self._rescore(child)

    def _pick(self, nodes: list[Node]) -> Node:
        return nodes[0] if len(nodes) == 1 else self.rng.choice(nodes)

    def best_move(self) -> int:
        """The first root move proven won for max, if any; else the most visited root move not
        proven lost for max (among all if all are), ties uniformly; a uniformly random move
        while the root is unexpanded. Once the root is solved, the move chosen then."""
        if self.final is None:
            move = self._best_move()
            if self.root.proven is None:
                return move
            self.final = move
        return self.final

    def _best_move(self) -> int:
        children = self.root.children
        if children is None:
            return self.rng.randrange(self.branching)
        won = [child for child in children if child.proven == WIN]
        if won:
            return won[0].index - 1
        allowed = [child for child in children if child.proven != LOSS] or children
        most = max(child.visits for child in allowed)
        by_visits = [child for child in allowed if child.visits == most]
        if self.final_move == "visits":
            return self._pick(by_visits).index - 1
        if self.final_move == "minimax":
            values = [negamax_value(child) if child.visits else -math.inf for child in allowed]
            return self._pick([child for child, value in zip(allowed, values)
                               if value == max(values)]).index - 1
        means = [child.reward_sum / child.visits if child.visits else -math.inf
                 for child in allowed]  # a child never visited ranks below the others
        by_mean = [child for child, mean in zip(allowed, means) if mean == max(means)]
        if self.final_move == "mean":
            return self._pick(by_mean).index - 1
        robust = [child for child in by_visits if child in by_mean]
        if not robust:  # no max-robust child: the largest reward sum (the most wins)
            top = max(child.reward_sum for child in allowed)
            robust = [child for child in allowed if child.reward_sum == top]
        return self._pick(robust).index - 1


def negamax_value(node: Node) -> float:
    """The value of a visited node for its mover: 1 minus the best of its visited children's,
    its mean reward where it has none."""
    visited = [child for child in node.children or () if child.visits]
    if not visited:
        return node.reward_sum / node.visits
    return 1.0 - max(negamax_value(child) for child in visited)


def reference_run(instance: TreeInstance, budgets: Iterable[int], *, policy: str = "ucb1",
                  adjuster: str = "plain", policy_params: dict | None = None,
                  adjuster_params: dict | None = None, restart: bool | None = None,
                  freeze: int = 10, rescore: bool = False,
                  rng: random.Random | int | None = None, shaping: str = "",
                  discount: float = 1.0, reward: str = "outcome",
                  final_move: str = "visits", terminals_at_threshold: bool = False,
                  store_episodes: bool = False, stop_episodes: bool = False) -> list[int]:
    """One search of max(budgets) playouts; the move chosen right after playout t, for each t in
    ``budgets`` (in the given order). ``rng`` is a ``random.Random`` or a seed for one."""
    budgets = list(budgets)
    if not budgets or min(budgets) < 1:
        raise ValueError(f"budgets {budgets} must be a non-empty list of positive integers")
    search = ReferenceSearch(instance, policy=policy, adjuster=adjuster,
                             policy_params=policy_params, adjuster_params=adjuster_params,
                             restart=restart, freeze=freeze, rescore=rescore, rng=rng,
                             shaping=shaping, budget=max(budgets), discount=discount,
                             reward=reward, final_move=final_move,
                             terminals_at_threshold=terminals_at_threshold,
                             store_episodes=store_episodes, stop_episodes=stop_episodes)
    wanted, moves = set(budgets), {}
    for t in range(1, max(budgets) + 1):
        search.step()
        if t in wanted:
            moves[t] = search.best_move()
    return [moves[t] for t in budgets]


def reference_failure_rate(instance: TreeInstance, budgets: Iterable[int], runs: int, *,
                           seed: int = 0, failure: str = "outcome", **options) -> list[float]:
    """Fraction of ``runs`` searches (run k seeded by "seed:k") whose move after t playouts is
    not an optimal one (``failure="outcome"``) or not one of best minimax score (``"score"``),
    for each t in ``budgets``; ``options`` go to ``reference_run``."""
    budgets = list(budgets)
    failures = [0] * len(budgets)
    optimal = optimal_moves(instance) if failure == "outcome" else best_score_moves(instance)
    for run in range(runs):
        moves = reference_run(instance, budgets, rng=random.Random(f"{seed}:{run}"), **options)
        for i, move in enumerate(moves):
            failures[i] += move not in optimal
    return [count / runs for count in failures]


def minimax_score(instance: TreeInstance, node: int = 0, ply: int = 0, score: int = 0) -> int:
    """The minimax terminal score below ``node`` (reached with ``score`` on its path), by plain
    recursion: max moves from even plies, min from odd ones."""
    score += int(instance.edge_value[node])
    if instance.terminal[node]:
        return score
    b = instance.branching
    values = [minimax_score(instance, node * b + 1 + k, ply + 1, score) for k in range(b)]
    return max(values) if ply % 2 == 0 else min(values)


def optimal_moves(instance: TreeInstance) -> set[int]:
    """The root moves whose minimax outcome at threshold 0 equals the root's."""
    outcomes = [outcome(minimax_score(instance, 1 + k, 1), 0)
                for k in range(instance.branching)]
    return {k for k, value in enumerate(outcomes) if value == max(outcomes)}


def best_score_moves(instance: TreeInstance) -> set[int]:
    """The root moves whose minimax score equals the root's (Kocsis & Szepesvari 2006)."""
    scores = [minimax_score(instance, 1 + k, 1) for k in range(instance.branching)]
    return {k for k, value in enumerate(scores) if value == max(scores)}
