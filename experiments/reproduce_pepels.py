"""``mctslab reproduce pepels``: run (or resume) the matches of seed 000 Sect. 6
(``experiments.pepels``), then write Tables 1, 3 and 4 beside the paper's numbers and a report
whose verdicts are computed from the stored results.

Files written into the output folder: ``results.csv`` (one row per match), ``table1.md``,
``table3.md``, ``table4.md`` and ``report.md``; the games themselves are in
``<game>/<match>/`` (``experiments.tournament_store``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from .pepels import GAME_NAMES, PAPER, SCALES, TABLES, K, pepels_matches
from .tournament import run_tournament, summarize
from .tournament_store import read_block


def _stored_blocks(match, out: Path) -> int:
    folder = match.folder(out)
    if not folder.exists():
        return 0
    t = match.tournament
    return sum(read_block(folder, t.to_dict(), block) is not None for block in t.blocks())


def run_matches(matches, out: Path, *, workers: int | None = None,
                progress: bool | None = None) -> tuple[pd.DataFrame, int, int]:
    """Play or resume every match; one summary row per match, with the number of blocks this
    call computed and the total number of blocks."""
    rows, computed, total = [], 0, 0
    for match in matches:
        t = match.tournament
        total += len(t.blocks())
        computed += len(t.blocks()) - _stored_blocks(match, out)
        results = run_tournament(t, match.folder(out), workers=workers, progress=progress)
        s = summarize(results)
        lo, hi = s["ci95"]
        rows.append({"game": match.game, "match": match.key, "budget_index": match.budget_index,
                     "playouts": t.playouts, "spec": t.a, "opponent": t.b, "seed": t.seed,
                     "games": s["games"], "wins": s["wins_a"], "draws": s["draws"],
                     "losses": s["losses_a"], "win_rate": 100 * s["win_rate_a"],
                     "ci95_low": 100 * lo, "ci95_high": 100 * hi,
                     "half_width": 100 * (hi - lo) / 2, "mean_plies": s["mean_plies"]})
    return pd.DataFrame(rows), computed, total


def _significance(low: float, high: float) -> int:
    """+1 if the interval lies above 50%, -1 if below, 0 if it contains 50%."""
    return 1 if low > 50 else -1 if high < 50 else 0


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
        for game in frame["game"].unique():
            for column, (label, key, budget_index) in enumerate(columns):
                hit = frame[(frame.game == game) & (frame.match == key)
                            & (frame.budget_index == budget_index)]
                if hit.empty:
                    continue
                ours = hit.iloc[0]
                p_rate, p_half, p_bold = PAPER[table][game][column]
                p_low, p_high = p_rate - p_half, p_rate + p_half
                ours_sig = _significance(ours.ci95_low, ours.ci95_high)
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


def table_markdown(comp: pd.DataFrame, table: str, budgets: tuple[int, int]) -> str:
    title, columns = TABLES[table]
    rows = comp[comp.table == table]
    header = ["Game", "k"] + [h for label, _, b in columns
                              for h in (f"ours {budgets[b]:,} p{label[3:]}",
                                        f"paper {label}")]
    lines = [f"### Table {table}: {title}", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game in rows.game.unique():
        k = {"1": K[game][0], "3": K[game][1]}.get(table, "/".join(map(str, K[game])))
        cells = [GAME_NAMES[game], str(k)]
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
              "'p' = playouts per move for both players; the paper's columns are 1 s and 5 s.")]
    return "\n".join(lines)


def _game_verdicts(comp: pd.DataFrame) -> list[str]:
    lines = [("| Game | cells | same side of 50% | intervals overlap | same significance | "
             "verdict |"), "|---|---|---|---|---|---|"]
    for game in comp.game.unique():
        rows = comp[comp.game == game]
        n, side = len(rows), int(rows.same_side.sum())
        overlap, sig = int(rows.overlap.sum()), int(rows.same_significance.sum())
        agree = int((rows.same_side | rows.overlap).sum())
        verdict = ("agrees" if agree == n else "mostly agrees" if 2 * agree > n
                   else "disagrees")
        lines.append(f"| {GAME_NAMES[game]} | {n} | {side} | {overlap} | {sig} | {verdict} "
                     f"({agree}/{n} cells on the same side or overlapping) |")
    return lines


def _details(comp: pd.DataFrame) -> list[str]:
    lines = []
    for game in comp.game.unique():
        rows = comp[comp.game == game]
        agree = rows[rows.same_side | rows.overlap]
        differ = rows[~(rows.same_side | rows.overlap)]

        def names(part):
            return ", ".join(f"T{r.table} {r.column} ({r.ours:.1f} vs {r.paper:.1f})"
                             for r in part.itertuples()) or "none"
        lines.append(f"- **{GAME_NAMES[game]}**: agree in {len(agree)}/{len(rows)}: "
                     f"{names(agree)}. Disagree: {names(differ)}.")
    return lines


def _claims(comp: pd.DataFrame) -> list[str]:
    """The paper's summary statements, counted on our results the way the paper counts."""
    lines = ["| Paper's statement | ours | holds |", "|---|---|---|"]
    games = comp.game.nunique()

    def gain_games(table, keys):
        part = comp[(comp.table == table) & comp.match.isin(keys)]
        return part[part.ours_significance > 0].game.nunique()

    for table, keys, text in (
            ("1", ["rb-online", "rb-0.25"], "RB: significant gains in five of the six games"),
            ("3", ["qb-online", "qb-0.25"], "QB: significant gains in five of the six games")):
        if comp[comp.table == table].empty:
            continue
        n = gain_games(table, keys)
        lines.append(f"| {text} | {n} of {games} games with a significant gain in some column | "
                     f"{'yes' if n >= round(games * 5 / 6) else 'no'} |")
    quality = comp[comp.match == "quality"]
    if not quality.empty:
        n = int((quality.ours_significance < 0).sum())
        lines.append(f"| reward = quality: significant decrease in five of the six games | "
                     f"{n} of {len(quality)} games significantly below 50% | "
                     f"{'yes' if n >= round(len(quality) * 5 / 6) else 'no'} |")
    combined = comp[(comp.table == "4") & (comp.match != "quality")]
    if not combined.empty:
        better = 0
        for r in combined.itertuples():
            single = comp[(comp.game == r.game) & comp.table.isin(["1", "3"])
                          & (comp.column == r.column)]
            if len(single) == 2 and (r.ours_low > single.ours_high).all():
                better += 1
        lines.append(f"| RB+QB significantly better than each bonus alone in 14 of 24 cases "
                     f"| {better} of {len(combined)} (our interval above both single-bonus "
                     f"intervals) | {'yes' if better * 24 >= 14 * len(combined) else 'no'} |")
    return lines


