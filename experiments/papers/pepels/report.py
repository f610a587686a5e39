"""The report of the Pepels reproduction: Tables 1-4 beside the paper's numbers, the pooled
verdicts (``verdicts``), the cell-by-cell comparison and every match, as Markdown."""

from __future__ import annotations

import math

import pandas as pd

from .study import GAME_NAMES, TABLES, K
from .verdicts import FINDINGS, POWER, combined_better

AMAZONS_OPENING_MOVES = 2176  # legal moves of 10x10 Amazons' start position


def _cell(rate: float, half: float, sign: int) -> str:
    text = f"{rate:.1f}"
    text = f"**{text}**" if sign > 0 else f"_{text}_" if sign < 0 else text
    return f"{text} ± {half:.1f}"


def _headers(table: str, label: str, playouts: int) -> list[str]:
    if table == "2":
        return [f"ours {playouts:,} p, {label}", f"CadiaPlayer {label}"]
    return [f"ours {playouts:,} p{label[3:]}", f"paper {label}"]


def table_markdown(comp: pd.DataFrame, table: str, budgets: tuple[int, int],
                   game_budgets: dict | None = None) -> str:
    """Table ``table`` of ``comp``, headed by the scale's ``budgets``; a game whose budgets
    differ (``game_budgets``, {game: (low, high)}) names its own after its name."""
    title, columns = TABLES[table]
    game_budgets = game_budgets or {}
    rows = comp[comp.table == table]
    header = ["Game"] + ([] if table == "2" else ["k"])
    header += [h for label, _, b in columns for h in _headers(table, label, budgets[b])]
    lines = [f"### Table {table}: {title}", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game in rows.game.unique():
        cells = [GAME_NAMES[game]]
        if game in game_budgets:
            used = sorted({game_budgets[game][b] for _, _, b in columns})
            cells[0] += f" ({' and '.join(f'{p:,}' for p in used)} p)"
        if table != "2":
            cells.append({"1": str(K[game][0]), "3": str(K[game][1])}.get(
                table, "/".join(map(str, K[game]))))
        for label, _, _ in columns:
            hit = rows[(rows.game == game) & (rows.column == label)]
            if hit.empty:
                cells += ["-", "-"]
                continue
            r = hit.iloc[0]
            cells += [_cell(r.ours, r.ours_half, r.ours_significance),
                      _cell(r.paper, r.paper_half, r.paper_significance)]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", ("Win % of the enhanced player against plain UCT ± the half-width of its 95% "
              "interval (ours: Wilson, draws count half). **Bold**: the interval lies above "
              "50%; _italic_: below 50% (the paper bolds significant gains only; its "
              "significant losses are italicised here from its own intervals). "
              "'p' = playouts per move for both players.")]
    if table == "2":
        lines += ["", ("The paper's Table 2 is **CadiaPlayer**, a General Game Playing agent: "
                  "a different engine from its Tables 1, 3, 4 and from ours (rules interpreted "
                  "online from game descriptions, N-Gram playouts learned online, 30 s start "
                  "clock and 15 s play clock, at least 950 games per cell, the GGP versions of "
                  "these games). Our cells: `uct+rb(k=..., a=0.25)` against `uct` in our "
                  "engine and games at the lower budget; k = 2 and 1.4 replace each game's "
                  "own k, as in the paper's GGP runs.")]
    else:
        lines += ["", ("The paper's columns are 1 s and 5 s of search; ours the two budgets "
                       "(a game's own after its name where they differ).")]
    return "\n".join(lines)


def _interval(rate: float, low: float, high: float, sign: int) -> str:
    text = f"{rate:.1f}"
    text = f"**{text}**" if sign > 0 else f"_{text}_" if sign < 0 else text
    return f"{text} [{low:.1f}, {high:.1f}]"


