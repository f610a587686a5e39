"""Seed 003's experiments (Veness, Lanctot & Bowling): Fig. 1 on Pig, Fig. 2 on every game of
``PANELS`` (Pig, Can't Stop and Dominion; one entry more adds a game).

Fig. 1: on Pig's first turn s_1, the bias^2 and variance of UCT's estimate of Q(s_1, roll) and
of Q(s_1, roll) - Q(s_1, stop), against the expectimax solution, per number of simulations m:
bias = mean over runs of the estimate - the exact value, variance = its sample variance over
runs (MSE = bias^2 + variance). Fig. 2, one panel per game: the average final score of a game
played with a search of m simulations before every decision, with 95% intervals (mean +- 1.96
sd / sqrt(games)), for base UCT and each combination of the game's techniques (control
variates, common random numbers, antithetic variates). Game g's dice come from the stream of
seed (study seed, g), the same for every method and budget. Results are stored as Parquet, one
file per Fig. 2 point (``run``: ``scores/<game>/<method>-<budget>.parquet``, carrying the
settings it was computed with), so a run resumes and reproduces from its seed.

The paper gives no numbers of turns, budgets or plotted values; ``PANELS`` records ours (one
entry per game: turns, budgets and games per point at each scale, techniques, the paper's
statement of its gain):
- Pig: 10 turns, c = 100 and offline control-variate constant 6.0 (seed 003's).
- Can't Stop: 5 turns. Scores are about 220-290 of 1100, far from the ceiling that 20 turns
  approach (UCT 970). Against 10 turns, a game costs 3.5 times less (0.17 against 0.59 ms per
  simulation) and base UCT gains 17 points per doubling of its budget for a score sd of 54-62
  (26 for 76-78), so the same resolution in doublings needs 1.4 times the games: 5 turns give
  2.5 times the information per second. c = 300 (the registry's; see ``games.cantstop`` for
  why not seed 003's 5500) and offline constant 77 (also the registry's): -Cov[X, Y] / Var[Y]
  of default-policy playouts (200 from each of 300 states sampled from 5-turn games; 73 with 10
  turns), estimated offline as the paper did its constants (its 6.0 belongs to another score scale).
  Quick: 16-256 simulations, 500 games a point (95% half-width about 5 points), about 3
  minutes on 2 free cores.
- Dominion: 15 turns (``games.dominion``), c = 100 and offline constant -0.7 (seed 003's);
  control variates and common random numbers only (the paper found no useful antithetic
  mapping). Quick: 16-512 simulations, 500 games a point (score sd about 3-5 VP, so a 95%
  half-width of about 0.4 VP); a game costs about 3, 10 and 32 ms at 16, 64 and 256
  simulations, about 2.5 minutes on 2 free cores in all.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from games import get_game, pig
from games.pig_solver import solve_pig
from mcts import STREAM_VERSION
from mcts.stochastic import StochasticConfig, play, search

TECHNIQUES = ("cv", "crn", "av")
METHODS = tuple("+".join(("uct",) + combo) for r in range(4)
                for combo in itertools.combinations(TECHNIQUES, r))  # base UCT and combinations


@dataclass(frozen=True)
class Effort:
    """The points of one panel at one scale: simulations per decision and games per point."""

    budgets: tuple[int, ...]
    games: int


@dataclass(frozen=True)
class Panel:
    """One game's panel of Fig. 2: its settings and the paper's statement of how many more
    simulations base UCT needs to match the best combination (``paper_ratio``: the range of
    that factor; upper bound ``inf`` for "at least")."""

    game: str  # name in ``games.registry``, which gives the UCB constant ``ucb_c``
    title: str
    turns: int
    quick: Effort
    paper: Effort
    paper_claim: str
    paper_ratio: tuple[float, float]
    techniques: tuple[str, ...] = TECHNIQUES
    cv_offline: float | None = None  # c of Eq. 2 while T_{s,a} < 50; None: the registry's

    def effort(self, scale: str) -> Effort:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
        return getattr(self, scale)

    @property
    def methods(self) -> tuple[str, ...]:
        """Base UCT and every combination of this game's techniques."""
        return tuple(m for m in METHODS if set(m.split("+")[1:]) <= set(self.techniques))

    def config(self, method: str) -> StochasticConfig:
        flags = method.split("+")
        if flags[0] != "uct" or not set(flags[1:]) <= set(self.techniques):
            raise ValueError(f"unknown method {method!r} for {self.game}; use one of "
                             f"{', '.join(self.methods)}")
        game = get_game(self.game)
        cv_offline = game.cv_offline if self.cv_offline is None else self.cv_offline
        return StochasticConfig(c=game.ucb_c, cv_offline=cv_offline,
                                **{t: True for t in flags[1:]})


