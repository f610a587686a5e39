"""The matches of seed 000 Sect. 6 (Pepels et al., quality-based rewards): every enhanced player
of Tables 1, 3 and 4 against plain ``uct`` in the six games at two budgets, an analogue of
Table 2 (Relative Bonus with the GGP settings k = 2 and 1.4, a = 0.25) in the three games that
table shares with ours, and win rate against k of the Qualitative Bonus in Breakthrough.

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
| ``rb-k2-0.25``, ``rb-k1.4-0.25`` | ``uct+rb(k=2,a=0.25)``, ``uct+rb(k=1.4,a=0.25)`` | Table 2 (CadiaPlayer), lower budget, Checkers, Breakthrough, Chinese Checkers |
| ``qb-k<k>-0.25`` | ``uct+qb(k=<k>,a=0.25)`` | the k figure, lower budget, Breakthrough |

k of each bonus and UCT C are the game's (``mcts.games.presets``, the paper's Tables 1 and 3).
The paper gives each player a search *time* (1 s and 5 s on a 2.2 GHz Opteron); we give both
players the same number of playouts per move instead, so results do not depend on the machine
and a player whose enhancement is slower is not penalised for it (the paper's are; see
``report.md``). The two budgets stand for 1 s and 5 s:

| scale | budgets (playouts per move) | games per match | reward = quality | Table 2, each k point |
|---|---|---|---|---|
| quick | 100 and 500; Amazons 50 and 150 | 40 | 100, lower budget only | 80 |
| paper | 5,000 and 25,000 | 1,000 (the paper: 5,000) | 500 (as the paper), lower budget only | 1,000 |

Cost (``COSTS``, CPU-seconds per game measured per game and budget; ``game_seconds``). An
Amazons simulation is mostly its tree, not its rules: a position has up to 2,176 moves, each a
child to expand and index, so at 100 and 500 playouts Amazons alone would take most of the
quick scale's time. Keeping every match and game, Amazons plays at 50 and 150 playouts (as the
paper's time budgets give a slower game fewer playouts; at these budgets both Amazons players
open nearly at random anyway). Reward = quality has 100 games, which gives Breakthrough's
finding (the paper's 35.4%) 84% power. ``projected_core_hours`` of ``pepels_matches("quick")``
must stay under about 1,150 core-seconds, so that quick fits 12 minutes on 2 cores with the
kernels' compilation (a test checks it; the measured run is in docs/performance.md); rerun
``benchmarks/bench_pepels_costs.py`` after a change of the rules and retune from it. Paper:
about 580 core-hours (projected from ``COSTS`` at 500 playouts; ``mctslab reproduce pepels
--scale paper`` prints it first).

Chinese Checkers used to run to the 1000-ply draw at low budgets: without a rule against it, a
losing UCT player keeps pieces in its starting triangle (the opponent's target) and the game
cannot end. ``games.chinese_checkers`` now lets a full target win whoever holds part of it, as
the seed's framework does; games between these players then last 40-110 plies.

Storage: each match is a tournament (``experiments.tournaments.tournament``) stored in
``DIR/<game>/<key>-p<playouts>/`` (``experiments.tournaments.store``), so a rerun skips finished blocks.
Each match's seed derives from the study seed and the match's name (CRC-32), so matches draw
independent random streams and a match's results do not depend on which others are run.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from pathlib import Path

from mcts.games.presets import preset

from ...tournaments.tournament import Tournament

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

# Table 2 (Relative Bonus in the GGP agent CadiaPlayer, a = 0.25): the games it shares with ours
# (in its order) and its two k, played at the lower budget
TABLE2_GAMES = ("checkers", "breakthrough", "chinesecheckers")
TABLE2 = {"rb-k2-0.25": "uct+rb(k=2,a=0.25)", "rb-k1.4-0.25": "uct+rb(k=1.4,a=0.25)"}
# The k figure: the Qualitative Bonus (a = 0.25) in Breakthrough, the game where it gains most
K_FIGURE_GAME = "breakthrough"

# scale -> budgets (low, high), games per match, games of the quality match, games per block,
# the games played, games of each Table 2 match and of each point of the k figure, the k values;
# optionally ``game_budgets``, {game: (low, high)} for the games whose budgets differ
SCALES: dict[str, dict] = {
    "quick": {"budgets": (100, 500), "games": 40, "quality_games": 100, "block": 5,
              "game_list": GAMES, "table2_games": 80, "k_games": 80,
              "k_values": (0.5, 1.0, 2.0, 4.0, 8.0),
              "game_budgets": {"amazons": (50, 150)}},
    "paper": {"budgets": (5000, 25000), "games": 1000, "quality_games": 500, "block": 10,
              "game_list": GAMES, "table2_games": 1000, "k_games": 1000,
              "k_values": (0.5, 1.0, 2.0, 4.0, 8.0)},
}

# What a game of a match costs, per game and budget (playouts a move): (CPU-seconds, plies) per
# game, of `uct+rb(a=online)` and `uct+rb(a=online)+qb(a=online)` against `uct` (seats
# swapped): `nice python benchmarks/bench_pepels_costs.py --games 4 --budgets 50 100 150 500`,
# one process, CPU time (`time.process_time`), 2026-11-26, every game on its bitboard rules, on
# the 2-core dev machine under a load of 2-6 from other jobs; 8-12 games a cell. plies x
# playouts / seconds = simulations per CPU-second, nearly constant in the budget. A few games
# are a small sample: a game's length varies by 2x, so each figure is +-30%. Rerun the
# benchmark after a change of the rules and retune the scales with ``projected_core_hours``.
COSTS_SOURCE = ("simulations per CPU-second and plies per game measured at 500 playouts a "
                "move, benchmarks/bench_pepels_costs.py, 2026-11-26")
COSTS: dict[str, dict[int, tuple[float, float]]] = {
    "amazons": {50: (0.357, 77.0), 100: (0.692, 77.9), 150: (1.061, 72.0), 500: (3.765, 80.9)},
    "breakthrough": {50: (0.028, 51.5), 100: (0.049, 52.1), 150: (0.060, 43.2),
                     500: (0.198, 47.8)},
    "cannon": {50: (0.099, 94.8), 100: (0.157, 73.1), 150: (0.213, 67.4), 500: (0.772, 77.0)},
    "checkers": {50: (0.023, 77.0), 100: (0.058, 109.8), 150: (0.096, 117.6),
                 500: (0.304, 120.3)},
    "chinesecheckers": {50: (0.118, 132.8), 100: (0.147, 88.2), 150: (0.167, 71.6),
                        500: (0.440, 61.6)},
    "pentalath": {50: (0.031, 35.2), 100: (0.057, 35.2), 150: (0.071, 30.4),
                  500: (0.163, 21.0)},
}


def game_seconds(game: str, playouts: int) -> float:
    """Projected CPU-seconds of one game of a match in ``game`` at ``playouts`` a move, from
    ``COSTS``: plies x playouts / (simulations per second) at the measured budget nearest to
    ``playouts`` (by ratio; the measured figure itself at a measured budget). It assumes the
    simulation rate and the game length of that budget: beyond 500 playouts deeper trees make
    a simulation somewhat dearer and stronger players change a game's length, so a projection
    far above it (the paper's 5,000 and 25,000) is rough, within a factor of 2."""
    measured = COSTS[game]
    nearest = min(measured, key=lambda b: abs(math.log(b / playouts)))
    seconds, plies = measured[nearest]
    return plies * playouts / (plies * nearest / seconds)


def projected_core_hours(matches) -> float:
    """Projected single-core hours of playing ``matches`` (``Match`` list) from ``COSTS``."""
    return sum(m.tournament.games * game_seconds(m.game, m.tournament.playouts)
               for m in matches) / 3600


# The paper's tables as (column label, match key, budget index 0 = "1 second", 1 = "5 seconds")
TABLES = {
    "1": ("Relative Bonus", [("1 s, a'", "rb-online", 0), ("1 s, a=0.25", "rb-0.25", 0),
                             ("5 s, a'", "rb-online", 1), ("5 s, a=0.25", "rb-0.25", 1)]),
    "2": ("Relative Bonus with the GGP settings (paper: CadiaPlayer, a different engine), a=0.25",
          [("k=2", "rb-k2-0.25", 0), ("k=1.4", "rb-k1.4-0.25", 0)]),
    "3": ("Qualitative Bonus", [("1 s, a'", "qb-online", 0), ("1 s, a=0.25", "qb-0.25", 0),
                                ("5 s, a'", "qb-online", 1), ("5 s, a=0.25", "qb-0.25", 1)]),
    "4": ("Relative and Qualitative Bonus combined; reward = terminal quality",
          [("1 s, a'", "rbqb-online", 0), ("1 s, a=0.25", "rbqb-0.25", 0),
           ("5 s, a'", "rbqb-online", 1), ("5 s, a=0.25", "rbqb-0.25", 1),
           ("1 s, reward = q", "quality", 0)]),
}

# The paper's numbers (seed 000 Tables 1-4): (win %, 95% half-width, bold in the paper), in the
# column order of ``TABLES``. The paper bolds significant *gains* only. Games per cell: 5,000
# (Table 4's reward = q: 500; Table 2: at least 950).
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
    "2": {
        "checkers": [(54.4, 3.0, _b), (52.1, 3.2, _n)],
        "breakthrough": [(51.3, 2.9, _n), (51.0, 2.9, _n)],
        "chinesecheckers": [(56.3, 1.8, _b), (56.0, 1.8, _b)],
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
# The paper's k column (Tables 1 and 3): (k_RB, k_QB); ``mcts.games.presets`` must agree (tested)
PAPER_K = {"amazons": (2.2, 1.6), "breakthrough": (8.0, 2.0), "cannon": (3.0, 4.0),
           "checkers": (2.8, 2.0), "chinesecheckers": (1.2, 2.8), "pentalath": (1.0, 1.6)}
K = {game: (preset(game).rb_k, preset(game).qb_k) for game in GAMES}  # what our players use


@dataclass(frozen=True)
class Match:
    """One tournament of the study: ``key``'s enhanced player against ``uct`` in ``game``.
    ``part``: ``"tables"`` (Tables 1, 3, 4), ``"table2"`` or ``"k"`` (the k figure, whose QB
    slope is ``k``)."""

    game: str
    key: str
    budget_index: int  # 0: stands for 1 second, 1: for 5 seconds
    tournament: Tournament
    part: str = "tables"
    k: float = math.nan

    @property
    def folder_name(self) -> str:
        return f"{self.key}-p{self.tournament.playouts}"

    def folder(self, out: str | Path) -> Path:
        return Path(out) / self.game / self.folder_name


def budgets(config: dict, game: str) -> tuple[int, int]:
    """The (low, high) playouts a move of ``game`` in the scale ``config``."""
    return config.get("game_budgets", {}).get(game, config["budgets"])


def match_seed(seed: int, game: str, key: str, playouts: int) -> int:
    """The tournament seed of one match: the study seed and a CRC-32 of the match's name."""
    return (seed << 32) | zlib.crc32(f"{game}/{key}/{playouts}".encode())


def k_key(k: float) -> str:
    """The match key of the k figure's point at QB slope ``k``."""
    return f"qb-k{k:g}-0.25"


def pepels_matches(scale: str = "quick", seed: int = 2015) -> list[Match]:
    """Every match of ``scale``, the lower budget first (its results come in sooner): Tables 1,
    3 and 4, then Table 2 and the k figure, then the higher budget."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    config = SCALES[scale]

    def match(game, key, spec, index, games, **extra):
        playouts = budgets(config, game)[index]
        tournament = Tournament(game, spec, BASELINE, games, playouts,
                                seed=match_seed(seed, game, key, playouts),
                                block=min(config["block"], games))
        return Match(game, key, index, tournament, **extra)

    matches = [match(game, key, spec, 0,
                     config["quality_games"] if key == "quality" else config["games"])
               for game in config["game_list"] for key, spec in ENHANCED.items()]
    matches += [match(game, key, spec, 0, config["table2_games"], part="table2")
                for game in TABLE2_GAMES if game in config["game_list"]
                for key, spec in TABLE2.items()]
    if K_FIGURE_GAME in config["game_list"]:
        matches += [match(K_FIGURE_GAME, k_key(k), f"uct+qb(k={k:g},a=0.25)", 0,
                          config["k_games"], part="k", k=float(k))
                    for k in config["k_values"]]
    matches += [match(game, key, spec, 1, config["games"])
                for game in config["game_list"] for key, spec in ENHANCED.items()
                if key not in LOW_BUDGET_ONLY]
    return matches