def _verdict_table(verdicts: pd.DataFrame) -> list[str]:
    lines = [("| Game | finding | cells | games | ours, pooled [95% interval] | paper, pooled ± "
              "95% | power | verdict |"), "|---|---|---|---|---|---|---|---|"]
    for r in verdicts.itertuples():
        chance = "-" if math.isnan(r.power) else f"{100 * r.power:.0f}%"
        lines.append(f"| {GAME_NAMES[r.game]} | {r.finding} | {r.cells} | {r.games} | "
                     f"{_interval(r.ours, r.ours_low, r.ours_high, r.ours_significance)} | "
                     f"{_cell(r.paper, r.paper_half, r.paper_significance)} | {chance} | "
                     f"{r.verdict} |")
    return lines


def _game_by_game(verdicts: pd.DataFrame) -> list[str]:
    effect = {1: "gain", -1: "loss", 0: "no significant effect"}
    lines = []
    for game, part in verdicts.groupby("game", sort=False):
        items = [f"{r.finding}: {r.verdict} (ours {r.ours:.1f}% "
                 f"[{r.ours_low:.1f}, {r.ours_high:.1f}] over {r.games} games, "
                 f"{effect[r.ours_significance]}; paper {r.paper:.1f}%, "
                 f"{effect[r.paper_significance]})" for r in part.itertuples()]
        lines.append(f"- **{GAME_NAMES[game]}**: " + "; ".join(items) + ".")
    return lines


def _claims(verdicts: pd.DataFrame) -> list[str]:
    """The paper's summary statements, counted per game on the pooled findings, ours beside the
    paper's own tables pooled the same way."""
    lines = ["| Paper's statement | paper's tables, pooled | ours, pooled | holds |",
             "|---|---|---|---|"]

    def count(finding, sign):
        part = verdicts[verdicts.finding == finding]
        return (int((part.paper_significance == sign).sum()),
                int((part.ours_significance == sign).sum()), len(part))

    for finding, sign, text in (
            ("RB", 1, "RB: significant gains in five of the six games"),
            ("QB", 1, "QB: significant gains in five of the six games"),
            ("reward = q", -1, "reward = q: significant decrease in five of the six games")):
        paper, ours, n = count(finding, sign)
        if n:
            word = "gain" if sign > 0 else "loss"
            lines.append(f"| {text} | {paper} of {n} games with a pooled {word} | {ours} of "
                         f"{n} | {'yes' if ours * 6 >= 5 * n else 'no'} |")
    combined = combined_better(verdicts)
    if not combined.empty:
        n = len(combined)
        paper, ours = int(combined.paper_better.sum()), int(combined.ours_better.sum())
        lines.append(f"| RB+QB significantly better than each bonus alone in 14 of 24 cases | "
                     f"{paper} of {n} games (pooled RB+QB above pooled RB and pooled QB) | "
                     f"{ours} of {n} | {'yes' if ours * 24 >= 14 * n else 'no'} |")
    return lines


def _underpowered(verdicts: pd.DataFrame) -> str:
    weak = verdicts[verdicts.verdict == "inconclusive (underpowered)"]
    if weak.empty:
        return ("Every finding where the paper's pooled effect is significant has at least "
                f"{100 * POWER:.0f}% power at our pooled number of games.")
    names = ", ".join(f"{GAME_NAMES[r.game]} {r.finding} (power {100 * r.power:.0f}%)"
                      for r in weak.itertuples())
    return (f"**Underpowered at this scale** (less than {100 * POWER:.0f}% chance to detect an "
            f"effect of the paper's size with our pooled games; no verdict either way): "
            f"{names}.")


def _cell_verdicts(comp: pd.DataFrame) -> list[str]:
    lines = [("| Game | cells | same side of 50% | intervals overlap | same significance | "
             "cells on the same side or overlapping |"), "|---|---|---|---|---|---|"]
    for game in comp.game.unique():
        rows = comp[comp.game == game]
        n, side = len(rows), int(rows.same_side.sum())
        overlap, sig = int(rows.overlap.sum()), int(rows.same_significance.sum())
        agree = int((rows.same_side | rows.overlap).sum())
        lines.append(f"| {GAME_NAMES[game]} | {n} | {side} | {overlap} | {sig} | "
                     f"{agree}/{n} |")
    return lines


