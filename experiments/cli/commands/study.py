"""``mctslab study run STUDY.toml --out DIR``, ``mctslab study status DIR`` and
``mctslab study repair DIR [--study STUDY.toml]``."""

from __future__ import annotations

import shlex
import sys

from experiments.cli.params import COUNT, trust_option


def register(subparsers) -> None:
    p = subparsers.add_parser("study", help="run a study of failure-rate curves, or show its state")
    actions = p.add_subparsers(dest="action", required=True)

    run_parser = actions.add_parser("run", help="compute (or resume) every shard of a study")
    run_parser.add_argument("study", metavar="STUDY.toml", help="the study file")
    run_parser.add_argument("--out", metavar="DIR", required=True, help="folder of the results")
    run_parser.add_argument("--workers", type=COUNT, metavar="N",
                            help="local worker processes (default: all cores)")
    run_parser.add_argument("--scheduler", metavar="ADDRESS",
                            help="Dask scheduler address, or 'local' for a loopback LocalCluster")
    run_parser.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    run_parser.add_argument("--wait", action="store_true",
                            help="if another process writes DIR, wait for it to finish "
                                 "(default: refuse)")
    run_parser.set_defaults(run=run)

    status_parser = actions.add_parser("status", help="shards and runs stored per curve")
    status_parser.add_argument("folder", metavar="DIR", help="folder of a study's results")
    trust_option(status_parser)
    status_parser.set_defaults(run=status)

    repair_parser = actions.add_parser(
        "repair", help="rebuild a damaged study.json from the stored shards (keeps them all)")
    repair_parser.add_argument("folder", metavar="DIR", help="folder of a study's results")
    repair_parser.add_argument("--study", metavar="STUDY.toml",
                               help="the study file the shards were computed from (default: "
                                    "rebuild from the shards alone)")
    trust_option(repair_parser)
    repair_parser.set_defaults(run=repair)


def run(args) -> int:
    from experiments.comparisons.study_files import read_study
    from experiments.curves.plugin_check import with_plugin_path
    from experiments.studies.execution import run_study
    from experiments.studies.study import study_kind

    progress = not args.quiet and sys.stderr.isatty()
    if study_kind(args.study) == "compare":
        from experiments.comparisons import read_grid, run_compare

        grid = read_grid(args.study)
        study = grid.study()
        first_seconds = _check(study, args)
        summary, _ = run_compare(grid, args.out, workers=args.workers,
                                 scheduler=args.scheduler, progress=progress,
                                 command=with_plugin_path(shlex.join(["mctslab", *sys.argv[1:]]),
                                                          study.curves),
                                 wait=args.wait)
    else:
        study = read_study(args.study)
        first_seconds = _check(study, args)
        summary = run_study(study, args.out, workers=args.workers, scheduler=args.scheduler,
                            progress=progress, wait=args.wait)
    if args.quiet:
        return 0
    if summary.computed:
        print(f"study {study.name}: {summary.shards} shards in {args.out} "
              f"({summary.computed} computed, {summary.reused} already stored); "
              f"{summary.speed(first_seconds)}")
    else:
        print(f"study {study.name}: all {summary.shards} shards already stored in {args.out}")
    return 0


def _check(study, args) -> float:
    """Before anything is written: the study's size against the memory, and its plug-ins
    compiled here (one line each, not the workers' tracebacks): the seconds that took."""
    from experiments.cli.limits import check_study
    from experiments.curves.kernels import check_plugins
    from experiments.runtime.pool import check_options

    check_options(args.workers, args.scheduler)
    check_study(study, args.workers, args.scheduler)
    return check_plugins(study.curves)


def status(args) -> int:
    from experiments.studies.study import open_study, study_status

    if _compare_status(args.folder, args.trust_plugins):
        return 0
    study = open_study(args.folder, args.trust_plugins)
    table = study_status(args.folder, args.trust_plugins)
    width = max(table["label"].str.len().max(), 5)
    done, total = table["shards_done"].sum(), table["shards"].sum()
    print(f"study {study.name} (seed {study.seed}, {study.block} runs per shard) in {args.folder}: "
          f"{done}/{total} shards, {table['runs_done'].sum()}/{table['runs'].sum()} runs")
    print(f"{'curve':<{width}} {'shards':>13} {'runs':>15}")
    for row in table.itertuples():
        shards, runs = f"{row.shards_done}/{row.shards}", f"{row.runs_done}/{row.runs}"
        print(f"{row.label:<{width}} {shards:>13} {runs:>15}")
    damaged = table["shards_damaged"].sum()
    if damaged:
        print(f"{damaged} damaged shard files will be recomputed by the next `mctslab study run`")
    print("complete" if done == total else f"{total - done} shards to go: rerun "
          f"`{resume_command(study.name, args.folder)}` to finish")
    return 0


def _compare_status(folder, trust_plugins: bool) -> bool:
    """Print the state of the comparison stored in ``folder`` as cells; False if it holds none."""
    from pathlib import Path

    from experiments.comparisons import open_grid, plan_blocks
    from experiments.comparisons.cells import CELLS_FILE
    from experiments.comparisons.grid import reading_grid

    if not (Path(folder) / CELLS_FILE).exists():
        return False
    with reading_grid(folder, trust_plugins):
        if (grid := open_grid(folder, trust_plugins)) is None:
            return False
        stored, missing = plan_blocks(grid, folder)
    total = len(stored) + len(missing)
    print(f"comparison {grid.name} (seed {grid.seed}) in {folder}: {grid.cells} cells, "
          f"{len(stored)}/{total} blocks of runs stored")
    print("complete" if not missing else f"{len(missing)} blocks to go: run the comparison "
          f"into {folder} again to finish")
    return True


def repair(args) -> int:
    from experiments.comparisons.study_files import read_study
    from experiments.studies.repair import repair_study

    done = repair_study(args.folder, read_study(args.study) if args.study else None,
                        args.trust_plugins)
    study = done.study
    source = args.study or "the shards alone"
    kept = f"; the previous one is kept as {done.kept}" if done.kept else ""
    print(f"rebuilt {args.folder}/study.json from {source}: study {study.name} (seed "
          f"{study.seed}, {study.block} runs per shard, {len(study.curves)} curves), "
          f"{done.shards} stored shards kept{kept}")
    if not args.study:
        print("the name, the order of the curves and curves without a stored shard are not in "
              "the shards: if `study run` later says the folder holds another study, repair "
              "again with --study STUDY.toml")
    print(f"`mctslab study status {args.folder}` shows what is left to compute")
    return 0


def resume_command(name: str, folder) -> str:
    """The command that completes the study: its reproduction command for a study that
    ``mctslab reproduce`` made (named PAPER-SCALE), else ``study run``."""
    from experiments.papers import paper_names

    paper, _, scale = name.partition("-")
    if paper in paper_names() and scale in ("quick", "paper"):
        return f"mctslab reproduce {paper} --scale {scale} --out {folder}"
    return f"mctslab study run STUDY.toml --out {folder}"
