"""Tournaments: seats swapped, results fixed by the seed whatever the workers or backend,
resumption after a kill without recomputing finished blocks, the Wilson interval, and the CLI."""

import json
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from experiments.cli import main
from experiments.tournaments.round_robin import RoundRobin, run_round_robin
from experiments.tournaments.tournament import (
    Tournament,
    run_tournament,
    summarize,
    wilson_interval,
)

SMALL = Tournament("breakthrough", "uct+qb", "uct", games=6, playouts=20, seed=3, block=2)


def test_seats_alternate_and_scores_match_winners():
    results = run_tournament(SMALL, workers=1)
    assert results["game"].tolist() == list(range(6))
    assert results["a_seat"].tolist() == [0, 1, 0, 1, 0, 1]
    won = results["winner"] == results["a_seat"]
    assert (results["a_score"] == won.astype(float)).all()  # Breakthrough has no draws


def test_seed_fixes_the_results(tmp_path):
    """(Other worker counts: see the resumption test.)"""
    one = run_tournament(SMALL, workers=1)
    pd.testing.assert_frame_equal(one, run_tournament(SMALL, tmp_path, workers=1))
    pd.testing.assert_frame_equal(one, run_tournament(SMALL, tmp_path, workers=1))  # from disk
    other = run_tournament(Tournament(**{**SMALL.to_dict(), "seed": 4}), workers=1)
    assert not one.equals(other)


def test_dask_local_cluster_plays_the_same_games(tmp_path):
    dask = run_tournament(SMALL, tmp_path, workers=2, scheduler="local", progress=False)
    pd.testing.assert_frame_equal(dask, run_tournament(SMALL, workers=1))


def test_a_folder_holds_one_tournament(tmp_path):
    run_tournament(Tournament("breakthrough", "uct", "uct", 2, 5, block=2), tmp_path, workers=1)
    with pytest.raises(ValueError, match="holds another tournament"):
        run_tournament(Tournament("breakthrough", "uct", "uct", 2, 6, block=2), tmp_path)


def test_killed_tournament_resumes_without_recomputing(tmp_path):
    argv = ["tournament", "breakthrough", "--a", "uct+qb", "--b", "uct", "--games", "16",
            "--playouts", "30", "--block", "2", "--seed", "7"]
    out = tmp_path / "killed"
    killed = argv + ["--workers", "1", "--out", str(out)]
    code = f"import sys; from experiments.cli import main; sys.exit(main({killed!r}))"
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    blocks = out / "pairings" / "uct+qb_vs_uct" / "blocks"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(blocks.glob("*.parquet"))) < 2:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = {path.name: path.stat().st_mtime_ns for path in blocks.glob("*.parquet")}
    assert 2 <= len(kept) < 8, "the tournament should be killed midway"
    assert main(argv + ["--workers", "2", "--out", str(out), "--json"]) == 0
    assert {p.name: p.stat().st_mtime_ns for p in blocks.glob("*.parquet") if p.name in kept} \
        == kept
    round_robin = RoundRobin("breakthrough", ("uct+qb", "uct"), 16, 30, 7, 2)
    resumed = run_round_robin(round_robin, out)
    pd.testing.assert_frame_equal(resumed, run_round_robin(round_robin, workers=1))


def test_wilson_interval_by_hand():
    lo, hi = wilson_interval(0.5, 100)
    assert abs(lo - 0.4038) < 1e-4 and abs(hi - 0.5962) < 1e-4
    assert wilson_interval(1.0, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0.0, 10)[0] == pytest.approx(0.0)


def test_summary_counts_draws_half():
    results = pd.DataFrame({"game": range(4), "a_seat": [0, 1, 0, 1], "winner": [0, -1, 1, 0],
                            "a_score": [1.0, 0.5, 0.0, 0.0], "plies": [9, 9, 9, 9]})
    summary = summarize(results)
    assert (summary["wins_a"], summary["draws"], summary["losses_a"]) == (1, 1, 2)
    assert summary["win_rate_a"] == 0.375 and summary["win_rate_a_first"] == 0.5


