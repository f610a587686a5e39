"""Guidance of known quality for the search on a synthetic tree: a prior over a node's children
and a value of a node, each an oracle of the exact minimax (``trees.minimax``) blurred by a
noise of known scale, fixed per node like a network's error (OpenSpiel's ``Evaluator``:
``prior`` and ``evaluate``; AlphaZero, Silver et al. 2018; MuZero; Gumbel MuZero, Danihelka et
al. 2022).

With o(n) in {0, 1/2, 1} the max player's minimax outcome of game-tree node n against
threshold theta (DESIGN.md §2), and z(key, n, j) a standard normal fixed by the network's key,
the node and a slot (:func:`gaussian`, a counter-based hash: the same at every visit):

* prior ``oracle(tau, noise)``: child j of a node whose mover is m has the logit
      l_j = o_m(child j) / tau + noise z(key, node, j),
  o_m the outcome as the mover sees it (o for max, 1 - o for min) at theta = 0, the game's
  value; P = softmax(l). ``uniform``: every logit 0, P = 1/K (the lab's PUCT before guidance).
  A user's network (``package.module:object``, ``mcts.synthetic.networks.PriorNetwork``): P =
  softmax of its logits.
* evaluate ``value(sigma)``: max's value v(n) = clip(o(n) + sigma z(key, n, b), 0, 1) at the
  search's effective threshold (what a playout's reward is scored against), used instead of a
  playout; ``mix(lam, sigma)``: AlphaGo's (1 - lam) v(n) + lam r, r a random playout's reward
  (Silver et al. 2016, lam = 0.5); ``playout``: the playout alone; a user's network
  (``mcts.synthetic.networks.ValueNetwork``): its value v(n) instead of a playout. A terminal
  reached in the tree keeps its true outcome (DESIGN.md §3).

The network's key is the run's seed (each run draws its own network, so a curve averages over
networks of one quality) or, with ``network="instance"``, the tree instance's (one network per
instance). Guided search is mctx's ``search`` (the engine, ``mcts.synthetic.engine``): a leaf
visited before is expanded and its child chosen by the policy, not drawn uniformly, a node's
first evaluation is kept as its raw value and counts in its own value and visits. Every
option is read at run time: no kind or parameter value compiles a kernel of its own; the
engine's steps that read it are ``mcts.synthetic.guided_steps``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from specs import above, at_least, between, parse_kind
from trees.layout import level_start

from .networks import is_network, prior_table, value_table

UNIFORM, ORACLE, NETWORK = 0, 1, 2  # prior kinds
PLAYOUT, VALUE, MIX = 0, 1, 2  # evaluation kinds
PRIORS = {"uniform": UNIFORM, "oracle": ORACLE}
EVALUATIONS = {"playout": PLAYOUT, "value": VALUE, "mix": MIX}
NETWORKS = ("run", "instance")
_PRIOR_DEFAULTS = {"uniform": {}, "oracle": {"tau": 1.0, "noise": 0.0, "agreement": 0.0}}
_EVALUATE_DEFAULTS = {"playout": {}, "value": {"sigma": 0.0}, "mix": {"lam": 0.5, "sigma": 0.0}}
_DOMAINS = {"tau": above(0), "noise": at_least(0), "sigma": at_least(0), "lam": between(0, 1),
            "agreement": between(0, 1)}
_VALUE_SLOT_SALT = np.uint64(0x5851F42D4C957F2D)  # the value's stream apart from the prior's


class NoGuidance(NamedTuple):
    """The unguided search (``SearchConfig.guidance``'s default): seed 001's expansion and
    playouts, every guided step below compiled away, so its kernels are those before guidance,
    bit for bit and in compile time."""

    per_instance: bool = False


class Guidance(NamedTuple):
    """The guidance of one search, its kinds and parameters read at run time: one kernel per
    policy serves every prior and evaluation (a kernel apart from the unguided one)."""

    prior: int = UNIFORM
    tau: float = 1.0
    noise: float = 0.0
    evaluate: int = PLAYOUT
    sigma: float = 0.0
    lam: float = 0.0
    per_instance: bool = False  # one network per tree instance (else one per run)
    value_network: bool = False  # the value is a user's network's (``TreeArrays.values``)


def _parse(spec: str, defaults: dict, what: str, example: str) -> tuple[str, dict]:
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"{what} {spec!r} must be a spec such as {example}")
    name, values = parse_kind(spec, what, defaults, _DOMAINS,
                              f"{' or '.join(defaults)}, e.g. {example}")
    return name, {key: float(value) for key, value in values.items()}


def parse_prior(spec: str) -> tuple[str, dict]:
    """(kind, parameters) of ``uniform`` or ``oracle(tau=1,noise=0)``, or
    ``oracle(tau=1,agreement=0.7)``: the noise that gives the prior that top-1 agreement with
    an optimal move on the instance searched (``experiments.curves.guidance_quality``); a
    one-line ValueError (tau <= 0, noise < 0, both noise and agreement, an unknown kind or
    parameter) otherwise; ("network", {}) for a user's ``package.module:object`` (not imported
    here: ``mcts.synthetic.networks``)."""
    if is_network(spec):
        return "network", {}
    kind, values = _parse(spec, _PRIOR_DEFAULTS, "prior", "oracle(tau=1,noise=0.5)")
    if values.get("noise", 0.0) > 0 and values.get("agreement", 0.0) > 0:
        raise ValueError(f"prior {spec!r} gives both noise and agreement: give one (the "
                         "agreement sets the noise)")
    return kind, values


def parse_evaluate(spec: str) -> tuple[str, dict]:
    """(kind, parameters) of ``playout``, ``value(sigma=0)`` or ``mix(lam=0.5,sigma=0)``;
    one-line ValueError (sigma < 0, lam outside [0, 1], ...) otherwise; ("network", {}) for a
    user's ``package.module:object``."""
    if is_network(spec):
        return "network", {}
    return _parse(spec, _EVALUATE_DEFAULTS, "evaluation", "value(sigma=0.1)")


