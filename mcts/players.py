"""Player specs: strings such as ``uct``, ``uct+qb``, ``uct(c=0.8)+rb(k=8)+qb(k=2,a=online)``,
``thompson+qb``, ``klucb``, ``ucbv(zeta=2)+mast``, ``uct+quality``, parsed into a
``GameSearchConfig`` for one game.

Grammar: ``part ("+" part)*`` with ``part = name ["(" key=value ("," key=value)* ")"]``; the first
part is the selection policy, the others enhancements, each at most once:

| part | meaning | parameters (default) |
|---|---|---|
| ``ucb1``, alias ``uct`` | UCT, mean + C sqrt(ln t / T_i) on the rewards | c (the game's C) |
| any other policy | its index (``mctslab policies list``) on rewards in [0, 1] | the registry's |
|  | every policy also takes ``root``: ``sh`` or ``gumbel(m=..)`` above it at the root | none |
| ``package.module:object`` | a plug-in policy (docs/extending.md), likewise | its record's |
|  | (declaring ``raw_rewards``: on the rewards as UCT, c the game's C) | |
| ``rb`` | Relative Bonus (seed 000 Eq. 6) | k (the game's k_RB), a (0.25 or ``online``) |
| ``qb`` | Qualitative Bonus (seed 000 Eq. 8) | k (the game's k_QB), a (0.25 or ``online``) |
| ``quality`` | reward = terminal quality alone (seed 000 Table 4) | none |
| ``mast`` | MAST epsilon-greedy playouts | eps (the game's, else 0.1) |
| ``random`` | uniformly random playouts (no decisive moves, no MAST) | none |

Without ``mast`` or ``random`` a player uses the game's playout policy (``mcts.games.presets``).
``uct(root=sh)+qb`` puts sequential halving at the root (H-MCTS), ``uct(root=gumbel(m=8))``
the Gumbel root (``mcts.core.root_policies``; the same spelling as ``mctslab compare``'s entries).
OpenSpiel games (``openspiel:NAME``) take the selection policy only (``mcts.generic``).
The spec is read by ``specs.parse_spec`` and every value is checked against its domain (the
policy registry's, ``mcts.synthetic.shaping.BONUS_DOMAINS``, eps in [0, 1]); anything else is a
``ValueError`` of one line naming the part or parameter and what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from bandits import POLICIES, get_policy, make_policy
from games import Game
from games.openspiel import PREFIX
from specs import Part, between, check_value, check_values, parse_spec, parse_value

from .core.options import check_exclusions
from .core.reward_scale import reads_raw_rewards
from .core.root_specs import budget_problem, parse_root
from .games.engine import GameSearchConfig, SearchResult, search
from .games.playouts import MAST, UNIFORM
from .games.presets import preset
from .generic import GenericResult, check_config, generic_search
from .synthetic.shaping import BONUS_DOMAINS

_ALIASES = {"uct": "ucb1"}  # the seed's name for UCB1 in trees
_ENHANCEMENTS = {"rb": ("k", "a"), "qb": ("k", "a"), "quality": (), "mast": ("eps",),
                 "random": ()}
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

    def check_playouts(self, game, playouts: int) -> None:
        """A one-line ValueError if ``playouts`` per move leave the player's root policy no
        full round at the game's first position (``mcts.core.root_specs.minimum_budget``)."""
        moves = len(game.new_initial_state().legal_actions())
        problem = budget_problem(self.config.root, moves, playouts)
        if problem:
            raise ValueError(f"--playouts {playouts} is too small for {self.spec}: in "
                             f"{game.title}'s first position, {problem}")


def parse_player(spec: str, game: str) -> Player:
    """The player ``spec`` describes in the game named ``game`` (whose presets fill defaults)."""
    policies = _policy_parameters()
    if not "".join(str(spec).split()):
        raise ValueError(f"player spec {spec!r} must start with a selection policy: "
                         f"one of {', '.join(policies)} (e.g. uct+qb)")
    parsed = parse_spec(spec, "player spec")
    if ":" in parsed[0].name:
        policies[parsed[0].name] = get_policy(parsed[0].name).parameters
    parts = [_parse_part(part, spec, policies) for part in parsed]
    if parts[0][0] not in policies:
        raise ValueError(f"player spec {spec!r} must start with a selection policy: "
                         f"one of {', '.join(policies)} (e.g. uct+qb)")
    names = [name for name, _ in parts]
    for name in set(names):
        if names.count(name) > 1:
            raise ValueError(f"player spec {spec!r} names {name!r} twice; give each part once")
    if sum(name in policies for name in names) > 1:
        raise ValueError(f"player spec {spec!r} names two selection policies; keep one")
    check_exclusions(names, repr, f"player spec {spec!r}: ")
    config = _config(parts[0], dict(parts[1:]), game)
    if game.startswith(PREFIX):
        check_config(config)
    return Player("".join(spec.split()), config)


