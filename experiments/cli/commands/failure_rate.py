"""``mctslab failure-rate``: one failure-rate curve (seed 001, Sect. V-A)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from experiments.cli.limits import check_curve
from experiments.cli.params import COUNT, SEED, check_figure_path, parse_params
from experiments.curves.curve import Curve
from experiments.curves.entries import method_fields
from experiments.curves.failure import memory_per_curve_run
from experiments.curves.rates import curve_frame, failure_counts, rates
from mcts.core.final_move import FINAL_MOVES
from mcts.synthetic import FAILURES


def register(subparsers) -> None:
    p = subparsers.add_parser("failure-rate", help="failure rate of MCTS against playouts")
    curve_options(p)
    p.add_argument("--workers", type=COUNT, help="threads (default: all cores)")
    p.add_argument("--out", metavar="FILE", help="write the curve (.parquet or .csv)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="FILE", help="write a log-x figure of the curve")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def curve_options(p, runs: int = 100, tree_required: bool = True) -> None:
    """The options that make a curve (``curve_from_args``), shared with ``mctslab inspect``
    (where a game may stand for the tree: ``tree_required`` False)."""
    p.add_argument("--tree", required=tree_required,
                   help="tree spec, e.g. constant(1,5) or random(4,3)")
    p.add_argument("--policy", default="ucb1",
                   help="a policy of `mctslab policies list`, package.module:object, "
                   "name(key=value,...), or a baseline player of `mctslab baselines list` "
                   "(flatmc, alphabeta(leaf=heuristic,sigma=2)) (default ucb1)")
    p.add_argument("--adjuster", default="plain",
                   help="an adjuster of `mctslab adjusters list`, package.module:object, "
                   "name(key=value,...) (default plain)")
    p.add_argument("--runs", type=COUNT, default=runs,
                   help=f"runs per tree instance (default {runs})")
    p.add_argument("--trees", type=COUNT, default=1, help="tree instances (default 1)")
    p.add_argument("--max-budget", type=COUNT, default=2**14,
                   help="largest budget, a power of two (default 16384)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of trees and runs (default 0)")
    p.add_argument("--branching", type=COUNT, default=4, help="branching factor (default 4)")
    p.add_argument("--depth", type=COUNT, default=8, help="even tree depth (default 8)")
    p.add_argument("--policy-param", action="append", default=[], metavar="NAME=VALUE",
                   help="policy parameter, e.g. c=0.5 (repeatable)")
    p.add_argument("--adjuster-param", action="append", default=[], metavar="NAME=VALUE",
                   help="adjuster parameter, e.g. offset=-0.5 (repeatable)")
    _search_options(p)
    _guidance_options(p)


def _search_options(p) -> None:
    """The engine's options of a curve: exploration restarts, shaping, depth, re-scoring,
    discount, backup and reward rules, final move, root policy, failure, solver, episodes."""
    restart = p.add_mutually_exclusive_group()
    restart.add_argument("--restart", dest="restart", action="store_true", default=None,
                         help="restart exploration after a threshold change (Eqs. 6-8)")
    restart.add_argument("--no-restart", dest="restart", action="store_false",
                         help="never restart exploration (default except for maxfreq)")
    p.add_argument("--shaping", default="", metavar="SPEC",
                   help="seed 000's reward shaping, e.g. rb(k=8)+qb(k=2,a=online) (default none)")
    p.add_argument("--search-depth", type=COUNT, help="stop expansion at this depth (1: one-ply)")
    p.add_argument("--rescore", action="store_true",
                   help="re-score the rewards stored in the tree exactly after a threshold "
                        "change (an ablation; default: keep them, as the paper does)")
    p.add_argument("--discount", type=float, default=1.0, metavar="GAMMA",
                   help="discount per ply between a node and the playout's terminal, in (0, 1] "
                        "(default 1: none, the paper's search)")
    p.add_argument("--backup", default="", metavar="MODULE:OBJECT",
                   help="a backup rule of your own, package.module:object (docs/extending.md)")
    p.add_argument("--reward", default="outcome", metavar="RULE",
                   help="the playout's reward of its terminal's score: outcome (1/0.5/0 against "
                        "the threshold, default), linear (the score mapped onto [0, 1] over the "
                        "tree's score range), sum (the score itself, Kocsis & Szepesvari's; "
                        "ucb1 only) or package.module:object (docs/extending.md)")
    p.add_argument("--final-move", default="visits", choices=tuple(FINAL_MOVES),
                   help="the move played: the most visited (default), the best mean, the "
                        "max-robust child (most visited and best mean; else the most wins), or "
                        "the best minimax value over the tree's means (minimax: MMMC's)")
    p.add_argument("--root", default="", metavar="SPEC",
                   help="a root policy built for the simple regret, the policy below it: sh "
                        "(sequential halving) or gumbel(m=16,c_visit=50,c_scale=1) (default "
                        "none); one search per budget")
    p.add_argument("--failure", default="outcome", choices=FAILURES,
                   help="a failure is a move outside the optimal outcome's moves (outcome, "
                        "default) or outside the best minimax score's (score)")
    p.add_argument("--no-solver", action="store_true",
                   help="search without the MCTS-Solver (Kocsis & Szepesvari's UCT): no node "
                        "is proven and every run spends its budget")
    p.add_argument("--terminals-at-threshold", action="store_true",
                   help="reward a terminal reached inside the tree at the adjuster's threshold, "
                        "as a playout (an ablation; default: at threshold 0, its true value)")
    p.add_argument("--store-episodes", action="store_true",
                   help="store every node an episode reaches, down to a terminal (Kocsis & "
                        "Szepesvari 2006, Sect. 2.1; default: one expansion per playout)")
    p.add_argument("--stop-episodes", action="store_true",
                   help="stop an episode at a node of n visits with probability 1/n and play "
                        "out from there (their approximate iterative deepening)")


def _guidance_options(p) -> None:
    """A curve's guidance of known quality (``mcts.synthetic.guidance``)."""
    p.add_argument("--prior", default="", metavar="SPEC",
                   help="a prior over each node's children for a policy that reads one (puct): "
                        "uniform, or oracle(tau=1,noise=0): softmax of the exact outcomes over "
                        "tau plus a noise fixed per node (mcts/synthetic/guidance.py); makes "
                        "the search mctx's (default none)")
    p.add_argument("--evaluate", default="", metavar="SPEC",
                   help="a leaf's value: playout, value(sigma=0) (the exact minimax outcome "
                        "plus a noise fixed per node, no playout) or mix(lam=0.5,sigma=0) "
                        "(AlphaGo's (1 - lam) value + lam playout); makes the search mctx's "
                        "(default none: a random playout)")
    p.add_argument("--network", default="run", choices=("run", "instance"),
                   help="the guidance's network: drawn per run (default; a curve averages over "
                        "networks of one quality) or one per tree instance")


