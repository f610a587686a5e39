"""``mctslab reproduce PAPER``: the figures and tables of a seed paper, run or resumed."""

from __future__ import annotations

import sys

from experiments.cli.params import COUNT, SEED
from experiments.papers import about, paper_module, paper_names


def register(subparsers) -> None:
    p = subparsers.add_parser("reproduce", help="reproduce a seed paper's figures and tables")
    p.add_argument("paper", choices=paper_names(), help="; ".join(
        f"{name}: {about(name)}" for name in paper_names()))
    p.add_argument("--scale", choices=("quick", "paper"), default="quick",
                   help="quick (default), a reduced run: imagawa about 1/20 of the paper's "
                   "runs; pepels 100 and 500 playouts per move (Amazons, Cannon, Chinese "
                   "Checkers 50 and 150), 40 games per match (about 11 min on 2 cores); veness "
                   "fewer runs per point (sizes in its report). paper: "
                   "the paper's runs (pepels: 5,000 and 25,000 playouts, 1,000 games per match, "
                   "a fifth of the paper's; it prints its projected core-hours first; "
                   "kocsis: 200 trees x 200 runs a point, its projection printed first; quick "
                   "about a tenth of the trees, 2^12 iterations)")
    p.add_argument("--out", metavar="DIR", help="results folder (default results/PAPER-SCALE); "
                   "running again resumes it")
    p.add_argument("--workers", type=COUNT, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a Dask scheduler address, or 'local' for a LocalCluster")
    p.add_argument("--seed", type=SEED, default=2015, help="study seed (default 2015)")
    p.add_argument("--format", default="png,pdf", metavar="png|pdf|svg",
                   help="the figure files: png, pdf, svg or several joined by commas (default "
                   "png,pdf); the report shows the PNGs, written whatever this says")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    from experiments.runtime.lock import writing
    from experiments.runtime.pool import check_options
    from experiments.runtime.store import check_writable
    from plots.style import formats_option

    check_options(args.workers, args.scheduler)  # before anything is written
    args.formats = formats_option(args.format)
    args.out = args.out or f"results/{args.paper}-{args.scale}"
    with writing(args.out, can_wait=False):  # one writer per folder; no --wait here
        check_writable(args.out)  # before anything is computed
        report = _reproduce(args)
    print(f"report: {report}", file=sys.stdout)
    print(f"figures, tables and stored results: {report.parent}/")
    return 0


def _reproduce(args):
    """The paper's ``reproduce_<paper>`` (``experiments.papers``), after its ``announce`` line
    (a paper-scale run's projection) unless ``--quiet``."""
    module = paper_module(args.paper)
    announce = getattr(module, "announce", None)
    line = announce(args.scale, args.seed) if announce and not args.quiet else None
    if line:
        print(line, flush=True)
    return getattr(module, f"reproduce_{args.paper}")(
        args.out, args.scale, workers=args.workers, scheduler=args.scheduler, seed=args.seed,
        progress=False if args.quiet else None, formats=args.formats)
