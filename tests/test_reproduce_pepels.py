"""``mctslab reproduce pepels`` end to end on a tiny scale: tables, the k figure and report are
written from the stored tournaments, and a second run resumes without replaying a game."""

import pandas as pd
import pytest

from experiments.cli import main
from experiments.papers import pepels
from experiments.papers.pepels import reproduce_pepels
from experiments.papers.pepels.report import AMAZONS_OPENING_MOVES
from experiments.papers.pepels.study import (
    ENHANCED,
    GAMES,
    PAPER,
    PAPER_K,
    TABLE2,
    TABLE2_GAMES,
    TABLES,
    K,
    game_seconds,
    pepels_matches,
    projected_core_hours,
)
from games import get_game

TINY = {"budgets": (10, 20), "games": 2, "quality_games": 2, "block": 1,
        "game_list": ("breakthrough", "pentalath"), "table2_games": 2, "k_games": 2,
        "k_values": (1.0, 2.0), "game_budgets": {"pentalath": (5, 15), "amazons": (1, 2)}}


def test_matches_cover_tables_1_to_4_and_the_k_figure():
    matches = pepels_matches("paper")
    keys = {(m.game, m.key, m.tournament.playouts) for m in matches}
    k_values = pepels.SCALES["paper"]["k_values"]
    assert len(matches) == (len(GAMES) * (2 * len(ENHANCED) - 1)
                            + len(TABLE2_GAMES) * len(TABLE2) + len(k_values))
    for game in GAMES:
        for key in ENHANCED:
            assert (game, key, 5000) in keys
            assert ((game, key, 25000) in keys) == (key != "quality")
    for game in TABLE2_GAMES:
        assert {(game, key, 5000) for key in TABLE2} <= keys
    figure = [m for m in matches if m.part == "k"]
    assert [m.k for m in figure] == list(k_values)
    assert all(m.game == "breakthrough" and m.tournament.playouts == 5000 for m in figure)
    assert figure[2].tournament.a == "uct+qb(k=2,a=0.25)"
    assert all(m.tournament.b == "uct" for m in matches)
    assert {m.tournament.games for m in matches} == {1000, 500}
    assert len({m.tournament.seed for m in matches}) == len(matches)
    budgets = [m.budget_index for m in matches]
    assert budgets == sorted(budgets)  # the lower budget first
    for table, (_, columns) in TABLES.items():
        assert all(len(row) == len(columns) for row in PAPER[table].values())
    assert set(PAPER["2"]) == set(TABLE2_GAMES)


def test_quick_scale_keeps_its_matches_and_games_and_fits_12_minutes_on_2_cores():
    """At least the matches and games of the quick scale before it (40 a match, 80
    for reward = quality, Table 2 and each k), and the cost table's projection leaves 290 of
    the 1,440 core-seconds of 12 minutes on 2 cores for compiling (about 75 s a worker), the
    cost table's error (9% low) and the last blocks."""
    config = pepels.SCALES["quick"]
    matches = pepels_matches("quick")
    assert len(matches) == len(pepels_matches("paper")) == 89
    assert config["games"] >= 40 and config["block"] <= 5
    assert min(config["table2_games"], config["k_games"]) >= 80
    assert config["quality_games"] == 100  # Breakthrough's reward = q: 84% power, not 75%
    playouts = {(m.game, m.budget_index): m.tournament.playouts for m in matches}
    assert playouts["breakthrough", 0] == 100 and playouts["breakthrough", 1] == 500
    assert playouts["amazons", 0] == 50 and playouts["amazons", 1] == 150
    assert projected_core_hours(matches) * 3600 <= 1440 - 290


def test_game_seconds_is_the_measured_cost_at_a_measured_budget_else_scaled():
    seconds, _ = pepels.COSTS["cannon"][500]
    assert game_seconds("cannon", 500) == pytest.approx(seconds)
    assert game_seconds("cannon", 5000) == pytest.approx(10 * seconds)
    assert game_seconds("cannon", 60) == pytest.approx(pepels.COSTS["cannon"][50][0] * 60 / 50)