def curve_from_args(args) -> Curve:
    """The curve of the options of ``curve_options``."""
    method = method_fields(args.policy, args.adjuster)  # as compare reads its entries
    for kind, items in (("policy", args.policy_param), ("adjuster", args.adjuster_param)):
        given = parse_params(items, f"--{kind}-param")
        twice = sorted(set(given) & set(method[f"{kind}_params"]))
        if twice:
            raise ValueError(f"--{kind}-param {twice[0]} is given twice: also in --{kind} "
                             f"{getattr(args, kind)}")
        method[f"{kind}_params"].update(given)
    if args.root and method["root"]:
        raise ValueError(f"--root {args.root} is given twice: also in --policy {args.policy}")
    return Curve(
        tree=args.tree, branching=args.branching, depth=args.depth, runs=args.runs,
        trees=args.trees, max_budget=args.max_budget, restart=args.restart,
        search_depth=args.search_depth, shaping=args.shaping, discount=args.discount,
        backup=args.backup, reward=args.reward, final_move=args.final_move,
        failure=args.failure, solver=not args.no_solver, store_episodes=args.store_episodes,
        stop_episodes=args.stop_episodes, prior=args.prior, evaluate=args.evaluate,
        network=args.network,
        **{**method, "rescore": method["rescore"] or args.rescore,
           "terminals_at_threshold": method["terminals_at_threshold"]
           or args.terminals_at_threshold,
           "root": method["root"] or args.root},
    )


