"""The Wilson interval in closed form (experiments.intervals) against statsmodels'."""

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from experiments.intervals import wilson_interval


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.2])
def test_wilson_matches_statsmodels(alpha):
    from scipy.stats import norm

    trials = np.repeat([1, 2, 3, 7, 25, 200, 2000, 100000], 7)
    shares = np.tile([0.0, 0.01, 0.1, 1 / 3, 0.5, 0.97, 1.0], 8)
    successes = np.round(shares * trials).astype(int)
    expected = proportion_confint(successes, trials, alpha=alpha, method="wilson")
    got = wilson_interval(successes, trials, norm.ppf(1 - alpha / 2))
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_hand_computed_case():
    """3 of 10 at 95%: centre (0.3 + 1.92 / 10) / 1.384, half-width 1.96 sqrt(0.021 +
    0.0096) / 1.384 (z^2 = 3.8415)."""
    low, high = wilson_interval(3, 10)
    assert abs(low - 0.10779) < 1e-5 and abs(high - 0.60322) < 1e-5
