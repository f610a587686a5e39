"""Speed of the plain-Python reference UCT (UCB1, plain threshold) on b=4, d=8 trees.

The baseline against which the compiled engine's speed-up is quoted: the reference search that
the tests hold as their oracle (``tests/reference_mcts.py``). Run it from the repository's root
as ``python -m benchmarks.python_uct_baseline``.
"""

from __future__ import annotations

import time

from tests.reference_mcts import reference_run
from trees import make_tree


def playouts_per_second(spec: str = "constant(1,5)", runs: int = 2, budget: int = 16384) -> float:
    """Playouts per second of ``runs`` reference searches of ``budget`` playouts each, one after
    the other (the move is recorded once, after the last playout)."""
    tree = make_tree(spec, branching=4, depth=8, seed=0)
    start = time.perf_counter()
    for run in range(runs):
        reference_run(tree, [budget], policy="ucb1", adjuster="plain", rng=run)
    return runs * budget / (time.perf_counter() - start)


if __name__ == "__main__":
    print(f"plain-Python UCT, constant(1,5), b=4, d=8: {playouts_per_second():,.0f} playouts/s")