def test_cli_json_keys(capsys):
    assert main(["tournament", "openspiel:tic_tac_toe", "--a", "uct", "--b", "thompson",
                 "--games", "2", "--playouts", "50", "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"games", "wins_a", "draws", "win_rate_a", "ci95"} <= out.keys()
    assert out["games"] == 2 and len(out["ci95"]) == 2


@pytest.mark.parametrize("argv, words", [
    (["tournament", "breakthrough", "--a", "uct+x", "--b", "uct", "--games", "2",
      "--playouts", "5"], "unknown part 'x'"),
    (["tournament", "breakthrough", "--a", "uct", "--b", "uct", "--games", "0",
      "--playouts", "5"], "argument --games: 0 must be an integer >= 1"),
    (["tournament", "breakthrough", "--a", "uct", "--b", "uct", "--games", "2",
      "--playouts", "5", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"],
     "a remote Dask cluster brings its own workers"),
    (["play", "chess", "--player1", "uct", "--player2", "uct"], "unknown game 'chess'"),
    (["play", "breakthrough", "--player1", "uct(c=-1)", "--player2", "uct"],
     "ucb1 parameter c = -1: must be a finite number >= 0"),
])
def test_bad_input_is_one_line_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_play_shows_every_move(capsys):
    assert main(["play", "breakthrough", "--player1", "uct+qb", "--player2", "klucb",
                 "--playouts", "30", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "1. player1 (uct+qb):" in out and "2. player2 (klucb):" in out
    assert out.rstrip().splitlines()[-1].endswith("moves") and "wins after" in out


def _files(folder) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*.parquet")}


def test_a_grown_tournament_completes_its_stored_blocks(tmp_path, played_games):
    """5 games grown to 10 in blocks of 4: the first block's file stays as it was, the stored
    half of the second is completed from its sixth game, and the 10 games equal a fresh run;
    a smaller tournament reads the first games of the folder without playing any."""
    small = Tournament("breakthrough", "uct", "uct+qb", games=5, playouts=5, seed=2, block=4)
    run_tournament(small, tmp_path, workers=1)
    first = _files(tmp_path)["blocks/block00000.parquet"]
    played_games.clear()
    larger = Tournament(**{**small.to_dict(), "games": 10})
    results = run_tournament(larger, tmp_path, workers=1)
    assert [games for _, games in played_games] == [[5, 6, 7], [8, 9]]
    assert _files(tmp_path)["blocks/block00000.parquet"] == first
    pd.testing.assert_frame_equal(results, run_tournament(larger, workers=1))
    played_games.clear()
    fewer = run_tournament(Tournament(**{**small.to_dict(), "games": 3}), tmp_path, workers=1)
    assert played_games == [] and fewer.equals(results.iloc[:3])


def test_a_stopping_rule_ends_the_match_at_the_first_deciding_block(played_games):
    """Blocks are checked in game order: the match ends after the block where the rule first
    says so, and the games returned are those up to it."""
    checked = []

    def stop(games):
        checked.append(len(games))
        return len(games) >= 4

    tournament = Tournament("breakthrough", "uct", "uct", games=10, playouts=5, block=2)
    results = run_tournament(tournament, workers=1, stop=stop)
    assert checked == [2, 4] and results["game"].tolist() == [0, 1, 2, 3]
    assert len(played_games) == 2


def test_a_damaged_identity_file_names_the_file_to_delete(tmp_path, capsys, played_games):
    """An unreadable round_robin.json, or a pairing's tournament.json, is one line naming that
    file (not the folder, whose games are kept); deleting it as told replays no game."""
    argv = ["tournament", "breakthrough", "--a", "uct", "--b", "uct(c=0.5)", "--games", "2",
            "--playouts", "8", "--workers", "1", "--out", str(tmp_path / "t")]
    assert main(argv) == 0 and len(played_games) == 1  # the fixture sees the games played
    for path in (tmp_path / "t" / "round_robin.json",
                 next((tmp_path / "t" / "pairings").glob("*/tournament.json"))):
        path.write_text(path.read_text()[:5])  # truncated
        capsys.readouterr()
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{path} is damaged: delete that file" in err, err
        path.unlink()
        played_games.clear()
        assert main(argv) == 0 and played_games == []
