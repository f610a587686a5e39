"""Cost of the bandit policies inside the compiled search: ns per playout, single thread.

One run is ``mcts.synthetic.search`` with a budget of ``--playouts`` playouts on a constant(1,5)
tree (or ``--tree``), b = 4, d = 8, plain adjuster (or ``--adjuster``), no reward shaping (or
``--shaping``), stored rewards kept as scored (or re-scored exactly, ``--rescore``); its time is
divided by the playouts it simulated (a run ends early once its root is solved, or a root
policy's rounding leaves some unspent). A policy entry may put a root policy above the policy,
as compare's do: ``ucb1(root=sh)``, ``ucb1(root=gumbel)`` (one search of the whole budget, the
schedule over it); and its guidance, ``puct(prior=oracle(tau=1,noise=1),evaluate=value)``
(``mcts.synthetic.guidance``: a value-evaluated search counts evaluations). Each figure is
the median over ``--repeats`` runs (different seeds, policies interleaved so that load from other
processes hits all alike); the ratio to UCB1 is the ratio of medians. Kernels are cached per
version of the sources their module imports (``bandits.kernel_cache``), so an edit of any of
them is measured compiled afresh. ``--cpu`` times the process's CPU time instead of the wall clock
(steadier on a machine loaded by other jobs: the search is one thread).

    python benchmarks/bench_policies.py [--playouts N] [--repeats K] [--adjuster NAME]
        [--tree SPEC] [--shaping SPEC] [--rescore] [--cpu] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from bandits import POLICIES, index_tables, make_policy
from experiments.comparisons.grid import method_fields
from experiments.curves.curve import Curve
from experiments.curves.failure import curve_arrays, search_config, tree_instance
from mcts.core.search_tree import VISITS
from mcts.synthetic import search


def setup_run(policy: str, playouts: int, adjuster: str, tree: str, shaping: str = "",
              rescore: bool = False):
    fields = method_fields(policy, adjuster)
    curve = Curve(tree, shaping=shaping, **{**fields, "rescore": rescore or fields["rescore"]})
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    config = search_config(curve, instance)
    failed = np.zeros(int(np.log2(playouts)) + 1, np.bool_)
    tables = index_tables(playouts)
    return (curve_arrays(curve, instance), config, failed, tables,
            make_policy(curve.policy, **curve.policy_params))


def time_run(setup, playouts: int, seed: int, clock=time.perf_counter) -> float:
    """Seconds per simulated playout of one run with a budget of ``playouts``, by ``clock``."""
    game, config, failed, tables, policy = setup
    start = clock()
    tree = search(game, config, playouts, np.uint64(seed), tables, policy, failed)
    return (clock() - start) / tree.stats[0, VISITS]


def bench(policies, playouts: int = 16384, repeats: int = 15, adjuster: str = "plain",
          tree: str = "constant(1,5)", shaping: str = "",
          rescore: bool = False, cpu: bool = False) -> dict[str, float]:
    """Median ns per playout of each policy (CPU time with ``cpu``, else wall time)."""
    clock = time.process_time if cpu else time.perf_counter
    setups = {p: setup_run(p, playouts, adjuster, tree, shaping, rescore) for p in policies}
    for p in policies:
        time_run(setups[p], playouts, 0)  # compile
    times = {p: [] for p in policies}
    for seed in range(1, repeats + 1):
        for p in policies:
            times[p].append(time_run(setups[p], playouts, seed, clock))
    return {p: 1e9 * statistics.median(t) for p, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=16384)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--policies", nargs="+", default=list(POLICIES))
    parser.add_argument("--adjuster", default="plain")
    parser.add_argument("--tree", default="constant(1,5)")
    parser.add_argument("--shaping", default="", help="reward shaping, e.g. rb(k=8)")
    parser.add_argument("--rescore", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="CPU time instead of wall time")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = bench(args.policies, args.playouts, args.repeats, args.adjuster, args.tree,
                   args.shaping, args.rescore, args.cpu)
    if args.json:
        print(json.dumps(result))
        return
    base = result.get("ucb1")
    for p, ns in result.items():
        ratio = f"  {ns / base:5.2f}x UCB1" if base else ""
        print(f"{p:18s} {ns:8.1f} ns/playout{ratio}")


if __name__ == "__main__":
    main()
