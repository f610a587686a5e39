"""Root policies as a user names them: the specs ``sh`` and ``gumbel(m=16, ...)`` parsed into the
records the kernels compile (:class:`NoRoot`, :class:`RootPolicy`), their canonical spelling,
what ``mctslab roots list`` says of each, and the budget and memory each needs. The schedules
themselves, compiled, are ``mcts.core.root_policies``.
"""

from __future__ import annotations

from typing import NamedTuple

from bandits.sequential_halving import halving_rounds
from specs import at_least, between, parse_kind

HALVING, GUMBEL = 1, 2
ROOT_POLICIES = {"sh": HALVING, "gumbel": GUMBEL}
_DEFAULTS = {"sh": {}, "gumbel": {"m": 16, "c_visit": 50.0, "c_scale": 1.0, "gumbel_scale": 1.0}}
# m is compared with the children's count in compiled int64 code: bounded, so that a huge
# value is refused in one line rather than overflowing there
_DOMAINS = {"m": between(1, 2**31 - 1, "integer"), "c_visit": at_least(0),
            "c_scale": at_least(0), "gumbel_scale": at_least(0)}


class NoRoot(NamedTuple):
    """The plain search: the policy selects at the root too."""


class RootPolicy(NamedTuple):
    """A root policy (``kind``: HALVING or GUMBEL) and the Gumbel root's parameters: m
    considered actions, c_visit and c_scale of sigma, the scale of the Gumbel noise (0: none,
    mctx's ``gumbel_scale``)."""

    kind: int = HALVING
    m: int = 16
    c_visit: float = 50.0
    c_scale: float = 1.0
    gumbel_scale: float = 1.0


# what ``mctslab roots list`` says of each (module docstring)
_ABOUT = {
    "sh": (("sequential halving at the root over the whole budget, the policy below it; the "
           "move played is the last child left (needs K ceil(log2 K) playouts)"),
           "Karnin, Koren & Somekh 2013; Pepels, Cazenave, Winands & Lanctot 2014 (H-MCTS)"),
    "gumbel": (("the Gumbel root: m children sampled by Gumbel-top-k, sequential halving on "
               "g + sigma(q-hat), a uniform prior (mctx's gumbel_muzero_policy)"),
               "Danihelka, Guez, Schrittwieser & Silver 2022"),
}


def root_records() -> list[dict]:
    """Each root policy as the registries list theirs (``mctslab roots list``): name,
    parameters with defaults, their domains, description and citation."""
    return [{"name": name, "params": dict(_DEFAULTS[name]),
             "domains": {key: _DOMAINS[key].describe() for key in _DEFAULTS[name]},
             "description": _ABOUT[name][0], "citation": _ABOUT[name][1]}
            for name in ROOT_POLICIES]


def parse_root(spec: str) -> NoRoot | RootPolicy:
    """The record of a spec: "" or ``none`` (the plain search), ``sh``, ``gumbel`` or
    ``gumbel(m=16,c_visit=50,c_scale=1)``; one-line ``ValueError`` otherwise."""
    if not isinstance(spec, str):
        raise ValueError(f"root policy {spec!r} must be a spec such as sh or gumbel(m=16)")
    if "".join(spec.split()) in ("", "none"):
        return NoRoot()
    name, values = parse_kind(spec, "root policy", _DEFAULTS, _DOMAINS,
                              "sh or gumbel(m=16,c_visit=50,c_scale=1)")
    return RootPolicy(ROOT_POLICIES[name], *(
        (int(values["m"]), float(values["c_visit"]), float(values["c_scale"]),
         float(values["gumbel_scale"]))
        if name == "gumbel" else ()))


def root_name(root: NoRoot | RootPolicy) -> str:
    """The name of ``root``'s kind ("" for the plain search): the one place outside the
    kernels that reads a root policy's kind."""
    if isinstance(root, NoRoot):
        return ""
    return next(name for name, kind in ROOT_POLICIES.items() if kind == root.kind)


def root_spec(root: NoRoot | RootPolicy) -> str:
    """The canonical spelling of ``root`` ("" for the plain search; parameters at their
    defaults left out)."""
    name = root_name(root)
    if name != "gumbel":
        return name
    changed = [f"{key}={getattr(root, key)!r}" for key, default in _DEFAULTS["gumbel"].items()
               if getattr(root, key) != default]  # repr: read back to the same bits
    return f"gumbel({','.join(changed)})" if changed else "gumbel"


def minimum_budget(root: NoRoot | RootPolicy, branching: int) -> int:
    """The least budget at which ``root`` plays: K ceil(log2 K) for sequential halving (one
    playout per child in the first round), 1 otherwise."""
    if root_name(root) == "sh":
        return branching * halving_rounds(branching)
    return 1


def check_root_budget(root: NoRoot | RootPolicy, branching: int, budget: int) -> None:
    """A one-line ValueError for a budget below :func:`minimum_budget`."""
    low = minimum_budget(root, branching)
    if budget < low:
        raise ValueError(f"budget {budget} is too small for sequential halving at a root of "
                         f"{branching} children: it needs at least {low} (one playout per "
                         "child in the first halving round)")


def state_bytes(root: NoRoot | RootPolicy, branching: int, budget: int) -> int:
    """Bytes of one search's :class:`RootState` (none without a root policy): about 8 per child
    per array, and the Gumbel root's v(s), 8 per playout."""
    if isinstance(root, NoRoot):
        return 0
    return 8 * (7 * branching + 7) + 8 * (budget if root_name(root) == "gumbel" else 1)