def run(args) -> int:
    if args.out and Path(args.out).suffix not in (".parquet", ".csv"):
        raise ValueError(f"--out {args.out}: use a .parquet or .csv file name")
    from experiments.runtime.store import check_writable_file

    for output in (args.out, args.plot):  # before computing: a curve is never lost
        if output:
            check_writable_file(output)
    curve = curve_from_args(args)
    check_figure_path(args.plot)
    check_curve(curve, args.workers)
    progress = not args.quiet and sys.stderr.isatty()
    failures, played, seconds, compile_seconds = failure_counts(curve, args.seed, args.workers,
                                                                progress)
    rate, stderr = rates(curve, failures)
    frame = (curve_frame(curve, failures, args.seed)
             if args.out or args.plot or not args.json else None)
    if args.out:
        from experiments.runtime.store import write_table

        config = json.dumps(curve.to_dict(), sort_keys=True)
        write_table(frame.assign(config=config), args.out)
    if args.plot:
        from experiments.runtime.store import write_figure
        from plots.failure import plot_failure_curves

        write_figure(plot_failure_curves(frame).figure, args.plot)
    summary = {
        "tree": curve.tree,
        "policy": curve.policy,
        "adjuster": curve.adjuster,
        "shaping": curve.shaping,
        "runs": curve.total_runs,
        "budgets": curve.budgets,
        "failure_rate": rate.tolist(),
        "stderr": stderr.tolist(),
        "seconds": seconds,
        "compile_seconds": compile_seconds,
        "playouts_per_second": played / seconds,
        "playouts": played,
        "memory_per_run_bytes": memory_per_curve_run(curve),
        "seed": args.seed,
        "config": curve.to_dict(),
        **_guidance_quality(curve, args.seed),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{curve.label}  b={curve.branching} d={curve.depth}  {curve.total_runs} runs "
              f"({curve.trees} trees x {curve.runs})  seed {args.seed}")
        if curve.trees == 1:
            print("the curve of one tree instance (tree 0 of the seed), not of the model: "
                  "where its instances differ (random, pgame, traps), --trees M averages "
                  "over M")
        shown = frame[["budget", "failure_rate", "stderr", "runs"]]
        print(shown.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        print(f"{played:,} playouts in {seconds:.2f} s of search: "
              f"{played / seconds / 1e6:.2f} M playouts/s; "
              f"{summary['memory_per_run_bytes'] / 2**20:.1f} MiB per run; kernel compiled or "
              f"loaded in {compile_seconds:.1f} s (once per policy, then cached)")
        if "prior_top1" in summary:
            print(f"guidance, measured on the curve's instances and its first runs' networks: "
                  f"prior top-1 agreement {summary['prior_top1']:.3f} (mass on the optimal "
                  f"moves {summary['prior_optimal_mass']:.3f}, at decisive nodes), value RMSE "
                  f"{summary['value_rmse']:.3f} (rank correlation "
                  f"{summary['value_rank_correlation']:.3f}; NaN: playouts)")
    return 0


def _guidance_quality(curve: Curve, seed: int) -> dict:
    """A guided curve's guidance as measured (``experiments.curves.guidance_quality``): the
    prior's top-1 agreement and optimal mass, the value's RMSE and rank correlation."""
    if not (curve.prior or curve.evaluate):
        return {}
    from experiments.curves.guidance_quality import guidance_quality

    overall = guidance_quality(curve, seed).iloc[-1]
    return {"prior_top1": float(overall.top1), "prior_optimal_mass": float(overall.optimal_mass),
            "value_rmse": float(overall.rmse),
            "value_rank_correlation": float(overall.rank_correlation)}

