"""Exact solution of Pig solitaire by expectimax (seed 003 Sect. 4.4; DESIGN §7).

With t turns left, banked score b and turn total k (a decision state), the optimal expected
final score V satisfies

    Q_stop(t, b, k) = V(t - 1, b + k, 0),
    Q_roll(t, b, k) = 1/36 V(t - 1, 0, 0) + 10/36 V(t - 1, b, 0)
                      + sum_{d1, d2 in 2..6} 1/36 V(t, b, k + d1 + d2),
    V(t, b, k) = max(Q_roll, Q_stop),  V(0, b, 0) = b,

(two 1s: banked reset; one 1: turn total lost). Turn totals are unbounded, so the recursion is
closed by assuming a stop at every k >= ``cap``. The solution reports ``stop_from``, the least
K with stop optimal at every solved state with k >= K; ``solve_pig`` requires stop_from < cap,
so stopping is chosen, not forced, on the band K <= k < cap of every turn and banked score (the
stopping region is upward closed in k), and the optimal play never reaches the cap. Tables cover
banked scores up to (turns - t) (cap + 11) with t turns left and turn totals below cap + 12.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import pig

DEFAULT_CAP = 100
_SUMS = np.arange(4, 13)
_WAYS = np.array([1, 2, 3, 4, 5, 4, 3, 2, 1]) / 36.0  # P[d1 + d2 = s, no 1], s = 4..12


@dataclass(frozen=True)
class PigSolution:
    """Q values of Pig solitaire with up to ``turns`` turns left."""

    turns: int
    cap: int
    roll: np.ndarray  # float64 [turns + 1, banked, turn total]; Q_roll (NaN where unused)
    stop: np.ndarray  # float64 [turns + 1, banked, turn total]; Q_stop
    stop_from: int  # least K with Q_stop >= Q_roll at every solved state with k >= K

    @property
    def values(self) -> np.ndarray:
        """V = max(Q_roll, Q_stop), float64 [turns + 1, banked, turn total]."""
        return np.fmax(self.roll, self.stop)

    def q_values(self, state: np.ndarray) -> tuple[float, float]:
        """(Q_roll, Q_stop) of a decision state."""
        t, b, k = self._index(state)
        return float(self.roll[t, b, k]), float(self.stop[t, b, k])

    def value(self, state: np.ndarray) -> float:
        """The optimal expected final score from ``state`` (its banked score at a terminal)."""
        if state[pig.TURNS] == 0:
            return float(state[pig.BANKED])
        return max(self.q_values(state))

    def optimal_action(self, state: np.ndarray) -> int:
        """``pig.ROLL`` or ``pig.STOP`` (stop on a tie)."""
        q_roll, q_stop = self.q_values(state)
        return pig.ROLL if q_roll > q_stop else pig.STOP

    def _index(self, state: np.ndarray) -> tuple[int, int, int]:
        t, b, k, pending = (int(v) for v in state)
        if pending or t == 0:
            raise ValueError("Q values are defined at decision states; pass a state awaiting "
                             "ROLL or STOP")
        if t > self.turns or b > (self.turns - t) * (self.cap + 11) or k >= self.cap + 12:
            raise ValueError(f"state (turns {t}, banked {b}, total {k}) is outside this solution"
                             f" (turns <= {self.turns}, turn total < {self.cap + 12}): solve "
                             f"with more turns or a larger cap")
        return t, b, k


def solve_pig(turns: int, cap: int = DEFAULT_CAP) -> PigSolution:
    """Solve Pig solitaire for 1..``turns`` turns by the backward recursion above, vectorised
    over the banked score; ``ValueError`` if the cap binds (stop_from >= cap)."""
    if turns < 1:
        raise ValueError(f"Pig needs at least one turn, not {turns}; use --turns 1 or more")
    width = cap + 12  # turn totals 0 .. cap + 11
    banked = turns * (cap + 11) + 1
    roll = np.full((turns + 1, banked, width), np.nan)
    stop = np.full((turns + 1, banked, width), np.nan)
    previous = np.arange(banked, dtype=float)  # V(0, b, 0) = b
    stop_from = 0
    for t in range(1, turns + 1):
        reach = (turns - t) * (cap + 11) + 1  # banked scores possible with t turns left
        padded = np.concatenate([previous, np.full(width, np.nan)])
        value = np.empty((reach, width))
        for k in range(width - 1, -1, -1):
            stop[t, :reach, k] = padded[k: k + reach]
            value[:, k] = stop[t, :reach, k]
            if k < cap:
                ahead = value[:, k + _SUMS] @ _WAYS
                roll[t, :reach, k] = previous[0] / 36 + 10 / 36 * previous[:reach] + ahead
                value[:, k] = np.maximum(roll[t, :reach, k], stop[t, :reach, k])
                if np.any(roll[t, :reach, k] > stop[t, :reach, k]):
                    stop_from = max(stop_from, k + 1)
        previous = np.full(banked, np.nan)
        previous[:reach] = value[:, 0]
    if stop_from >= cap:
        raise ValueError(f"the turn-total cap {cap} binds (roll still optimal at {stop_from - 1})"
                         f"; solve with a larger cap")
    return PigSolution(turns, cap, roll, stop, stop_from)
