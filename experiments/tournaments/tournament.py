"""A tournament: player A against player B over N games of one game, seats swapped, in blocks.

Game g (0-based) seats A first when g is even and second when g is odd, so A moves first in
ceil(N / 2) games. Games are grouped in blocks of ``block`` consecutive games; game j of block i
draws every search seed from ``numpy.random.default_rng(SeedSequence(seed, spawn_key=(i, j)))``,
so a game's results depend on the tournament's identity (players, playouts, seed, block) and
its index only: not on the number of games, on the worker that plays it, on when, or on how
many workers there are. With a folder, each finished block is stored at once
(``store``) and a rerun skips it, so a killed tournament resumes and a larger one
reuses every stored game (a stored block of a smaller tournament is completed, not replayed).

Score of A: 1 per win, 1/2 per draw. ``summarize`` gives its mean with a 95% Wilson score
interval (Wilson 1927): for n games and mean score p, with z = 1.96,
(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n); a draw counts as half a win there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from contextlib import closing, nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from mcts.players import parse_player

from ..intervals import wilson_interval as _wilson
from ..runtime.lock import writing
from ..runtime.pool import Pool, check_options
from .match import load_game, play_game
from .store import claim_tournament_folder, read_block, write_block

COLUMNS = ("game", "a_seat", "winner", "a_score", "plies")


@dataclass(frozen=True)
class Block:
    """Games ``first .. first + count - 1`` of a tournament, block number ``index``; the first
    ``start`` of them are stored already (a block of a smaller tournament), the rest to play."""

    index: int
    first: int
    count: int
    start: int = 0

    @property
    def key(self) -> str:
        return f"block{self.index:05d}"


@dataclass(frozen=True)
class Tournament:
    """Everything that fixes a tournament's results: its identity and its number of games."""

    game: str
    a: str  # player spec of A
    b: str  # player spec of B
    games: int
    playouts: int  # per move, both players
    seed: int = 0
    block: int = 10  # games per block

    def __post_init__(self):
        game = load_game(self.game)
        players = parse_player(self.a, self.game), parse_player(self.b, self.game)
        for name in ("games", "playouts", "block"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name} {getattr(self, name)} must be at least 1")
        for player in players:
            player.check_playouts(game, self.playouts)
        if self.seed < 0:
            raise ValueError(f"--seed {self.seed} must be 0 or more")

    def to_dict(self) -> dict:
        return asdict(self)

    def blocks(self) -> list[Block]:
        return [Block(i, first, min(self.block, self.games - first))
                for i, first in enumerate(range(0, self.games, self.block))]


def play_block(tournament: Tournament, block: Block) -> pd.DataFrame:
    """Play the games of ``block`` from its ``start``: one row per game with the columns
    ``COLUMNS`` (``winner`` the winning seat or -1, ``a_score`` 1, 1/2 or 0)."""
    game = load_game(tournament.game)
    a = parse_player(tournament.a, tournament.game)
    b = parse_player(tournament.b, tournament.game)
    rows = []
    for j in range(block.start, block.count):
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
    """Claim ``folder`` for ``tournament`` (another tournament's folder is refused; one of the
    same players with another number of games is not); the folder and the games stored in it
    so far, {block index: the block's games, all or a first part}."""
    folder = claim_tournament_folder(folder, tournament.to_dict())
    done = {}
    for block in tournament.blocks():
        table = read_block(folder, tournament.to_dict(), block)
        if table is not None and len(table):
            done[block.index] = table
    return folder, done


def to_play(tournament: Tournament, done: dict) -> list[Block]:
    """The blocks of ``tournament`` not wholly in ``done`` (``stored_blocks``), each to be
    played from its first game not stored."""
    return [replace(block, start=len(done.get(block.index, ())))
            for block in tournament.blocks() if len(done.get(block.index, ())) < block.count]


def add_games(done: dict, block: Block, table: pd.DataFrame) -> pd.DataFrame:
    """Record the games just played of ``block`` in ``done`` after its stored ones; return the
    block's games, from its first."""
    if block.start:
        table = pd.concat([done[block.index], table], ignore_index=True)
    done[block.index] = table
    return table


