"""Racing (Maron & Moore 1994; Birattari et al. 2002's F-race; Lopez-Ibanez et al. 2016's
irace): every candidate still in the race is run on the same units, here the runs (tree
instance, run seed), and at each look a candidate shown worse than the best is dropped.

At a look, with n units run by every candidate left and b the candidate of least mean loss,
each other candidate i is tested one-sided against b on its paired losses:
- 0/1 losses (failure at one budget): the exact sign test of the discordant units, McNemar's
  (1947) test, p = P(Binomial(n_ib + n_bi, 1/2) >= n_ib), n_ib the units where i failed and b
  did not;
- losses in [0, 1] (the area of a run's failure curve over several budgets): Wilcoxon's
  signed-rank test of the differences (zeros dropped, Wilcoxon's method).
The p-values of a look are Holm-adjusted (``experiments.comparisons.tests.holm_adjusted``) and
compared with alpha / L, L the number of looks (Bonferroni over looks), so that the best
candidate is dropped with probability at most about alpha over the whole race.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..comparisons.tests import holm_adjusted


def look_sizes(runs: int, trees: int) -> list[int]:
    """Units run by every candidate left at each look: ``trees`` (one run per instance), then
    doubling, up to ``runs`` rounded up to a multiple of ``trees`` (every instance gets the
    same runs). The first looks drop the values far from the best after a few runs each."""
    if runs < trees:
        raise ValueError(f"--runs {runs} is fewer than --trees {trees}: give at least one run "
                         "per tree instance")
    last = -(-runs // trees) * trees
    sizes = [trees]
    while sizes[-1] < last:
        sizes.append(min(2 * sizes[-1], last))
    return sizes


def paired_p_values(losses: np.ndarray, best: int) -> np.ndarray:
    """One-sided p-values that each column of ``losses`` [units, candidates] has a larger
    loss than column ``best`` (1 for ``best`` itself)."""
    binary = bool(np.all((losses == 0) | (losses == 1)))
    p = np.ones(losses.shape[1])
    for i in range(losses.shape[1]):
        if i == best:
            continue
        difference = losses[:, i] - losses[:, best]
        worse, better = int(np.sum(difference > 0)), int(np.sum(difference < 0))
        if worse == 0:
            continue
        if binary:
            p[i] = stats.binomtest(worse, worse + better, 0.5, alternative="greater").pvalue
        else:
            p[i] = stats.wilcoxon(difference, zero_method="wilcox",
                                  alternative="greater").pvalue
    return p


def dropped_at_look(losses: np.ndarray, alpha: float) -> np.ndarray:
    """bool [candidates]: those shown worse than the candidate of least mean loss at level
    ``alpha`` (the look's share), Holm-adjusted over the others."""
    best = int(np.argmin(losses.mean(axis=0)))
    p = paired_p_values(losses, best)
    others = np.arange(losses.shape[1]) != best
    dropped = np.zeros(losses.shape[1], dtype=bool)
    if others.any():
        dropped[others] = holm_adjusted(p[others]) <= alpha
    return dropped
