"""The registry of root policies and their specs as a user names them (``sh``, ``gumbel``,
``gumbel(m=4)``) parsed into the records the kernels compile (``NoRoot`` for the plain search;
each root policy's record class, ``mcts.core.halving_root`` and ``mcts.core.gumbel_root``, whose
steps ``mcts.core.root_policies`` reads), their canonical spelling, what ``mctslab roots list``
says of each, and the budget and memory each needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from specs import Domain, at_least, between, parse_kind

from .gumbel_root import GumbelRoot
from .halving_root import HalvingRoot


class NoRoot(NamedTuple):
    """The plain search: the policy selects at the root too."""


@dataclass(frozen=True)
class RootInfo:
    """A root policy's name, its record class (its fields the spec's parameters, their
    defaults the spec's; it declares its compiled ``steps``, ``least_budget(K)`` and
    ``state_bytes(K, n)``), how to name, describe and cite it, each parameter's domain (every
    parameter has one) and why its least budget is what it is (for a policy whose
    ``least_budget`` is more than one playout)."""

    name: str
    record: type[NamedTuple]
    label: str
    description: str
    citation: str
    domains: Mapping[str, Domain] = field(default_factory=dict)
    least_budget_reason: str = ""

    @property
    def defaults(self) -> dict:
        return dict(self.record._field_defaults)


ROOT_POLICIES = {info.name: info for info in (
    RootInfo("sh", HalvingRoot, "sequential halving",
             ("sequential halving at the root over the whole budget, the policy below it; the "
              "move played is the last child left (needs K ceil(log2 K) playouts)"),
             "Karnin, Koren & Somekh 2013; Pepels, Cazenave, Winands & Lanctot 2014 (H-MCTS)",
             least_budget_reason="one playout per child in the first halving round"),
    # m is compared with the children's count in compiled int64 code: bounded, so that a huge
    # value is refused in one line rather than overflowing there
    RootInfo("gumbel", GumbelRoot, "the Gumbel root",
             ("the Gumbel root: m children sampled by Gumbel-top-k, sequential halving on "
              "g + sigma(q-hat), a uniform prior (mctx's gumbel_muzero_policy)"),
             "Danihelka, Guez, Schrittwieser & Silver 2022",
             {"m": between(1, 2**31 - 1, "integer"), "c_visit": at_least(0),
              "c_scale": at_least(0), "gumbel_scale": at_least(0)}),
)}
_BY_RECORD = {info.record: info for info in ROOT_POLICIES.values()}


def _domains_by_name() -> dict[str, Domain]:
    """Every root policy's parameter domains by name, as the specs' parser reads them: two
    policies' parameters of one name must share their domain."""
    domains: dict[str, Domain] = {}
    for info in ROOT_POLICIES.values():
        for key, domain in info.domains.items():
            if domains.setdefault(key, domain) != domain:
                raise ValueError(f"root policy {info.name}'s parameter {key} has another "
                                 "domain than another root policy's parameter of that name: "
                                 "rename it")
    return domains


_DOMAINS = _domains_by_name()
_USAGE = "sh or gumbel(m=16,c_visit=50,c_scale=1)"


def root_records() -> list[dict]:
    """Each root policy as the registries list theirs (``mctslab roots list``): name,
    parameters with defaults, their domains, description and citation."""
    return [{"name": info.name, "params": info.defaults,
             "domains": {key: info.domains[key].describe() for key in info.defaults},
             "description": info.description, "citation": info.citation}
            for info in ROOT_POLICIES.values()]


def parse_root(spec: str) -> NamedTuple:
    """The record of a spec: "" or ``none`` (the plain search, ``NoRoot``), ``sh``,
    ``gumbel`` or ``gumbel(m=16,c_visit=50,c_scale=1)``; one-line ``ValueError`` otherwise."""
    if not isinstance(spec, str):
        raise ValueError(f"root policy {spec!r} must be a spec such as {_USAGE}")
    if "".join(spec.split()) in ("", "none"):
        return NoRoot()
    defaults = {name: info.defaults for name, info in ROOT_POLICIES.items()}
    name, values = parse_kind(spec, "root policy", defaults, _DOMAINS, _USAGE)
    info = ROOT_POLICIES[name]
    return info.record(**{key: type(default)(values[key])
                          for key, default in info.defaults.items()})


def root_name(root: NamedTuple) -> str:
    """The name of ``root``'s policy ("" for the plain search)."""
    return "" if isinstance(root, NoRoot) else _BY_RECORD[type(root)].name


def root_spec(root: NamedTuple) -> str:
    """The canonical spelling of ``root`` ("" for the plain search; parameters at their
    defaults left out)."""
    name = root_name(root)
    if not name:
        return ""
    changed = [f"{key}={value!r}" for key, value in root._asdict().items()
               if value != root._field_defaults[key]]  # repr: read back to the same bits
    return f"{name}({','.join(changed)})" if changed else name


def minimum_budget(root: NamedTuple, branching: int) -> int:
    """The least budget at which ``root`` plays (1 for the plain search)."""
    return 1 if isinstance(root, NoRoot) else root.least_budget(branching)


def budget_problem(root: NamedTuple, branching: int, budget: int) -> str:
    """What is wrong with ``budget`` for ``root`` at a root of ``branching`` children ("" if
    nothing): what the budget falls short of, below :func:`minimum_budget`."""
    low = minimum_budget(root, branching)
    if budget >= low:
        return ""
    info = _BY_RECORD[type(root)]
    why = f" ({info.least_budget_reason})" if info.least_budget_reason else ""
    return (f"{info.label} at a root of {branching} children needs at least {low} "
            f"playout{'s' if low > 1 else ''}{why}")


def check_root_budget(root: NamedTuple, branching: int, budget: int) -> None:
    """A one-line ValueError for a budget below :func:`minimum_budget`."""
    problem = budget_problem(root, branching, budget)
    if problem:
        raise ValueError(f"budget {budget} is too small: {problem}")


def state_bytes(root: NamedTuple, branching: int, budget: int) -> int:
    """Bytes of one search's root schedule (none without a root policy)."""
    return 0 if isinstance(root, NoRoot) else root.state_bytes(branching, budget)