def _canonical(spec: str, kind: str, values: dict, defaults: dict) -> str:
    if kind == "network":
        return spec.strip()
    changed = [f"{key}={values[key]!r}" for key, default in defaults[kind].items()
               if values[key] != default]
    return f"{kind}({','.join(changed)})" if changed else kind


def prior_spec(spec: str) -> str:
    """The canonical spelling of a prior ("" for none given; parameters at their defaults
    left out)."""
    return _canonical(spec, *parse_prior(spec), _PRIOR_DEFAULTS) if spec else ""


def evaluate_spec(spec: str) -> str:
    """The canonical spelling of an evaluation, as :func:`prior_spec`."""
    return _canonical(spec, *parse_evaluate(spec), _EVALUATE_DEFAULTS) if spec else ""


def make_guidance(prior: str = "", evaluate: str = "", network: str = "run",
                  noise: float | None = None) -> Guidance | NoGuidance:
    """The engine's record of a prior spec, an evaluation spec and the network's key
    (``run`` or ``instance``); both specs empty: no guidance (the unguided engine). ``noise``
    replaces the prior's (an agreement's calibrated noise)."""
    if network not in NETWORKS:
        raise ValueError(f"network {network!r} is not one of {', '.join(NETWORKS)} (each run "
                         "draws its own network, or one per tree instance)")
    if not prior and not evaluate:
        return NoGuidance(network == "instance")
    prior_kind, prior_values = parse_prior(prior or "uniform")
    kind, values = parse_evaluate(evaluate or "playout")
    return Guidance(NETWORK if prior_kind == "network" else PRIORS[prior_kind],
                    prior_values.get("tau", 1.0),
                    prior_values.get("noise", 0.0) if noise is None else float(noise),
                    VALUE if kind == "network" else EVALUATIONS[kind], values.get("sigma", 0.0),
                    values.get("lam", 0.0), network == "instance", kind == "network")


# ---- the noise: a counter-based normal, the same at every visit of a node ----------------


