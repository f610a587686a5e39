"""``mctslab policies list``, ``mctslab adjusters list``, ``mctslab trees list``,
``mctslab baselines list``, ``mctslab roots list``, ``mctslab priors list`` and ``mctslab
evaluations list``: the registered selection policies, threshold adjusters, tree models,
baseline players (``mcts.baselines``, named where a policy is), root policies (``--root``, a
policy entry's ``root=``) and the guidance's priors and evaluations (``--prior``,
``--evaluate``), with their parameters, a one-line description and a citation (and, for trees,
an example spec)."""

from __future__ import annotations

import json


def register(subparsers) -> None:
    for noun, what in (("policies", "selection policies"), ("adjusters", "threshold adjusters"),
                       ("trees", "tree models"),
                       ("baselines", "baseline players (--policy flatmc, alphabeta)"),
                       ("roots", "root policies (--root sh, gumbel)"),
                       ("priors", "priors of a guided search (--prior)"),
                       ("evaluations", "evaluations of a guided search (--evaluate)")):
        p = subparsers.add_parser(noun, help=f"list the {what}")
        sub = p.add_subparsers(dest=f"{noun}_command", required=True)
        listing = sub.add_parser("list", help=f"the {what}: name, parameters, citation")
        keys = "name, params, domains, description, citation" + (", example" * (noun == "trees"))
        listing.add_argument("--json", action="store_true", help=f"print JSON (keys {keys})")
        listing.set_defaults(run=run_list, registry=noun)


def _records(noun: str) -> list[dict]:
    if noun == "roots":
        from mcts.core.root_specs import root_records

        return root_records()
    if noun in ("priors", "evaluations"):
        from mcts.synthetic.guidance import evaluation_records, prior_records

        return prior_records() if noun == "priors" else evaluation_records()
    if noun == "policies":
        from bandits import POLICIES, SEARCH_POLICIES

        registry = {**POLICIES, **SEARCH_POLICIES}
    elif noun == "adjusters":
        from enhancements import ADJUSTERS as registry
    elif noun == "baselines":
        from mcts.baselines import BASELINES as registry
    else:
        from trees import TREE_MODELS as registry
    return [info.to_dict() for info in registry.values()]


def run_list(args) -> int:
    records = _records(args.registry)
    if args.json:
        print(json.dumps(records))
        return 0
    width = max(len(record["name"]) for record in records)
    for record in records:
        domains = record.get("domains", {})
        params = ", ".join(f"{key}={value:g}" + (f" ({domains[key]})" if key in domains else "")
                           for key, value in record["params"].items())
        print(f"{record['name']:<{width}}  {record['description']}")
        example = f"; e.g. {record['example']}" if "example" in record else ""
        print(f"{'':<{width}}  params: {params or 'none'}; {record['citation']}{example}")
    return 0