def report_markdown(frame: pd.DataFrame, comp: pd.DataFrame, tables: list[str],
                    preamble: str) -> str:
    return "\n\n".join([
        "# Reproduction of Pepels et al.: quality-based rewards for MCTS (seed 000, Sect. 6)",
        preamble,
        ("Budgets are playouts per move for both players, standing in for the paper's 1 s and "
         "5 s of search time; so a costly enhancement is not penalised for its time here (the "
         "paper explains Pentalath's QB result by the cost of its quality assessment). The "
         "paper's Table 2 (RB in the GGP agent CadiaPlayer) is not reproduced. The paper's "
         "numbers are transcribed from the seed text (Tables 1, 3, 4; the four value columns "
         "read as 1 s a', 1 s a=0.25, 5 s a', 5 s a=0.25)."),
        "## Verdicts, game by game",
        ("Each of our cells is compared with the paper's: *same side* when both win rates are "
         "above 50% (or both below), *overlap* when the 95% intervals overlap, *same "
         "significance* when both are a significant gain, both not significant, or both a "
         "significant loss. A cell agrees when it is on the same side or overlaps."),
        "\n".join(_game_verdicts(comp)),
        "\n".join(_details(comp)),
        "## The paper's summary statements",
        "\n".join(_claims(comp)),
        "## Tables",
        *tables,
        "## Every match",
        _frame_markdown(frame),
    ]) + "\n"


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
                     seed: int = 2015, progress: bool | None = None) -> Path:
    """Run (or resume) every match of ``scale`` into ``out``, then write the tables and
    ``report.md``. Returns the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    matches = pepels_matches(scale, seed)
    start = time.perf_counter()
    frame, computed, total = run_matches(matches, out, workers=workers, progress=progress)
    minutes = (time.perf_counter() - start) / 60
    frame.to_csv(out / "results.csv", index=False)
    comp = comparisons(frame)
    comp.to_csv(out / "comparison.csv", index=False)
    config = SCALES[scale]
    tables = []
    for table in TABLES:
        text = table_markdown(comp, table, config["budgets"])
        (out / f"table{table}.md").write_text(text + "\n")
        tables.append(text)
    preamble = (
        f"Scale `{scale}`: {len(matches)} matches in {len(config['game_list'])} games, budgets "
        f"{config['budgets'][0]:,} and {config['budgets'][1]:,} playouts per move, "
        f"{config['games']:,} games per match ({config['quality_games']:,} for reward = "
        f"quality, lower budget only), seats swapped every game; study seed {seed}. This run "
        f"computed {computed} of {total} blocks of games in {minutes:.1f} min; the rest were "
        f"stored already.")
    report = out / "report.md"
    report.write_text(report_markdown(frame, comp, tables, preamble))
    return report
