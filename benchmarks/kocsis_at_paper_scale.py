"""One method of ``reproduce kocsis`` on one panel of Fig. 2 at the paper's size (200 trees x
200 runs a point, Sect. 3.1) up to a budget, beside the paper's curve with the report's
verdicts (``experiments.papers.kocsis.paper_values``): what the quick scale cannot resolve.
Stored results are kept, so an interrupted run resumes; ``--trees`` takes a fraction.

    python benchmarks/kocsis_at_paper_scale.py --method value:uct --panel 2 20 \
        --max-budget 4096 --out DIR [--trees 200] [--runs 200] [--workers 2]
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from experiments.papers.kocsis.paper_values import beside_by_value, beside_paper, paper_fig2
from experiments.papers.kocsis.study import (
    BY_VALUE,
    METHODS,
    Panel,
    method_curve,
    over_trees,
    tree_rates,
)
from experiments.runtime.store import write_table
from experiments.studies.execution import run_study
from experiments.studies.study import Study


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="value:uct", choices=list(METHODS))
    parser.add_argument("--panel", nargs=2, type=int, default=(2, 20), metavar=("B", "D"))
    parser.add_argument("--trees", type=int, default=200)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--max-budget", type=int, default=2**12)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    curve = replace(method_curve(args.method, Panel(*args.panel), "paper"), trees=args.trees,
                    runs=args.runs, max_budget=args.max_budget)
    study = Study((curve,), args.seed, 100, f"kocsis-{args.method}-paper-size")
    run_study(study, args.out, workers=args.workers, progress=True)
    table = over_trees(tree_rates(args.out, study))
    paper = paper_fig2()
    beside = (beside_by_value(table, paper, BY_VALUE) if args.method in BY_VALUE
              else beside_paper(table, paper))
    write_table(table, args.out / "failure_rates.csv")
    write_table(beside, args.out / "beside_paper.csv")
    print(beside[["budget", "ours", "ours_se", "paper", "paper_se", "low", "high", "margin",
                  "verdict"]].to_string(index=False, float_format=lambda x: f"{x:.4f}"))


if __name__ == "__main__":
    main()
