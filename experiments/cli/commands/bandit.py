"""``mctslab bandit``: the selection policies on plain stochastic bandits, regret against its
bounds and best-arm identification beside the pure-exploration baselines."""

from __future__ import annotations

import sys

from experiments.cli.params import COUNT, SEED, Budgets, budgets_item


def register(subparsers) -> None:
    from bandits.pure_exploration import ALGORITHMS
    from experiments.plain_bandits.study import DEFAULT_POLICIES, PRESETS

    p = subparsers.add_parser(
        "bandit", help="policies on plain Bernoulli or Beta bandits: regret against the "
        "Lai-Robbins and UCB1 bounds, and best-arm identification; running again into --out "
        "computes only what it lacks")
    p.add_argument("--arms", nargs="+", metavar="SPEC",
                   help="bandit problems, e.g. bernoulli(0.9,0.8,0.8) beta(0.5,0.4,s=4)")
    p.add_argument("--preset", choices=tuple(PRESETS),
                   help="garivier-cappe: Garivier & Cappe 2011's Bernoulli scenarios, "
                   f"{' and '.join(PRESETS['garivier-cappe'])}")
    p.add_argument("--policies", nargs="+", metavar="NAME", default=list(DEFAULT_POLICIES),
                   help="policies (`mctslab policies list`, package.module:object, "
                   f"name(key=value,...); default {' '.join(DEFAULT_POLICIES)})")
    p.add_argument("--baselines", nargs="*", metavar="NAME", default=list(ALGORITHMS),
                   choices=tuple(ALGORITHMS),
                   help=f"fixed-budget best-arm identification baselines (default all: "
                   f"{' '.join(ALGORITHMS)}; none: --baselines with no name)")
    p.add_argument("--horizon", type=COUNT, default=10_000, help="pulls per run (default 10^4)")
    p.add_argument("--runs", type=COUNT, default=200, help="runs per policy (default 200)")
    p.add_argument("--budgets", type=budgets_item, nargs="+", action=Budgets, metavar="T",
                   help="budgets of the baselines (default: 5 per decade up to the horizon; "
                   "LOW..HIGH: every power of two between, e.g. 16..8192)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the runs (default 0)")
    p.add_argument("--workers", type=COUNT, metavar="N", help="threads (default: all cores)")
    p.add_argument("--out", metavar="DIR",
                   help="results folder (default results/bandit-PRESET, or "
                   "results/bandit-arms with --arms): table, figures, report.md; a rerun "
                   "computes only what it lacks")
    p.add_argument("--format", default="png,pdf", metavar="png|pdf|svg",
                   help="figure files, several joined by commas (default png,pdf)")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=run)


def study_from_args(args):
    """The :class:`experiments.plain_bandits.study.BanditStudy` the options describe (one-line
    errors)."""
    from experiments.plain_bandits.study import PRESETS, BanditStudy

    if args.preset and args.arms:
        raise ValueError("give --arms or --preset, not both")
    problems = PRESETS[args.preset] if args.preset else args.arms
    if not problems:
        raise ValueError("no --arms given: name a problem such as bernoulli(0.9,0.8), or use "
                         "--preset garivier-cappe")
    return BanditStudy(tuple(problems), tuple(args.policies), tuple(args.baselines),
                       args.horizon, args.runs, args.seed, tuple(args.budgets or ()))


def run(args) -> int:
    import numba

    from experiments.cli.limits import check_bandit, check_horizon
    from experiments.plain_bandits.report import TABLE_FILE, write_report
    from experiments.plain_bandits.study import run_study, study_dict
    from experiments.runtime.lock import writing
    from experiments.runtime.store import BANDIT_FILE, KeyedStore, claim
    from plots.style import formats_option

    formats = formats_option(args.format)
    check_horizon(args.horizon)  # before the study plans its points up to the horizon
    study = study_from_args(args)
    check_bandit(study)
    if args.workers:
        numba.set_num_threads(min(args.workers, numba.config.NUMBA_NUM_THREADS))
    out = args.out or f"results/bandit-{args.preset or 'arms'}"
    with writing(out, can_wait=False) as folder:  # bandit has no --wait
        # a folder of bandit studies (its results are keyed by run, so any bandit study may
        # grow it), and of no other kind
        claim(folder, BANDIT_FILE, {"kind": "bandit"},
              refusal=lambda _: f"{folder / BANDIT_FILE} is not a bandit study's: delete that "
                                "file and run the same command again")
        store = KeyedStore(folder / "results")
        store.check_writable()
        store.remove_temporary_files()
        frame = run_study(study, store=store,
                          progress=not args.quiet and sys.stderr.isatty())
        settings = {**study_dict(study), "command": " ".join(["mctslab", *sys.argv[1:]])}
        write_report(folder, frame, settings, formats)
    if not args.quiet:
        print(f"bandit: {len(study.problems)} problems x {len(study.policies)} policies x "
              f"{study.runs} runs of {study.horizon:,} pulls, and {len(study.baselines)} "
              f"baselines, in {out}")
        print(f"report: {out}/report.md (table: {out}/{TABLE_FILE})")
    return 0

