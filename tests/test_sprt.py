"""The GSPRT on wins, draws and losses: its log-likelihood ratio against a direct constrained
maximisation, its error rates on simulated matches at elo0 and elo1, and its stop in a
tournament."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.stats import binomtest

from experiments.cli import main
from experiments.tournaments.sprt import Sprt, expected_score, outcomes

SCORES = np.array([0.0, 0.5, 1.0])


def _max_log_likelihood(counts: np.ndarray, score: float) -> float:
    """max sum_i counts_i log p_i over trinomials p with sum p_i a_i = score (SLSQP)."""
    fit = minimize(lambda p: -counts @ np.log(p), np.full(3, 1 / 3), method="SLSQP",
                   bounds=[(1e-9, 1)] * 3, options={"ftol": 1e-14, "maxiter": 500},
                   constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1},
                                {"type": "eq", "fun": lambda p: p @ SCORES - score}])
    return -fit.fun


@pytest.mark.parametrize("wins, draws, losses", [(60, 30, 40), (12, 70, 9), (40, 0, 55)])
def test_llr_is_the_generalised_likelihood_ratio(wins, draws, losses):
    sprt = Sprt(-10, 25)
    counts = np.maximum([losses, draws, wins], 1e-3)
    n = wins + draws + losses
    direct = n / counts.sum() * (_max_log_likelihood(counts, expected_score(25))
                                 - _max_log_likelihood(counts, expected_score(-10)))
    assert sprt.llr(wins, draws, losses) == pytest.approx(direct, abs=1e-5)


def test_bounds_are_walds():
    lower, upper = Sprt(0, 10, alpha=0.05, beta=0.1).bounds
    assert lower == pytest.approx(np.log(0.1 / 0.95)) and upper == pytest.approx(np.log(0.9 / 0.05))


def _match(sprt: Sprt, elo: float, rng, draw: float = 0.3, block: int = 10,
           most: int = 20000) -> str | None:
    """One simulated match of A, ``elo`` stronger than B, tested after every block."""
    p = expected_score(elo)
    d = draw * 2 * min(p, 1 - p)
    counts = np.zeros(3, dtype=int)  # wins, draws, losses
    while counts.sum() < most:
        counts += rng.multinomial(block, [p - d / 2, d, 1 - p - d / 2])
        decision = sprt.decision(*counts)
        if decision is not None:
            return decision
    return None


def test_error_rates_on_simulated_matches():
    """400 matches at elo0 and 400 at elo1 (0 and 50 Elo, a third of the games drawn): every
    match decides, and neither error rate is above its target (one-sided binomial test at the
    1% level; Wald's bounds and checking per block of 10 make the true rates a little lower)."""
    sprt = Sprt(0, 50, alpha=0.05, beta=0.05)
    rng = np.random.default_rng(2024)
    at_elo0 = [_match(sprt, 0, rng) for _ in range(400)]
    at_elo1 = [_match(sprt, 50, rng) for _ in range(400)]
    assert None not in at_elo0 and None not in at_elo1
    false_h1, false_h0 = at_elo0.count("H1"), at_elo1.count("H0")
    assert binomtest(false_h1, 400, 0.05, alternative="greater").pvalue > 0.01, false_h1
    assert binomtest(false_h0, 400, 0.05, alternative="greater").pvalue > 0.01, false_h0


def test_outcomes_and_report():
    games = pd.DataFrame({"a_score": [1.0, 0.5, 0.0, 1.0, 1.0]})
    assert outcomes(games) == (3, 1, 1)
    report = Sprt(0, 20).report(games)
    assert report["games"] == 5 and report["decision"] is None
    assert report["lower"] < report["llr"] < report["upper"]


@pytest.mark.parametrize("args, words", [((10, 0), "ELO0 < ELO1"),
                                         ((0, float("nan")), "two finite Elo"),
                                         ((0, 10, 0.6), "--alpha 0.6 must be in (0, 0.5)")])
def test_bad_hypotheses_are_refused(args, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Sprt(*args)


def test_a_tournament_stops_when_the_sprt_decides_and_says_why(capsys):
    """uct+qb against uct at 5 playouts, tested for 300 Elo against 400: H0 is accepted within
    a few blocks, and the report gives the games, the LLR and the bound it crossed."""
    argv = ["tournament", "breakthrough", "--a", "uct+qb", "--b", "uct", "--games", "100",
            "--playouts", "5", "--block", "5", "--sprt", "300,400", "--workers", "1",
            "--bootstrap", "20"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["sprt"]
    assert report["decision"] == "H0" and report["llr"] <= report["lower"]
    assert report["games"] % 5 == 0 and report["games"] < 100
    assert main([*argv, "--alpha", "0.01"]) == 0
    assert "accepted H0 after" in capsys.readouterr().out


def test_a_stopped_sprt_says_its_estimates_are_biased_and_an_open_one_does_not():
    from experiments.tournaments.report import sprt_line

    stopped = {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "llr": 2.95, "lower": -2.94,
               "upper": 2.94, "games": 212}
    lines = {decision: sprt_line({**stopped, "decision": decision})
             for decision in ("H1", "H0", None)}
    assert all("biases them toward that bound's hypothesis" in lines[d] for d in ("H1", "H0"))
    assert "biases" not in lines[None] and "no decision after 212 games" in lines[None]


def test_negative_elo_bounds_are_read_as_the_sprts_value():
    """--sprt -10,10, the engine testers' usual bounds: argparse took "-10,10" for an option."""
    from experiments.cli.mctslab import _with_negative_values, build_parser

    argv = ["tournament", "breakthrough", "--a", "uct", "--b", "uct(c=0.5)", "--games", "2",
            "--playouts", "8", "--sprt", "-10,10"]
    assert build_parser().parse_args(_with_negative_values(argv)).sprt == (-10.0, 10.0)
    assert main([*argv[:-1], "10,-10"]) == 2  # still checked: ELO0 < ELO1


def test_elo_bounds_the_model_cannot_hold_are_refused_and_those_it_can_warn_nothing():
    """--sprt 0,100000 printed NaN warnings: an expected score of 1.0 degenerates the
    trinomial. Bounds up to the limit give finite LLRs without a warning."""
    import warnings

    from experiments.tournaments.sprt import ELO_LIMIT

    with pytest.raises(ValueError, match=r"beyond \+-1000 is out of the test's model"):
        Sprt(0, 100000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        test = Sprt(-ELO_LIMIT, ELO_LIMIT)
        assert all(np.isfinite(test.llr(*games))
                   for games in [(10, 0, 0), (0, 0, 10), (5, 5, 5), (0, 3, 0), (3, 0, 100)])