def test_presets_use_the_papers_k():
    """Tables 1 and 3 give each game's k_RB and k_QB; the players take theirs from presets."""
    assert K == PAPER_K


def test_amazons_opening_moves():
    start = get_game("amazons").new_initial_state()
    assert len(start.legal_actions()) == AMAZONS_OPENING_MOVES


def test_tiny_reproduction_writes_tables_figure_report_and_resumes(tmp_path, monkeypatch,
                                                                  saved_figures):
    monkeypatch.setitem(pepels.SCALES, "quick", TINY)
    report = reproduce_pepels(tmp_path, "quick", workers=1, progress=False)
    text = report.read_text()
    # 2 x 13 matches of Tables 1, 3, 4, 2 of Table 2 (Breakthrough), 2 k values: 2 blocks each
    assert "computed 60 of 60 blocks" in text
    assert "## Verdicts, game by game (pooled)" in text and "| Breakthrough | QB | 4 | 8 |" in text
    assert "![win rate against k](fig_k_qb_breakthrough.png)" in text
    for table in ("1", "3", "4"):
        body = (tmp_path / f"table{table}.md").read_text()
        assert body.count("| Pentalath (5 and 15 p) |") == 1
    table2 = (tmp_path / "table2.md").read_text()
    assert "CadiaPlayer k=2" in table2 and "| Breakthrough |" in table2
    assert "Pentalath" not in table2
    for suffix in ("png", "pdf"):
        assert (tmp_path / f"fig_k_qb_breakthrough.{suffix}").stat().st_size > 0
    [ax] = saved_figures["fig_k_qb_breakthrough.png"].axes
    assert ax.get_title() == "QB (a = 0.25) in Breakthrough"
    ours, paper = ax.containers  # two error bars: our win rates against k, the paper's point
    assert ours.get_label().startswith("ours, ") and paper.get_label().startswith("paper, ")
    assert (tmp_path / "breakthrough" / "rb-online-p10" / "tournament.json").exists()
    assert (tmp_path / "breakthrough" / "qb-k1-0.25-p10" / "tournament.json").exists()
    assert not (tmp_path / "breakthrough" / "quality-p20").exists()
    results = pd.read_csv(tmp_path / "results.csv")
    assert len(results) == 30 and results.win_rate.between(0, 100).all()
    assert set(results[results.game == "pentalath"].playouts) == {5, 15}
    assert set(results[results.game == "breakthrough"].playouts) == {10, 20}
    assert "budgets 10 and 20 playouts per move; Pentalath 5 and 15, 2 games" in text
    k_rows = results[results.part == "k"]
    assert k_rows.k.tolist() == [1.0, 2.0]
    assert list(ours.lines[0].get_xdata()) == [1.0, 2.0]
    assert list(ours.lines[0].get_ydata()) == pytest.approx(k_rows.win_rate.tolist(), abs=0.01)
    comp = pd.read_csv(tmp_path / "comparison.csv")
    assert len(comp) == 2 * (4 + 4 + 5) + 2
    verdicts = pd.read_csv(tmp_path / "verdicts.csv")
    assert len(verdicts) == 2 * 4 + 1  # RB, QB, RB+QB, reward = q; Table 2 in Breakthrough
    assert set(verdicts[verdicts.finding == "QB"].games) == {8}
    blocks = sorted(tmp_path.glob("*/*/blocks/*.parquet"))
    stamps = [path.stat().st_mtime_ns for path in blocks]
    again = reproduce_pepels(tmp_path, "quick", workers=1, progress=False)
    assert "computed 0 of 60 blocks" in again.read_text()
    assert [path.stat().st_mtime_ns for path in blocks] == stamps
    assert pd.read_csv(tmp_path / "results.csv").equals(results)


