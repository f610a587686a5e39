"""The sequential probability ratio test of engine testers, on wins, draws and losses.

H0: A is elo0 Elo stronger than B; H1: elo1 (elo0 < elo1), on the logistic Elo scale, where a
difference of d Elo means an expected score s(d) = 1 / (1 + 10^(-d / 400)) per game (a draw
scores 1/2). The test is the generalised SPRT of Fishtest (M. Van den Bergh, "A generalised
SPRT for the trinomial model", and Fishtest's ``LLR_logistic``): the draw rate is a nuisance
parameter, so each hypothesis is the trinomial (p_loss, p_draw, p_win) of largest likelihood
whose expected score is s(elo_k). With the observed shares q_i of the scores a_i in
{0, 1/2, 1}, that maximum is p_i = q_i / (1 + lambda (a_i - s)), lambda the root of
sum_i q_i (a_i - s) / (1 + lambda (a_i - s)) = 0; the log-likelihood ratio after N games is

    LLR = N sum_i q_i log(p_i(elo1) / p_i(elo0)).

The test continues while log(beta / (1 - alpha)) < LLR < log((1 - beta) / alpha) (Wald's bounds)
and accepts H1 above the upper bound, H0 below the lower one. Its error rates: at most about
alpha of accepting H1 when elo = elo0, and beta of accepting H0 when elo = elo1 (Wald's bounds
hold them up to the overshoot of the last step, which checking after blocks of games only
lowers). Counts are floored at 1e-3 before the shares are taken (Fishtest's regularisation), so
the first games, all of one kind, have a finite LLR.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import brentq

SCORES = np.array([0.0, 0.5, 1.0])  # loss, draw, win
FLOOR = 1e-3
# beyond it the expected score lies within 0.0032 of 0 or 1 and the constrained trinomial
# degenerates (logs of 0); engine tests use bounds of a few Elo
ELO_LIMIT = 1000.0


def expected_score(elo: float) -> float:
    """s(d) = 1 / (1 + 10^(-d / 400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def constrained_mle(shares: np.ndarray, score: float) -> np.ndarray:
    """The trinomial of largest likelihood for the observed ``shares`` (loss, draw, win) whose
    expected score is ``score`` (in (0, 1))."""
    centred = SCORES - score
    low, high = -1.0 / centred.max(), -1.0 / centred.min()  # where 1 + lambda centred > 0
    span = high - low
    lam = brentq(lambda x: float(np.sum(shares * centred / (1.0 + x * centred))),
                 low + 1e-12 * span, high - 1e-12 * span, xtol=1e-14)
    p = shares / (1.0 + lam * centred)
    return p / p.sum()


@dataclass(frozen=True)
class Sprt:
    """The test of H0: elo = elo0 against H1: elo = elo1, with error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)
                and self.elo0 < self.elo1):
            raise ValueError(f"--sprt {self.elo0:g},{self.elo1:g}: give two finite Elo "
                             f"differences ELO0,ELO1 with ELO0 < ELO1, e.g. --sprt 0,20")
        if max(abs(self.elo0), abs(self.elo1)) > ELO_LIMIT:
            raise ValueError(f"--sprt {self.elo0:g},{self.elo1:g}: an Elo difference beyond "
                             f"+-{ELO_LIMIT:g} is out of the test's model; give bounds such as "
                             "0,20 or -10,10")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"--{name} {value:g} must be in (0, 0.5)")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): log(beta / (1 - alpha)) and log((1 - beta) / alpha)."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The generalised log-likelihood ratio of H1 to H0 after these games."""
        counts = np.maximum([losses, draws, wins], FLOOR).astype(float)
        shares = counts / counts.sum()
        p0 = constrained_mle(shares, expected_score(self.elo0))
        p1 = constrained_mle(shares, expected_score(self.elo1))
        return (wins + draws + losses) * float(np.sum(shares * np.log(p1 / p0)))

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        """"H1" above the upper bound, "H0" below the lower one, else None (go on)."""
        value = self.llr(wins, draws, losses)
        lower, upper = self.bounds
        return "H1" if value >= upper else "H0" if value <= lower else None

    def stops(self, games: pd.DataFrame) -> bool:
        """Whether the games of A (a ``tournament`` table, column ``a_score``) decide."""
        return self.decision(*outcomes(games)) is not None

    def report(self, games: pd.DataFrame) -> dict:
        """``decision`` ("H0", "H1" or None), ``llr``, ``lower``, ``upper``, ``games``,
        ``wins``, ``draws``, ``losses`` of A and the hypotheses, after these games."""
        wins, draws, losses = outcomes(games)
        lower, upper = self.bounds
        return {"decision": self.decision(wins, draws, losses),
                "llr": self.llr(wins, draws, losses), "lower": lower, "upper": upper,
                "games": wins + draws + losses, "wins": wins, "draws": draws,
                "losses": losses, "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha,
                "beta": self.beta}


def outcomes(games: pd.DataFrame) -> tuple[int, int, int]:
    """A's (wins, draws, losses) in a tournament table."""
    score = games["a_score"]
    wins, draws = int((score == 1.0).sum()), int((score == 0.5).sum())
    return wins, draws, len(games) - wins - draws
