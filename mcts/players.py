"""Player specs: strings such as ``uct``, ``uct+qb``, ``uct(c=0.8)+rb(k=8)+qb(k=2,a=online)``,
``thompson+qb``, ``klucb``, ``ucbv(zeta=2)+mast``, ``uct+quality``, parsed into a
``GameSearchConfig`` for one game.

Grammar: ``part ("+" part)*`` with ``part = name ["(" key=value ("," key=value)* ")"]``; the first
part is the selection policy, the others enhancements, each at most once:

| part | meaning | parameters (default) |
|---|---|---|
| ``ucb1``, alias ``uct`` | UCT, mean + C sqrt(ln t / T_i) on the rewards | c (the game's C) |
| any other policy | its index (``mctslab policies list``) on rewards in [0, 1] | the registry's |
| ``package.module:object`` | a plug-in policy (docs/extending.md), likewise | its record's |
|  | (declaring ``raw_rewards``: on the rewards as UCT, c the game's C) | |
| ``rb`` | Relative Bonus (seed 000 Eq. 6) | k (the game's k_RB), a (0.25 or ``online``) |
| ``qb`` | Qualitative Bonus (seed 000 Eq. 8) | k (the game's k_QB), a (0.25 or ``online``) |
| ``quality`` | reward = terminal quality alone (seed 000 Table 4) | none |
| ``mast`` | MAST epsilon-greedy playouts | eps (the game's, else 0.1) |
| ``random`` | uniformly random playouts (no decisive moves, no MAST) | none |

Without ``mast`` or ``random`` a player uses the game's playout policy (``mcts.presets``).
OpenSpiel games (``openspiel:NAME``) take the selection policy only (``mcts.generic``).
Anything else is a ``ValueError`` of one line naming the part or parameter and what is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from bandits import POLICIES, get_policy, make_policy
from games import Game
from games.openspiel import PREFIX

from .games import GameSearchConfig, SearchResult, search
from .generic import GenericResult, check_config, generic_search
from .playouts import MAST, UNIFORM
from .presets import preset
from .rewards import ONLINE

_ALIASES = {"uct": "ucb1"}  # the seed's name for UCB1 in trees
_ENHANCEMENTS = {"rb": ("k", "a"), "qb": ("k", "a"), "quality": (), "mast": ("eps",),
                 "random": ()}
# a part's name: a registry name, or a plug-in policy package.module:object (docs/extending.md)
_PART = re.compile(r"([A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?)(?:\((.*)\))?")
_MAST_EPSILON = 0.1  # for games whose preset has no MAST


@dataclass(frozen=True)
class Player:
    """An MCTS player: its spec as written and the search configuration it stands for."""

    spec: str
    config: GameSearchConfig

    def search(self, game, state, playouts: int, seed: int) -> SearchResult | GenericResult:
        """The compiled engine (``mcts.games``) for our games, ``mcts.generic`` for others."""
        if isinstance(game, Game):
            return search(game, state, playouts, self.config, seed)
        return generic_search(game, state, playouts, self.config, np.random.default_rng(seed))


def parse_player(spec: str, game: str) -> Player:
    """The player ``spec`` describes in the game named ``game`` (whose presets fill defaults)."""
    text = "".join(spec.split())
    policies = _policy_parameters()
    first = text.split("+")[0].partition("(")[0]
    if ":" in first:
        policies[first] = get_policy(first).parameters
    parts = [_parse_part(part, spec, policies) for part in text.split("+")] if text else []
    if not parts or parts[0][0] not in policies:
        raise ValueError(f"player spec {spec!r} must start with a selection policy: "
                         f"one of {', '.join(policies)} (e.g. uct+qb)")
    names = [name for name, _ in parts]
    for name in set(names):
        if names.count(name) > 1:
            raise ValueError(f"player spec {spec!r} names {name!r} twice; give each part once")
    if sum(name in policies for name in names) > 1:
        raise ValueError(f"player spec {spec!r} names two selection policies; keep one")
    for a, b in (("quality", "rb"), ("quality", "qb"), ("mast", "random")):
        if a in names and b in names:
            raise ValueError(f"player spec {spec!r} combines {a!r} and {b!r}, which exclude each "
                             f"other; drop one")
    config = _config(parts[0], dict(parts[1:]), game)
    if game.startswith(PREFIX):
        check_config(config)
    return Player(text, config)


def _policy_parameters() -> dict[str, tuple[str, ...]]:
    """The selection policies a spec may start with (the registry's and the aliases) and the
    parameters each takes."""
    names = {**{name: name for name in POLICIES}, **_ALIASES}
    return {name: POLICIES[target].parameters for name, target in names.items()}


def _parse_part(part: str, spec: str, policies: dict[str, tuple[str, ...]]
                ) -> tuple[str, dict[str, str]]:
    match = _PART.fullmatch(part)
    name = part.partition("(")[0]
    parameters = {**policies, **_ENHANCEMENTS}
    if name not in parameters:
        raise ValueError(f"unknown part {name!r} in player spec {spec!r}; "
                         f"known parts: {', '.join(parameters)}")
    if match is None:
        raise ValueError(f"cannot read {part!r} in player spec {spec!r}; write parameters as "
                         f"{name}(key=value,...)")
    params = {}
    for item in filter(None, (match.group(2) or "").split(",")):
        key, sep, value = item.partition("=")
        if key not in parameters[name] or not sep:
            allowed = (f"takes {', '.join(parameters[name])} (as key=value)"
                       if parameters[name] else "takes no parameters")
            raise ValueError(f"bad parameter {item!r} of {name!r} in player spec {spec!r}; "
                             f"{name} {allowed}")
        params[key] = value
    return name, params


def _number(name: str, key: str, value: str, low: float, high: float = float("inf"),
            positive: bool = False) -> float:
    """``value`` as a number in [low, high] (and > 0 if ``positive``); ``ValueError`` else."""
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not low <= number <= high or (positive and number <= 0):
        span = ("> 0" if positive else f">= {low:g}") if high == float("inf") \
            else f"in [{low:g}, {high:g}]"
        raise ValueError(f"bad parameter {key}={value} of {name!r}: {key} must be a number {span}"
                         + (" or online" if key == "a" else ""))
    return number


def _weight(name: str, value: str) -> float:
    if value == "online":
        return ONLINE
    return _number(name, "a", value, 0.0)


def _policy(name: str, params: dict[str, str], game: str) -> NamedTuple:
    """The record of the selection policy ``name`` with the spec's parameters, numbers >= 0;
    the c of a policy reading raw rewards (its record's ``raw_rewards``: UCB1, UCT's C)
    defaults to the game's C."""
    name = _ALIASES.get(name, name)
    values = {key: _number(name, key, value, 0.0) for key, value in params.items()}
    info = get_policy(name)
    if getattr(info.record, "raw_rewards", False) and "c" in info.parameters:
        values.setdefault("c", preset(game).c)
    return make_policy(name, **values)


def _config(policy: tuple[str, dict[str, str]], parts: dict[str, dict[str, str]],
            game: str) -> GameSearchConfig:
    defaults = preset(game)
    config = GameSearchConfig(policy=_policy(*policy, game), playout=defaults.playout,
                              epsilon=defaults.epsilon)
    for bonus, k_default in (("rb", defaults.rb_k), ("qb", defaults.qb_k)):
        if bonus in parts:
            params = parts[bonus]
            k = _number(bonus, "k", params.get("k", str(k_default)), 0.0, positive=True)
            config = config._replace(**{f"{bonus}_k": k,
                                        f"{bonus}_a": _weight(bonus, params.get("a", "0.25"))})
    if "quality" in parts:
        config = config._replace(quality=True)
    if "random" in parts:
        config = config._replace(playout=UNIFORM)
    if "mast" in parts:
        fallback = defaults.epsilon if defaults.playout == MAST else _MAST_EPSILON
        eps = _number("mast", "eps", parts["mast"].get("eps", str(fallback)), 0.0, 1.0)
        config = config._replace(playout=MAST, epsilon=eps)
    return config
