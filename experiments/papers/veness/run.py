"""Running seed 003's study (``study``): Fig. 1's estimates and Fig. 2's points computed on a
pool of processes or a Dask cluster (``experiments.runtime.pool``), each stored as it arrives
(``experiments.runtime.store``) and reused by the next run when it was computed with the same
settings.

Layout of an output folder::

    fig1_estimates.parquet                  Fig. 1's estimates, every method, run and budget
    scores/<game>/<method>-<budget>.parquet one Fig. 2 point: a row per game with its settings
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from mcts import STREAM_VERSION

from ...runtime.pool import check_options, completed
from ...runtime.store import KeyedStore
from .study import (
    PANELS,
    SCALES,
    Fig1Scale,
    Panel,
    bias_variance,
    first_turn_estimates,
    game_scores,
)

FIG1_KEY = "fig1_estimates"


def point_store(out: str | Path, panel: Panel) -> KeyedStore:
    """The Fig. 2 points of ``panel`` in the output folder ``out``, by ``point_key``."""
    return KeyedStore(Path(out) / "scores" / panel.game)


def point_key(method: str, budget: int) -> str:
    return f"{method}-{budget}"


def _read(store: KeyedStore, key: str) -> pd.DataFrame | None:
    """The table stored under ``key``, or None if it is missing or damaged."""
    stored = store.read(key)
    return None if stored is None else stored.table.to_pandas()


def _has_settings(frame: pd.DataFrame, settings: dict) -> bool:
    """Whether every row of ``frame`` has a column per setting, holding its value."""
    return all(key in frame.columns and (frame[key] == value).all()
               for key, value in settings.items())


def stored_estimates(out: str | Path, plan: Fig1Scale, turns: int,
                     seed: int) -> pd.DataFrame | None:
    """Fig. 1's estimates stored in ``out`` if they are those ``first_turn_estimates`` gives
    at this scale (every method, run and budget) with these turns and seed, else None (also
    for a damaged file): a folder of another scale or seed is computed again, not mixed in."""
    frame = _read(KeyedStore(Path(out)), FIG1_KEY)
    keys = ["method", "run", "budget"]
    if (frame is None or not set(keys) <= set(frame.columns)
            or not _has_settings(frame, {"turns": turns, "seed": seed,
                                         "stream_version": STREAM_VERSION})):
        return None
    expected = pd.MultiIndex.from_product([PANELS["pig"].methods, range(plan.runs),
                                           plan.budgets], names=keys)
    stored = pd.MultiIndex.from_frame(frame[keys])
    return frame if stored.sort_values().equals(expected.sort_values()) else None


def stored_point(out: str | Path, panel: Panel, method: str, budget: int, games: int,
                 seed: int) -> pd.DataFrame | None:
    """The point stored in ``out`` if it is complete and computed with these settings, else
    None (also for a damaged file: the point is computed again and the file replaced)."""
    frame = _read(point_store(out, panel), point_key(method, budget))
    if frame is None:
        return None
    config = panel.config(method)
    settings = {"turns": panel.turns, "seed": seed, "c": config.c,
                "cv_offline": config.cv_offline, "stream_version": STREAM_VERSION}
    return frame if len(frame) == games and _has_settings(frame, settings) else None


def _call(function, args):
    return function(*args)


def run_veness(out: str | Path, scale: str = "quick", *, workers: int | None = None,
               scheduler: str | None = None, seed: int = 2015, progress: bool | None = None
               ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Compute (or resume) both figures' results into ``out``, Fig. 1's methods and Fig. 2's
    points spread over ``workers`` processes (None: all cores) or the Dask cluster at
    ``scheduler`` (``experiments.runtime.pool``), the longest first, each point stored as it arrives
    (stored points are read once, computed ones kept); returns (Fig. 1 table, Fig. 2 per-game
    scores of every panel); a bar counts the points on a terminal (``progress`` None) or as
    said."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    check_options(workers, scheduler)
    plan, out, turns = SCALES[scale], Path(out), PANELS["pig"].turns
    fig1 = stored_estimates(out, plan, turns, seed)
    fig1_jobs = [] if fig1 is not None else [
        (first_turn_estimates, (turns, plan.budgets, plan.runs, method, seed))
        for method in PANELS["pig"].methods]
    points = [(panel, method, budget, panel.effort(scale).games)
              for panel in PANELS.values() for budget in panel.effort(scale).budgets
              for method in panel.methods]
    frames = [stored_point(out, panel, method, budget, games, seed)
              for panel, method, budget, games in points]
    missing = sorted((j for j, frame in enumerate(frames) if frame is None),
                     key=lambda j: -points[j][2])
    fig1_parts = [None] * len(fig1_jobs)
    jobs = fig1_jobs + [(game_scores, (*points[j], seed)) for j in missing]
    with tqdm(total=len(jobs), unit=" points", desc="veness", file=sys.stderr,
              dynamic_ncols=True,
              disable=not (sys.stderr.isatty() if progress is None else progress)) as bar:
        for i, result in completed(_call, jobs, workers, scheduler):
            if i < len(fig1_jobs):
                fig1_parts[i] = result
            else:
                j = missing[i - len(fig1_jobs)]
                panel, method, budget, _ = points[j]
                point_store(out, panel).write(point_key(method, budget), result)
                frames[j] = result
            bar.update(1)
    if fig1 is None:
        fig1 = pd.concat(fig1_parts, ignore_index=True)
        KeyedStore(out).write(FIG1_KEY, fig1)
    scores = pd.concat(frames, ignore_index=True)
    return bias_variance(fig1, turns), scores
