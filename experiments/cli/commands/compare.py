"""``mctslab compare``: a grid of tree specs x policies x adjusters, run or resumed."""

from __future__ import annotations

import shlex
import sys

from bandits import POLICIES
from experiments.cli.params import COUNT, PROBABILITY, SEED, rule_options
from experiments.comparisons.atlas import ATLAS_ADJUSTERS, PRESETS, TRAP_POLICIES
from experiments.comparisons.grid import SIZES

# Single-thread cost of one playout per policy, ns (the registry's, ``PolicyInfo.playout_ns``);
# a policy not listed (a plug-in) counts as the median.
PLAYOUT_NS = {name: info.playout_ns for name, info in POLICIES.items() if info.playout_ns}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="compare policies and adjusters over tree specs on shared instances; "
        "running again into --out computes only what it lacks")
    p.add_argument("--trees", nargs="+", metavar="SPEC",
                   help="tree specs, e.g. constant(1,5) random(4,2)")
    p.add_argument("--policies", nargs="+", metavar="NAME",
                   help="policies (`mctslab policies list`, package.module:object, "
                   "name(key=value,...))")
    p.add_argument("--adjusters", nargs="+", metavar="NAME",
                   help="adjusters (`mctslab adjusters list`, package.module:object, "
                   "name(key=value,...))")
    quick, full = SIZES["quick"], SIZES["full"]
    p.add_argument("--preset", choices=PRESETS,
                   help="atlas: seed 001's biased trees x every built-in policy x "
                   f"{', '.join(ATLAS_ADJUSTERS)}; traps: random(4,3) with traps of level 1, 3, "
                   f"5 at densities 0.1, 0.3, 0.6 x {', '.join(TRAP_POLICIES)}, plain; "
                   "guidance: UCB1 with playouts (plain and maxfreq) against PUCT and Gumbel "
                   "MuZero guided by priors of measured agreement (chance, 0.5, 0.7, 0.9, 1) "
                   "and values of noise 0, 0.1, 0.3, 1 (mcts/synthetic/guidance.py), budgets "
                   "up to 2^12 "
                   "(--trees, --policies, --adjusters replace its lists)")
    p.add_argument("--scale", choices=("quick", "full"), default="quick",
                   help=f"quick (default): {quick['trees_per_model']} instances x "
                   f"{quick['runs']} runs per cell, budgets up to 2^"
                   f"{quick['max_budget'].bit_length() - 1}; full: {full['trees_per_model']} x "
                   f"{full['runs']}, up to 2^{full['max_budget'].bit_length() - 1}, for a Dask "
                   "cluster")
    p.add_argument("--runs", type=COUNT, metavar="N", help="runs per tree instance")
    p.add_argument("--trees-per-model", type=COUNT, metavar="M",
                   help="tree instances per spec, shared by every policy and adjuster")
    p.add_argument("--max-budget", type=COUNT, metavar="T", help="largest budget, a power of two")
    p.add_argument("--epsilon", type=PROBABILITY, default=0.05,
                   help="failure rate the playouts must reach (default 0.05)")
    p.add_argument("--baseline", metavar="POLICY+ADJUSTER",
                   help="the method every other is tested against, e.g. ucb1+plain "
                   "(default: the grid's first policy with its first adjuster)")
    p.add_argument("--seed", type=SEED, help="study seed of trees and runs (default 2029)")
    p.add_argument("--branching", type=COUNT, default=4, help="branching factor (default 4)")
    p.add_argument("--depth", type=COUNT, default=8, help="even tree depth (default 8)")
    rule_options(p, "every MCTS cell's")
    p.add_argument("--out", metavar="DIR",
                   help="results folder (default results/NAME-SCALE); a grid run into it again "
                   "computes only the runs it lacks (new cells, runs, instances)")
    p.add_argument("--workers", type=COUNT, metavar="N",
                   help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a Dask scheduler address, or 'local' for a loopback LocalCluster")
    p.add_argument("--format", default="png,pdf", metavar="png|pdf|svg",
                   help="figure files: png, pdf, svg or several joined by commas (default "
                   "png,pdf); report.html embeds the PNGs, written whatever this says")
    p.add_argument("--anatomy", action="store_true",
                   help="the report also shows the failure anatomy of each tree "
                   "configuration's worst cell (its runs recomputed, watched; every cell's "
                   "command is given either way)")
    p.add_argument("--tuned", action="store_true",
                   help="also each policy at its constant tuned for each tree and adjuster "
                   "(`mctslab tune`'s race, on instances apart from the compared ones): a "
                   "method POLICY(tuned) beside POLICY")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    p.add_argument("--wait", action="store_true",
                   help="if another process writes the folder, wait for it (default: refuse)")
    p.set_defaults(run=run)


def grid_from_args(args):
    """The grid the options describe; a bad one is a one-line ValueError naming the fix."""
    from experiments.comparisons import Grid, preset_lists

    lists = preset_lists(args.preset) if args.preset else {"name": "compare"}
    for key in ("trees", "policies", "adjusters"):
        given = getattr(args, key)
        if given is not None:
            lists[key] = given
        elif key not in lists:
            raise ValueError(f"no --{key} given: name at least one, or use --preset atlas")
    max_budget = args.max_budget or (lists.get("max_budget") if args.scale == "quick" else None)
    return Grid.from_scale(lists["trees"], lists["policies"], lists["adjusters"], args.scale,
                           name=lists["name"], runs=args.runs,
                           trees_per_model=args.trees_per_model, max_budget=max_budget,
                           epsilon=args.epsilon, baseline=args.baseline, seed=args.seed,
                           branching=args.branching, depth=args.depth, reward=args.reward,
                           final_move=args.final_move, failure=args.failure,
                           solver=False if args.no_solver else None)


def core_hours(grid, tunings=()) -> float:
    """Projected single-core hours of ``grid`` from ``PLAYOUT_NS`` (the budget of every run is
    spent: a run records its whole curve), with ``tunings`` (``compare --tuned``'s): a cell
    at tuned constants each, and each race at most its values x runs x budget (the race
    drops values: an upper bound)."""
    from statistics import median

    from experiments.comparisons import parse_entry

    fallback = median(PLAYOUT_NS.values())

    def ns(policy: str) -> float:
        return PLAYOUT_NS.get(parse_entry(policy, "policy")[0], fallback)

    per_cell = grid.trees_per_model * grid.runs * grid.max_budget
    cells = (sum(ns(policy) for policy in grid.policies) * len(grid.trees) * len(grid.adjusters)
             + sum(ns(tuning.policy) for tuning in tunings)) * per_cell
    races = sum(ns(tuning.policy) * len(tuning.grid) * tuning.runs * tuning.max_budget
                for tuning in tunings)
    return (cells + races) / 3.6e12


def cells_text(grid) -> str:
    """"N cells", and how many of them are a tuned cell sharing another's runs (its constant
    tuned to the value that cell has: computed and tested once)."""
    shared = len(grid.same_cells())
    if not shared:
        return f"{grid.cells} cells"
    return (f"{grid.cells} cells ({shared} of them tuned to the constant of another cell, "
            f"whose runs {'it shares' if shared == 1 else 'they share'}: "
            f"{grid.cells - shared} computed and tested)")


def _tuned(grid, out, args):
    """``grid`` with its tuned cells, the tunings run (or resumed) into ``out/tuning/`` and
    their table written to ``out/tuned.csv``; ``out`` is claimed for the grid's cells first,
    so that a folder the comparison would refuse is refused before any tuning."""
    from experiments.comparisons import TUNED_FILE
    from experiments.comparisons.cells import claim_cells
    from experiments.runtime.lock import writing
    from experiments.runtime.store import write_atomically
    from experiments.tuning.compared import tune_grid

    with writing(out, wait=args.wait):
        claim_cells(out, grid)  # another kind's folder, or another seed's, before any tuning
        grid, table = tune_grid(grid, out, workers=args.workers, scheduler=args.scheduler,
                                progress=not args.quiet and sys.stderr.isatty())
        write_atomically(f"{out}/{TUNED_FILE}", table.to_csv(index=False).encode())
    if not args.quiet:
        print(f"tuned {len(table)} constants ({out}/{TUNED_FILE})", flush=True)
    return grid


def run(args) -> int:
    from experiments.cli.limits import check_study
    from experiments.comparisons import INSTANCES_FILE, RUNS_FILE, run_compare
    from experiments.curves.kernels import check_plugins
    from experiments.curves.plugin_check import with_plugin_path
    from experiments.runtime.pool import check_options
    from plots.style import formats_option

    check_options(args.workers, args.scheduler)
    formats = formats_option(args.format)
    grid = grid_from_args(args)
    study = grid.study()
    check_study(study, args.workers, args.scheduler)
    first_seconds = check_plugins(study.curves)
    out = args.out or f"results/{grid.name}-{grid.scale}"
    if grid.scale == "full" and not args.quiet:
        from experiments.tuning.compared import tunings

        plan = tunings(grid) if args.tuned else []
        races = f", and {len(plan)} tunings' races at most" if plan else ""
        print(f"{grid.name} at scale full: {grid.cells + len(plan)} cells x "
              f"{grid.trees_per_model * grid.runs} runs x {grid.max_budget} playouts{races}, "
              f"projected {core_hours(grid, plan):.1f} core-hours (per-playout costs of "
              f"benchmarks/bench_atlas.py; compiling adds about 25 s per policy x adjuster)",
              flush=True)
    if args.tuned:
        grid = _tuned(grid, out, args)
    summary, _ = run_compare(grid, out, workers=args.workers, scheduler=args.scheduler,
                             progress=not args.quiet and sys.stderr.isatty(),
                             command=with_plugin_path(shlex.join(["mctslab", *sys.argv[1:]]),
                                                      study.curves), formats=formats,
                             wait=args.wait, anatomy=args.anatomy)
    if args.quiet:
        return 0
    runs = grid.trees_per_model * grid.runs
    if summary.computed:
        print(f"{grid.name}: {cells_text(grid)} x {runs} runs in {out} ({summary.cells_computed}"
              f" cells computed or grown in {summary.computed} blocks, {summary.reused} blocks "
              f"already stored); {summary.speed(first_seconds)}")
    else:
        print(f"{grid.name}: all {cells_text(grid)} ({summary.shards} blocks of runs) already "
              f"stored in {out}")
    print(f"report: {out}/report.md and {out}/report.html (per-instance failures: "
          f"{out}/{INSTANCES_FILE}, per-run: {out}/{RUNS_FILE})")
    return 0
