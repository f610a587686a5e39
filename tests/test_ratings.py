"""Round-robin ratings: Bradley-Terry against an independent maximum-likelihood solution (Hunter's
MM algorithm, written here), recovery of known strengths from simulated games, the pairwise
table and the crosstable by hand, and seeded bootstrap intervals."""

import numpy as np
import pandas as pd
import pytest

from experiments.tournaments.ratings import (
    bradley_terry,
    crosstable,
    crosstable_markdown,
    pairwise,
    ratings,
)

PLAYERS = ["p", "q", "r", "s"]
# a hand-made crosstable: points of a against b over games (no player wins or loses everything)
PAIRS = pd.DataFrame({"a": ["p", "p", "p", "q", "q", "r"], "b": ["q", "r", "s", "r", "s", "s"],
                      "games": [10, 12, 8, 10, 20, 6], "points_a": [6.5, 9, 7, 4, 15.5, 2.5]})


def _mm(pairs: pd.DataFrame, players: list[str], prior: float = 0.0) -> np.ndarray:
    """Bradley-Terry by Hunter's (2004) MM iteration gamma_i <- W_i / sum_j n_ij / (gamma_i +
    gamma_j), W_i the points of i; Elo = 400 log10 gamma, mean 0."""
    k = len(players)
    index = {name: i for i, name in enumerate(players)}
    n, w = np.zeros((k, k)), np.zeros((k, k))
    for row in pairs.itertuples():
        i, j = index[row.a], index[row.b]
        n[i, j] = n[j, i] = row.games + prior
        w[i, j], w[j, i] = row.points_a + prior / 2, row.games - row.points_a + prior / 2
    gamma = np.ones(k)
    for _ in range(20000):
        gamma = w.sum(axis=1) / (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        gamma /= np.exp(np.log(gamma).mean())
    elo = 400 * np.log10(gamma)
    return elo - elo.mean()


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_bradley_terry_is_the_maximum_likelihood_solution(prior):
    fitted = bradley_terry(PAIRS, PLAYERS, prior=prior)
    assert list(fitted.index) == PLAYERS and abs(fitted.sum()) < 1e-9
    np.testing.assert_allclose(fitted.to_numpy(), _mm(PAIRS, PLAYERS, prior), atol=1e-6)


def test_two_players_rating_is_the_logit_of_the_score():
    pairs = pd.DataFrame({"a": ["x"], "b": ["y"], "games": [40], "points_a": [30.0]})
    fitted = bradley_terry(pairs, ["x", "y"], prior=0)
    assert fitted["x"] - fitted["y"] == pytest.approx(400 * np.log10(30 / 10))


def _simulated_games(elos: dict, games: int, draw: float, rng) -> pd.DataFrame:
    """Every pairing over ``games`` games: A scores with probability p (Elo), of which a share
    ``draw`` of the decisive mass becomes draws (keeping the expected score p)."""
    frames = []
    names = list(elos)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1 / (1 + 10 ** ((elos[b] - elos[a]) / 400))
            d = draw * 2 * min(p, 1 - p)
            outcome = rng.choice([1.0, 0.5, 0.0], size=games, p=[p - d / 2, d, 1 - p - d / 2])
            frames.append(pd.DataFrame({"a": a, "b": b, "game": range(games),
                                        "a_seat": np.arange(games) % 2, "a_score": outcome}))
    return pd.concat(frames, ignore_index=True)


def test_ratings_recover_known_strengths():
    """Five players 0 to 400 Elo apart, 400 games per pairing: each rating (mean 0) within 40
    Elo of the truth (a rating's standard error is about 7 Elo here), and its bootstrap
    interval about 1.96 of them on either side (half-widths 10 to 30 accepted)."""
    true = {"e": 200.0, "d": 100.0, "c": 0.0, "b": -100.0, "a": -200.0}
    games = _simulated_games(true, 400, draw=0.3, rng=np.random.default_rng(11))
    table = ratings(games, list(true), bootstrap=300, rng=np.random.default_rng(1))
    assert table["player"].tolist() == ["e", "d", "c", "b", "a"]
    got = table.set_index("player")
    errors = (got["elo"] - pd.Series(true)).abs()
    assert errors.max() < 40, errors
    half_width = (got["ci_high"] - got["ci_low"]) / 2
    assert ((10 < half_width) & (half_width < 30)).all(), half_width
    assert ((got["ci_low"] < got["elo"]) & (got["elo"] < got["ci_high"])).all()
    assert (got["games"] == 1600).all()


def test_bootstrap_is_seeded():
    games = _simulated_games({"x": 50.0, "y": 0.0, "z": -50.0}, 30, 0.2,
                             np.random.default_rng(3))
    one = ratings(games, ["x", "y", "z"], bootstrap=100, rng=np.random.default_rng(5))
    pd.testing.assert_frame_equal(one, ratings(games, ["x", "y", "z"], bootstrap=100,
                                               rng=np.random.default_rng(5)))
    assert (one["ci_low"] < one["elo"]).all() and (one["elo"] < one["ci_high"]).all()


def test_pairwise_and_crosstable_by_hand():
    games = pd.DataFrame({"a": ["x"] * 4 + ["x"] * 2 + ["y"] * 2,
                          "b": ["y"] * 4 + ["z"] * 2 + ["z"] * 2,
                          "game": [0, 1, 2, 3, 0, 1, 0, 1], "a_seat": [0, 1, 0, 1] * 2,
                          "a_score": [1.0, 0.5, 0.0, 1.0, 1.0, 1.0, 0.5, 0.5]})
    pairs = pairwise(games)
    assert pairs[["a", "b", "games", "wins_a", "draws", "losses_a", "points_a"]].values.tolist() \
        == [["x", "y", 4, 2, 1, 1, 2.5], ["x", "z", 2, 2, 0, 0, 2.0], ["y", "z", 2, 0, 2, 0, 1.0]]
    assert pairs["win_rate_a"].tolist() == [0.625, 1.0, 0.5]
    assert (pairs["ci_low"] < pairs["win_rate_a"]).all() and pairs["ci_high"].iloc[1] == 1.0
    table = ratings(games, ["x", "y", "z"], bootstrap=50)
    cross = crosstable(pairs, table)
    assert cross.index.tolist() == ["x", "y", "z"]  # best first
    assert cross.loc["y", "x"] == 0.375 and cross.loc["z", "x"] == 0.0
    assert np.isnan(cross.loc["x", "x"])
    text = crosstable_markdown(pairs, table)
    assert "| x | - | 2.5/4 | 2/2 |" in text and "| z | 0/2 | 1/2 | - |" in text


def test_disconnected_players_are_refused():
    pairs = pd.DataFrame({"a": ["w", "y"], "b": ["x", "z"], "games": [4, 4],
                          "points_a": [2.0, 3.0]})
    with pytest.raises(ValueError, match="do not connect every player"):
        bradley_terry(pairs, ["w", "x", "y", "z"])
