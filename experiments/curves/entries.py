"""A policy or adjuster entry, spelled as ``compare``, ``failure-rate`` and a study file take
it: ``name`` or ``name(key=value,...)`` (``specs.parse_spec``), a policy's ``root=sh`` and an
adjuster's engine flags included; a list, ``ucb1(c=[0.25,0.5])``, is a sweep
(``specs.sweep``), one entry per value."""

from __future__ import annotations

from mcts.core.options import ADJUSTER_FLAGS
from specs import FLAG, check_value, parse_spec, parse_value, sweep

_LISTS = {"policy": "policies", "adjuster": "adjusters"}  # the commands that list them
# a policy entry's guidance (``mcts.synthetic.guidance``), ``Curve`` fields, and an example
GUIDANCE = {"prior": "prior=oracle(tau=1,noise=0.5)", "evaluate": "evaluate=value(sigma=0.1)",
            "network": "network=instance"}


def parse_entry(text: str, kind: str) -> tuple[str, dict]:
    """(name, parameters) of a grid entry ``name`` or ``name(k=v,...)`` (``specs.parse_spec``);
    ``kind`` is "policy" or "adjuster" (for the message). The name and the values are
    checked by ``Curve`` (the registries' domains)."""
    parts = _read(parse_spec, text, kind)
    if len(parts) > 1 or parts[0].args:
        raise ValueError(f"cannot read {kind} {text!r}: write a name such as ucb1, or "
                         f"name(key=value,...), or package.module:object")
    return parts[0].name, {key: parse_value(value) for key, value in parts[0].kwargs}


def method_fields(policy: str, adjuster: str) -> dict:
    """The ``Curve`` fields of a policy entry and an adjuster entry (``parse_entry``):
    policy, policy_params, adjuster, adjuster_params, rescore and terminals_at_threshold,
    which an adjuster's ``rescore=1`` and ``terminals_at_threshold=1`` ask for (exact
    re-scoring; the tree's terminals rewarded at its threshold), root, the root policy a
    policy's ``root=sh`` or ``root=gumbel`` puts above it (``mcts.core.root_policies``), and
    the guidance a policy's ``prior=oracle(...)``, ``evaluate=value(...)`` and ``network=``
    give it (``mcts.synthetic.guidance``)."""
    policy_name, policy_params = parse_entry(policy, "policy")
    adjuster_name, adjuster_params = parse_entry(adjuster, "adjuster")
    flags = {flag: check_value(adjuster_name, flag, adjuster_params.pop(flag, False), FLAG)
             for flag in ADJUSTER_FLAGS}
    root = policy_params.pop("root", "")
    if not isinstance(root, str):
        raise ValueError(f"policy {policy!r}: root={root} is not a root policy: use root=sh "
                         "or root=gumbel(m=16,c_visit=50,c_scale=1)")
    guidance = {key: policy_params.pop(key) for key in GUIDANCE if key in policy_params}
    for key, value in guidance.items():
        if not isinstance(value, str):
            raise ValueError(f"policy {policy!r}: {key}={value} is not a spec: use e.g. "
                             f"{GUIDANCE[key]}")
    return {"policy": policy_name, "policy_params": policy_params, "adjuster": adjuster_name,
            "adjuster_params": adjuster_params, **flags, "root": root, **guidance}


def swept(text: str, kind: str) -> list[str]:
    """The entries the entry ``text`` of ``kind`` stands for: itself, or one per value of a
    sweep, ``ucb1(c=[0.25,0.5])`` (``specs.sweep``)."""
    return _read(sweep, text, kind)


def _read(reader, text: str, kind: str):
    """``reader(text, kind)``; a malformed name is the registry's message, which names the
    command that lists the built-in ones (the grammar's says where a parenthesis goes wrong)."""
    try:
        return reader(text, kind)
    except ValueError:
        if "(" in str(text):
            raise
        raise ValueError(f"{kind} {text!r} is neither built in (`mctslab {_LISTS[kind]} "
                         f"list`) nor of the form package.module:object") from None
