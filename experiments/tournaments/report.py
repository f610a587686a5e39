"""A tournament's report: the lines ``mctslab tournament`` prints and the files it writes into
its folder (``crosstable.md``, ``crosstable.csv``, ``ratings.csv``, ``pairings.csv``,
``ratings.png`` and ``ratings.pdf``), from the tables of ``experiments.tournaments.ratings``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..runtime.store import write_atomically, write_figures, write_table
from .ratings import crosstable, crosstable_markdown
from .round_robin import RoundRobin
from .tournament import summarize

RATINGS_NOTE = ("Elo: Bradley-Terry (draws count half a win, one virtual draw per pairing), "
                "mean 0; intervals: bootstrap 95%, games resampled within pairings")


# after a sequential stop the fixed-sample estimates are biased (Whitehead 1986, "On the bias
# of maximum likelihood estimation following a sequential test"): say so where they are printed
STOPPED_NOTE = ("; the win rate, Elo and intervals are computed as if the number of games had "
                "been fixed, and stopping when the LLR crossed a bound biases them toward that "
                "bound's hypothesis (Whitehead 1986): read them as descriptive")


def sprt_line(sequential: dict) -> str:
    """When and why a sequential test stopped (or did not)."""
    head = (f"SPRT of A's Elo over B's, H0 {sequential['elo0']:g} against H1 "
            f"{sequential['elo1']:g} (alpha {sequential['alpha']:g}, beta "
            f"{sequential['beta']:g}): ")
    llr, lower, upper = sequential["llr"], sequential["lower"], sequential["upper"]
    if sequential["decision"] == "H1":
        return (head + f"accepted H1 after {sequential['games']} games: LLR {llr:.3f} reached "
                f"the upper bound {upper:.3f}{STOPPED_NOTE}")
    if sequential["decision"] == "H0":
        return (head + f"accepted H0 after {sequential['games']} games: LLR {llr:.3f} reached "
                f"the lower bound {lower:.3f}{STOPPED_NOTE}")
    return (head + f"no decision after {sequential['games']} games (--games): LLR {llr:.3f} "
            f"within ({lower:.3f}, {upper:.3f})")


def report_lines(round_robin: RoundRobin, games: pd.DataFrame, pairs: pd.DataFrame,
                 table: pd.DataFrame | None, sequential: dict | None, seconds: float
                 ) -> list[str]:
    """What ``mctslab tournament`` prints (``table`` None: a player against itself)."""
    r = round_robin
    if len(r.players) == 2:
        s = summarize(games)
        lo, hi = s["ci95"]
        lines = [(f"{r.players[0]} (A) vs {r.players[1]} (B) in {r.game}, {s['games']} games "
                  f"at {r.playouts} playouts per move, seed {r.seed}:"),
                 (f"A wins {s['wins_a']}, draws {s['draws']}, loses {s['losses_a']}; win rate "
                  f"of A {s['win_rate_a']:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f}; draws "
                  f"count half)"),
                 (f"A's win rate moving first {s['win_rate_a_first']:.3f}, second "
                  f"{s['win_rate_a_second']:.3f}; {s['mean_plies']:.1f} moves per game; "
                  f"{seconds:.1f} s")]
        if table is not None:
            a = table.set_index("player").loc[r.players[0]]
            lines.append(f"Elo of A over B {round(2 * a['elo']):+d} (bootstrap 95% interval "
                         f"{round(2 * a['ci_low']):+d} to {round(2 * a['ci_high']):+d})")
        return lines + ([] if sequential is None else [sprt_line(sequential)])
    return [(f"Round robin of {len(r.players)} players in {r.game}, {r.games} games per "
             f"pairing at {r.playouts} playouts per move, seed {r.seed} ({seconds:.1f} s); each "
             f"cell: the row player's points of its games against the column player"), "",
            crosstable_markdown(pairs, table), RATINGS_NOTE]


def write_report(folder: str | Path, round_robin: RoundRobin, pairs: pd.DataFrame,
                 table: pd.DataFrame | None, sequential: dict | None) -> list[Path]:
    """Write the crosstable (markdown and CSV), the ratings and pairings (CSV) and the ratings
    figure (PNG and PDF) into ``folder`` (a player against itself: the pairings only); return
    the paths."""
    from plots.tournament import plot_ratings

    folder = Path(folder)
    r = round_robin
    if table is None:
        return [write_table(pairs, folder / "pairings.csv")]
    played = pairs["games"].max()  # --games, or fewer where the SPRT stopped the match
    text = (f"# Round robin in {r.game}\n\n{len(r.players)} players, {played} games per "
            f"pairing, {r.playouts} playouts per move, seed {r.seed}. Each cell: the row "
            f"player's points of its games against the column player.\n\n"
            + crosstable_markdown(pairs, table) + f"\n{RATINGS_NOTE}.\n"
            + ("" if sequential is None else f"\n{sprt_line(sequential)}.\n"))
    paths = [write_atomically(folder / "crosstable.md", text.encode()),
             write_table(crosstable(pairs, table).reset_index(), folder / "crosstable.csv"),
             write_table(table, folder / "ratings.csv"),
             write_table(pairs, folder / "pairings.csv")]
    ax = plot_ratings(table, title=f"{r.game}, {r.playouts} playouts per move")
    return paths + write_figures(ax.figure, folder / "ratings")
