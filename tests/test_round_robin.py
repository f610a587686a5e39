"""Round robins: every pairing played with seats swapped, folders that grow with more games or
more players and equal a fresh run, the report's files, and the two-player case."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from experiments.cli import main
from experiments.tournaments.round_robin import RoundRobin, run_round_robin


def _files(folder) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*.parquet")}


def test_a_grown_tournament_stores_its_first_games_unchanged_and_equals_a_fresh_run(
        tmp_path, played_games):
    """20 games grown to 40 (blocks of 10): the first 20 stay as stored, only the new 20 are
    played, and the folder then holds what a fresh 40-game run writes, bit for bit."""
    argv = ["tournament", "breakthrough", "--a", "uct+qb", "--b", "uct", "--playouts", "5",
            "--seed", "9", "--workers", "1", "--bootstrap", "20", "--json"]
    grown = tmp_path / "grown"
    assert main([*argv, "--games", "20", "--out", str(grown)]) == 0
    first = _files(grown)
    assert len(first) == 2
    played_games.clear()
    assert main([*argv, "--games", "40", "--out", str(grown)]) == 0
    assert [games for _, games in played_games] == [list(range(20, 30)), list(range(30, 40))]
    assert {name: data for name, data in _files(grown).items() if name in first} == first
    assert main([*argv, "--games", "40", "--out", str(tmp_path / "fresh")]) == 0
    assert _files(grown) == _files(tmp_path / "fresh")


def test_every_pairing_is_played_with_seats_swapped_and_players_can_be_added(tmp_path,
                                                                              played_games):
    """Three players: each of the three pairings over 4 games, A first in games 0 and 2; the
    folder of two of them grows by the third without replaying their games, and equals a
    fresh run."""
    two = RoundRobin("breakthrough", ("uct", "uct+qb"), games=4, playouts=5, seed=1, block=2)
    run_round_robin(two, tmp_path, workers=1)
    played_games.clear()
    three = RoundRobin("breakthrough", ("uct", "uct+qb", "uct + rb"), 4, 5, 1, 2)
    assert three.players == ("uct", "uct+qb", "uct+rb")
    games = run_round_robin(three, tmp_path, workers=1)
    assert {pairing for pairing, _ in played_games} == {("uct", "uct+rb"), ("uct+qb", "uct+rb")}
    assert games.groupby(["a", "b"], sort=False)["a_seat"].apply(list).to_dict() == {
        ("uct", "uct+qb"): [0, 1, 0, 1], ("uct", "uct+rb"): [0, 1, 0, 1],
        ("uct+qb", "uct+rb"): [0, 1, 0, 1]}
    assert (games["a_score"] == (games["winner"] == games["a_seat"])).all()  # no draws
    pd.testing.assert_frame_equal(games, run_round_robin(three, workers=1))


def test_the_report_has_a_crosstable_ratings_and_a_figure(tmp_path, capsys, saved_figures):
    assert main(["tournament", "breakthrough", "--players", "uct", "uct+qb", "uct+rb",
                 "--games", "4", "--playouts", "5", "--seed", "1", "--block", "2",
                 "--workers", "1", "--bootstrap", "20", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Round robin of 3 players" in out and "| player | " in out
    for name in ("crosstable.md", "crosstable.csv", "ratings.csv", "pairings.csv",
                 "ratings.png", "ratings.pdf"):
        assert (tmp_path / name).stat().st_size > 0
    pairs = pd.read_csv(tmp_path / "pairings.csv")
    assert pairs["games"].tolist() == [4, 4, 4]
    ratings = pd.read_csv(tmp_path / "ratings.csv")
    assert ratings["elo"].sum() == pytest.approx(0, abs=1e-6)
    cross = pd.read_csv(tmp_path / "crosstable.csv").set_index("player")
    assert cross.loc["uct", "uct+qb"] + cross.loc["uct+qb", "uct"] == 1
    ax = saved_figures["ratings.png"].axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ratings["player"].tolist()[::-1]


def test_two_players_keep_the_match_report_with_their_elo_difference(capsys):
    assert main(["tournament", "openspiel:tic_tac_toe", "--a", "uct", "--b", "thompson",
                 "--games", "2", "--playouts", "50", "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"games", "wins_a", "draws", "win_rate_a", "ci95", "ratings", "pairings"} <= out.keys()
    assert sorted(r["player"] for r in out["ratings"]) == ["thompson", "uct"]
    assert out["pairings"][0]["games"] == 2


def test_a_player_against_itself_has_no_ratings(capsys):
    assert main(["tournament", "breakthrough", "--a", "uct", "--b", "uct", "--games", "2",
                 "--playouts", "5", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "uct (A) vs uct (B)" in out and "Elo" not in out


def test_another_identity_and_the_layout_before_round_robins_are_refused(tmp_path, capsys):
    base = ["tournament", "breakthrough", "--a", "uct+qb", "--b", "uct", "--games", "3",
            "--playouts", "8", "--seed", "3", "--block", "2", "--workers", "1"]
    assert main([*base, "--out", str(tmp_path / "new")]) == 0
    other = [*base]
    other[other.index("--playouts") + 1] = "9"
    assert main([*other, "--out", str(tmp_path / "new")]) == 2
    assert "holds another tournament (playouts 8, not 9)" in capsys.readouterr().err
    old = tmp_path / "old"
    shutil.copytree(Path(__file__).parent / "data" / "layout-v1" / "tournament", old)
    assert main([*base, "--out", str(old)]) == 2
    assert "layout before round robins" in capsys.readouterr().err


def test_a_player_given_twice_is_refused():
    with pytest.raises(ValueError, match="player uct is given twice"):
        RoundRobin("breakthrough", ("uct", "uct+qb", " uct"), 2, 5)


def test_a_round_robin_folder_naming_a_plugin_player_imports_nothing(tmp_path, monkeypatch):
    """A round-robin folder holding a pairing of a plug-in player (its files name
    ``trap_plugin:policy``, a module on the path that marks its import), grown with other
    players: no stored spec is parsed, so the module is never imported."""
    folder = tmp_path / "rr"
    (tmp_path / "trap_plugin.py").write_text(
        "from pathlib import Path\nPath(__file__).with_name('IMPORTED').write_text('')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    identity = RoundRobin("breakthrough", ("uct", "uct+qb"), 2, 5, seed=1, block=2).identity()
    pairing = folder / "pairings" / "trap_plugin:policy_vs_uct"
    pairing.mkdir(parents=True)
    (folder / "round_robin.json").write_text(json.dumps(identity))
    (pairing / "tournament.json").write_text(json.dumps(
        {"game": "breakthrough", "a": "trap_plugin:policy", "b": "uct", "playouts": 5,
         "seed": 1, "block": 2}))
    games = run_round_robin(RoundRobin("breakthrough", ("uct", "uct+qb"), 2, 5, seed=1,
                                       block=2), folder, workers=1, progress=False)
    assert len(games) == 2
    assert not (tmp_path / "IMPORTED").exists()
