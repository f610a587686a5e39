"""Tuning a player's constant from matches (``experiments.tuning.games``): the regression
finds a planted optimum from synthetic outcomes, a small real tuning stores its games,
resumes and gives the same numbers whatever the workers, its confirmation match plays fresh
games of the chosen value, and bad input is one line."""

import itertools
import json
import math
import shutil

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from experiments.cli import main
from experiments.tournaments import tournament as tournaments
from experiments.tuning import game_report
from experiments.tuning import games as tuning
from experiments.tuning.clop import clop_rounds, fit_scores
from experiments.tuning.games import confirm_seed, pair_counts, projected_seconds, tune_game

PEAK, HEIGHT, WIDTH = 0.5, 0.3, 1.0  # logit P(win) = HEIGHT - WIDTH (log c - log PEAK)^2
# Breakthrough with UCT, the kernels tests/test_tournament.py compiles; few playouts a move
SMALL = {"game": "breakthrough", "player": "uct(c=?)", "against": "uct", "playouts": 8,
         "games": 40, "rounds": 2, "seed": 3}


def _planted(rng: np.random.Generator):
    """``clop_rounds``' play: each game won with the planted probability, no game played."""
    def play(round_, first, constants):
        c = np.repeat(constants, 2)
        p = 1.0 / (1.0 + np.exp(-(HEIGHT - WIDTH * np.log(c / PEAK) ** 2)))
        return pd.DataFrame({"constant": c, "score": (rng.random(len(c)) < p).astype(float)})

    return play


def test_the_regression_finds_a_planted_optimum():
    games, fits = clop_rounds(_planted(np.random.default_rng(5)), (0.05, 5.0),
                              pair_counts(4000, 4), seed=0, log=True)
    best, (low, high) = fits[-1].best, fits[-1].not_worse
    assert len(games) == 4000 and abs(math.log(best / PEAK)) < math.log(1.3)
    assert low <= best <= high and low < PEAK < high
    assert 0.1 < low and high < 2.5  # far values are shown worse
    for outer, inner in itertools.pairwise(fits):  # each holds the last one's not shown worse
        assert outer.region[0] <= inner.region[0] <= outer.not_worse[0]
        assert outer.not_worse[1] <= inner.region[1] <= outer.region[1]
    elo, elo_low, elo_high = fits[-1].elo()
    assert elo_low < 400 * HEIGHT / math.log(10) < elo_high and elo_low < elo < elo_high


def test_one_side_winning_every_game_rules_nothing_out():
    """The virtual draws keep the fit finite, and an even record shows no constant worse."""
    constants = np.geomspace(0.1, 1.0, 50)
    for scores in (np.ones(50), np.tile([0.0, 1.0], 25)):
        fit = fit_scores(constants, scores, (0.1, 1.0), log=True)
        assert np.all(np.isfinite(fit.params)) and fit.not_worse == (0.1, 1.0)
    assert fit_scores(constants, np.ones(50), (0.1, 1.0), True).win_rate(0.5)[0][0] > 0.9


def _synthetic_tuning(play, games: int) -> tuning.GameTuning:
    """A tuning of UCT's c in Breakthrough against uct from ``play``'s outcomes."""
    def with_rounds(round_, first, constants):
        return play(round_, first, constants).assign(round=round_)

    table, fits = clop_rounds(with_rounds, (0.05, 5.0), pair_counts(games, 4), seed=0, log=True)
    return tuning.GameTuning("breakthrough", "uct(c=?)", "uct", "c", 0.05, 5.0, True, 100, 0,
                             table, fits)


