"""``mctslab reproduce PAPER``: the figures and tables of a seed paper, run or resumed."""

from __future__ import annotations

import sys

from experiments.cli.params import COUNT, SEED


def _imagawa(args):
    from experiments.papers.imagawa import reproduce_imagawa
    from plots.style import formats_option

    return reproduce_imagawa(args.out or f"results/imagawa-{args.scale}", args.scale,
                             workers=args.workers, scheduler=args.scheduler, seed=args.seed,
                             progress=False if args.quiet else None,
                             formats=formats_option(args.format))


def _kocsis(args):
    from experiments.papers.kocsis import COSTS_SOURCE, projected_core_hours, reproduce_kocsis
    from plots.style import formats_option

    formats = formats_option(args.format)
    if args.scale == "paper" and not args.quiet:
        hours = projected_core_hours(args.scale, args.seed)
        print(f"kocsis at scale paper: 200 trees x 200 runs a point, projected {hours:,.1f} "
              f"core-hours ({COSTS_SOURCE}; drawing a B=8 D=8 tree adds seconds per tree and "
              "worker)", flush=True)
    return reproduce_kocsis(args.out or f"results/kocsis-{args.scale}", args.scale,
                            workers=args.workers, scheduler=args.scheduler, seed=args.seed,
                            progress=False if args.quiet else None, formats=formats)


def _veness(args):
    from experiments.papers.veness import reproduce_veness

    return reproduce_veness(args.out or f"results/veness-{args.scale}", args.scale,
                            workers=args.workers, scheduler=args.scheduler, seed=args.seed)


def _pepels(args):
    from experiments.papers.pepels import (
        COSTS_SOURCE,
        pepels_matches,
        projected_core_hours,
        reproduce_pepels,
    )

    if args.scale == "paper" and not args.quiet:
        matches = pepels_matches(args.scale, args.seed)
        games = sum(m.tournament.games for m in matches)
        print(f"pepels at scale paper: {len(matches)} matches, {games:,} games, projected "
              f"{projected_core_hours(matches):,.0f} core-hours ({COSTS_SOURCE})", flush=True)
    return reproduce_pepels(args.out or f"results/pepels-{args.scale}", args.scale,
                            workers=args.workers, scheduler=args.scheduler, seed=args.seed,
                            progress=False if args.quiet else None)


# paper -> (help, function(args) -> path of the report)
PAPERS = {
    "imagawa": ("Imagawa & Kaneko, biased game trees: Figs. 2-9, Welch tests, ablations",
                _imagawa),
    "kocsis": ("Kocsis & Szepesvari, UCT in P-games: Fig. 2 beside alpha-beta and flat MC",
               _kocsis),
    "pepels": ("Pepels et al., quality-based rewards: Tables 1-4 in six games, k figure",
               _pepels),
    "veness": ("Veness, Lanctot & Bowling, variance reduction: Fig. 1 on Pig, Fig. 2 per game",
               _veness),
}


def register(subparsers) -> None:
    p = subparsers.add_parser("reproduce", help="reproduce a seed paper's figures and tables")
    p.add_argument("paper", choices=sorted(PAPERS), help="; ".join(
        f"{name}: {text}" for name, (text, _) in PAPERS.items()))
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
                   help="imagawa's and kocsis's figure files: png, pdf, svg or several joined "
                   "by commas (default png,pdf); the report shows the PNGs, written whatever "
                   "this says")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    from experiments.runtime.lock import writing
    from experiments.runtime.pool import check_options
    from experiments.runtime.store import check_writable

    check_options(args.workers, args.scheduler)  # before anything is written
    args.out = args.out or f"results/{args.paper}-{args.scale}"
    with writing(args.out, can_wait=False):  # one writer per folder; no --wait here
        check_writable(args.out)  # before anything is computed
        report = PAPERS[args.paper][1](args)
    print(f"report: {report}", file=sys.stdout)
    print(f"figures, tables and stored results: {report.parent}/")
    return 0