def report_markdown(frame: pd.DataFrame, comp: pd.DataFrame, verdicts: pd.DataFrame,
                    tables: list[str], preamble: str, figure: str | None) -> str:
    findings = "; ".join(f"*{name}*: {text}" for name, (text, _, _) in FINDINGS.items())
    amazons = frame[frame.game == "amazons"]
    high = int(amazons.playouts.max()) if len(amazons) else AMAZONS_OPENING_MOVES
    caveat = (f"Amazons opens with {AMAZONS_OPENING_MOVES:,} moves, more than our largest "
              f"budget there ({high:,}): in the opening neither player can try each move once, so "
              f"the bonuses have little to act on there." if high < AMAZONS_OPENING_MOVES
              else "")
    return "\n\n".join(part for part in [
        "# Reproduction of Pepels et al.: quality-based rewards for MCTS (seed 000, Sect. 6)",
        preamble,
        ("Budgets are playouts per move for both players, standing in for the paper's 1 s and "
         "5 s of search time; so a costly enhancement is not penalised for its time here (the "
         "paper explains Pentalath's QB result by the cost of its quality assessment). The "
         "paper's numbers are transcribed from the seed text (Tables 1-4; the four value "
         "columns of Tables 1, 3, 4 read as 1 s a', 1 s a=0.25, 5 s a', 5 s a=0.25). Table 2 "
         "is the paper's GGP agent CadiaPlayer, a different engine: our analogue only shows "
         "whether RB with its settings helps in our engine. Chinese Checkers is played with "
         "the rule of the seed's framework that a full target wins, opponent pieces left in it "
         "included: without it a losing player blocks its start triangle and games run to the "
         "1000-ply draw. " + caveat),
        "## Verdicts, game by game (pooled)",
        (f"Each finding pools its matches (both weights, both budgets) into one score with a "
         f"Wilson 95% interval, and compares it with the paper's cells pooled the same way "
         f"(`experiments.papers.pepels.verdicts`). Findings: {findings}. *Power*: the chance "
         f"that our pooled games detect an effect of the paper's pooled size; below "
         f"{100 * POWER:.0f}% a missing effect is *inconclusive (underpowered)*, not a failure "
         f"to reproduce. **Bold**: significant gain, _italic_: significant loss."),
        "\n".join(_verdict_table(verdicts)),
        "\n".join(_game_by_game(verdicts)),
        _underpowered(verdicts),
        "## The paper's summary statements",
        "\n".join(_claims(verdicts)),
        "## Win rate against k" if figure else "",
        figure or "",
        "## Tables",
        *tables,
        "## Cell by cell",
        ("Each of our cells against the paper's: *same side* when both win rates are above 50% "
         "(or both below), *overlap* when the 95% intervals overlap, *same significance* when "
         "both are a significant gain, both not significant, or both a significant loss. With "
         "few games per cell, overlap is easy and significance rare: the pooled verdicts above "
         "are the ones to read."),
        "\n".join(_cell_verdicts(comp)),
        "## Every match",
        _frame_markdown(frame),
    ] if part) + "\n"


def _frame_markdown(frame: pd.DataFrame) -> str:
    columns = ["game", "spec", "playouts", "games", "wins", "draws", "losses", "win_rate",
               "ci95_low", "ci95_high", "mean_plies"]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame[columns].itertuples(index=False):
        lines.append("| " + " | ".join(f"{v:.1f}" if isinstance(v, float) else f"`{v}`"
                                        if isinstance(v, str) and "+" in v else str(v)
                                        for v in row) + " |")
    return "\n".join(lines)