def _stored_games(folder):
    """Every stored block's games, by the block's path under ``folder``."""
    return {path.relative_to(folder).as_posix(): pd.read_parquet(path)
            for path in sorted(folder.glob("*/*/blocks/*.parquet"))}


def test_cli_reproduce_pepels_on_a_dask_local_cluster_stores_a_local_runs_results(
        tmp_path, monkeypatch, capsys):
    """The blocks go to 2 Dask workers and come back in completion order; results.csv
    and every stored block's games equal those of a run in this process."""
    tiny = dict(TINY, budgets=(5, 10), game_list=("checkers",), games=2, quality_games=2,
                table2_games=2)
    monkeypatch.setitem(pepels.SCALES, "quick", tiny)
    dask, local = tmp_path / "dask", tmp_path / "local"
    # this process first: its kernels compiled here, the Dask workers load them from the cache
    reproduce_pepels(local, "quick", workers=1, progress=False)
    assert main(["reproduce", "pepels", "--out", str(dask), "--scheduler", "local",
                 "--workers", "2", "--quiet"]) == 0
    assert "report.md" in capsys.readouterr().out
    assert (dask / "table4.md").exists() and (dask / "table2.md").exists()
    assert not (dask / "fig_k_qb_breakthrough.png").exists()  # no Breakthrough, no figure
    results = pd.read_csv(dask / "results.csv")
    assert len(results) == 7 + 6 + 2  # Tables 1, 3, 4 at both budgets (quality: the lower), 2
    pd.testing.assert_frame_equal(results, pd.read_csv(local / "results.csv"))
    games = _stored_games(dask)
    assert len(games) == 2 * len(results)  # blocks of 1 game
    assert games.keys() == _stored_games(local).keys()
    for key, table in _stored_games(local).items():
        pd.testing.assert_frame_equal(games[key], table, obj=key)
    assert (results.games == 2).all() and (results.mean_plies > 0).all()


def test_cli_paper_scale_prints_its_projected_core_hours_before_any_game(tmp_path, monkeypatch,
                                                                        capsys):
    """The projection is printed before the study starts, and it is the cost table's sum: the
    matches of the paper scale by hand, each game ``plies x playouts / simulations per
    second`` of its game (``COSTS``)."""
    printed = []

    def study(out, scale, **_):  # stands for the study: records what was printed before it
        printed.append(capsys.readouterr().out)
        return tmp_path / "report.md"

    monkeypatch.setattr(pepels, "reproduce_pepels", study)
    assert main(["reproduce", "pepels", "--scale", "paper", "--out", str(tmp_path)]) == 0
    [before] = printed
    line = next(line for line in before.splitlines() if "projected" in line)
    # 6 games x (6 + 6 matches of 1,000 games + 500 of reward = q), 3 x 2 of Table 2, 5 k
    assert "pepels at scale paper: 89 matches, 86,000 games" in line
    hours = float(line.split("projected ")[1].split(" core-hours")[0].replace(",", ""))

    def game(name, playouts):  # the cost at 500 playouts (the nearest measured) x 10 or 50
        seconds, plies = pepels.COSTS[name][500]
        simulations_per_second = plies * 500 / seconds
        return plies * playouts / simulations_per_second

    by_hand = sum(6500 * game(g, 5000) + 6000 * game(g, 25000) for g in GAMES)
    by_hand += sum(2000 * game(g, 5000) for g in TABLE2_GAMES) + 5000 * game("breakthrough", 5000)
    assert hours == pytest.approx(by_hand / 3600, abs=0.5)
    assert 100 < hours < 10_000  # 1,400 before the bitboard rules
    assert "core-hours" not in capsys.readouterr().out  # printed once


def test_cli_quick_scale_prints_no_projection(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pepels, "reproduce_pepels", lambda out, scale, **_: tmp_path / "r.md")
    assert main(["reproduce", "pepels", "--out", str(tmp_path)]) == 0
    assert "projected" not in capsys.readouterr().out
