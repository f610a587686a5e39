"""The matches of seed 000 Sect. 6 (Pepels et al., quality-based rewards): every enhanced player
of Tables 1, 3 and 4 against plain ``uct`` in the six games, at two budgets.

Matches, per game (enhanced player = A, ``uct`` = B, seats swapped every game):

| key | spec | paper |
|---|---|---|
| ``rb-online`` | ``uct+rb(a=online)`` | Table 1, a' |
| ``rb-0.25`` | ``uct+rb(a=0.25)`` | Table 1, a = 0.25 |
| ``qb-online`` | ``uct+qb(a=online)`` | Table 3, a' |
| ``qb-0.25`` | ``uct+qb(a=0.25)`` | Table 3, a = 0.25 |
| ``rbqb-online`` | ``uct+rb(a=online)+qb(a=online)`` | Table 4, a' |
| ``rbqb-0.25`` | ``uct+rb(a=0.25)+qb(a=0.25)`` | Table 4, a = 0.25 |
| ``quality`` | ``uct+quality`` | Table 4, reward = quality (1 second only, 500 games) |

k of each bonus and UCT C are the game's (``mcts.presets``, the paper's Tables 1 and 3).
The paper gives each player a search *time* (1 s and 5 s on a 2.2 GHz Opteron); we give both
players the same number of playouts per move instead, so results do not depend on the machine
and a player whose enhancement is slower is not penalised for it (the paper's are; see
``report.md``). The two budgets stand for 1 s and 5 s (ratio 5):

| scale | budgets (playouts per move) | games per match | reward = quality |
|---|---|---|---|
| quick | 300 and 1,500 | 50 | 50, lower budget only |
| paper | 5,000 and 25,000 | 1,000 (the paper: 5,000) | 500 (as the paper), lower budget only |

Cost, estimated from single games of ``uct+rb(a=online)+qb(a=online)`` vs ``uct`` on one core:
per game, about 35 s at 300 playouts (28 s of it Chinese Checkers, whose games at this budget
run to the 1000-ply draw) and 42 s at 1,500 (22 s Amazons). Quick is then about 25,000
core-seconds (7 core-hours); paper, scaling time per move with the playouts, about 1,400
core-hours. Estimates only: game lengths change with the budget and the players.

Storage: each match is a tournament (``experiments.tournament``) stored in
``DIR/<game>/<key>-p<playouts>/`` (``tournament_store``), so a rerun skips finished blocks.
Each match's seed derives from the study seed and the match's name (CRC-32), so matches draw
independent random streams and a match's results do not depend on which others are run.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from .tournament import Tournament

GAMES = ("amazons", "breakthrough", "cannon", "checkers", "chinesecheckers", "pentalath")
GAME_NAMES = {"amazons": "Amazons", "breakthrough": "Breakthrough", "cannon": "Cannon",
              "checkers": "Checkers", "chinesecheckers": "Chin. Checkers",
              "pentalath": "Pentalath"}
BASELINE = "uct"

# key -> spec of the enhanced player
ENHANCED = {
    "rb-online": "uct+rb(a=online)",
    "rb-0.25": "uct+rb(a=0.25)",
    "qb-online": "uct+qb(a=online)",
    "qb-0.25": "uct+qb(a=0.25)",
    "rbqb-online": "uct+rb(a=online)+qb(a=online)",
    "rbqb-0.25": "uct+rb(a=0.25)+qb(a=0.25)",
    "quality": "uct+quality",
}
LOW_BUDGET_ONLY = ("quality",)  # the paper plays reward = quality at 1 second only

# scale -> budgets (low, high), games per match, games of the quality match, games per block,
# the games played
SCALES: dict[str, dict] = {
    "quick": {"budgets": (300, 1500), "games": 50, "quality_games": 50, "block": 5,
              "game_list": GAMES},
    "paper": {"budgets": (5000, 25000), "games": 1000, "quality_games": 500, "block": 10,
              "game_list": GAMES},
}

# The paper's tables as (column label, match key, budget index 0 = "1 second", 1 = "5 seconds")
TABLES = {
    "1": ("Relative Bonus", [("1 s, a'", "rb-online", 0), ("1 s, a=0.25", "rb-0.25", 0),
                             ("5 s, a'", "rb-online", 1), ("5 s, a=0.25", "rb-0.25", 1)]),
    "3": ("Qualitative Bonus", [("1 s, a'", "qb-online", 0), ("1 s, a=0.25", "qb-0.25", 0),
                                ("5 s, a'", "qb-online", 1), ("5 s, a=0.25", "qb-0.25", 1)]),
    "4": ("Relative and Qualitative Bonus combined; reward = terminal quality",
          [("1 s, a'", "rbqb-online", 0), ("1 s, a=0.25", "rbqb-0.25", 0),
           ("5 s, a'", "rbqb-online", 1), ("5 s, a=0.25", "rbqb-0.25", 1),
           ("1 s, reward = q", "quality", 0)]),
}

# The paper's numbers (seed 000 Tables 1, 3, 4): (win %, 95% half-width, bold in the paper),
# in the column order of ``TABLES``. The paper bolds significant *gains* only.
_b, _n = True, False
PAPER = {
    "1": {
        "amazons": [(54.7, 1.4, _b), (55.7, 1.4, _b), (54.8, 1.4, _b), (54.7, 1.4, _b)],
        "breakthrough": [(50.0, 1.4, _n), (51.0, 1.4, _n), (47.6, 1.4, _n), (51.6, 1.4, _b)],
        "cannon": [(62.8, 1.3, _b), (60.6, 1.3, _b), (58.8, 1.4, _b), (58.1, 1.4, _b)],
        "checkers": [(52.1, 0.8, _b), (52.7, 0.8, _b), (48.9, 0.7, _n), (50.7, 0.6, _b)],
        "chinesecheckers": [(56.8, 1.4, _b), (53.2, 1.4, _b), (54.9, 1.4, _b), (52.5, 1.4, _b)],
        "pentalath": [(51.4, 1.4, _b), (50.3, 1.4, _n), (49.3, 1.4, _n), (49.5, 1.4, _n)],
    },
    "3": {
        "amazons": [(64.5, 1.3, _b), (58.0, 1.4, _b), (63.0, 1.3, _b), (57.7, 1.4, _b)],
        "breakthrough": [(74.8, 1.2, _b), (71.9, 1.2, _b), (76.3, 1.2, _b), (78.6, 1.1, _b)],
        "cannon": [(65.9, 1.3, _b), (63.0, 1.3, _b), (54.7, 1.4, _b), (57.4, 1.4, _b)],
        "checkers": [(53.8, 0.8, _b), (52.7, 0.7, _b), (51.9, 0.6, _b), (52.3, 0.6, _b)],
        "chinesecheckers": [(65.7, 1.3, _b), (60.1, 1.4, _b), (61.4, 1.3, _b), (58.9, 1.4, _b)],
        "pentalath": [(46.6, 1.4, _n), (50.5, 1.4, _n), (48.7, 1.4, _n), (50.1, 1.4, _n)],
    },
    "4": {
        "amazons": [(65.9, 1.3, _b), (61.9, 1.4, _b), (62.0, 1.4, _b), (60.9, 1.4, _b),
                    (23.7, 3.7, _n)],
        "breakthrough": [(77.9, 1.2, _b), (72.9, 1.2, _b), (78.6, 1.1, _b), (78.6, 1.1, _b),
                         (35.4, 4.2, _n)],
        "cannon": [(72.5, 1.2, _b), (69.3, 1.3, _b), (61.1, 1.4, _b), (62.3, 1.3, _b),
                   (45.4, 4.4, _n)],
        "checkers": [(53.6, 0.8, _b), (54.1, 0.8, _b), (51.7, 0.7, _b), (53.5, 0.7, _b),
                     (29.4, 4.0, _n)],
        "chinesecheckers": [(69.9, 1.3, _b), (63.1, 1.3, _b), (64.6, 1.3, _b), (70.0, 1.4, _b),
                            (48.5, 4.4, _n)],
        "pentalath": [(50.7, 1.4, _n), (51.2, 1.4, _n), (51.9, 1.4, _b), (51.4, 1.4, _b),
                      (27.0, 3.9, _n)],
    },
}
K = {"amazons": (2.2, 1.6), "breakthrough": (8.0, 2.0), "cannon": (3.0, 4.0),
     "checkers": (2.8, 2.0), "chinesecheckers": (1.2, 2.8), "pentalath": (1.0, 1.6)}


@dataclass(frozen=True)
class Match:
    """One tournament of the study: ``key``'s enhanced player against ``uct`` in ``game``."""

    game: str
    key: str
    budget_index: int  # 0: stands for 1 second, 1: for 5 seconds
    tournament: Tournament

    @property
    def folder_name(self) -> str:
        return f"{self.key}-p{self.tournament.playouts}"

    def folder(self, out: str | Path) -> Path:
        return Path(out) / self.game / self.folder_name


def match_seed(seed: int, game: str, key: str, playouts: int) -> int:
    """The tournament seed of one match: the study seed and a CRC-32 of the match's name."""
    return (seed << 32) | zlib.crc32(f"{game}/{key}/{playouts}".encode())


def pepels_matches(scale: str = "quick", seed: int = 2015) -> list[Match]:
    """Every match of ``scale``, the lower budget first (its results come in sooner)."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    config = SCALES[scale]
    matches = []
    for index, playouts in enumerate(config["budgets"]):
        for game in config["game_list"]:
            for key, spec in ENHANCED.items():
                if index > 0 and key in LOW_BUDGET_ONLY:
                    continue
                games = config["quality_games"] if key == "quality" else config["games"]
                tournament = Tournament(game, spec, BASELINE, games, playouts,
                                        seed=match_seed(seed, game, key, playouts),
                                        block=min(config["block"], games))
                matches.append(Match(game, key, index, tournament))
    return matches