def _policy_parameters() -> dict[str, tuple[str, ...]]:
    """The selection policies a spec may start with (the registry's and the aliases) and the
    parameters each takes."""
    names = {**{name: name for name in POLICIES}, **_ALIASES}
    return {name: POLICIES[target].parameters for name, target in names.items()}


def _parse_part(part: Part, spec: str, policies: dict[str, tuple[str, ...]]
                ) -> tuple[str, dict[str, int | float | str]]:
    """(name, parameters as values) of one part; the values are checked by ``_config``."""
    parameters = {**policies, **_ENHANCEMENTS}
    if part.name not in parameters:
        raise ValueError(f"unknown part {part.name!r} in player spec {spec!r}; "
                         f"known parts: {', '.join(parameters)}")
    allowed = parameters[part.name] + (("root",) if part.name in policies else ())
    bad = part.args[:1] or [f"{key}={value}" for key, value in part.kwargs if key not in allowed]
    if bad:
        takes = (f"takes {', '.join(allowed)} (as key=value)" if allowed
                 else "takes no parameters")
        raise ValueError(f"bad parameter {bad[0]!r} of {part.name!r} in player spec {spec!r}; "
                         f"{part.name} {takes}")
    return part.name, {key: parse_value(value) for key, value in part.kwargs}


def _policy(name: str, params: dict, game: str) -> NamedTuple:
    """The record of the selection policy ``name`` with the spec's parameters (checked by the
    registry's domains); the c of a policy reading raw rewards (its record's ``raw_rewards``:
    UCB1, UCT's C) defaults to the game's C."""
    name = _ALIASES.get(name, name)
    values = dict(params)
    if values.get("depth_exponent") not in (None, 0, "off"):
        raise ValueError(f"{name}'s depth_exponent is for synthetic trees, whose length D is "
                         "known: a game's engine does not read it; drop it")
    values.pop("root", None)  # the root policy's (``_root``)
    info = get_policy(name)
    if reads_raw_rewards(info.record) and "c" in info.parameters:
        values.setdefault("c", preset(game).c)
    return make_policy(name, **values)


def _root(name: str, params: dict) -> NamedTuple:
    """The root policy of the policy part's ``root=`` (``mcts.core.root_policies``; none: the
    policy at the root too)."""
    spec = params.get("root", "")
    if not isinstance(spec, str):
        raise ValueError(f"{name}'s root={spec} is not a root policy: use root=sh or "
                         "root=gumbel(m=16,c_visit=50,c_scale=1)")
    return parse_root(spec)


def _config(policy: tuple[str, dict], parts: dict[str, dict], game: str) -> GameSearchConfig:
    defaults = preset(game)
    config = GameSearchConfig(policy=_policy(*policy, game), playout=defaults.playout,
                              epsilon=defaults.epsilon, root=_root(*policy))
    for bonus, k_default in (("rb", defaults.rb_k), ("qb", defaults.qb_k)):
        if bonus in parts:
            values = check_values(bonus, {"k": k_default, "a": 0.25, **parts[bonus]},
                                  BONUS_DOMAINS)
            config = config._replace(**{f"{bonus}_k": float(values["k"]),
                                        f"{bonus}_a": float(values["a"])})
    if "quality" in parts:
        config = config._replace(quality=True)
    if "random" in parts:
        config = config._replace(playout=UNIFORM)
    if "mast" in parts:
        fallback = defaults.epsilon if defaults.playout == MAST else _MAST_EPSILON
        eps = check_value("mast", "eps", parts["mast"].get("eps", fallback), between(0, 1))
        config = config._replace(playout=MAST, epsilon=float(eps))
    return config
