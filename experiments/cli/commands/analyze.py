"""``mctslab analyze TREE``: the exact threshold analysis of one tree instance."""

from __future__ import annotations

import json

import numpy as np

from experiments.cli.params import COUNT, SEED, check_figure_path
from trees import analyze


def register(subparsers) -> None:
    p = subparsers.add_parser("analyze", help="exact threshold analysis of a synthetic tree")
    p.add_argument("tree", help="tree spec, e.g. constant(1,5), \"constant'(1,13)\", pgame, "
                   "random(4,3)+trap(3,0.2) (see `mctslab trees list`)")
    p.add_argument("--branching", type=COUNT, default=4, help="branching factor b (default 4)")
    p.add_argument("--depth", type=COUNT, default=8, help="even depth d (default 8)")
    p.add_argument("--tree-seed", type=SEED, default=0,
                   help="seed of the tree instance itself (tree J of a curve of seed S is "
                   "another: `mctslab inspect` prints its analyze command)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="FILE", help="write the Fig. 2-style figure to FILE")
    p.set_defaults(run=run)


def run(args) -> int:
    check_figure_path(args.plot)
    result = analyze(args.tree, args.branching, args.depth, args.tree_seed)
    if args.plot:
        from experiments.runtime.store import write_figure
        from plots import plot_threshold_analysis

        written = write_figure(plot_threshold_analysis(result), args.plot)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_table(result))
        if args.plot:
            print(f"figure written to {written}")
    return 0


def format_table(result) -> str:
    """The thresholds where something happens (Delta changes) as an aligned table."""
    delta = result.delta
    moves = ", ".join(map(str, result.optimal_moves))
    head = f"{result.tree}  b={result.branching} d={result.depth} tree seed {result.tree_seed}"
    if np.isnan(delta).all():
        return f"{head}\nevery root move ({moves}) is optimal: no run can fail"
    keep = np.flatnonzero(np.abs(np.diff(delta, prepend=np.nan, append=np.nan))[:-1] > 0)
    keep = np.union1d(keep, np.searchsorted(result.thresholds, [0.0, result.static_threshold]))
    lines = [
        head,
        (f"optimal root move(s): {moves}; static threshold "
         f"{result.static_threshold:g} (Delta {delta.max():.4f}); at threshold 0 Delta "
         f"{result.delta[np.searchsorted(result.thresholds, 0.0)]:.4f}"),
        f"{'theta':>8} {'mu_opt':>8} {'mu_other':>8} {'Delta':>8}",
    ]
    for i in keep:
        mark = "  <- static" if result.thresholds[i] == result.static_threshold else ""
        lines.append(
            f"{result.thresholds[i]:>8g} {result.win_rate_optimal[i]:>8.4f} "
            f"{result.win_rate_suboptimal[i]:>8.4f} {delta[i]:>8.4f}{mark}"
        )
    return "\n".join(lines)