PANELS: dict[str, Panel] = {
    "pig": Panel("pig", "Pig", 10,
                 quick=Effort(tuple(2**k for k in range(4, 11)), 1000),
                 paper=Effort(tuple(2**k for k in range(4, 12)), 50000),
                 paper_claim="the best approach consistently outperforms base UCT, even when "
                             "given twice the number of simulations",
                 paper_ratio=(2.0, float("inf"))),
    "cantstop": Panel("cantstop", "Can't Stop", 5,
                      quick=Effort(tuple(2**k for k in range(4, 9)), 500),
                      paper=Effort(tuple(2**k for k in range(4, 11)), 10000),
                      paper_claim="the best approach gave a performance increase roughly "
                                  "equivalent to using base UCT with 50-60% more simulations",
                      paper_ratio=(1.5, 1.6)),
    "dominion": Panel("dominion", "Dominion", 15,
                      quick=Effort(tuple(2**k for k in range(4, 10)), 500),
                      paper=Effort(tuple(2**k for k in range(4, 11)), 10000),
                      paper_claim="variance reduction gave an improvement roughly equivalent "
                                  "to using 25-40% more simulations",
                      paper_ratio=(1.25, 1.4), techniques=("cv", "crn")),
}


@dataclass(frozen=True)
class Fig1Scale:
    """Fig. 1 (Pig, ``PANELS["pig"].turns`` turns): budgets and searches per method."""

    budgets: tuple[int, ...]
    runs: int


SCALES = {
    "quick": Fig1Scale(tuple(2**k for k in range(1, 13)), 1000),
    "paper": Fig1Scale(tuple(2**k for k in range(1, 13)), 10000),
}


def _seed(*key: int) -> int:
    return int(np.random.SeedSequence(list(key)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def first_turn_estimates(turns: int, budgets: tuple[int, ...], runs: int, method: str,
                         seed: int) -> pd.DataFrame:
    """One row per (run, budget): the root estimates of roll and stop at Pig's start."""
    game, config = get_game("pig"), PANELS["pig"].config(method)
    rows = []
    for run in range(runs):
        result = search(game, pig.initial_state(turns), budgets[-1], config,
                        seed=_seed(seed, 1, run), checkpoints=budgets)
        roll, stop = list(result.actions).index(pig.ROLL), list(result.actions).index(pig.STOP)
        for budget, values in zip(budgets, result.recorded):
            rows.append((run, budget, values[roll], values[stop]))
    frame = pd.DataFrame(rows, columns=["run", "budget", "roll", "stop"])
    return frame.assign(method=method, turns=turns, seed=seed, stream_version=STREAM_VERSION)


def bias_variance(estimates: pd.DataFrame, turns: int) -> pd.DataFrame:
    """Fig. 1 from ``first_turn_estimates``: per method, budget and quantity ("roll" or
    "difference" = roll - stop), the exact value, bias, bias^2, variance and MSE."""
    q_roll, q_stop = solve_pig(turns).q_values(pig.initial_state(turns))
    frames = []
    for quantity, exact in (("roll", q_roll), ("difference", q_roll - q_stop)):
        value = estimates["roll"] - (estimates["stop"] if quantity == "difference" else 0.0)
        grouped = value.groupby([estimates["method"], estimates["budget"]])
        table = pd.DataFrame({"mean": grouped.mean(), "variance": grouped.var(),
                              "runs": grouped.size()}).reset_index()
        table["bias"] = table["mean"] - exact
        table["bias2"] = table["bias"] ** 2
        table["mse"] = table["bias2"] + table["variance"]
        frames.append(table.assign(quantity=quantity, exact=exact))
    return pd.concat(frames, ignore_index=True)


def game_scores(panel: Panel, method: str, budget: int, games: int, seed: int) -> pd.DataFrame:
    """One row per game: the final score of UCT ``method`` with ``budget`` simulations a
    decision, and the point's settings (``cpu_seconds``: the point's processor time;
    ``stream_version``: the engines' random streams, ``mcts.STREAM_VERSION``)."""
    game, config = get_game(panel.game), panel.config(method)
    start = time.process_time()
    scores = [play(game, game.rules.initial_state(panel.turns), budget, config,
                   seed=_seed(seed, 2, g)) for g in range(games)]
    return pd.DataFrame({"game": np.arange(games), "score": scores}).assign(
        panel=panel.game, method=method, budget=budget, turns=panel.turns, seed=seed,
        c=config.c, cv_offline=config.cv_offline, stream_version=STREAM_VERSION,
        cpu_seconds=time.process_time() - start)


def score_summary(scores: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2: per panel (if the column is there), method and budget, the mean score and its
    95% interval."""
    keys = [k for k in ("panel", "method", "budget") if k in scores.columns]
    grouped = scores.groupby(keys, sort=False)["score"]
    table = pd.DataFrame({"games": grouped.size(), "mean": grouped.mean(),
                          "sd": grouped.std()}).reset_index()
    half = 1.96 * table["sd"] / np.sqrt(table["games"])
    return table.assign(ci95_low=table["mean"] - half, ci95_high=table["mean"] + half)