@njit(inline="always")  # per noise draw (6 an evaluation): a few integer ops, dearer as a call
def _mix64(x):
    """splitmix64's finaliser (Steele, Lea & Flood 2014): a bijection of uint64 whose output
    bits each depend on every input bit."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def gaussian(key, node, slot):
    """A standard normal fixed by the network's ``key``, the game-tree ``node`` and a
    ``slot`` (a child's index, or b for the node's value): Box-Muller on two uniforms from
    splitmix64 hashes of the three."""
    base = _mix64(np.uint64(key) ^ _mix64(np.uint64(node) * np.uint64(0x9E3779B97F4A7C15)
                                          + np.uint64(slot)))
    first = _mix64(base + np.uint64(1))
    second = _mix64(base + np.uint64(2))
    u1 = ((first >> np.uint64(11)) + np.uint64(1)) * (1.0 / 9007199254740993.0)  # (0, 1]
    u2 = (second >> np.uint64(11)) * (1.0 / 9007199254740992.0)  # [0, 1)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


@njit(cache=True)
def network_key(guidance, instance_key, run_seed):
    """The key of the network a run uses: the tree instance's (``per_instance``) or the
    run's."""
    return _mix64(np.uint64(instance_key) if guidance.per_instance else np.uint64(run_seed))


@njit(inline="always")  # per evaluation: two comparisons, dearer as a call than inlined
def _outcome(score, theta):
    """The max player's outcome of a minimax ``score`` against ``theta`` (DESIGN.md §2)."""
    return 1.0 if score > theta else 0.5 if score == theta else 0.0


@njit(cache=True)
def child_priors(guidance, minimax, logits, node, depth, b, key, out, at):
    """P over the b children of game-tree ``node`` at ``depth`` into ``out[at:at + b]``
    (module docstring: softmax of the oracle's logits or of a user's network's, ``logits``
    [n_inner, b], or 1/b)."""
    if guidance.prior == UNIFORM:
        for j in range(b):
            out[at + j] = 1.0 / b
        return
    first, top = node * b + 1, -np.inf
    for j in range(b):
        out[at + j] = (logits[node, j] if guidance.prior == NETWORK
                       else _logit(guidance, minimax[first + j], depth, key, node, j))
        top = max(top, out[at + j])
    total = 0.0
    for j in range(b):
        out[at + j] = math.exp(out[at + j] - top)
        total += out[at + j]
    for j in range(b):
        out[at + j] /= total


@njit(inline="always")  # per child of an expansion, in child_priors' loop: a call costs more
def _logit(guidance, score, depth, key, node, j):
    """The oracle's logit of child j: the mover's outcome at theta = 0 over tau, plus noise."""
    outcome = _outcome(score, 0.0)
    mover = outcome if depth % 2 == 0 else 1.0 - outcome
    noise = guidance.noise * gaussian(key, node, j) if guidance.noise > 0 else 0.0
    return mover / guidance.tau + noise


@njit(cache=True)
def node_value(guidance, minimax, values, node, b, theta, key):
    """Max's value v(n) of game-tree ``node`` against ``theta`` (module docstring), the
    noise drawn in the node's slot b; a user's network's from its table ``values``."""
    if guidance.value_network:
        return values[node]
    value = _outcome(minimax[node], theta)
    if guidance.sigma > 0:
        value += guidance.sigma * gaussian(key ^ _VALUE_SLOT_SALT, node, b)
    return min(max(value, 0.0), 1.0)


# ---- the arrays a run used, per node in heap order ----------------------------------------


def _depths(branching: int, depth: int) -> np.ndarray:
    return np.repeat(np.arange(depth + 1),
                     [level_start(branching, d + 1) - level_start(branching, d)
                      for d in range(depth + 1)])


