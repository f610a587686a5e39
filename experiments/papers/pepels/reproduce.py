"""``mctslab reproduce pepels``: run (or resume) the matches of seed 000 Sect. 6 (``study``),
then write Tables 1-4 beside the paper's numbers, the k figure (``figures``) and a report
(``report``) whose verdicts are computed from the stored results (``verdicts``).

Files written into the output folder: ``results.csv`` (one row per match), ``comparison.csv``
(one row per table cell), ``verdicts.csv`` (one row per game and pooled finding),
``table1.md`` .. ``table4.md``, ``fig_k_qb_breakthrough.png`` and ``.pdf``, and ``report.md``;
the games themselves are in ``<game>/<match>/`` (``experiments.tournaments.store``).

All matches' unplayed blocks go to one pool of worker processes (a pool per match would pay
the start-up of its workers 88 times), the lower budget first; each block is stored as it
finishes, so a killed run resumes with the blocks it had finished.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ...runtime.pool import check_options, completed
from ...runtime.store import make_folder, write_atomically, write_table
from ...tournaments.store import write_block
from ...tournaments.tournament import add_games, play_block, stored_blocks, summarize, to_play
from .figures import k_figure
from .report import report_markdown, table_markdown
from .study import (
    COSTS_SOURCE,
    GAME_NAMES,
    SCALES,
    TABLES,
    pepels_matches,
    projected_core_hours,
)
from .verdicts import comparisons, headline_verdicts


def _pending(matches, out: Path):
    """Claim every match's folder; its stored games by match, {block index: games}, and the
    blocks (or their ends) to play."""
    stored, todo = [], []
    for i, match in enumerate(matches):
        stored.append(stored_blocks(match.tournament, match.folder(out))[1])
        todo += [(i, block) for block in to_play(match.tournament, stored[i])]
    return stored, todo


def run_matches(matches, out: Path, *, workers: int | None = None, scheduler: str | None = None,
                progress: bool | None = None) -> tuple[pd.DataFrame, int, int]:
    """Play or resume every match, the blocks of all of them sharing the local processes or the
    Dask cluster (``experiments.runtime.pool``); one summary row per match, with the number of
    blocks this call computed and the total number of blocks."""
    check_options(workers, scheduler)
    stored, todo = _pending(matches, out)
    games = sum(block.count - block.start for _, block in todo)
    bar = tqdm(total=games, unit=" games", desc="pepels", file=sys.stderr, dynamic_ncols=True,
               disable=not (sys.stderr.isatty() if progress is None else progress))
    with bar:
        jobs = [(matches[i].tournament, block) for i, block in todo]
        for j, table in completed(play_block, jobs, workers, scheduler):
            i, block = todo[j]
            t = matches[i].tournament
            write_block(matches[i].folder(out), t.to_dict(), block,
                        add_games(stored[i], block, table))
            bar.update(block.count - block.start)
    rows = []
    for i, match in enumerate(matches):
        t = match.tournament
        s = summarize(pd.concat([stored[i][b.index] for b in t.blocks()], ignore_index=True))
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


def announce(scale: str, seed: int = 2015) -> str | None:
    """The line printed before a run at ``scale``: the paper scale's matches, games and
    projected core-hours."""
    if scale != "paper":
        return None
    matches = pepels_matches(scale, seed)
    games = sum(m.tournament.games for m in matches)
    return (f"pepels at scale paper: {len(matches)} matches, {games:,} games, projected "
            f"{projected_core_hours(matches):,.0f} core-hours ({COSTS_SOURCE})")


def reproduce_pepels(out: str | Path, scale: str = "quick", *, workers: int | None = None,
                     scheduler: str | None = None, seed: int = 2015,
                     progress: bool | None = None, formats=("png", "pdf")) -> Path:
    """Run (or resume) every match of ``scale`` into ``out``, then write the tables, the k
    figure (PNG, which the report shows, and every other format of ``formats``) and
    ``report.md``. Returns the report's path."""
    out = make_folder(out)
    matches = pepels_matches(scale, seed)
    start = time.perf_counter()
    frame, computed, total = run_matches(matches, out, workers=workers, scheduler=scheduler,
                                          progress=progress)
    minutes = (time.perf_counter() - start) / 60
    write_table(frame, out / "results.csv")
    comp = comparisons(frame)
    write_table(comp, out / "comparison.csv")
    verdicts = headline_verdicts(frame)
    write_table(verdicts, out / "verdicts.csv")
    config = SCALES[scale]
    tables = []
    for table in TABLES:
        if comp.empty or (comp.table == table).sum() == 0:
            continue
        text = table_markdown(comp, table, config["budgets"], config.get("game_budgets"))
        write_atomically(out / f"table{table}.md", (text + "\n").encode())
        tables.append(text)
    figure = k_figure(frame, out, formats)
    low, high = config["budgets"]
    own = "".join(f"; {GAME_NAMES[game]} {game_low:,} and {game_high:,}"
                  for game, (game_low, game_high) in config.get("game_budgets", {}).items()
                  if game in config["game_list"])
    preamble = (
        f"Scale `{scale}`: {len(matches)} matches in {len(config['game_list'])} games, budgets "
        f"{low:,} and {high:,} playouts per move{own}, {config['games']:,} games per match of "
        f"Tables 1, 3, 4 ({config['quality_games']:,} for reward = quality, lower budget "
        f"only), {config['table2_games']:,} per Table 2 match and {config['k_games']:,} per k "
        f"of the figure (both at the lower budget); seats swapped every game; study seed "
        f"{seed}. This run computed {computed} of {total} blocks of games in {minutes:.1f} min; "
        f"the rest were stored already.")
    return write_atomically(out / "report.md",
                            report_markdown(frame, comp, verdicts, tables, preamble,
                                            figure).encode())
