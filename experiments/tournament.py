"""A tournament: player A against player B over N games of one game, seats swapped, in blocks.

Game g (0-based) seats A first when g is even and second when g is odd, so A moves first in
ceil(N / 2) games. Games are grouped in blocks of ``block`` consecutive games; game j of block i
draws every search seed from ``numpy.random.default_rng(SeedSequence(seed, spawn_key=(i, j)))``,
so a block's results depend on the tournament and the block only: not on the worker that plays
it, on when, or on how many workers there are. With a folder, each finished block is stored at
once (``tournament_store``) and a rerun skips it, so a killed tournament resumes.

Score of A: 1 per win, 1/2 per draw. ``summarize`` gives its mean with a 95% Wilson score
interval (Wilson 1927): for n games and mean score p, with z = 1.96,
(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n); a draw counts as half a win there.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint
from tqdm import tqdm

from mcts.players import parse_player

from .lock import writing
from .match import load_game, play_game
from .pool import Pool
from .tournament_store import claim_tournament_folder, read_block, write_block

Z95 = 1.959963984540054
COLUMNS = ("game", "a_seat", "winner", "a_score", "plies")


@dataclass(frozen=True)
class Block:
    """Games ``first .. first + count - 1`` of a tournament, block number ``index``."""

    index: int
    first: int
    count: int

    @property
    def key(self) -> str:
        return f"block{self.index:05d}"


@dataclass(frozen=True)
class Tournament:
    """Everything that fixes a tournament's results."""

    game: str
    a: str  # player spec of A
    b: str  # player spec of B
    games: int
    playouts: int  # per move, both players
    seed: int = 0
    block: int = 10  # games per block

    def __post_init__(self):
        load_game(self.game)
        parse_player(self.a, self.game)
        parse_player(self.b, self.game)
        for name in ("games", "playouts", "block"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name} {getattr(self, name)} must be at least 1")
        if self.seed < 0:
            raise ValueError(f"--seed {self.seed} must be 0 or more")

    def to_dict(self) -> dict:
        return asdict(self)

    def blocks(self) -> list[Block]:
        return [Block(i, first, min(self.block, self.games - first))
                for i, first in enumerate(range(0, self.games, self.block))]


def play_block(tournament: Tournament, block: Block) -> pd.DataFrame:
    """Play the games of ``block``: one row per game with the columns ``COLUMNS`` (``winner``
    the winning seat or -1, ``a_score`` 1, 1/2 or 0)."""
    game = load_game(tournament.game)
    a = parse_player(tournament.a, tournament.game)
    b = parse_player(tournament.b, tournament.game)
    rows = []
    for j in range(block.count):
        g = block.first + j
        a_seat = g % 2
        rng = np.random.default_rng(np.random.SeedSequence(tournament.seed,
                                                           spawn_key=(block.index, j)))
        record = play_game(game, (a, b) if a_seat == 0 else (b, a), tournament.playouts, rng)
        score = 0.5 if record.winner < 0 else float(record.winner == a_seat)
        rows.append((g, a_seat, record.winner, score, record.plies))
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype(
        {"game": "int64", "a_seat": "int8", "winner": "int8", "a_score": "float64",
         "plies": "int32"})


def stored_blocks(tournament: Tournament, folder: str | Path) -> tuple[Path, dict]:
    """Claim ``folder`` for ``tournament`` (another tournament's folder is refused); the folder
    and the blocks stored in it so far, {block index: games}."""
    folder = claim_tournament_folder(folder, tournament.to_dict())
    done = {}
    for block in tournament.blocks():
        table = read_block(folder, tournament.to_dict(), block)
        if table is not None:
            done[block.index] = table
    return folder, done


def run_tournament(tournament: Tournament, folder: str | Path | None = None, *,
                   workers: int | None = None, scheduler: str | None = None,
                   progress: bool | None = None, wait: bool = False) -> pd.DataFrame:
    """Play (or, with a ``folder``, resume) ``tournament``; one row per game, by game index.

    ``workers``: local processes (default: all cores); ``scheduler``: a Dask scheduler address,
    or "local" for a loopback ``LocalCluster`` (``experiments.pool``); ``progress``: a bar of
    games on stderr (default: when stderr is a terminal). A folder that holds another tournament
    is refused, and so is one another process writes (``lock.FolderBusy``) unless ``wait``.
    """
    with Pool(workers, scheduler) as pool, (
            nullcontext() if folder is None else writing(folder, wait=wait)):
        blocks = tournament.blocks()
        done: dict[int, pd.DataFrame] = {}
        if folder is not None:
            folder, done = stored_blocks(tournament, folder)
        pending = [block for block in blocks if block.index not in done]
        bar = tqdm(total=tournament.games,
                   initial=tournament.games - sum(b.count for b in pending),
                   unit=" games", desc=f"{tournament.a} vs {tournament.b}", file=sys.stderr,
                   dynamic_ncols=True,
                   disable=not (sys.stderr.isatty() if progress is None else progress))
        with bar:
            for i, table in pool.completed(play_block,
                                           [(tournament, block) for block in pending]):
                block = pending[i]
                if folder is not None:
                    write_block(folder, tournament.to_dict(), block, table)
                done[block.index] = table
                bar.update(block.count)
    return pd.concat([done[block.index] for block in blocks], ignore_index=True)


def wilson_interval(score: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The Wilson score 1 - alpha interval of a proportion ``score`` observed over ``n`` trials
    (statsmodels' ``proportion_confint``)."""
    low, high = proportion_confint(score * n, n, alpha=alpha, method="wilson")
    return float(low), float(high)


def summarize(results: pd.DataFrame) -> dict:
    """games, wins_a, draws, losses_a, win_rate_a (mean score of A) and ci95 (Wilson) of a
    ``run_tournament`` table, plus A's score when moving first and second."""
    n = len(results)
    wins = int((results["a_score"] == 1.0).sum())
    draws = int((results["winner"] < 0).sum())
    rate = float(results["a_score"].mean())
    lo, hi = wilson_interval(rate, n)
    by_seat = results.groupby("a_seat")["a_score"].mean()
    return {"games": n, "wins_a": wins, "draws": draws, "losses_a": n - wins - draws,
            "win_rate_a": rate, "ci95": [lo, hi],
            "win_rate_a_first": float(by_seat.get(0, float("nan"))),
            "win_rate_a_second": float(by_seat.get(1, float("nan"))),
            "mean_plies": float(results["plies"].mean())}

