"""Pooled verdicts of the Pepels reproduction (seed 000 Sect. 6): one per game and finding.

A quick-scale cell holds a few dozen games, so its 95% interval is some 30 points wide and most
cells cannot tell the paper's 55-65% from 50%. The paper's findings are about a bonus in a game,
not about one column, and it reports its results as "invariant with respect to the allowed
search time"; so each finding pools the matches of its columns (both weights a' and a = 0.25,
both budgets) into one score and one Wilson interval, and compares it with the paper's pooled
value. Pooling the paper's own cells the same way (its cells have equal numbers of games) gives
the mean of its win rates, with half-width mean(h) / sqrt(m) for m cells of half-widths h.

Input: the study's ``results.csv`` table, one row per match, with the columns ``game``,
``match`` (key), ``budget_index``, ``games``, ``wins``, ``draws``; a draw scores 1/2 as in
``experiments.tournaments.tournament``. Significance is +1 (interval above 50%), -1 (below) or 0.

Verdict of a finding, ours against the paper's (both significances pooled):
- *agrees*: the same significance (both gains, both losses, or neither significant);
- *disagrees*: significant in opposite directions;
- *inconclusive (underpowered)*: the paper's effect is significant, ours is not, and our pooled
  number of games gives a two-sided 5% test less than ``POWER`` probability of detecting an
  effect of the paper's size (normal approximation, draws ignored: conservative);
- *does not reproduce*: as above with enough power;
- *differs*: ours is significant where the paper's pooled effect is not.

``comparisons`` sets each of our table cells beside the paper's.
"""

from __future__ import annotations

import math

import pandas as pd

from ...intervals import Z_95
from ...tournaments.tournament import wilson_interval
from .study import PAPER, TABLES

POWER = 0.8  # a finding with less power than this at the paper's effect is underpowered

# finding -> (description, paper's table, match keys pooled)
FINDINGS = {
    "RB": ("Relative Bonus (Table 1)", "1", ("rb-online", "rb-0.25")),
    "QB": ("Qualitative Bonus (Table 3)", "3", ("qb-online", "qb-0.25")),
    "RB+QB": ("both bonuses (Table 4)", "4", ("rbqb-online", "rbqb-0.25")),
    "reward = q": ("reward = terminal quality (Table 4)", "4", ("quality",)),
    "RB, GGP k": ("Relative Bonus, k = 2 and 1.4, a = 0.25 (Table 2: CadiaPlayer)", "2",
                  ("rb-k2-0.25", "rb-k1.4-0.25")),
}


def significance(low: float, high: float) -> int:
    """+1 if the interval lies above 50 (%), -1 if below, 0 if it contains 50."""
    return 1 if low > 50 else -1 if high < 50 else 0


def pooled(rows: pd.DataFrame) -> dict:
    """The matches ``rows`` as one sample: ``games``, ``score`` (wins + draws / 2), ``rate``
    and its 95% Wilson interval ``low``, ``high`` (all in %)."""
    n = int(rows["games"].sum())
    score = float(rows["wins"].sum() + rows["draws"].sum() / 2)
    low, high = wilson_interval(score / n, n)
    return {"games": n, "score": score, "rate": 100 * score / n, "low": 100 * low,
            "high": 100 * high}


def paper_pooled(table: str, game: str, keys: tuple[str, ...]) -> tuple[float, float] | None:
    """The paper's cells of ``keys`` in ``table`` pooled: (mean win %, its 95% half-width), or
    None if the table has no row for ``game``."""
    if game not in PAPER[table]:
        return None
    cells = [PAPER[table][game][i] for i, (_, key, _) in enumerate(TABLES[table][1])
             if key in keys]
    rate = sum(c[0] for c in cells) / len(cells)
    return rate, sum(c[1] for c in cells) / len(cells) / math.sqrt(len(cells))


def power(rate: float, games: int, z: float = Z_95) -> float:
    """Probability that a two-sided 5% test on ``games`` games finds a true win rate of
    ``rate`` % significantly different from 50%: Phi((|p - 1/2| sqrt(n) - z / 2) /
    sqrt(p (1 - p))), the far tail neglected."""
    p = rate / 100
    if p in (0.0, 1.0):
        return 1.0
    x = (abs(p - 0.5) * math.sqrt(games) - z / 2) / math.sqrt(p * (1 - p))
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def verdict(ours: int, paper: int, chance: float) -> str:
    """The verdict of the module's docstring from the two significances and our power."""
    if ours == paper:
        return "agrees"
    if ours == -paper:
        return "disagrees"
    if ours == 0:
        return "does not reproduce" if chance >= POWER else "inconclusive (underpowered)"
    return "differs"