def test_a_tuning_that_cannot_tell_the_values_apart_chooses_nothing(tmp_path, saved_figures):
    """Every game won by the seat that moves first, whatever c (as in 8 games of
    Breakthrough): no c is shown worse, so nothing is chosen, in the printed lines, the
    report, the summary and the figure, which name the reference's c (Breakthrough's preset
    0.8, mcts/games/presets.py); a planted optimum is resolved and names it too."""
    def first_seat_wins(round_, first, constants):
        return pd.DataFrame({"constant": np.repeat(constants, 2),
                             "score": np.tile([1.0, 0.0], len(constants))})

    flat = _synthetic_tuning(first_seat_wins, 8)
    assert not flat.resolved and not flat.at_edge and flat.interval == (0.05, 5.0)
    said = ("not resolved: no c in 0.05..5 was shown worse than another over 8 games (the fit "
            "is flat within its noise), so nothing is chosen (the reference uct plays c = 0.8); "
            "play more --games")
    assert game_report.result_lines(flat) == [said]
    summary = flat.summary()
    assert summary["resolved"] is False and summary["reference"] == 0.8
    assert summary["chosen"] is None and summary["elo"] is None
    flat.write_report(tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "| chosen c | none: not resolved |" in text and f"The tuning is {said}." in text
    assert "| the reference's c | 0.8 (`uct` in breakthrough) |" in text
    assert "Elo" not in text.split("| mean score")[0]  # no Elo of a value not chosen
    legend = [t.get_text() for t in saved_figures["game_tuning.png"].axes[0].get_legend()
              .get_texts()]
    assert "no c chosen: none shown worse" in legend and not any("chosen c" in t for t in legend)

    planted = _synthetic_tuning(_planted(np.random.default_rng(5)), 4000)
    assert planted.resolved and planted.summary()["chosen"] == planted.chosen
    assert game_report.result_lines(planted)[0].startswith("chosen: c = ")
    reference = "| the reference's c | 0.8 (`uct` in breakthrough) |"
    assert reference in game_report.report_lines(planted)


def test_the_figure_counts_the_bins_it_draws(saved_figures):
    """Games at two constants fill 2 of the 12 bins: the legend says 2."""
    from plots.game_tuning import plot_game_tuning

    games = pd.DataFrame({"constant": [0.1] * 4 + [1.0] * 4, "score": [1.0, 0.0] * 4})
    curve = pd.DataFrame({"constant": [0.1, 1.0], "win_rate": 0.5, "ci_low": 0.4,
                          "ci_high": 0.6})
    ax = plot_game_tuning(games, curve, chosen=0.3, interval=(0.1, 1.0))
    [points] = [c for c in ax.containers]
    assert len(points.lines[0].get_xdata()) == 2
    assert "games in 2 bins (Wilson 95%)" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_too_few_games_are_refused_before_any_probe_game(monkeypatch, capsys):
    """``--games 2`` (4 rounds need 8): one line, exit 2, before the projection plays its two
    probe games."""
    monkeypatch.setattr(tuning, "projected_seconds", lambda *a: pytest.fail("probed"))
    assert main(["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct",
                 "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "--games 2 must be even and at least 8" in err and err.count("\n") == 1


def test_a_small_tuning_stores_resumes_and_ignores_workers(tmp_path, monkeypatch,
                                                           saved_figures):
    out = tmp_path / "tuning"
    first = tune_game(**SMALL, out=out, workers=1)
    table = first.table
    assert len(table) == 40 and table["game"].tolist() == list(range(40))
    assert table.groupby("pair")["seat"].apply(list).tolist() == [[0, 1]] * 20
    assert table.groupby("pair")["constant"].nunique().eq(1).all()
    assert first.interval[0] <= first.chosen <= first.interval[1]
    blocks = sorted((out / "blocks").glob("*.parquet"))
    assert len(blocks) == 4  # 2 rounds of 10 pairs, 5 pairs a block

    played = []
    play = tuning.play_pairs
    monkeypatch.setattr(tuning, "play_pairs",
                        lambda t, r, pairs: played.append(pairs) or play(t, r, pairs))
    again = tune_game(**SMALL, out=out, workers=1)
    assert played == []
    pd.testing.assert_frame_equal(again.table, table)
    assert again.summary() == first.summary()

    blocks[-1].unlink()  # a run killed before its last block
    resumed = tune_game(**SMALL, out=out, workers=1)
    assert [pair for pair, _ in played[0]] == list(range(15, 20)) and len(played) == 1
    assert resumed.summary() == first.summary()

    # the last round again on two workers (one pool start: each costs seconds of imports)
    monkeypatch.setattr(tuning, "play_pairs", play)
    shutil.copytree(out, tmp_path / "parallel", ignore=shutil.ignore_patterns(".lock"))
    for block in blocks[2:]:
        (tmp_path / "parallel" / "blocks" / block.name).unlink()
    parallel = tune_game(**SMALL, out=tmp_path / "parallel", workers=2)
    assert len(list((tmp_path / "parallel" / "blocks").glob("*.parquet"))) == 4
    pd.testing.assert_frame_equal(parallel.table, table)
    assert parallel.summary() == first.summary()

    with pytest.raises(ValueError, match=r"holds another tuning \(playouts 8, not 9\)"):
        tune_game(**{**SMALL, "playouts": 9}, out=out, workers=1)

    paths = first.write_report(tmp_path / "report")
    assert {path.name for path in paths} == {"report.md", "game_tuning.png", "game_tuning.pdf"}
    # 40 games at 8 playouts a move cannot tell the values of c apart
    assert not first.resolved and "| chosen c | none: not resolved |" in paths[0].read_text()
    ax = saved_figures["game_tuning.png"].axes[0]
    assert ax.get_xscale() == "log" and len(ax.lines) >= 3
    assert projected_seconds("breakthrough", "uct(c=?)", "uct", 8, 40) > 0



def test_a_confirmation_match_plays_fresh_games_of_the_chosen_value(tmp_path, monkeypatch,
                                                                     capsys):
    """``confirm``: the chosen player (as reported) against the reference, colours
    alternating, seeded apart from the tuning's games; win rate with the Wilson interval
    (statsmodels'), Elo 400 log10(p / (1 - p)) at the rate and at the interval's ends; stored
    in DIR/confirm, so a rerun plays nothing and a longer match only its new games; the CLI
    prints it. SMALL's 40 games do not resolve c (a tuning that chooses nothing confirms
    nothing): the test takes the chosen value as resolved, to check the match itself."""
    monkeypatch.setattr(tuning.GameTuning, "resolved", property(lambda self: True))
    out = tmp_path / "tuning"
    tuned = tune_game(**SMALL, out=out, workers=1, confirm=6)
    games, confirmed = tuned.confirmation, tuned.confirmed()
    assert len(games) == 6 and games["a_seat"].tolist() == [0, 1, 0, 1, 0, 1]
    stored = json.loads((out / "confirm" / "tournament.json").read_text())
    assert stored["a"] == confirmed["player"] == tuned.chosen_player()
    assert stored["seed"] == confirm_seed(SMALL["seed"]) != SMALL["seed"]
    rate = games["a_score"].mean()
    low, high = proportion_confint(rate * 6, 6, alpha=0.05, method="wilson")
    assert confirmed["win_rate_a"] == rate and confirmed["ci95"] == pytest.approx([low, high])
    elo = [None if p in (0.0, 1.0) else 400 * math.log10(p / (1 - p)) for p in (rate, low, high)]
    assert [confirmed["elo"], *confirmed["elo_interval"]] == pytest.approx(elo)
    assert tuned.summary()["confirmation"] == confirmed

    played = []
    play = tournaments.play_block
    monkeypatch.setattr(tournaments, "play_block",
                        lambda t, block: played.append(block) or play(t, block))
    again = tune_game(**SMALL, out=out, workers=1, confirm=6)
    assert played == [] and again.summary() == tuned.summary()
    grown = tune_game(**SMALL, out=out, workers=1, confirm=8)  # plays only the 2 games missing
    assert [(block.index, block.start, block.count) for block in played] == [(0, 6, 8)]
    pd.testing.assert_frame_equal(grown.confirmation.iloc[:6], games)
    assert "| confirmation, 6 fresh games at the chosen c | win rate" in "\n".join(
        game_report.report_lines(tuned))
    capsys.readouterr()
    assert main(["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct",
                 "--playouts", "8", "--games", "40", "--confirm", "4", "--quiet",
                 "--out", str(tmp_path / "cli")]) == 0
    assert "confirmed over 4 fresh games: win rate" in capsys.readouterr().out

@pytest.mark.parametrize(("player", "options", "message"), [
    ("uct", {}, r"has no '\?': mark the one parameter to tune with \?, e\.g\. uct\(c=\?\)"),
    ("uct(c=?)+qb(k=?)", {}, r"has 2 '\?': mark the one parameter"),
    ("uct(k=?)", {}, r"uct has no number parameter 'k' to tune; mark one of c"),
    ("uct+qb(a=?)+quality(x=?)", {}, r"has 2 '\?'"),
    ("uct+quality(x=?)", {}, r"quality has no number parameter 'x' to tune; mark a parameter"),
    ("uct(c=?)", {"low": 1.0, "high": 1.0}, r"c=1..1:log is an empty range: give LOW < HIGH"),
    ("uct(c=?)", {"low": 2.0, "high": 1.0}, r"c=2..1:log is an empty range"),
    ("uct(c=?)", {"low": 0.0, "high": 1.0}, r"c=0..1:log: a log scale needs LOW > 0"),
    ("uct(c=?)", {"low": -1.0, "high": 1.0, "log": False}, r"LOW -1 is outside uct's c"),
    ("uct+random(c=?)", {}, r"random has no number parameter 'c'"),
])
def test_bad_input_is_one_line_naming_the_fix(player, options, message):
    with pytest.raises(ValueError, match=message) as error:
        tune_game("breakthrough", player, "uct", games=4, rounds=1, **options)
    assert "\n" not in str(error.value)


def test_a_reference_with_a_mark_and_an_odd_number_of_games_are_refused():
    with pytest.raises(ValueError, match=r"--against 'uct\(c=\?\)' has a '\?'"):
        tune_game("breakthrough", "uct(c=?)", "uct(c=?)", games=4)
    with pytest.raises(ValueError, match=r"--games 7 must be even and at least 2"):
        tune_game("breakthrough", "uct(c=?)", "uct", games=7, rounds=1)


def test_a_folder_of_another_kind_is_refused(tmp_path):
    (tmp_path / "tournament.json").write_text("{}")
    with pytest.raises(ValueError, match=r"holds a tournament \(tournament.json\), not a "
                                         r"game's tuning: choose another --out folder"):
        tune_game(**SMALL, out=tmp_path, workers=1)
