"""What a game tuning reports (``experiments.tuning.games``): ``report.md``'s lines, the
lines ``mctslab tune GAME`` prints, and the confirmation match in words; Elo from an expected
score, 400 log10(p / (1 - p))."""

from __future__ import annotations

import math


def report_lines(tuning) -> list[str]:
    """``report.md`` of a ``games.GameTuning``: the results, the rounds and how they were
    computed."""
    t, name = tuning, tuning.parameter
    low, high = t.interval
    elo_low, elo_high = t.elo_interval
    rate_low, rate_high = t.win_rate_interval
    reference = t.reference()
    lines = [f"# {name} of {t.player} tuned against {t.against} in {t.game}", "",
             (f"{t.games:,} games at {t.playouts:,} playouts a move, seed {t.seed}, in "
              f"{len(t.fits)} rounds; {name} tried in {t.low:g}-{t.high:g} on a "
              f"{'log' if t.log else 'linear'} scale."), "",
             "| result | value |", "|---|---|"]
    if t.resolved:
        lines += [f"| chosen {name} | {t.chosen:.3g} (`{t.chosen_player()}`) |",
                  f"| {name} not shown worse | {low:.3g}-{high:.3g} |",
                  (f"| win rate at the chosen {name} (fit) | {t.win_rate:.3f} (95% "
                   f"{rate_low:.3f}-{rate_high:.3f}) |"),
                  (f"| Elo against {t.against} (fit) | {t.elo:+.0f} (95% {elo_low:+.0f} to "
                   f"{elo_high:+.0f}) |")]
    else:
        lines += [f"| chosen {name} | none: not resolved |",
                  f"| {name} not shown worse | {low:.3g}-{high:.3g}, the whole range |"]
    lines += [f"| the reference's {name} | "
              + (f"{reference:.3g} (`{t.against}` in {t.game}) |" if reference is not None
                 else f"none (`{t.against}` has no {name}) |"),
              f"| mean score of all games | {t.table['score'].mean():.3f} |"]
    confirmed = t.confirmed()
    if confirmed is not None:
        lines.append(f"| confirmation, {confirmed['games']:,} fresh games at the chosen {name} | "
                     f"{confirmation_text(confirmed)} |")
    lines.append("")
    if not t.resolved:
        lines += [f"The tuning is {t.unresolved_text()}.", ""]
    if t.at_edge:
        lines += [(f"The chosen {name} is an end of the range tried: the optimum may lie "
                   "beyond it; tune again over a wider range."), ""]
    lines += ["| round | region sampled | games | mean score | games fitted | region left |",
              "|---|---|---|---|---|---|"]
    lines += [f"| {row.round} | {row.low:.3g}-{row.high:.3g} | {row.games} | {row.score:.3f} | "
              f"{row.fitted_games} | {row.next_low:.3g}-{row.next_high:.3g} |"
              for row in t.rounds().itertuples()]
    confirm = (CONFIRMED if confirmed is not None else
               "No confirmation games were played: `--confirm N` plays them." if t.resolved
               else "No confirmation games were played: nothing was chosen.")
    return lines + ["", METHOD, confirm, "", f"![win rate against {name}](game_tuning.png)"]


def result_lines(tuning) -> list[str]:
    """A ``games.GameTuning``'s results in a few lines, as ``mctslab tune GAME`` prints them:
    the chosen value and the interval not shown worse, the fit's Elo, the confirmation match
    (or how to play one) and a chosen value at an end of the range."""
    t = tuning
    if not t.resolved:
        return [t.unresolved_text()]
    low, high = t.interval
    elo_low, elo_high = t.elo_interval
    lines = [(f"chosen: {t.parameter} = {t.chosen:.3g} ({t.chosen_player()}); not shown "
              f"worse: {low:.3g}..{high:.3g}"),
             (f"Elo against {t.against} at the chosen value (from the fit): {t.elo:+.0f} (95% "
              f"{elo_low:+.0f} to {elo_high:+.0f}) over {t.games:,} games")]
    confirmed = t.confirmed()
    lines.append(f"(the fit's Elo is biased upward by the choice: --confirm N plays N fresh "
                 f"games of {t.chosen_player()})" if confirmed is None else
                 f"confirmed over {confirmed['games']:,} fresh games: "
                 f"{confirmation_text(confirmed)}")
    if t.at_edge:
        lines.append(f"{t.parameter} = {t.chosen:.3g} is an end of the range: the best may lie "
                     "beyond it; widen the range")
    return lines


def confirmation_text(confirmed: dict) -> str:
    """The confirmation match's win rate and Elo with their 95% intervals, in words."""
    low, high = confirmed["ci95"]
    elo_low, elo_high = confirmed["elo_interval"]
    return (f"win rate {confirmed['win_rate_a']:.3f} (95% {low:.3f}-{high:.3f}), Elo "
            f"{_signed(confirmed['elo'])} ({_signed(elo_low)} to {_signed(elo_high)})")


def _signed(elo: float | None) -> str:
    return "unbounded" if elo is None else f"{elo:+.0f}"


def elo_of(score: float) -> float | None:
    """400 log10(p / (1 - p)): the Elo difference of an expected score p; None at 0 or 1."""
    return 400.0 * math.log10(score / (1.0 - score)) if 0.0 < score < 1.0 else None


METHOD = ("Method: a CLOP-like regression (Coulom 2011). Each round plays pairs of games, colours "
          "swapped, at constants stratified over its region; the outcomes (win 1, draw 1/2, "
          "loss 0) of the games in the region are fitted by a logistic regression on the "
          "parameter's scale and its square, with three virtual draws as a weak prior. A "
          "constant is shown worse when the fitted maximum's lead over it exceeds 2.45 "
          "standard errors (Scheffe's simultaneous 95% bound); the next region keeps the "
          "constants not shown worse, and at least half of the region. The chosen constant "
          "maximises the lower 95% bound of the last fit among the constants not shown worse. "
          "Win rate and Elo are that fit's at the chosen constant, with delta-method 95% "
          "intervals; a constant chosen for its high fit is biased upward.")
CONFIRMED = ("The confirmation match is not biased so: fresh games of the chosen player against "
             "the reference, colours alternating, seeds apart from the tuning's; its win rate "
             "has a Wilson 95% interval.")
