"""Seed 003's experiments (Veness, Lanctot & Bowling): Fig. 1 and Fig. 2 on Pig solitaire.

Fig. 1: on Pig's first turn s_1, the bias^2 and variance of UCT's estimate of Q(s_1, roll) and
of Q(s_1, roll) - Q(s_1, stop), against the expectimax solution, per number of simulations m:
bias = mean over runs of the estimate - the exact value, variance = its sample variance over
runs (MSE = bias^2 + variance). Fig. 2: the average final score of a game played with a search
of m simulations before every decision, with 95% intervals (mean +- 1.96 sd / sqrt(games)), for
base UCT and each combination of control variates, common random numbers and antithetic
variates. Game g's dice come from the stream of seed (study seed, g), the same for every method
and budget. Results are stored as Parquet (one file per Fig. 2 point), so a run resumes.
"""

from __future__ import annotations

import itertools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from games import get_game, pig
from games.pig_solver import solve_pig
from mcts.stochastic import StochasticConfig, play, search

from .storage import write_table

TECHNIQUES = ("cv", "crn", "av")
METHODS: dict[str, StochasticConfig] = {
    "+".join(("uct",) + combo): StochasticConfig(**{t: True for t in combo})
    for r in range(4) for combo in itertools.combinations(TECHNIQUES, r)
}


@dataclass(frozen=True)
class VenessScale:
    """How much of the paper's experiment to run (Pig: 50,000 games a point in Fig. 2)."""

    turns: int
    fig1_budgets: tuple[int, ...]
    fig1_runs: int
    fig2_budgets: tuple[int, ...]
    fig2_games: int


SCALES = {
    "quick": VenessScale(10, tuple(2**k for k in range(1, 13)), 1000,
                         tuple(2**k for k in range(4, 11)), 1000),
    "paper": VenessScale(10, tuple(2**k for k in range(1, 13)), 10000,
                         tuple(2**k for k in range(4, 12)), 50000),
}


def _seed(*key: int) -> int:
    return int(np.random.SeedSequence(list(key)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def first_turn_estimates(turns: int, budgets: tuple[int, ...], runs: int, method: str,
                         seed: int) -> pd.DataFrame:
    """One row per (run, budget): the root estimates of roll and stop at Pig's start."""
    game, config = get_game("pig"), METHODS[method]
    rows = []
    for run in range(runs):
        result = search(game, pig.initial_state(turns), budgets[-1], config,
                        seed=_seed(seed, 1, run), checkpoints=budgets)
        roll, stop = list(result.actions).index(pig.ROLL), list(result.actions).index(pig.STOP)
        for budget, values in zip(budgets, result.recorded):
            rows.append((run, budget, values[roll], values[stop]))
    frame = pd.DataFrame(rows, columns=["run", "budget", "roll", "stop"])
    return frame.assign(method=method, turns=turns, seed=seed)


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


def game_scores(turns: int, method: str, budget: int, games: int, seed: int) -> pd.DataFrame:
    """One row per game: the final score of UCT ``method`` with ``budget`` simulations a move."""
    game, config = get_game("pig"), METHODS[method]
    scores = [play(game, pig.initial_state(turns), budget, config, seed=_seed(seed, 2, g))
              for g in range(games)]
    return pd.DataFrame({"game": np.arange(games), "score": scores}).assign(
        method=method, budget=budget, turns=turns, seed=seed)


def score_summary(scores: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2: per method and budget, the mean score and its 95% interval."""
    grouped = scores.groupby(["method", "budget"])["score"]
    table = pd.DataFrame({"games": grouped.size(), "mean": grouped.mean(),
                          "sd": grouped.std()}).reset_index()
    half = 1.96 * table["sd"] / np.sqrt(table["games"])
    return table.assign(ci95_low=table["mean"] - half, ci95_high=table["mean"] + half)


def _score_file(out: Path, method: str, budget: int) -> Path:
    return out / "scores" / f"{method}-{budget}.parquet"


def _compute_point(task: tuple) -> Path:
    out, turns, method, budget, games, seed = task
    return write_table(game_scores(turns, method, budget, games, seed),
                       _score_file(out, method, budget))


def _stored(path: Path, turns: int, games: int, seed: int) -> bool:
    if not path.exists():
        return False
    frame = pd.read_parquet(path, columns=["turns", "seed"])
    return len(frame) == games and (frame["turns"] == turns).all() and (frame["seed"] == seed).all()


def run_veness(out: str | Path, scale: str = "quick", *, workers: int = 1,
               seed: int = 2011) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Compute (or resume) both figures' results into ``out``; returns (Fig. 1 table, Fig. 2
    per-game scores)."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    plan, out = SCALES[scale], Path(out)
    fig1_file = out / "fig1_estimates.parquet"
    if fig1_file.exists():
        estimates = pd.read_parquet(fig1_file)
    else:
        estimates = pd.concat([first_turn_estimates(plan.turns, plan.fig1_budgets,
                                                    plan.fig1_runs, method, seed)
                               for method in METHODS], ignore_index=True)
        write_table(estimates, fig1_file)
    tasks = [(out, plan.turns, method, budget, plan.fig2_games, seed)
             for budget in plan.fig2_budgets for method in METHODS
             if not _stored(_score_file(out, method, budget), plan.turns, plan.fig2_games, seed)]
    if workers > 1 and tasks:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            list(pool.map(_compute_point, tasks))
    else:
        for task in tasks:
            _compute_point(task)
    scores = pd.concat([pd.read_parquet(_score_file(out, method, budget))
                        for budget in plan.fig2_budgets for method in METHODS],
                       ignore_index=True)
    return bias_variance(estimates, plan.turns), scores
