"""``mctslab reproduce pepels``: run (or resume) the matches of seed 000 Sect. 6
(``experiments.pepels``), then write Tables 1-4 beside the paper's numbers, the k figure and a
report whose verdicts are computed from the stored results (``experiments.pepels_verdicts``).

Files written into the output folder: ``results.csv`` (one row per match), ``comparison.csv``
(one row per table cell), ``verdicts.csv`` (one row per game and pooled finding),
``table1.md`` .. ``table4.md``, ``fig_k_qb_breakthrough.png`` and ``.pdf``, and ``report.md``;
the games themselves are in ``<game>/<match>/`` (``experiments.tournament_store``).

All matches' unplayed blocks go to one pool of worker processes (a pool per match would pay
the start-up of its workers 88 times), the lower budget first; each block is stored as it
finishes, so a killed run resumes with the blocks it had finished.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from .pepels import GAME_NAMES, K_FIGURE_GAME, PAPER, PAPER_K, SCALES, TABLES, K, pepels_matches
from .pepels_verdicts import FINDINGS, POWER, combined_better, headline_verdicts, significance
from .pool import check_options, completed
from .tournament import play_block, stored_blocks, summarize
from .tournament_store import write_block

K_FIGURE = "fig_k_qb_breakthrough"
AMAZONS_OPENING_MOVES = 2176  # legal moves of 10x10 Amazons' start position


def _pending(matches, out: Path):
    """Claim every match's folder; its stored blocks by (match, block) and the blocks to play."""
    stored, todo = {}, []
    for i, match in enumerate(matches):
        t = match.tournament
        _, done = stored_blocks(t, match.folder(out))
        for block in t.blocks():
            if block.index in done:
                stored[i, block.index] = done[block.index]
            else:
                todo.append((i, block))
    return stored, todo


def run_matches(matches, out: Path, *, workers: int | None = None, scheduler: str | None = None,
                progress: bool | None = None) -> tuple[pd.DataFrame, int, int]:
    """Play or resume every match, the blocks of all of them sharing the local processes or the
    Dask cluster (``experiments.pool``); one summary row per match, with the number of blocks
    this call computed and the total number of blocks."""
    check_options(workers, scheduler)
    stored, todo = _pending(matches, out)
    games = sum(block.count for _, block in todo)
    bar = tqdm(total=games, unit=" games", desc="pepels", file=sys.stderr, dynamic_ncols=True,
               disable=not (sys.stderr.isatty() if progress is None else progress))
    with bar:
        jobs = [(matches[i].tournament, block) for i, block in todo]
        for j, table in completed(play_block, jobs, workers, scheduler):
            i, block = todo[j]
            t = matches[i].tournament
            write_block(matches[i].folder(out), t.to_dict(), block, table)
            stored[i, block.index] = table
            bar.update(block.count)
    rows = []
    for i, match in enumerate(matches):
        t = match.tournament
        s = summarize(pd.concat([stored[i, b.index] for b in t.blocks()], ignore_index=True))
        lo, hi = s["ci95"]
        rows.append({"game": match.game, "match": match.key, "part": match.part, "k": match.k,
                     "budget_index": match.budget_index, "playouts": t.playouts, "spec": t.a,
                     "opponent": t.b, "seed": t.seed, "games": s["games"], "wins": s["wins_a"],
                     "draws": s["draws"], "losses": s["losses_a"],
                     "win_rate": 100 * s["win_rate_a"], "ci95_low": 100 * lo,
                     "ci95_high": 100 * hi, "half_width": 100 * (hi - lo) / 2,
                     "mean_plies": s["mean_plies"]})
    total = sum(len(m.tournament.blocks()) for m in matches)
    return pd.DataFrame(rows), len(todo), total


def _cell(rate: float, half: float, sign: int) -> str:
    text = f"{rate:.1f}"
    text = f"**{text}**" if sign > 0 else f"_{text}_" if sign < 0 else text
    return f"{text} ± {half:.1f}"


