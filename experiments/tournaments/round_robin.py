"""A round robin: every pair of players meets over the same number of games, seats swapped.

Players P_0, ..., P_{n-1} (specs, in the order given) make the pairings (P_i, P_j), i < j, each a
``Tournament`` with P_i as A. A pairing's seed is the round robin's and a CRC-32 of its two
specs (as ``papers.pepels`` seeds its matches), so its games depend on the pairing and their
index only: not on the other players, nor on the number of games. A folder therefore grows:
more games, or players listed after the old ones, reuse every stored game, and the result
equals a fresh run of the larger round robin. Layout::

    round_robin.json                 the identity: game, playouts, seed, block
    pairings/<A>_vs_<B>/             one tournament folder per pairing (``store``)

Two players are one pairing: ``mctslab tournament --a A --b B`` is the round robin (A, B).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pandas as pd

from mcts.players import parse_player

from ..runtime.lock import writing
from ..runtime.pool import check_options
from ..runtime.store import ROUND_ROBIN_FILE, claim
from .match import load_game
from .store import TOURNAMENT_FILE
from .tournament import COLUMNS, Tournament, play_tournaments

PAIRING_FOLDER = "pairings"


def pairing_seed(seed: int, a: str, b: str) -> int:
    """The tournament seed of the pairing A vs B: ``seed`` and a CRC-32 of the two specs."""
    return (seed << 32) | zlib.crc32(f"{a} vs {b}".encode())


@dataclass(frozen=True)
class RoundRobin:
    """Everything that fixes a round robin's results; ``games`` per pairing. Player specs are
    kept as ``mcts.players`` writes them (without spaces); two players may be the same (a
    match against itself, which has no ratings), more may not."""

    game: str
    players: tuple[str, ...]
    games: int
    playouts: int  # per move, every player
    seed: int = 0
    block: int = 10  # games per stored block

    def __post_init__(self):
        load_game(self.game)
        players = tuple(parse_player(spec, self.game).spec for spec in self.players)
        if len(players) < 2:
            raise ValueError(f"a tournament needs at least 2 players, got {len(players)}: "
                             f"give --players A B ... (or --a A --b B)")
        twice = sorted({spec for spec in players if players.count(spec) > 1})
        if twice and len(players) > 2:
            raise ValueError(f"player {twice[0]} is given twice: give each player of a round "
                             f"robin once")
        object.__setattr__(self, "players", players)
        self.pairings()  # checks the counts and the seed

    def pairings(self) -> list[Tournament]:
        """One tournament per pair of players, in the order (P_0, P_1), (P_0, P_2), ...,
        (P_1, P_2), ..."""
        return [Tournament(self.game, a, b, self.games, self.playouts,
                           pairing_seed(self.seed, a, b), self.block)
                for i, a in enumerate(self.players) for b in self.players[i + 1:]]

    @property
    def rated(self) -> bool:
        """Whether the players are distinct (else the one pairing is a player against itself)."""
        return len(set(self.players)) == len(self.players)

    def identity(self) -> dict:
        """What a folder of this round robin holds whatever its players and games."""
        return {"game": self.game, "playouts": self.playouts, "seed": self.seed,
                "block": self.block}


def pairing_folder(folder: str | Path, tournament: Tournament) -> Path:
    """Where the games of the pairing ``tournament`` of a round robin are stored."""
    name = quote(f"{tournament.a}_vs_{tournament.b}", safe="+()=,.:_-")
    return Path(folder) / PAIRING_FOLDER / name


def claim_round_robin_folder(folder: str | Path, round_robin: RoundRobin) -> Path:
    """Make ``folder`` the home of round robins of ``round_robin``'s identity, or check that it
    is; a folder of another game, playouts, seed or block, or a two-player tournament of the
    layout before round robins, is refused in one line."""
    folder = Path(folder)
    if (folder / TOURNAMENT_FILE).exists():
        raise ValueError(f"{folder} holds a two-player tournament of the layout before round "
                         f"robins: read it with experiments.tournaments.tournament"
                         f".run_tournament, or choose another --out folder")
    return claim(folder, ROUND_ROBIN_FILE, round_robin.identity(), refusal=lambda stored: (
        f"{folder} holds another tournament ({_differences(stored, round_robin)}): choose "
        f"another --out folder, or delete {folder} to start over"))



def _differences(stored: dict, round_robin: RoundRobin) -> str:
    return ", ".join(f"{key} {stored.get(key)!r}, not {value!r}"
                     for key, value in round_robin.identity().items()
                     if stored.get(key) != value) or "another identity"


def run_round_robin(round_robin: RoundRobin, folder: str | Path | None = None, *,
                    workers: int | None = None, scheduler: str | None = None,
                    progress: bool | None = None, wait: bool = False,
                    stop: Callable[[pd.DataFrame], bool] | None = None) -> pd.DataFrame:
    """Play (or, with a ``folder``, resume or grow) ``round_robin``; one row per game: the
    pairing's ``a`` and ``b`` and the tournament columns (``game`` its index in the pairing,
    ``a_seat``, ``winner``, ``a_score``, ``plies``), pairing by pairing.

    ``stop`` (two players only): ``tournament.play_tournaments``'s, e.g. a sequential test. A
    folder of another round robin identity is refused, and so is one another process writes
    (``runtime.lock.FolderBusy``) unless ``wait``.
    """
    check_options(workers, scheduler)  # before the folder is locked
    pairings = round_robin.pairings()
    with nullcontext() if folder is None else writing(folder, wait=wait):
        folders = [None] * len(pairings)
        if folder is not None:
            claim_round_robin_folder(folder, round_robin)
            folders = [pairing_folder(folder, t) for t in pairings]
        tables = play_tournaments(pairings, folders, workers=workers, scheduler=scheduler,
                                  progress=progress, stop=stop)
    return pd.concat([table.assign(a=t.a, b=t.b) for t, table in zip(pairings, tables)],
                     ignore_index=True)[["a", "b", *COLUMNS]]