def headline_verdicts(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game and finding that ``frame`` (``results.csv``) holds matches for, in the
    order of ``FINDINGS``: our pooled ``games``, ``ours`` (%), ``ours_low``, ``ours_high``,
    ``ours_significance``, the number of ``cells`` pooled, the paper's pooled ``paper`` (%),
    ``paper_half``, ``paper_significance``, our ``power`` at the paper's rate (NaN where the
    paper's pooled effect is not significant) and the ``verdict``."""
    rows = []
    for game in frame["game"].unique():
        for finding, (text, table, keys) in FINDINGS.items():
            hit = frame[(frame["game"] == game) & frame["match"].isin(keys)]
            paper = paper_pooled(table, game, keys)
            if hit.empty or paper is None:
                continue
            ours = pooled(hit)
            ours_sig = significance(ours["low"], ours["high"])
            paper_sig = significance(paper[0] - paper[1], paper[0] + paper[1])
            chance = power(paper[0], ours["games"]) if paper_sig else math.nan
            rows.append({"game": game, "finding": finding, "description": text,
                         "cells": len(hit), "games": ours["games"], "ours": ours["rate"],
                         "ours_low": ours["low"], "ours_high": ours["high"],
                         "ours_significance": ours_sig, "paper": paper[0],
                         "paper_half": paper[1], "paper_significance": paper_sig,
                         "power": chance, "verdict": verdict(ours_sig, paper_sig, chance)})
    return pd.DataFrame(rows)


def _better(p1: float, se1: float, p2: float, se2: float, z: float = Z_95) -> bool:
    """Whether rate p1 is significantly above p2 (one-sided z test on independent estimates
    with standard errors se1, se2; all in %)."""
    return (p1 - p2) > z * math.hypot(se1, se2)


def combined_better(verdicts: pd.DataFrame, z: float = Z_95) -> pd.DataFrame:
    """Per game with all three pooled findings RB, QB and RB+QB in ``verdicts``: whether the
    combination is significantly better than each bonus alone, ours (``ours_better``: standard
    errors from the pooled Wilson half-widths) and the paper's (``paper_better``: from its
    pooled half-widths)."""
    rows = []
    for game, part in verdicts.groupby("game", sort=False):
        found = part.set_index("finding")
        if not {"RB", "QB", "RB+QB"} <= set(found.index):
            continue
        ours = {f: (found.ours[f], (found.ours_high[f] - found.ours_low[f]) / (2 * z))
                for f in ("RB", "QB", "RB+QB")}
        paper = {f: (found.paper[f], found.paper_half[f] / z) for f in ("RB", "QB", "RB+QB")}
        rows.append({"game": game, **{
            f"{who}_better": all(_better(*est["RB+QB"], *est[single], z=z)
                                 for single in ("RB", "QB"))
            for who, est in (("ours", ours), ("paper", paper))}})
    return pd.DataFrame(rows)


def comparisons(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (table, game, column) that we measured: ours beside the paper's, with the
    computed verdicts ``same_side`` (both above, both below or both at 50%), ``overlap`` (the
    95% intervals overlap) and ``same_significance`` (same of: significant gain, not
    significant, significant loss)."""
    rows = []
    for table, (_, columns) in TABLES.items():
        for game in frame.game.unique():
            if game not in PAPER[table]:
                continue
            for column, (label, key, budget_index) in enumerate(columns):
                hit = frame[(frame.game == game) & (frame.match == key)
                            & (frame.budget_index == budget_index)]
                if hit.empty:
                    continue
                ours = hit.iloc[0]
                p_rate, p_half, p_bold = PAPER[table][game][column]
                p_low, p_high = p_rate - p_half, p_rate + p_half
                ours_sig = significance(ours.ci95_low, ours.ci95_high)
                # the paper's gains as it marks them (bold); its losses from its intervals
                paper_sig = 1 if p_bold else -1 if p_high < 50 else 0
                side = int(ours.win_rate > 50) - int(ours.win_rate < 50)
                p_side = (p_rate > 50) - (p_rate < 50)
                rows.append({
                    "table": table, "game": game, "column": label, "match": key,
                    "playouts": int(ours.playouts), "games": int(ours.games),
                    "ours": ours.win_rate, "ours_half": ours.half_width,
                    "ours_low": ours.ci95_low, "ours_high": ours.ci95_high,
                    "ours_significance": ours_sig, "paper": p_rate, "paper_half": p_half,
                    "paper_significance": paper_sig,
                    "same_side": bool(side == p_side),
                    "overlap": bool(ours.ci95_low <= p_high and p_low <= ours.ci95_high),
                    "same_significance": bool(ours_sig == paper_sig)})
    return pd.DataFrame(rows)
