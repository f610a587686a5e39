"""The literature's policies (UCB1-Tuned, UCB-V, MOSS, PUCT, epsilon-greedy, Bayes-UCB) as the
compiled engines compute them, against a direct numpy or scipy transcription of each paper's
formula on random statistics; every registered policy's index against the plain-Python
reference search's (a new built-in is checked from its registry row and its reference index);
the Beta quantile against scipy's."""

import numpy as np
import pytest
from numba import njit
from reference_mcts import BEGINS, CONTEXT, DRAWS
from reference_mcts import POLICIES as REFERENCE_INDICES
from scipy.special import betainc
from scipy.stats import beta as stats_beta

from bandits import POLICIES, Arm, begin_selection, index_tables, make_policy, policy_value
from bandits.beta_quantile import beta_quantile, beta_upper_quantile, log_beta, regularized_beta
from bandits.klucb import TOLERANCE as KLUCB_TOLERANCE
from bandits.rng import seed_state

N = 2000


@njit(cache=True)
def _indices(policy, means, squares, visits, parents, arms, tables):
    out = np.empty(means.shape[0])
    for i in range(means.shape[0]):
        out[i] = policy_value(policy, Arm(means[i], squares[i], visits[i], parents[i],
                                                  arms, 1.0 / arms),
                              tables, None)
    return out


@pytest.fixture(scope="module")
def stats():
    """Random arms with rewards in {0, 1/2, 1}: wins w, draws d out of T visits."""
    rng = np.random.default_rng(7)
    visits = rng.integers(1, 400, N)
    wins = rng.binomial(visits, 0.4)
    draws = rng.binomial(visits - wins, 0.3)
    mean = (wins + 0.5 * draws) / visits
    square = (wins + 0.25 * draws) / visits
    parents = visits + rng.integers(0, 4000, N)
    return mean, square, visits, parents


def _compiled(name, stats, arms=4, **params):
    mean, square, visits, parents = stats
    return _indices(make_policy(name, **params), mean, square, visits, parents, arms,
                    index_tables(int(parents.max())))


# Those whose index or selection draws are compared through whole searches (tests/test_engine.py)
DETERMINISTIC = [name for name in POLICIES if name not in DRAWS and name not in BEGINS]


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_every_registered_index_is_the_reference_searchs(stats, name):
    """Each registered policy's compiled index at its defaults, on random statistics (no
    restart: T' = T), against its index in the plain-Python reference (``reference_mcts``),
    within the compiled KL-UCB's root-finding tolerance (1e-6)."""
    mean, square, visits, parents = stats
    context = {"arms": 4, "siblings": []}
    expected = [REFERENCE_INDICES[name](
        m * v, int(v), int(v), int(t), None,
        **{key: s * v if key == "square_sum" else context[key] for key in CONTEXT.get(name, ())})
        for m, s, v, t in zip(mean, square, visits, parents)]
    assert _compiled(name, stats) == pytest.approx(expected, rel=0, abs=KLUCB_TOLERANCE)

def test_ucb1tuned(stats):
    mean, square, n_j, n = stats
    v = square - mean**2 + np.sqrt(2 * np.log(n) / n_j)
    expected = mean + np.sqrt(np.log(n) / n_j * np.minimum(0.25, v))
    assert _compiled("ucb1tuned", stats) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("zeta, c", [(1.2, 1.0), (2.0, 0.25)])
def test_ucbv(stats, zeta, c):
    mean, square, n_j, n = stats
    e = zeta * np.log(n)
    expected = mean + np.sqrt(2 * (square - mean**2) * e / n_j) + 3 * c * e / n_j
    assert _compiled("ucbv", stats, zeta=zeta, c=c) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("arms", [2, 4, 7])
def test_moss(stats, arms):
    mean, _, n_j, n = stats
    expected = mean + np.sqrt(np.maximum(np.log(n / (arms * n_j)), 0) / n_j)
    assert _compiled("moss", stats, arms) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("c_init, c_base", [(1.25, 19652.0), (0.5, 10.0)])
def test_puct(stats, c_init, c_base):
    mean, _, n_j, n = stats
    expected = mean + (1 / 4) * np.sqrt(n) / (1 + n_j) * (
        c_init + np.log((n + c_base + 1) / c_base))
    got = _compiled("puct", stats, c_init=c_init, c_base=c_base)
    assert got == pytest.approx(expected, rel=1e-12)


