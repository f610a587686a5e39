"""The parameter a game tuning tunes (``experiments.tuning.games``): the one a player spec
marks with ``?`` (``uct(c=?)+qb``, ``uct+qb(k=?)``), its domain, the range tried when none is
given, and the reference player's value of it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bandits import POLICIES, get_policy
from mcts.games.playouts import MAST
from mcts.players import parse_player
from mcts.synthetic.shaping import BONUS_DOMAINS
from specs import Domain, between, parse_spec

# The range tried when no --param is given, by (policy or enhancement, parameter): wide
# around the values the games' presets use (UCT's C 0.4-1.0, k_RB 1.0-8.0, k_QB 1.6-4.0, MAST's
# epsilon 0.1-0.3; DESIGN.md section 9), so the optimum is inside rather than at an edge; a
# policy's from its registry row (``bandits.PolicyInfo.game_ranges``)
RANGES = {**{(name, key): span for name, info in POLICIES.items()
             for key, span in info.game_ranges.items()},
          ("rb", "k"): (0.5, 32.0), ("qb", "k"): (0.5, 32.0), ("mast", "eps"): (0.01, 0.5)}
_ALIASES = {"uct": "ucb1"}  # as player specs spell UCB1


@dataclass(frozen=True)
class Tuned:
    """The parameter a player spec marks with ``?``: the spec without blanks, the part that
    holds it (``uct``, ``qb``), its name and its domain."""

    spec: str
    part: str
    name: str
    domain: Domain

    def player(self, value: float | None) -> str:
        """The spec with ``value`` for the ``?`` (written exactly), or without the parameter
        (None: the player's default)."""
        if value is None:
            return _without(self.spec, self.name)
        return self.spec.replace("?", repr(float(value)))


def _without(spec: str, name: str) -> str:
    """``spec`` (no blanks) without its argument ``name=?``: ``uct(c=?)`` -> ``uct``."""
    key = re.escape(name)
    return re.sub(rf",{key}=\?(?=[,)])|(?<=\(){key}=\?,|\({key}=\?\)", "", spec)


def _tunable(name: str, first: bool) -> dict[str, Domain]:
    """The number parameters of a spec's part: a policy's (the first part) from its registry,
    the bonuses' and MAST's epsilon."""
    if first:
        domains = get_policy(_ALIASES.get(name, name)).domains
    else:
        domains = {"rb": BONUS_DOMAINS, "qb": BONUS_DOMAINS,
                   "mast": {"eps": between(0, 1)}}.get(name, {})
    return {key: domain for key, domain in domains.items() if domain.kind == "number"}


def tuned_parameter(player: str, game: str) -> Tuned:
    """The parameter ``player`` marks with its one ``?``; a one-line ValueError naming the
    problem and the fix when there is none, more than one, or one on a parameter its part does
    not have (or that is no number), and any error of the spec itself (``parse_player``)."""
    spec = "".join(str(player).split())
    marks = spec.count("?")
    if marks != 1:
        problem = "has no '?'" if marks == 0 else f"has {marks} '?'"
        raise ValueError(f"--player {player!r} {problem}: mark the one parameter to tune with "
                         "?, e.g. uct(c=?) or uct(c=0.8)+qb(k=?)")
    parts = parse_spec(spec, "player spec")
    found = [(i, part.name, key) for i, part in enumerate(parts)
             for key, value in part.kwargs if value == "?"]
    if not found:
        raise ValueError(f"--player {player!r}: the '?' must be a parameter's whole value, "
                         "e.g. uct(c=?)")
    index, part, name = found[0]
    parse_player(_without(spec, name), game)  # the rest of the spec, with parse_player's errors
    domains = _tunable(part, index == 0)
    if name not in domains:
        known = ", ".join(domains)
        fix = (f"mark one of {known}, e.g. {part}({next(iter(domains))}=?)" if domains else
               "mark a parameter of another part, e.g. uct(c=?)")
        raise ValueError(f"--player {player!r}: {part} has no number parameter {name!r} to "
                         f"tune; {fix}")
    return Tuned(spec, part, name, domains[name])


def default_range(tuned: Tuned) -> tuple[float, float]:
    """``RANGES``' range of the tuned parameter; a one-line ValueError when it has none."""
    part = _ALIASES.get(tuned.part, tuned.part)
    if (part, tuned.name) not in RANGES:
        raise ValueError(f"{tuned.part}'s {tuned.name} has no default range: give one, "
                         f"--param {tuned.name}=LOW..HIGH[:log]")
    return RANGES[part, tuned.name]


def check_range(tuned: Tuned, low: float, high: float, log: bool) -> None:
    written = f"{tuned.name}={low:g}..{high:g}{':log' if log else ''}"
    for bound, value in (("LOW", low), ("HIGH", high)):
        if not (math.isfinite(value) and tuned.domain.admits(value)):
            raise ValueError(f"{written}: {bound} {value:g} is outside {tuned.part}'s "
                             f"{tuned.name} ({tuned.domain.describe()}): narrow the range")
    if not low < high:
        raise ValueError(f"{written} is an empty range: give LOW < HIGH, e.g. "
                         f"{tuned.name}={low:g}..{max(2 * low, low + 1):g}")
    if log and low <= 0:
        raise ValueError(f"{written}: a log scale needs LOW > 0 (or drop :log)")


def reference_value(tuned: Tuned, against: str, game: str) -> float | None:
    """The value the reference player ``against`` gives the tuned parameter in ``game``: its
    spec's, else the game's preset (``mcts.games.presets``: UCT's C, k_RB, k_QB, MAST's
    epsilon), else the part's default; None when the reference has no such part (a bonus it
    does not use, another selection policy)."""
    config = parse_player(against, game).config
    part = _ALIASES.get(tuned.part, tuned.part)
    if part in ("rb", "qb"):
        return float(getattr(config, f"{part}_{tuned.name}")) if getattr(
            config, f"{part}_k") > 0 else None
    if part == "mast":
        return float(config.epsilon) if config.playout == MAST else None
    if isinstance(config.policy, get_policy(part).record):
        return float(getattr(config.policy, tuned.name))
    return None
