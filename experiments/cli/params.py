"""Values from the command line: ``NAME=VALUE`` parameters (``--policy-param c=0.5``) and the
types of numeric options, both read by ``specs`` and checked against a ``specs.Domain``, so a
bad value is one line naming the option."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from specs import Domain, above, at_least, parse_assignments, parse_value


def parse_params(items: list[str], option: str) -> dict:
    """{'c': 0.5} from ['c=0.5']; a malformed item, or a name given twice, is a one-line
    ValueError naming it. Values are numbers where they read as numbers (else text, which
    the registry's domain check refuses or reads, e.g. ``online``)."""
    return parse_assignments(items, option)


def option_type(domain: Domain) -> Callable[[str], int | float]:
    """An argparse ``type``: the option's text as a value of ``domain``; argparse names the
    option in its one-line error (``argument --seed: -1 must be an integer >= 0``)."""
    def read(text: str):
        value = domain.convert(parse_value(text))
        if value is None:
            raise argparse.ArgumentTypeError(f"{text} must be {domain.describe()}")
        return value

    read.__name__ = domain.describe()
    return read


SEED = option_type(at_least(0, "integer"))  # seeds of trees, runs and games
COUNT = option_type(at_least(1, "integer"))  # runs, trees, workers, budgets, sizes
PLIES = option_type(at_least(0, "integer"))  # perft's depth
PROBABILITY = option_type(Domain(low=0, high=1, low_open=True, high_open=True))
POSITIVE = option_type(above(0))


def check_figure_path(path: str | None, option: str = "--plot") -> None:
    """A one-line ValueError unless ``path`` names a figure file: not a folder, and with a
    suffix matplotlib writes (so nothing is reported as written that was not)."""
    if path is None:
        return
    from pathlib import Path

    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(path)
    if target.is_dir() or path.endswith(("/", "\\")):
        raise ValueError(f"{option} {path} is a folder: give a file name, e.g. "
                         f"{option} {target / 'figure.png'}")
    suffixes = FigureCanvasBase.get_supported_filetypes()
    if target.suffix.lstrip(".").lower() not in suffixes:
        raise ValueError(f"{option} {path}: use a figure file name ending in .png, .pdf or "
                         ".svg")


def parse_sprt(text: str) -> tuple[float, float]:
    """``elo0,elo1`` as two numbers (argparse type of ``--sprt``)."""
    parts = text.split(",")
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 2 or not all(map(math.isfinite, values)) or values[0] >= values[1]:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be two finite Elo differences ELO0,ELO1 with ELO0 < ELO1, e.g. 0,20")
    return values


def trust_option(parser) -> None:
    """``--trust-plugins``: a command that reads stored results imports the plug-ins they name
    only when the user says so (``bandits.plugins.reading_stored_results``)."""
    parser.add_argument("--trust-plugins", action="store_true",
                        help="import the plug-in modules the stored files name (they run as "
                             "code: only for results you trust); by default reading imports "
                             "none, and a plug-in the files do not record is refused")


def rule_options(parser, whose: str) -> None:
    """``--reward``, ``--final-move``, ``--failure`` and ``--no-solver``: ``whose`` rules of the
    search, as failure-rate's; None when not given (the command's defaults: seed 001's)."""
    from mcts.core.final_move import FINAL_MOVES
    from mcts.synthetic import FAILURES

    parser.add_argument("--reward", metavar="RULE",
                        help=f"{whose} playout reward: outcome (default), linear, sum (ucb1 "
                             "only) or package.module:object (as failure-rate's --reward)")
    parser.add_argument("--final-move", choices=tuple(FINAL_MOVES),
                        help=f"{whose} move played: visits (default), mean, robust or minimax")
    parser.add_argument("--failure", choices=FAILURES,
                        help=f"{whose} failure: a move outside the optimal outcome's moves "
                             "(outcome, default) or the best minimax score's (score)")
    parser.add_argument("--no-solver", action="store_true", default=None,
                        help=f"{whose} search without the MCTS-Solver (Kocsis & Szepesvari's "
                             "UCT), as failure-rate's --no-solver")


def budgets_item(text: str) -> list[int]:
    """An argparse ``type`` for one item of ``--budgets``: ``T`` (a count), or ``LOW..HIGH``,
    the powers of two from LOW to HIGH (``1..16384``: 1, 2, 4, ..., 16384); else a one-line
    error giving the forms. The items of a list are joined by ``Budgets``."""
    if ".." not in text:
        return [COUNT(text)]
    low, _, high = (part.strip() for part in text.partition(".."))
    try:
        ends = [COUNT(low), COUNT(high)]
    except argparse.ArgumentTypeError:
        ends = []
    if len(ends) < 2 or any(end & (end - 1) for end in ends) or ends[0] > ends[1]:
        raise argparse.ArgumentTypeError(
            f"{text} is no range of budgets: write LOW..HIGH, two powers of two, the smaller "
            "first (e.g. 1..16384: every power of two between), or the budgets themselves")
    return [1 << k for k in range(ends[0].bit_length() - 1, ends[1].bit_length())]


class Budgets(argparse.Action):
    """``--budgets`` with ``nargs="+"`` and ``type=budgets_item``: the items' budgets in one
    list."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, [budget for item in values for budget in item])
