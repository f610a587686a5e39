"""``mctslab plot DIR``: figures of a study's stored failure-rate curves (never re-running it)."""

from __future__ import annotations

from pathlib import Path

from experiments.cli.params import trust_option


def register(subparsers) -> None:
    p = subparsers.add_parser("plot", help="draw the failure-rate curves stored in a study folder")
    p.add_argument("folder", metavar="DIR", help="folder of a study's results")
    p.add_argument("--out", metavar="FOLDER",
                   help="where the figures go (default: DIR/figures)")
    p.add_argument("--format", default="png,pdf", metavar="png|pdf|svg",
                   help="figure files: png, pdf, svg or several joined by commas "
                   "(default png,pdf)")
    trust_option(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from experiments.runtime.store import write_figures
    from experiments.studies.study import load_results, reading_study
    from plots.failure import failure_figures
    from plots.style import formats_option

    formats = formats_option(args.format)
    frame = load_results(args.folder, args.trust_plugins)
    if frame.empty:
        raise ValueError(f"{args.folder} holds no finished shard yet: "
                         f"run `mctslab study run STUDY.toml --out {args.folder}` first")
    out = Path(args.out) if args.out else Path(args.folder) / "figures"
    with reading_study(args.folder, args.trust_plugins):  # labels from the recorded plug-ins
        figures = failure_figures(frame)
    for name, figure in figures.items():
        paths = write_figures(figure, out / name, formats)
        print(f"figure written to {', '.join(map(str, paths))}")
    return 0
