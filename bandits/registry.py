"""The registry of selection policies: one record per name, read by the CLI, study files,
the engines' parameter checks and the figure labels (``mctslab policies list``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit, typeof

from specs import NUMBER, Domain, above, at_least, between, check_values

from .gumbel_muzero import GumbelMuZero
from .hooks import SIGNATURES, PolicyHooks, check_hooks
from .plugins import Policy, load_plugin, plugin_domains, recorded_plugin, settable_parameters
from .policies import (
    KLUCB,
    MOSS,
    PUCT,
    UCB1,
    UCBV,
    Arm,
    BayesUCB,
    EpsilonGreedy,
    Thompson,
    UCB1Tuned,
    policy_value,
    register_index,
)
from .rng import seed_state
from .tables import index_tables


@dataclass(frozen=True)
class PolicyInfo:
    """A policy's name, its typed parameter record (the compiled engines' dispatch key), the
    parameters a user may set, how to name and cite it, and each parameter's domain
    (``specs.Domain``; one not given is any finite number)."""

    name: str
    record: type[NamedTuple]
    parameters: tuple[str, ...]
    label: str
    description: str
    citation: str
    domains: Mapping[str, Domain] = field(default_factory=dict)
    later: Mapping[str, float] = field(default_factory=dict)  # added later: {name: default}
    # what the lab's commands need to know of it besides its index:
    # ``compare --tuned``'s constant: (name, low, high, on a log scale) (``experiments.tuning``)
    tuned: tuple[str, float, float, bool] | None = None
    # the range a game tuning tries per parameter without --param (``tuning.games``)
    game_ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    # ns per playout, single thread, for projections (``compare``'s core-hours; None: the
    # median of the built-ins')
    playout_ns: float | None = None

    @property
    def defaults(self) -> dict[str, float]:
        """The settable parameters and their default values."""
        return {key: self.record._field_defaults[key] for key in self.parameters}

    def stored(self, values: Mapping) -> dict:
        """``values`` as results store them: without the parameters added after results were
        first stored (``later``) at their defaults, so older stored results still match."""
        return {key: value for key, value in values.items()
                if not (key in self.later and value == self.later[key])}

    def domain(self, key: str) -> Domain:
        return self.domains.get(key, NUMBER)

    def check(self, values: Mapping) -> dict[str, float]:
        """``values`` checked against the parameters' domains (``specs.check_values``), as
        floats; a one-line ValueError names the parameter, its domain and the value."""
        checked = check_values(self.name, values, {key: self.domain(key)
                                                   for key in self.parameters})
        return {key: float(value) for key, value in checked.items()}

    def to_dict(self) -> dict:
        return {"name": self.name, "params": self.defaults, "description": self.description,
                "citation": self.citation,
                "domains": {key: self.domain(key).describe() for key in self.parameters}}


_QTRANSFORMS = Domain("integer", 0, 1, words=(("raw", 0.0), ("parent_and_siblings", 1.0)))
_DEPTH_EXPONENTS = Domain("integer", 0, 1, words=(("off", 0.0), ("kocsis", 1.0)))

# Each row says what the lab needs of a built-in: its parameters and their domains, the constant
# ``compare --tuned`` races over its range (log scale where the default lies inside a few
# decades, linear where 0 is a value it takes; Thompson, UCB1-Tuned and MOSS have none), the
# ranges a game tuning tries (wide around the values the games' presets use, DESIGN.md §9) and
# its cost per playout: ns on b = 4, d = 8 trees at 2^10 playouts, the median over the atlas's
# 13 trees and 3 adjusters of `benchmarks/bench_atlas.py --sample 4` (2026-11-24, under a load
# of about 4: ~1.7x the idle cost, so projections err high).
POLICIES: dict[str, PolicyInfo] = {
    info.name: info
    for info in (
        PolicyInfo("ucb1", UCB1, ("c", "depth_exponent"), "UCT (UCB1)",
                   "mean + c sqrt(ln t / T_i); unvisited children first; with "
                   "depth_exponent=kocsis the power (D+d)/(2D+d) for a node at depth d with "
                   "D plies of the game left instead of the square root (synthetic trees only)",
                   "Auer, Cesa-Bianchi & Fischer 2002; seed 001, Eq. 1; Kocsis & Szepesvari "
                   "2006 (P-game experiment)",
                   {"c": at_least(0), "depth_exponent": _DEPTH_EXPONENTS},
                   later={"depth_exponent": 0.0}, tuned=("c", 0.01, 10.0, True),
                   game_ranges={"c": (0.05, 5.0)}, playout_ns=321),
        PolicyInfo("klucb", KLUCB, ("c",), "KL-UCB",
                   "largest q with T_i kl(mean, q) <= ln t + c ln ln t (Bernoulli kl)",
                   "Cappe, Garivier, Maillard, Munos & Stoltz 2013; seed 001, Eq. 2",
                   {"c": at_least(0)}, tuned=("c", 0.0, 3.0, False), playout_ns=639),
        PolicyInfo("thompson", Thompson, (), "Thompson sampling",
                   "a draw from Beta(mean T_i + 1, (1 - mean) T_i + 1)",
                   "Thompson 1933; Chapelle & Li 2011; seed 001, Eq. 3", playout_ns=519),
        PolicyInfo("ucb1tuned", UCB1Tuned, (), "UCB1-Tuned",
                   "mean + sqrt(ln t / T_i min(1/4, V_i)), V_i = variance + sqrt(2 ln t / T_i)",
                   "Auer, Cesa-Bianchi & Fischer 2002, Sect. 4", playout_ns=254),
        PolicyInfo("ucbv", UCBV, ("zeta", "c"), "UCB-V",
                   "mean + sqrt(2 variance E / T_i) + 3 c E / T_i, E = zeta ln t",
                   "Audibert, Munos & Szepesvari 2009, Eq. 1",
                   {"zeta": above(0), "c": at_least(0)}, tuned=("c", 0.05, 5.0, True),
                   game_ranges={"c": (0.05, 5.0)}, playout_ns=207),
        PolicyInfo("moss", MOSS, (), "MOSS",
                   "mean + sqrt(max(ln(t / (K T_i)), 0) / T_i), horizon t = the parent's visits",
                   "Audibert & Bubeck 2009", playout_ns=290),
        PolicyInfo("puct", PUCT, ("c_init", "c_base", "qtransform"), "PUCT",
                   "Q + (1/K) sqrt(t) / (1 + T_i) (c_init + ln((t + c_base + 1) / c_base)); "
                   "Q = the mean (unvisited 1/2), or with qtransform=parent_and_siblings "
                   "(mctx's default) the mean rescaled onto [min, max] of the parent's value "
                   "and its visited children's means (unvisited 0)",
                   "Silver et al. 2018 (AlphaZero); mctx muzero_action_selection and "
                   "qtransform_by_parent_and_siblings",
                   {"c_init": at_least(0), "c_base": above(0), "qtransform": _QTRANSFORMS},
                   later={"qtransform": 0.0}, tuned=("c_init", 0.05, 5.0, True),
                   game_ranges={"c_init": (0.1, 10.0)}, playout_ns=230),
        PolicyInfo("egreedy", EpsilonGreedy, ("epsilon",), "epsilon-greedy",
                   "with probability epsilon a uniformly random child, else the best mean; "
                   "unvisited children first",
                   "Sutton & Barto 2018, Sect. 2.2; Auer, Cesa-Bianchi & Fischer 2002",
                   {"epsilon": between(0, 1)}, tuned=("epsilon", 0.01, 0.5, True),
                   game_ranges={"epsilon": (0.01, 0.5)}, playout_ns=157),
        PolicyInfo("bayesucb", BayesUCB, ("c",), "Bayes-UCB",
                   "the 1 - 1/(t (ln t)^c) quantile of Beta(mean T_i + 1, (1 - mean) T_i + 1)",
                   "Kaufmann, Cappe & Garivier 2012, Algorithm 1", {"c": at_least(0)},
                   tuned=("c", 0.0, 5.0, False), playout_ns=20_173),
    )
}

# Policies of a guided tree search only, not bandit indices (no index of one arm: they read
# every sibling, and their root policy): kept apart from POLICIES, which the plain bandits,
# the games' players and the atlas run through.
SEARCH_POLICIES = {
    info.name: info
    for info in (
        PolicyInfo("gumbel_muzero", GumbelMuZero, ("m", "c_visit", "c_scale", "gumbel_scale"),
                   "Gumbel MuZero",
                   "root: Gumbel-top-m then sequential halving on g + log pi + sigma(q-hat); "
                   "below: argmax of softmax(log pi + sigma(q-hat)) - N / (1 + sum N), q-hat "
                   "completed by the mixed value; sigma = (c_visit + max N) c_scale q-hat; "
                   "a guided search (--prior, --evaluate)",
                   "Danihelka, Guez, Schrittwieser & Silver 2022; mctx gumbel_muzero_policy",
                   {"m": between(1, 4096, "integer"), "c_visit": at_least(0),
                    "c_scale": at_least(0), "gumbel_scale": at_least(0)}),
    )
}


def get_policy(name: str) -> PolicyInfo:
    """The registered policy ``name``, or the plug-in ``package.module:object``
    (``bandits.plugins``); an unknown name is a one-line ValueError."""
    if ":" in name:
        return recorded_plugin("policy", name) or load_policy(name)
    if name in SEARCH_POLICIES:
        return SEARCH_POLICIES[name]
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}: use one of "
                         f"{', '.join([*POLICIES, *SEARCH_POLICIES])} "
                         "(see `mctslab policies list`)")
    return POLICIES[name]


def make_policy(name: str, /, **params) -> NamedTuple:
    """``make_policy("ucb1", c=0.5)``: the typed record of a registered policy or of a plug-in
    ``package.module:object``; unknown names or parameters are a one-line ValueError."""
    info = get_policy(name)
    return info.record(**info.check(params))


_LOADED: dict[str, PolicyInfo] = {}


def load_policy(spec: str) -> PolicyInfo:
    """The :class:`PolicyInfo` of the plug-in ``spec`` (``bandits.plugins``; loaded once a
    process); its record is compiled into the engines under the name ``spec``, with its hooks
    (``bandits.hooks``) checked."""
    if spec not in _LOADED:
        plugin, record, (index, *hooks) = load_plugin(
            spec, "policy", Policy, "bandits.Policy", "`mctslab policies list`",
            ("index", *SIGNATURES), optional=tuple(SIGNATURES))
        record.hooks = check_hooks(spec, PolicyHooks(plugin.cache_columns, *hooks))
        register_index(record, index)
        _compile_alone(record)
        parameters = settable_parameters(plugin, record)
        _LOADED[spec] = PolicyInfo(spec, record, parameters, plugin.label or plugin.name,
                                   plugin.description, plugin.citation,
                                   plugin_domains(spec, plugin, parameters))
    return _LOADED[spec]


@njit(cache=True)
def _first_index(policy, arm, tables, rng):
    return policy_value(policy, arm, tables, rng)


def _compile_alone(record: type) -> None:
    """Compile a plug-in's index alone for one arm when it loads (compiled, not run: a user's
    code never sees made-up statistics): a typing error in it (a misspelt attribute) is then
    numba's error about a second after loading, not after typing most of a search kernel
    (about ten seconds), and the commands' one line names it
    (``experiments.curves.plugin_check``). A record without defaults for every field is left
    to the kernel."""
    try:
        policy = record()
    except TypeError:
        return
    arguments = (policy, Arm(0.5, 0.25, np.int32(1), np.int64(2), np.int64(2), 0.5),
                 index_tables(2), seed_state(np.uint64(0)))
    _first_index.compile(tuple(typeof(argument) for argument in arguments))
