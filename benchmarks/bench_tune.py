"""``mctslab tune``'s speed target: UCB1's c on Constant(1,5) at 4,096 playouts, 16 values on a
log scale, in at most 60 s warm on 2 cores, spending at most a third of a full grid's playouts
at the same runs.

Runs the command ``--repeat`` times, each into a new folder (nothing reused), after one run
that loads or compiles the kernel, and prints the median wall seconds and the race's share of
the grid's playouts (the same every time: same seed, same numbers).

    python benchmarks/bench_tune.py [--range c=0.01..10:log] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS, TARGET_SHARE = 60.0, 1 / 3


def run(folder: Path, param: str) -> tuple[float, dict]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "tune", "--tree", "constant(1,5)",
         "--param", param, "--budget", "4096", "--values", "16", "--json", "--quiet",
         "--out", str(folder)], check=True, capture_output=True, text=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--range", default="c=0.01..10:log", help="the --param of the tuning")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp) / "warm-up", args.range.replace("10", "1"))  # the kernel, loaded once
        times, summary = [], {}
        for k in range(args.repeat):
            seconds, summary = run(Path(tmp) / f"run{k}", args.range)
            times.append(seconds)
    result = {"range": args.range, "median_seconds": statistics.median(times),
              "seconds": times, "share_of_grid": summary["share_of_grid"],
              "chosen": summary["chosen"], "interval": summary["interval"],
              "target_seconds": TARGET_SECONDS, "target_share": TARGET_SHARE}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"tune {args.range} on constant(1,5) at 4096: median {result['median_seconds']:.1f} s "
          f"(target <= {TARGET_SECONDS:.0f} s), {result['share_of_grid']:.0%} of a full grid's "
          f"playouts (target <= {TARGET_SHARE:.0%}); chosen {summary['chosen']}, kept "
          f"{summary['interval']}")


if __name__ == "__main__":
    main()
