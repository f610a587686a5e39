"""A player's constant tuned in a real game from matches against a reference player, by the
CLOP-like regression of ``experiments.tuning.clop`` (Coulom 2011).

The player spec marks the tuned parameter with ``?`` (``uct(c=?)+qb``, ``uct+qb(k=?)``). Games
come in pairs, one constant a pair, the tuned player first in one game and second in the
other; game j of the pair numbered k in the whole tuning (0-based) draws its search seeds as a
tournament's game j of block k does (``experiments.tournaments.tournament``). A game scores
win 1, draw 1/2, loss 0 for the tuned player.

The win rate reported at the chosen constant is the fit's, p = logistic(eta), with the 95%
interval logistic(eta +- 1.96 se(eta)), from the tuning's games alone. Elo against the
reference is 400 log10(p / (1 - p)) = 400 eta / ln 10, its interval the same transform of
eta's. The interval holds the chosen constant fixed, and a constant chosen for its high fit
is biased upward (the largest of noisy values): read Elo as the fit's estimate, not as a
fresh match's. A confirmation match (``confirm`` games) is that fresh match: the chosen player
(its value to 3 significant digits, as reported) against the reference, colours alternating,
its seeds drawn from ``confirm_seed(seed)`` so that no game repeats a tuning game's streams;
its win rate has a Wilson 95% interval and its Elo the same transform of the interval's ends.

When the last fit shows no constant of the whole range worse than another (the games cannot
tell the values apart: too few of them, or a parameter that does not matter at this budget),
the tuning is not resolved and chooses nothing: its results say so, name the reference's
value of the parameter (its spec's, else the game's preset, ``mcts.games.presets``) and play
no confirmation match.

Storage (``game_store``): blocks of ``BLOCK_PAIRS`` pairs, written as each ends; a rerun
recomputes every region from the stored games and reuses a block whose constants are those it
would draw, so a killed tuning resumes and its results do not depend on the workers.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from contextlib import closing, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from mcts.games import GAME_STREAM_VERSION
from mcts.players import parse_player

from ..runtime.lock import writing
from ..runtime.pool import Pool, check_options
from ..runtime.store import KeyedStore, make_folder, write_atomically, write_figures
from ..tournaments.match import load_game, play_game
from ..tournaments.tournament import (
    Block,
    Tournament,
    play_block,
    play_tournaments,
    summarize,
)
from .clop import Fit, clop_rounds, to_x
from .game_parameter import Tuned, check_range, default_range, reference_value, tuned_parameter
from .game_report import elo_of, report_lines
from .game_store import claim_tuning, stored_block, tuning_identity

CONFIRM_FOLDER = "confirm"  # the confirmation match, a tournament folder inside the tuning's
BLOCK_PAIRS = 5  # pairs of games per job and stored block


@dataclass(frozen=True)
class Scale:
    """A preset: games in all and the rounds they are played in."""

    games: int
    rounds: int


# quick: Breakthrough at 1,000 playouts a move in <= 10 minutes on 2 cores with a warm kernel
# cache (benchmarks/bench_tune_games.py)
SCALES = {"quick": Scale(games=1600, rounds=4), "full": Scale(games=8000, rounds=8)}

def pair_counts(games: int, rounds: int) -> list[int]:
    """Pairs of games per round: ``games`` / 2 split as evenly as possible, the first rounds
    taking one more; a one-line ValueError for an odd number or fewer than a pair a round."""
    if games % 2 or games < 2 * rounds:
        raise ValueError(f"--games {games} must be even and at least {2 * rounds}: each "
                         f"constant plays a pair of games (colours swapped), {rounds} rounds "
                         "of at least one pair")
    pairs = games // 2
    return [pairs // rounds + (r < pairs % rounds) for r in range(rounds)]


def play_pairs(tuning: dict, round_: int, pairs: Sequence[tuple[int, float]]) -> pd.DataFrame:
    """Play ``pairs`` (pair number, constant) of a tuning (``tuning_identity``): each pair a
    two-game tournament, the tuned player first in game 0; one row per game, ``COLUMNS`` of
    ``game_store``."""
    tuned = tuned_parameter(tuning["player"], tuning["game"])
    tables = []
    for pair, constant in pairs:
        match = Tournament(tuning["game"], tuned.player(constant), tuning["against"], 2,
                           tuning["playouts"], tuning["seed"], block=2)
        games = play_block(match, Block(pair, 0, 2))
        tables.append(pd.DataFrame({
            "round": np.int16(round_), "pair": np.int64(pair),
            "game": 2 * pair + games["game"].to_numpy(np.int64), "constant": float(constant),
            "seat": games["a_seat"], "winner": games["winner"], "score": games["a_score"],
            "plies": games["plies"]}))
    return pd.concat(tables, ignore_index=True)


def _play_stored_or_new(tuning: dict, pool: Pool, store: KeyedStore | None, bar: tqdm):
    """``clop_rounds``' ``play``: a round's blocks read from ``store`` or played on ``pool``,
    each stored as it ends."""

    def play(round_: int, first: int, constants: np.ndarray) -> pd.DataFrame:
        pairs = [(first + k, float(c)) for k, c in enumerate(constants)]
        blocks = [pairs[i:i + BLOCK_PAIRS] for i in range(0, len(pairs), BLOCK_PAIRS)]
        keys = [f"round{round_:03d}-pair{block[0][0]:06d}" for block in blocks]
        metas = [{"tuning": tuning, "round": round_, "first": block[0][0], "pairs": len(block),
                  "stream_version": GAME_STREAM_VERSION} for block in blocks]
        tables = [stored_block(store, key, meta, block)
                  for key, meta, block in zip(keys, metas, blocks, strict=True)]
        bar.update(sum(len(t) for t in tables if t is not None))
        jobs = [i for i, table in enumerate(tables) if table is None]
        with closing(pool.completed(play_pairs, [(tuning, round_, blocks[i])
                                                 for i in jobs])) as results:
            for j, table in results:
                i = jobs[j]
                tables[i] = table
                if store is not None:
                    store.write(keys[i], table, metas[i])
                bar.update(len(table))
        return pd.concat(tables, ignore_index=True)

    return play


@dataclass(frozen=True, eq=False)
class GameTuning:
    """A finished tuning: its games (``table``, one row per game: ``game_store.COLUMNS``,
    ``seat`` the tuned player's, 0 first; ``score`` its outcome, win 1, draw 1/2, loss 0) and
    the fit of each round; the last fit gives the results."""

    game: str
    player: str  # the spec with its "?"
    against: str
    parameter: str  # the tuned parameter's name
    low: float
    high: float
    log: bool
    playouts: int
    seed: int
    table: pd.DataFrame
    fits: tuple[Fit, ...]
    # the confirmation match's games (``tournament.play_block``'s columns, A the chosen
    # player), or None
    confirmation: pd.DataFrame | None = None

    @property
    def fit(self) -> Fit:
        return self.fits[-1]

    @property
    def chosen(self) -> float:
        """The constant of the largest lower 95% bound of the fitted win rate, among those not
        shown worse."""
        return self.fit.best

    @property
    def interval(self) -> tuple[float, float]:
        """The constants whose fitted win rate is not shown worse than the fitted maximum's."""
        return self.fit.not_worse

    @property
    def elo(self) -> float:
        return self.fit.elo()[0]

    @property
    def elo_interval(self) -> tuple[float, float]:
        return self.fit.elo()[1:]

    @property
    def win_rate(self) -> float:
        return float(self.fit.win_rate(self.chosen)[0][0])

    @property
    def win_rate_interval(self) -> tuple[float, float]:
        _, low, high = self.fit.win_rate(self.chosen)
        return float(low[0]), float(high[0])

    @property
    def games(self) -> int:
        return len(self.table)

    @property
    def resolved(self) -> bool:
        """Whether the games showed some constant of the range worse than another: the last
        fit's constants not shown worse are not the whole range tried. Unresolved, the chosen
        constant is an artefact of a flat fit and is reported as nothing chosen."""
        return not np.allclose(self.interval, (self.low, self.high))

    @property
    def at_edge(self) -> bool:
        """Whether the chosen constant is an end of the range tried (widen it then), the
        tuning being resolved."""
        return self.resolved and bool(np.isclose(self.chosen, self.low)
                                      or np.isclose(self.chosen, self.high))

    def reference(self) -> float | None:
        """The reference's value of the tuned parameter (``reference_value``)."""
        return reference_value(tuned_parameter(self.player, self.game), self.against,
                               self.game)

    def unresolved_text(self) -> str:
        """Why nothing was chosen, the reference's value and what to do, in one sentence."""
        ref = self.reference()
        named = (f"{self.against} plays {self.parameter} = {ref:.3g}" if ref is not None else
                 f"{self.against} has no {self.parameter}")
        return (f"not resolved: no {self.parameter} in {self.low:g}..{self.high:g} was shown "
                f"worse than another over {self.games:,} games (the fit is flat within its "
                f"noise), so nothing is chosen (the reference {named}); play more --games")

    def chosen_player(self) -> str:
        """The player spec with the chosen constant to 3 significant digits."""
        tuned = tuned_parameter(self.player, self.game)
        return tuned.spec.replace("?", f"{self.chosen:.3g}")

    def confirmed(self) -> dict | None:
        """The confirmation match (``tournament.summarize``: games, wins_a, draws, win_rate_a,
        ci95, ...) with the player and its Elo against the reference, 400 log10(p / (1 - p)),
        over the win rate and the ends of its interval (None where p is 0 or 1); None
        without a match."""
        if self.confirmation is None:
            return None
        result = summarize(self.confirmation)
        low, high = result["ci95"]
        return {"player": self.chosen_player(), **result, "elo": elo_of(result["win_rate_a"]),
                "elo_interval": [elo_of(low), elo_of(high)]}

    def curve(self, points: int = 101) -> pd.DataFrame:
        """The last fit over its region: columns constant, win_rate, ci_low, ci_high."""
        lo, hi = to_x(np.asarray(self.fit.region, float), self.log)
        x = np.linspace(lo, hi, points)
        constants = np.exp(x) if self.log else x
        rate, low, high = self.fit.win_rate(constants)
        return pd.DataFrame({"constant": constants, "win_rate": rate, "ci_low": low,
                             "ci_high": high})

    def rounds(self) -> pd.DataFrame:
        """Per round: its region, games and observed mean score, then the region the fit
        leaves for the next."""
        rows = []
        for r, fit in enumerate(self.fits):
            games = self.table[self.table["round"] == r]
            rows.append({"round": r, "low": fit.region[0], "high": fit.region[1],
                         "games": len(games), "score": float(games["score"].mean()),
                         "fitted_games": fit.games, "next_low": fit.not_worse[0],
                         "next_high": fit.not_worse[1]})
        return pd.DataFrame(rows)

    def summary(self) -> dict:
        """The results as JSON-ready values (``--json``); unresolved, the chosen value and
        the fit's numbers at it are None."""
        at_chosen = ({"chosen": self.chosen, "chosen_player": self.chosen_player(),
                      "win_rate": self.win_rate,
                      "win_rate_interval": list(self.win_rate_interval), "elo": self.elo,
                      "elo_interval": list(self.elo_interval)} if self.resolved else
                     dict.fromkeys(("chosen", "chosen_player", "win_rate",
                                    "win_rate_interval", "elo", "elo_interval")))
        return {"game": self.game, "player": self.player, "against": self.against,
                "parameter": self.parameter, "range": [self.low, self.high], "log": self.log,
                "playouts": self.playouts, "seed": self.seed, "games": self.games,
                "rounds": len(self.fits), "resolved": self.resolved, **at_chosen,
                "reference": self.reference(), "interval": list(self.interval),
                "at_edge": self.at_edge, "score": float(self.table["score"].mean()),
                "regions": [[fit.region[0], fit.region[1]] for fit in self.fits],
                "confirmation": self.confirmed()}

    def write_report(self, folder: str | Path) -> list[Path]:
        """Write ``report.md`` and the figure (``game_tuning.png`` and ``.pdf``: binned
        observed win rates with Wilson intervals, the fitted curve, the chosen constant and the
        interval) into ``folder``; return the paths."""
        from plots.game_tuning import plot_game_tuning

        folder = make_folder(folder)
        ax = plot_game_tuning(self.table, self.curve(),
                              chosen=self.chosen if self.resolved else None,
                              interval=self.interval, log=self.log, parameter=self.parameter,
                              player=self.player, against=self.against,
                              title=(f"{self.game}, {self.games:,} games at "
                                     f"{self.playouts:,} playouts a move"))
        paths = write_figures(ax.figure, folder / "game_tuning")
        report = folder / "report.md"
        write_atomically(report, ("\n".join(report_lines(self)) + "\n").encode())
        return [report, *paths]


def confirm_seed(seed: int) -> int:
    """The confirmation match's seed: from ``SeedSequence([seed, 1])``, so that its games
    draw streams apart from the tuning's (``SeedSequence(seed, spawn_key=...)``)."""
    return int(np.random.SeedSequence([seed, 1]).generate_state(1)[0])


def check_tuning(game: str, player: str, against: str, *, low: float | None = None,
                 high: float | None = None, log: bool = True, playouts: int = 1000,
                 scale: str = "quick", games: int | None = None, seed: int = 0,
                 rounds: int | None = None, confirm: int = 0
                 ) -> tuple[Tuned, float, float, list[int]]:
    """``tune_game``'s arguments checked before any game is played, so that a command refuses
    them before it times probe games: the tuned parameter, its range (``RANGES``' of
    ``game_parameter`` where not given) and the pairs of games of each round; else a one-line
    ValueError naming the problem and the fix."""
    load_game(game)
    if scale not in SCALES:
        raise ValueError(f"--scale {scale!r}: use one of {', '.join(SCALES)}")
    tuned = tuned_parameter(player, game)
    if "?" in against:
        raise ValueError(f"--against {against!r} has a '?': only --player marks the tuned "
                         "parameter; give the reference its value, e.g. uct(c=0.8)")
    if low is None or high is None:
        default = default_range(tuned)
        low, high = (default[0] if low is None else low), (default[1] if high is None else high)
    low, high = float(low), float(high)
    check_range(tuned, low, high, log)
    rounds = SCALES[scale].rounds if rounds is None else rounds
    if confirm < 0:
        raise ValueError(f"--confirm {confirm} must be 0 (no confirmation match) or more")
    if rounds < 1:
        raise ValueError(f"--rounds {rounds} must be at least 1")
    pairs = pair_counts(SCALES[scale].games if games is None else games, rounds)
    # both players at this budget, the playouts and the seed, with the tournament's messages
    Tournament(game, tuned.player(low), against, 2, playouts, seed, block=2)
    return tuned, low, high, pairs


def tune_game(game: str, player: str, against: str, *, low: float | None = None,
              high: float | None = None, log: bool = True, playouts: int = 1000,
              scale: str = "quick", games: int | None = None, seed: int = 0,
              out: str | Path | None = None, workers: int | None = None,
              scheduler: str | None = None, progress: bool | None = None,
              rounds: int | None = None, confirm: int = 0) -> GameTuning:
    """Tune the parameter ``player`` marks with ``?`` for the best win rate against
    ``against`` in ``game`` (the module's docstring).

    ``low``/``high``: its range (None: ``game_parameter.RANGES``'); ``log``: x = log of the
    parameter (then low > 0). ``scale``: a preset of ``SCALES``, whose games ``games`` and
    rounds ``rounds`` override. ``out``: a folder that stores every game and resumes (a
    folder of another tuning is refused, naming the field that differs); ``workers``,
    ``scheduler``, ``progress``: as ``experiments.tournaments.tournament.play_tournaments``.
    ``confirm``: games of the confirmation match (0: none; none either when the tuning is
    not resolved), stored in ``out/confirm``. Bad input is a one-line ValueError naming the
    problem and the fix (``check_tuning``).
    """
    tuned, low, high, pairs = check_tuning(game, player, against, low=low, high=high, log=log,
                                           playouts=playouts, scale=scale, games=games,
                                           seed=seed, rounds=rounds, confirm=confirm)
    games = 2 * sum(pairs)
    tuning = tuning_identity(game, tuned, against, low, high, log, playouts, games, len(pairs),
                             seed)
    check_options(workers, scheduler)  # before the folder is locked
    folder = None if out is None else Path(out)
    with nullcontext() if folder is None else writing(folder), Pool(workers, scheduler) as pool:
        store = None if folder is None else claim_tuning(folder, tuning)
        bar = tqdm(total=games, unit=" games", desc=f"{tuned.spec} vs {tuning['against']}",
                   file=sys.stderr, dynamic_ncols=True,
                   disable=not (sys.stderr.isatty() if progress is None else progress))
        with bar:
            table, fits = clop_rounds(_play_stored_or_new(tuning, pool, store, bar),
                                      (low, high), pairs, seed, log)
        result = GameTuning(game, tuned.spec, tuning["against"], tuned.name, low, high, log,
                            playouts, seed, table, fits)
        if confirm and result.resolved:
            match = Tournament(game, result.chosen_player(), tuning["against"], confirm,
                               playouts, confirm_seed(seed))
            where = None if folder is None else folder / CONFIRM_FOLDER
            games_played, = play_tournaments([match], [where], progress=progress, pool=pool)
            result = replace(result, confirmation=games_played)
    return result


def projected_seconds(game: str, player: str, against: str, playouts: int, games: int) -> float:
    """CPU-seconds of one core that ``games`` games are projected to take: the mean CPU time
    of two probe games played here (colours swapped; the tuned parameter at the player's
    default, the spec without it), timed after a search of a few playouts has loaded the
    kernels (compiling them on a cold cache), times ``games``. With W workers the wall time
    is about this / W, plus the workers' start at each round. The constants tried change the
    games' lengths, so it is rough (the benchmark compares it with a run)."""
    tuned = tuned_parameter(player, game)
    state_game = load_game(game)
    players = (parse_player(tuned.player(None), game), parse_player(against, game))
    for probe in players:
        probe.search(state_game, state_game.new_initial_state(), 2, 0)
    start = time.process_time()
    for seat in (0, 1):
        play_game(state_game, players if seat == 0 else players[::-1], playouts,
                  np.random.default_rng(seat))
    return games * (time.process_time() - start) / 2

