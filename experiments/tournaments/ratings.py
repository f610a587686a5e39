"""Ratings of a round robin: pairwise scores with Wilson intervals, Bradley-Terry ratings on the
Elo scale with bootstrap intervals, and the crosstable.

Bradley-Terry (Bradley & Terry 1952) on the Elo scale: player i scores against player j with
probability p_ij = 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts as half a win (the
"draws as half a win" treatment, not Davidson's or Rao-Kupper's draw parameter). With S_ij the
points of i against j (wins + draws / 2) over n_ij games, the ratings maximise
sum_{i<j} S_ij log p_ij + (n_ij - S_ij) log(1 - p_ij), a logistic regression of the score
share on the signed indicator of the two players, maximised by Newton's method (scipy's
``trust-exact``); they are shifted to mean 0. ``prior`` virtual draws are added to
every pairing first (BayesElo's device, there two): they keep every rating finite when a player
wins or loses all its games, and shrink the others by a little (prior = 0: the plain maximum
likelihood, which then may not exist).

Bootstrap intervals: the games of each pairing are resampled with replacement (its wins, draws
and losses drawn from a multinomial with its observed shares), the ratings refitted, and the
2.5 and 97.5 percentiles of each player's rating taken (seeded: ``rng``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from .tournament import wilson_interval

ELO = 400 / math.log(10)  # Elo points per unit of log-odds
LEVEL = 0.95


def pairwise(games: pd.DataFrame) -> pd.DataFrame:
    """One row per pairing of a ``run_round_robin`` table: ``a``, ``b``, ``games``, ``wins_a``,
    ``draws``, ``losses_a``, ``points_a`` (wins + draws / 2), ``win_rate_a`` (points per game)
    and its Wilson 95% interval ``ci_low``, ``ci_high``; pairings in the table's order."""
    rows = []
    for (a, b), table in games.groupby(["a", "b"], sort=False):
        n = len(table)
        wins = int((table["a_score"] == 1.0).sum())
        draws = int((table["a_score"] == 0.5).sum())
        points = wins + draws / 2
        lo, hi = wilson_interval(points / n, n)
        rows.append({"a": a, "b": b, "games": n, "wins_a": wins, "draws": draws,
                     "losses_a": n - wins - draws, "points_a": points, "win_rate_a": points / n,
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def bradley_terry(pairs: pd.DataFrame, players: list[str] | tuple[str, ...],
                  prior: float = 1.0) -> pd.Series:
    """Ratings on the Elo scale, mean 0, by player (in ``players``' order), from a ``pairwise``
    table (columns ``a``, ``b``, ``games``, ``points_a``); ``prior`` virtual draws per pairing.
    Every player must have played, and the players must be connected by their pairings."""
    return pd.Series(_fit(pairs, list(players), prior)[0], index=list(players), name="elo")


def _design(pairs: pd.DataFrame, players: list[str]) -> np.ndarray:
    """[pairings, players - 1]: +1 in A's column, -1 in B's; the first player is the reference."""
    index = {name: i for i, name in enumerate(players)}
    x = np.zeros((len(pairs), len(players)))
    x[np.arange(len(pairs)), pairs["a"].map(index).to_numpy()] = 1.0
    x[np.arange(len(pairs)), pairs["b"].map(index).to_numpy()] = -1.0
    return x[:, 1:]


def _fit(pairs: pd.DataFrame, players: list[str], prior: float,
         points: np.ndarray | None = None) -> np.ndarray:
    """[replicates, players] ratings for the rows of ``points`` ([replicates, pairings]; the
    table's points when None)."""
    x = _design(pairs, players)
    if np.linalg.matrix_rank(x) < len(players) - 1:
        raise ValueError("the pairings do not connect every player: ratings need each player "
                         "linked to every other by games")
    n = pairs["games"].to_numpy(float) + prior
    points = np.atleast_2d(pairs["points_a"].to_numpy(float) if points is None else points)
    out = np.empty((len(points), len(players)))
    for k, row in enumerate(points):
        out[k] = _maximise(x, row + prior / 2, n)
    return out


def _maximise(x: np.ndarray, points: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The ratings (Elo, mean 0) maximising the log-likelihood of ``points`` of ``n`` games per
    pairing: a concave function of the log-odds beta = x r, maximised by Newton's method with
    its exact gradient and Hessian (scipy's trust-region ``trust-exact``)."""
    def minus_log_likelihood(r):
        beta = x @ r
        return -float(points @ log_expit(beta) + (n - points) @ log_expit(-beta))

    def gradient(r):
        return -x.T @ (points - n * expit(x @ r))

    def hessian(r):
        p = expit(x @ r)
        return (x.T * (n * p * (1 - p))) @ x

    fit = minimize(minus_log_likelihood, np.zeros(x.shape[1]), jac=gradient, hess=hessian,
                   method="trust-exact", options={"gtol": 1e-10})
    r = np.concatenate([[0.0], fit.x]) * ELO
    return r - r.mean()


def ratings(games: pd.DataFrame, players: list[str] | tuple[str, ...], *, prior: float = 1.0,
            bootstrap: int = 1000, rng: np.random.Generator | None = None) -> pd.DataFrame:
    """One row per player of a ``run_round_robin`` table, best first: ``player``, ``elo``
    (Bradley-Terry, mean 0), its bootstrap 95% interval ``ci_low``, ``ci_high`` (``bootstrap``
    replicates drawn with ``rng``; default seed 0), ``games`` and ``score`` (points per game)."""
    players = list(players)
    pairs = pairwise(games)
    rng = np.random.default_rng(0) if rng is None else rng
    counts = pairs[["wins_a", "draws", "losses_a"]].to_numpy()
    n = counts.sum(axis=1)
    resampled = np.stack([rng.multinomial(m, c / m, size=bootstrap)
                          for m, c in zip(n, counts, strict=True)],
                         axis=1)  # [replicates, pairings, (wins, draws, losses)]
    replicates = _fit(pairs, players, prior, resampled[..., 0] + resampled[..., 1] / 2)
    low, high = np.percentile(replicates, [50 * (1 - LEVEL), 50 * (1 + LEVEL)], axis=0)
    played = {p: pairs.loc[pairs["a"].eq(p) | pairs["b"].eq(p), "games"].sum() for p in players}
    scored = {p: pairs.loc[pairs["a"].eq(p), "points_a"].sum()
              + (pairs["games"] - pairs["points_a"])[pairs["b"].eq(p)].sum() for p in players}
    table = pd.DataFrame({"player": players, "elo": _fit(pairs, players, prior)[0],
                          "ci_low": low, "ci_high": high,
                          "games": [int(played[p]) for p in players],
                          "score": [scored[p] / played[p] for p in players]})
    return table.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)


def crosstable(pairs: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Players (rows, best first, as in the ``ratings`` table) against opponents (columns): the
    row player's points per game against each, then its ``elo`` and interval."""
    order = table["player"].tolist()
    cross = pd.DataFrame(np.nan, index=pd.Index(order, name="player"), columns=order)
    for row in pairs.itertuples():
        cross.loc[row.a, row.b] = row.win_rate_a
        cross.loc[row.b, row.a] = 1 - row.win_rate_a
    return cross.join(table.set_index("player")[["elo", "ci_low", "ci_high", "games"]])


def crosstable_markdown(pairs: pd.DataFrame, table: pd.DataFrame) -> str:
    """The crosstable as a markdown table: each cell the row player's points of its games
    against the column player (e.g. 12.5/20), then the rating and its interval."""
    order = table["player"].tolist()
    cells = {}
    for row in pairs.itertuples():
        cells[row.a, row.b] = f"{row.points_a:g}/{row.games}"
        cells[row.b, row.a] = f"{row.games - row.points_a:g}/{row.games}"
    lines = ["| player | " + " | ".join(order) + " | Elo | 95% interval |",
             "|---" * (len(order) + 3) + "|"]
    for r in table.itertuples():
        row = [cells.get((r.player, other), "-") for other in order]
        lines.append(f"| {r.player} | " + " | ".join(row)
                     + f" | {round(r.elo):+d} | {round(r.ci_low):+d} to {round(r.ci_high):+d} |")
    return "\n".join(lines) + "\n"