def play_tournaments(tournaments: Sequence[Tournament],
                     folders: Sequence[str | Path | None] | None = None, *,
                     workers: int | None = None, scheduler: str | None = None,
                     progress: bool | None = None,
                     stop: Callable[[pd.DataFrame], bool] | None = None,
                     pool: Pool | None = None) -> list[pd.DataFrame]:
    """Play (or, with folders, resume) ``tournaments``, their blocks sharing one pool; the games
    of each, one row per game by game index.

    ``folders``: one per tournament (None: not stored), claimed before any game is played;
    ``workers``: local processes (default: all cores); ``scheduler``: a Dask scheduler address,
    or "local" for a loopback ``LocalCluster`` (``experiments.runtime.pool``); ``progress``: a
    bar of games on stderr (default: when stderr is a terminal). ``stop`` (one tournament only) is
    called with the games from the first to the end of each block, in block order, as soon as
    they are all played; when it returns True the tournament ends there and its games so far are
    returned, whatever order the blocks finished in. ``pool``: an open ``Pool`` to play on
    instead of one of ``workers`` and ``scheduler`` (its caller's processes, already started).
    """
    if stop is not None and len(tournaments) != 1:
        raise ValueError("a stopping rule applies to one tournament (two players)")
    folders = list(folders) if folders is not None else [None] * len(tournaments)
    # an unusable cluster fails before any claim
    with nullcontext(pool) if pool is not None else Pool(workers, scheduler) as playing:
        done = [{} if folder is None else stored_blocks(t, folder)[1]
                for t, folder in zip(tournaments, folders, strict=True)]
        kept = _play(tournaments, folders, done, playing, progress, stop)
    return [pd.concat([done[i][block.index] for block in t.blocks()[:kept[i]]],
                      ignore_index=True) for i, t in enumerate(tournaments)]


def _play(tournaments, folders, done, pool, progress, stop) -> list[int | None]:
    """Play the blocks ``done`` lacks, storing each as it comes; the number of blocks each
    tournament keeps (None: all; fewer where ``stop`` ended it)."""
    blocks = [t.blocks() for t in tournaments]
    kept: list[int | None] = [None] * len(tournaments)

    def check_stop(i: int, checked: int) -> int:
        """Call ``stop`` on every newly complete prefix of blocks; the blocks checked so far."""
        while (kept[i] is None and checked < len(blocks[i])
               and len(done[i].get(checked, ())) == blocks[i][checked].count):
            checked += 1
            if stop(pd.concat([done[i][k] for k in range(checked)], ignore_index=True)):
                kept[i] = checked
        return checked

    checked = check_stop(0, 0) if stop is not None else 0
    jobs = [] if kept[0] is not None else [(i, block) for i, t in enumerate(tournaments)
                                           for block in to_play(t, done[i])]
    total = sum(t.games for t in tournaments)
    label = (f"{tournaments[0].a} vs {tournaments[0].b}" if len(tournaments) == 1
             else f"{len(tournaments)} pairings")
    bar = tqdm(total=total, initial=total - sum(b.count - b.start for _, b in jobs),
               unit=" games", desc=label, file=sys.stderr, dynamic_ncols=True,
               disable=not (sys.stderr.isatty() if progress is None else progress))
    with bar, closing(pool.completed(play_block, [(tournaments[i], block)
                                                  for i, block in jobs])) as results:
        for j, table in results:
            i, block = jobs[j]
            whole = add_games(done[i], block, table)
            if folders[i] is not None:
                write_block(folders[i], tournaments[i].to_dict(), block, whole)
            bar.update(block.count - block.start)
            if stop is not None:
                checked = check_stop(i, checked)
                if kept[i] is not None:
                    break
    return kept


def run_tournament(tournament: Tournament, folder: str | Path | None = None, *,
                   workers: int | None = None, scheduler: str | None = None,
                   progress: bool | None = None, wait: bool = False,
                   stop: Callable[[pd.DataFrame], bool] | None = None) -> pd.DataFrame:
    """Play (or, with a ``folder``, resume or grow) ``tournament``; one row per game, by game
    index (``play_tournaments``, whose ``stop`` it takes). A folder that holds another
    tournament is refused, and so is one another process writes
    (``runtime.lock.FolderBusy``) unless ``wait``.
    """
    check_options(workers, scheduler)  # before the folder is locked
    with nullcontext() if folder is None else writing(folder, wait=wait):
        return play_tournaments([tournament], [folder], workers=workers, scheduler=scheduler,
                                progress=progress, stop=stop)[0]


def wilson_interval(score: float, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion ``score`` observed over ``n`` trials
    (``experiments.intervals``)."""
    low, high = _wilson(score * n, n)
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

