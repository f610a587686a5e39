"""``mctslab reproduce pepels`` end to end on a tiny scale: tables and report are written from
the stored tournaments, and a second run resumes without replaying a game."""

import pandas as pd

from experiments import pepels
from experiments.cli import main
from experiments.pepels import ENHANCED, GAMES, PAPER, TABLES, pepels_matches
from experiments.reproduce_pepels import reproduce_pepels

TINY = {"budgets": (10, 20), "games": 2, "quality_games": 2, "block": 1,
        "game_list": ("breakthrough", "pentalath")}


def test_matches_cover_tables_1_3_4():
    matches = pepels_matches("paper")
    keys = {(m.game, m.key, m.tournament.playouts) for m in matches}
    assert len(matches) == len(GAMES) * (2 * len(ENHANCED) - 1)
    for game in GAMES:
        for key in ENHANCED:
            assert (game, key, 5000) in keys
            assert ((game, key, 25000) in keys) == (key != "quality")
    assert all(m.tournament.b == "uct" and m.tournament.games in (1000, 500) for m in matches)
    assert len({m.tournament.seed for m in matches}) == len(matches)
    for table, (_, columns) in TABLES.items():
        assert all(len(PAPER[table][game]) == len(columns) for game in GAMES)


def test_tiny_reproduction_writes_tables_and_report_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setitem(pepels.SCALES, "quick", TINY)
    report = reproduce_pepels(tmp_path, "quick", workers=1, progress=False)
    text = report.read_text()
    assert "## Verdicts, game by game" in text and "| Breakthrough |" in text
    assert "computed 52 of 52 blocks" in text  # 2 x 13 matches of 2 one-game blocks
    for table in ("1", "3", "4"):
        body = (tmp_path / f"table{table}.md").read_text()
        assert body.count("| Pentalath |") == 1
    assert (tmp_path / "breakthrough" / "rb-online-p10" / "tournament.json").exists()
    assert not (tmp_path / "breakthrough" / "quality-p20").exists()
    results = pd.read_csv(tmp_path / "results.csv")
    assert len(results) == 2 * 13 and results.win_rate.between(0, 100).all()
    comp = pd.read_csv(tmp_path / "comparison.csv")
    assert len(comp) == 2 * (4 + 4 + 5)
    blocks = sorted(tmp_path.glob("*/*/blocks/*.parquet"))
    stamps = [path.stat().st_mtime_ns for path in blocks]
    again = reproduce_pepels(tmp_path, "quick", workers=1, progress=False)
    assert "computed 0 of 52 blocks" in again.read_text()
    assert [path.stat().st_mtime_ns for path in blocks] == stamps
    assert pd.read_csv(tmp_path / "results.csv").equals(results)


def test_cli_reproduce_pepels(tmp_path, monkeypatch, capsys):
    tiny = dict(TINY, budgets=(5, 10), game_list=("breakthrough",), games=1, quality_games=1)
    monkeypatch.setitem(pepels.SCALES, "quick", tiny)
    assert main(["reproduce", "pepels", "--out", str(tmp_path), "--workers", "1",
                 "--quiet"]) == 0
    assert "report.md" in capsys.readouterr().out
    assert (tmp_path / "table4.md").exists()
