"""``mctslab policies list`` and ``mctslab adjusters list``: the registered selection policies
and threshold adjusters, with their parameters, a one-line description and a citation."""

from __future__ import annotations

import json


def register(subparsers) -> None:
    for noun, what in (("policies", "selection policies"), ("adjusters", "threshold adjusters")):
        p = subparsers.add_parser(noun, help=f"list the {what}")
        sub = p.add_subparsers(dest=f"{noun}_command", required=True)
        listing = sub.add_parser("list", help=f"the {what}: name, parameters, citation")
        listing.add_argument("--json", action="store_true",
                             help="print JSON (keys name, params, description, citation)")
        listing.set_defaults(run=run_list, registry=noun)


def _records(noun: str) -> list[dict]:
    if noun == "policies":
        from bandits import POLICIES as registry
    else:
        from enhancements import ADJUSTERS as registry
    return [info.to_dict() for info in registry.values()]


def run_list(args) -> int:
    records = _records(args.registry)
    if args.json:
        print(json.dumps(records))
        return 0
    width = max(len(record["name"]) for record in records)
    for record in records:
        params = ", ".join(f"{key}={value:g}" for key, value in record["params"].items())
        print(f"{record['name']:<{width}}  {record['description']}")
        print(f"{'':<{width}}  params: {params or 'none'}; {record['citation']}")
    return 0
