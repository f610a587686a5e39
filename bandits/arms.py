"""The arms of a stochastic bandit: reward laws on [0, 1], their compiled draws, and the
divergence that sets the Lai-Robbins lower bound.

A problem is written as a spec of the lab's grammar (``specs``): ``bernoulli(0.9,0.8,0.8)``
(arm i pays 1 with probability mu_i, else 0) or ``beta(0.9,0.8,s=4)`` (arm i pays a draw of
Beta(s mu_i, s (1 - mu_i)), of mean mu_i; the concentration s = a + b defaults to 2, whence
Beta(1, 1) at mu = 1/2). The compiled loops read the family as a number (``BERNOULLI``,
``BETA``) and the laws' parameters as an array, so every problem runs in one kernel.

The lower bound (Lai & Robbins 1985, Thm. 2; Burnetas & Katehakis 1996, Prop. 1): a
consistent policy has lim inf E[R_T] / ln T >= sum over suboptimal arms of Delta_i / K_i with
Delta_i = mu* - mu_i and K_i the divergence of arm i's law from the model's laws of mean above
mu*. For Bernoulli arms K_i = kl(mu_i, mu*), the Bernoulli Kullback-Leibler divergence. For
Beta arms we take the model of all laws on [0, 1] (the one KL-UCB and Thompson sampling are
run in here), where K_i = K_inf(nu_i, mu*) = max over 0 <= l <= 1 / (1 - mu*) of
E[ln(1 - l (X - mu*))], X ~ nu_i (Honda & Takemura 2010, Thm. 8); for a Bernoulli law it is
kl(mu_i, mu*) again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from specs import between, check_value, parse_spec, parse_value

from .klucb import bernoulli_kl
from .rng import gamma, uniform

BERNOULLI, BETA = 0, 1  # reward families, as the compiled loops read them
FAMILIES = {"bernoulli": BERNOULLI, "beta": BETA}
_MEAN = {BERNOULLI: between(0, 1), BETA: between(0, 1, low_open=True, high_open=True)}
# bounded: a Beta(mu s, (1 - mu) s) draw overflows and divides by zero near 1e308; a
# concentration of 1e6 already draws within about 0.001 of the mean (sd sqrt(mu(1-mu)/s))
_CONCENTRATION = between(0, 1e6, low_open=True)


@dataclass(frozen=True)
class Arms:
    """A bandit's arms: one family, a law per arm."""

    spec: str  # as written, blanks removed
    family: int  # BERNOULLI or BETA
    params: np.ndarray  # float64 [K, 2]: (mu_i, 0) Bernoulli, (a_i, b_i) Beta
    means: np.ndarray  # float64 [K]: mu_i

    @property
    def best(self) -> float:
        """mu* = max_i mu_i."""
        return float(self.means.max())

    @property
    def gaps(self) -> np.ndarray:
        """float64 [K]: Delta_i = mu* - mu_i."""
        return self.best - self.means

    def divergences(self) -> np.ndarray:
        """float64 [K]: K_i of the lower bound for each arm (see the module docstring); 0 for
        an optimal arm."""
        star = self.best
        return np.array([0.0 if mean >= star else self._divergence(i, star)
                         for i, mean in enumerate(self.means)])

    def _divergence(self, arm: int, star: float) -> float:
        if star >= 1.0:  # kl(mu, 1) = inf for mu < 1: no pull of the arm is needed at all
            return math.inf
        if self.family == BERNOULLI:
            return bernoulli_kl(float(self.means[arm]), star)
        return beta_kinf(*self.params[arm], star)


def parse_arms(text: str) -> Arms:
    """The :class:`Arms` of a spec such as ``bernoulli(0.9,0.8)`` or ``beta(0.5,0.4,s=4)``;
    anything else is a one-line ValueError."""
    parts = parse_spec(text, "arms spec")
    part = parts[0]
    if len(parts) > 1 or part.name not in FAMILIES:
        raise ValueError(f"arms spec {text!r}: write bernoulli(mu_1,...,mu_K) or "
                         f"beta(mu_1,...,mu_K,s=2), e.g. bernoulli(0.9,0.8)")
    family = FAMILIES[part.name]
    allowed = {"s"} if family == BETA else set()
    unknown = [key for key, _ in part.kwargs if key not in allowed]
    if unknown:
        raise ValueError(f"arms spec {text!r}: unknown parameter {unknown[0]!r} of "
                         f"{part.name} (allowed: {', '.join(sorted(allowed)) or 'none'})")
    if len(part.args) < 2:
        raise ValueError(f"arms spec {text!r}: a bandit needs at least 2 arms, "
                         f"e.g. {part.name}(0.9,0.8)")
    means = np.array([check_value(f"{part.name} arm {i + 1}", "mean", parse_value(arg),
                                  _MEAN[family]) for i, arg in enumerate(part.args)])
    params = np.zeros((len(means), 2))
    if family == BERNOULLI:
        params[:, 0] = means
    else:
        s = check_value(part.name, "s", parse_value(part.params.get("s", "2")), _CONCENTRATION)
        params[:, 0], params[:, 1] = s * means, s * (1.0 - means)
    return Arms("".join(text.split()), family, params, means)


def beta_kinf(a: float, b: float, star: float) -> float:
    """K_inf(Beta(a, b), mu*) = max over 0 <= l <= 1 / (1 - mu*) of E[ln(1 - l (X - mu*))]
    (Honda & Takemura 2010, Thm. 8), the expectation by quadrature; the objective is concave
    in l, so a bounded scalar search finds its maximum."""
    from scipy import integrate, optimize, stats

    law = stats.beta(a, b)

    def expected_log(lam: float) -> float:
        value, _ = integrate.quad(lambda x: math.log1p(-lam * (x - star)) * law.pdf(x), 0, 1,
                                  limit=200)
        return value

    top = 1.0 / (1.0 - star) * (1.0 - 1e-12)
    found = optimize.minimize_scalar(lambda lam: -expected_log(lam), bounds=(0.0, top),
                                     method="bounded", options={"xatol": 1e-10})
    return max(-found.fun, expected_log(top))


@njit(inline="always")  # per pull of a Beta arm (two Gammas): the hot path
def _gamma_any(state, shape):
    """Gamma(shape, 1) for any shape > 0: Marsaglia & Tsang's (2000) method for shape >= 1
    (``bandits.rng.gamma``), and below 1 their boost Gamma(shape + 1) U^(1 / shape)."""
    if shape >= 1.0:
        return gamma(state, shape)
    return gamma(state, shape + 1.0) * uniform(state) ** (1.0 / shape)


@njit(inline="always")  # per pull of a plain bandit: the hot path
def draw_reward(family, law, state):
    """One reward of the arm whose parameters are ``law`` (float64 [2], a row of
    ``Arms.params``): Bernoulli 1 with probability mu (one uniform), Beta(a, b) as
    X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b) (both 0 only for shapes so small that both
    underflow: then the law's limit as a + b -> 0, 1 with probability a / (a + b))."""
    if family == BERNOULLI:
        return 1.0 if uniform(state) < law[0] else 0.0
    x, y = _gamma_any(state, law[0]), _gamma_any(state, law[1])
    if x + y > 0.0:
        return x / (x + y)
    return 1.0 if uniform(state) * (law[0] + law[1]) < law[0] else 0.0