def prior_logits(instance, prior: str, key: int, noise: float | None = None,
                 rows: int | None = None) -> np.ndarray:
    """float64 [n_internal, b]: the logits of ``prior`` over each internal game-tree node's
    children (heap order; rows of terminals and of nodes below them included, never read)
    for the network ``key`` (``network_key``; ``experiments.search_runs`` gives each run's),
    or over the first ``rows`` nodes' (1: the root's); ``noise`` replaces the prior's (an
    agreement's, ``experiments.curves.prior_agreement.prior_noise``); a user's network's
    (``mcts.synthetic.networks.prior_table``)."""
    b = instance.branching
    if is_network(prior):
        return prior_table(prior, instance)[:rows or level_start(b, instance.depth)].copy()
    guidance = make_guidance(prior or "uniform", "playout", noise=noise)
    logits = np.zeros((rows or level_start(b, instance.depth), b))
    if guidance.prior != UNIFORM:
        _fill_logits(guidance, _minimax(instance), _depths(b, instance.depth - 1),
                     np.uint64(key), logits)
    return logits


@njit(cache=True)
def _fill_logits(guidance, minimax, depths, key, out):
    b = out.shape[1]
    for node in range(out.shape[0]):
        for j in range(b):
            out[node, j] = _logit(guidance, minimax[node * b + 1 + j], depths[node], key, node, j)


def values(instance, evaluate: str, key: int, theta: float = 0.0) -> np.ndarray:
    """float64 [n_nodes]: max's value of every game-tree node (heap order) as ``evaluate``'s
    oracle gives it for the network ``key`` against ``theta`` (a terminal: its true outcome at
    threshold 0, as the search scores it); for ``mix``, the value part; a user's network's
    (``mcts.synthetic.networks.value_table``)."""
    guidance = make_guidance("", evaluate)
    minimax = _minimax(instance)
    table = value_table(evaluate, instance) if is_network(evaluate) else np.zeros(0)
    out = np.empty(minimax.shape[0])
    _fill_values(guidance, minimax, table, np.asarray(instance.terminal, np.bool_),
                 instance.branching, float(theta), np.uint64(key), out)
    return out


@njit(cache=True)
def _fill_values(guidance, minimax, table, terminal, b, theta, key, out):
    for node in range(out.shape[0]):
        out[node] = (_outcome(minimax[node], 0.0) if terminal[node]
                     else node_value(guidance, minimax, table, node, b, theta, key))


def _minimax(instance) -> np.ndarray:
    return instance.minimax.value


# ---- the kinds, as the registries list theirs ---------------------------------------------

_PRIOR_ABOUT = {
    "uniform": ("every logit 0, P = 1/K", "the lab's PUCT before guidance"),
    "oracle": (("softmax of the children's exact outcome for the mover / tau, plus noise fixed "
               "per node; agreement= sets the noise to that top-1 agreement"),
               "an oracle of trees.minimax; AlphaZero's P(s, a), Silver et al. 2018"),
}
_EVALUATE_ABOUT = {
    "playout": ("a random playout's reward", "Kocsis & Szepesvari 2006"),
    "value": (("max's exact outcome plus noise of scale sigma fixed per node, clipped to "
              "[0, 1], instead of a playout"), "AlphaZero's v(s), Silver et al. 2018"),
    "mix": ("(1 - lam) value + lam playout", "AlphaGo, Silver et al. 2016 (lam = 0.5)"),
}
_NETWORK_ABOUT = ("a user's network, package.module:object (mcts.synthetic.networks)",
                  "docs/extending.md")


def _records(defaults: dict, about: dict, network: str) -> list[dict]:
    records = [{"name": name, "params": dict(defaults[name]),
                "domains": {key: _DOMAINS[key].describe() for key in defaults[name]},
                "description": about[name][0], "citation": about[name][1]}
               for name in defaults]
    return records + [{"name": network, "params": {}, "domains": {},
                       "description": _NETWORK_ABOUT[0], "citation": _NETWORK_ABOUT[1]}]


def prior_records() -> list[dict]:
    """The prior kinds (``mctslab priors list``): name, parameters, domains, description,
    citation; a user's network last."""
    return _records(_PRIOR_DEFAULTS, _PRIOR_ABOUT, "module:PriorNetwork")


def evaluation_records() -> list[dict]:
    """The evaluation kinds (``mctslab evaluations list``), as :func:`prior_records`."""
    return _records(_EVALUATE_DEFAULTS, _EVALUATE_ABOUT, "module:ValueNetwork")