def comparisons(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (table, game, column) that we measured: ours beside the paper's, with the
    computed verdicts ``same_side`` (both above, both below or both at 50%), ``overlap`` (the
    95% intervals overlap) and ``same_significance`` (same of: significant gain, not
    significant, significant loss)."""
    rows = []
    for table, (_, columns) in TABLES.items():
        for game in frame.game.unique():
            if game not in PAPER[table]:
                continue
            for column, (label, key, budget_index) in enumerate(columns):
                hit = frame[(frame.game == game) & (frame.match == key)
                            & (frame.budget_index == budget_index)]
                if hit.empty:
                    continue
                ours = hit.iloc[0]
                p_rate, p_half, p_bold = PAPER[table][game][column]
                p_low, p_high = p_rate - p_half, p_rate + p_half
                ours_sig = significance(ours.ci95_low, ours.ci95_high)
                # the paper's gains as it marks them (bold); its losses from its intervals
                paper_sig = 1 if p_bold else -1 if p_high < 50 else 0
                side = int(ours.win_rate > 50) - int(ours.win_rate < 50)
                p_side = (p_rate > 50) - (p_rate < 50)
                rows.append({
                    "table": table, "game": game, "column": label, "match": key,
                    "playouts": int(ours.playouts), "games": int(ours.games),
                    "ours": ours.win_rate, "ours_half": ours.half_width,
                    "ours_low": ours.ci95_low, "ours_high": ours.ci95_high,
                    "ours_significance": ours_sig, "paper": p_rate, "paper_half": p_half,
                    "paper_significance": paper_sig,
                    "same_side": bool(side == p_side),
                    "overlap": bool(ours.ci95_low <= p_high and p_low <= ours.ci95_high),
                    "same_significance": bool(ours_sig == paper_sig)})
    return pd.DataFrame(rows)


def _headers(table: str, label: str, playouts: int) -> list[str]:
    if table == "2":
        return [f"ours {playouts:,} p, {label}", f"CadiaPlayer {label}"]
    return [f"ours {playouts:,} p{label[3:]}", f"paper {label}"]


def table_markdown(comp: pd.DataFrame, table: str, budgets: tuple[int, int]) -> str:
    title, columns = TABLES[table]
    rows = comp[comp.table == table]
    header = ["Game"] + ([] if table == "2" else ["k"])
    header += [h for label, _, b in columns for h in _headers(table, label, budgets[b])]
    lines = [f"### Table {table}: {title}", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game in rows.game.unique():
        cells = [GAME_NAMES[game]]
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
        lines += ["", "The paper's columns are 1 s and 5 s of search; ours the two budgets."]
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


def k_figure(frame: pd.DataFrame, out: Path) -> str | None:
    """Draw the k figure from the k matches of ``frame`` into ``out`` (PNG and PDF); return a
    paragraph on it for the report, or None without k matches."""
    from plots import save
    from plots.pepels import plot_win_rate_against_k

    rows = frame[frame.part == "k"].sort_values("k")
    if rows.empty:
        return None
    paper_k = PAPER_K[K_FIGURE_GAME][1]
    paper = PAPER["3"][K_FIGURE_GAME][1]  # 1 s, a = 0.25
    ax = plot_win_rate_against_k(rows, paper_k=paper_k, paper=paper[:2],
                                 title=f"QB (a = 0.25) in {GAME_NAMES[K_FIGURE_GAME]}")
    ax.figure.savefig(out / f"{K_FIGURE}.pdf", bbox_inches="tight")
    save(ax.figure, out / f"{K_FIGURE}.png")
    best = rows.loc[rows.win_rate.idxmax()]
    at_paper = rows[rows.k == paper_k]
    flat = bool((rows.ci95_high >= best.ci95_low).all())
    text = (f"Win rate of `uct+qb(k, a=0.25)` against `uct` in {GAME_NAMES[K_FIGURE_GAME]} at "
            f"{int(rows.playouts.iloc[0]):,} playouts, {int(rows.games.iloc[0])} games per k. "
            f"Highest at k = {best.k:g}: {best.win_rate:.1f}% "
            f"[{best.ci95_low:.1f}, {best.ci95_high:.1f}]")
    if not at_paper.empty:
        r = at_paper.iloc[0]
        text += (f"; at the paper's k = {paper_k:g}: {r.win_rate:.1f}% "
                 f"[{r.ci95_low:.1f}, {r.ci95_high:.1f}] (paper, 1 s, a = 0.25: "
                 f"{paper[0]:.1f} ± {paper[1]:.1f})")
    text += (". " + ("Every k's interval overlaps the best k's: at this sample size no k is "
                     "clearly worse." if flat else "At least one k's interval lies wholly below "
                     "the best k's."))
    return f"![win rate against k]({K_FIGURE}.png)\n\n{text}"


def report_markdown(frame: pd.DataFrame, comp: pd.DataFrame, verdicts: pd.DataFrame,
                    tables: list[str], preamble: str, figure: str | None) -> str:
    findings = "; ".join(f"*{name}*: {text}" for name, (text, _, _) in FINDINGS.items())
    high = int(frame.playouts.max())
    caveat = (f"Amazons opens with {AMAZONS_OPENING_MOVES:,} moves, more than our largest "
              f"budget ({high:,}): in the opening neither player can try each move once, so "
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
         f"(`experiments.pepels_verdicts`). Findings: {findings}. *Power*: the chance that our "
         f"pooled games detect an effect of the paper's pooled size; below "
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


def reproduce_pepels(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None) -> Path:
    """Run (or resume) every match of ``scale`` into ``out``, then write the tables, the k
    figure and ``report.md``. Returns the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    matches = pepels_matches(scale, seed)
    start = time.perf_counter()
    frame, computed, total = run_matches(matches, out, workers=workers, scheduler=scheduler,
                                          progress=progress)
    minutes = (time.perf_counter() - start) / 60
    frame.to_csv(out / "results.csv", index=False)
    comp = comparisons(frame)
    comp.to_csv(out / "comparison.csv", index=False)
    verdicts = headline_verdicts(frame)
    verdicts.to_csv(out / "verdicts.csv", index=False)
    config = SCALES[scale]
    tables = []
    for table in TABLES:
        if comp.empty or (comp.table == table).sum() == 0:
            continue
        text = table_markdown(comp, table, config["budgets"])
        (out / f"table{table}.md").write_text(text + "\n")
        tables.append(text)
    figure = k_figure(frame, out)
    low, high = config["budgets"]
    preamble = (
        f"Scale `{scale}`: {len(matches)} matches in {len(config['game_list'])} games, budgets "
        f"{low:,} and {high:,} playouts per move, {config['games']:,} games per match of "
        f"Tables 1, 3, 4 ({config['quality_games']:,} for reward = quality, lower budget "
        f"only), {config['table2_games']:,} per Table 2 match and {config['k_games']:,} per k "
        f"of the figure (both at {low:,} playouts); seats swapped every game; study seed "
        f"{seed}. This run computed {computed} of {total} blocks of games in {minutes:.1f} min; "
        f"the rest were stored already.")
    report = out / "report.md"
    report.write_text(report_markdown(frame, comp, verdicts, tables, preamble, figure))
    return report