def test_unvisited_arms():
    tables = index_tables(8)
    zero = np.zeros(1)
    for name in ("ucb1tuned", "ucbv", "moss", "egreedy", "bayesucb"):
        assert _indices(make_policy(name), zero, zero, np.zeros(1, np.int64),
                        np.full(1, 5), 4, tables)[0] == np.inf
    puct = _indices(make_policy("puct"), zero, zero, np.zeros(1, np.int64), np.full(1, 5), 4,
                    tables)[0]
    assert puct == pytest.approx(0.5 + np.sqrt(5) / 4 * (1.25 + np.log(19658 / 19652)))


def test_egreedy_greedy_selection_is_the_mean(stats):
    mean, _, _, _ = stats
    assert np.array_equal(_compiled("egreedy", stats, epsilon=0.3), mean)


def test_egreedy_exploring_selection_ties_every_child():
    policy = make_policy("egreedy")._replace(explore=1.0)
    means = np.array([0.0, 0.25, 1.0, 0.0])
    visits = np.array([0, 3, 7, 2])
    got = _indices(policy, means, means, visits, np.full(4, 12), 4, index_tables(16))
    assert got.tolist() == [0.5] * 4


@njit(cache=True)
def _explore_frequency(policy, draws, seed):
    state, explored, kept = seed_state(np.uint64(seed)), 0, True
    for _ in range(draws):
        chooser = begin_selection(policy, state)
        explored += chooser.explore == 1.0
        kept &= chooser.epsilon == policy.epsilon
    return explored / draws, kept


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.5, 1.0])
def test_egreedy_coin_is_drawn_with_probability_epsilon(epsilon):
    """One uniform per selection: over 200,000 selections the exploring ones are a fraction
    epsilon (|z| < 5)."""
    draws = 200_000
    frequency, kept = _explore_frequency(make_policy("egreedy", epsilon=epsilon), draws, 3)
    assert kept
    assert abs(frequency - epsilon) <= 5 * np.sqrt(epsilon * (1 - epsilon) / draws)


def test_policies_without_a_hook_index_with_their_own_record():
    policy = make_policy("ucb1", c=0.7)
    assert _same_record(policy, seed_state(np.uint64(1))) == policy


@njit(cache=True)
def _same_record(policy, state):
    return begin_selection(policy, state)


@pytest.mark.parametrize("c", [0.0, 1.0, 5.0])
def test_bayesucb(stats, c):
    """The 1 - 1/(t' max(ln t', 1)^c) quantile of Beta(S + 1, T' - S + 1), S = mean T'."""
    mean, _, n_j, n = stats
    s = mean * n_j
    tail = 1 / (n * np.maximum(np.log(n), 1) ** c)
    expected = np.where(tail >= 1, 0.0, stats_beta.isf(np.minimum(tail, 1), s + 1, n_j - s + 1))
    assert np.abs(_compiled("bayesucb", stats, c=c) - expected).max() < 1e-10


def test_bayesucb_at_one_parent_visit_is_the_posteriors_lower_end():
    tables, one = index_tables(8), np.ones(1, np.int64)
    for c in (0.0, 2.0):
        assert _indices(make_policy("bayesucb", c=c), np.full(1, 0.5), np.zeros(1), one, one, 4,
                        tables)[0] == 0.0


def test_beta_quantile_against_scipy():
    """Random shapes (the policy's a, b >= 1, and below 1) and levels, some tails tiny."""
    rng = np.random.default_rng(11)
    a = np.exp(rng.uniform(np.log(0.3), np.log(20000), 3000))
    b = np.exp(rng.uniform(np.log(0.3), np.log(20000), 3000))
    level = np.concatenate([rng.uniform(0, 1, 1500), 10 ** rng.uniform(-12, 0, 1500)])
    lower = np.array([beta_quantile(*args) for args in zip(a, b, level)])
    upper = np.array([beta_upper_quantile(*args) for args in zip(a, b, level)])
    assert np.abs(lower - stats_beta.ppf(level, a, b)).max() < 1e-10
    assert np.abs(upper - stats_beta.isf(level, a, b)).max() < 1e-10
    x = rng.uniform(0, 1, 3000)
    regularized = np.array([regularized_beta(xi, ai, bi, log_beta(ai, bi))
                            for xi, ai, bi in zip(x, a, b)])
    assert np.abs(regularized - betainc(a, b, x)).max() < 1e-10


def test_beta_quantile_ends():
    assert beta_quantile(2.0, 3.0, 0.0) == 0.0 and beta_quantile(2.0, 3.0, 1.0) == 1.0
    assert beta_quantile(1.0, 1.0, 0.3) == pytest.approx(0.3, abs=1e-15)
    assert beta_upper_quantile(1.0, 1.0, 0.3) == pytest.approx(0.7, abs=1e-15)
