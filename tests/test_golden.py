"""Golden curves: exact failure counts, playouts and a digest
of every run's failures for small curves for every built-in policy,
pinned so that a refactor which changes a single choice of the engine fails here.

Regenerate (only for a change that moves the numbers on purpose, said so in its commit):
``MCTSLAB_UPDATE_GOLDEN=1 python -m pytest -n 0 tests/test_golden.py``.
"""

import hashlib
from pathlib import Path

import numpy as np
import pytest
from golden_values import golden_values, missing_pin

from bandits import POLICIES
from experiments import Curve
from experiments.curves.failure import simulate_block

GOLDEN = Path(__file__).parent / "golden" / "curves.json"
SEED = 2024
ALL_POLICIES = tuple(POLICIES)  # the registry's built-ins: a new one needs its pin
ALL_ADJUSTERS = ("plain", "maxfreq", "static", "score", "value")
PINNED_FIRST = {(p, a) for p in ("ucb1", "klucb", "thompson") for a in ("plain", "maxfreq")}
CASES = [
    *[("random(4,2)", policy, adjuster, {"trees": 2, "runs": 100})
      for policy in ("ucb1", "klucb", "thompson") for adjuster in ("plain", "maxfreq")],
    *[("constant'(1,13)", policy, "maxfreq", {"runs": 200})
      for policy in ("ucb1", "klucb", "thompson")],
    *[("constant'(1,13)", "ucb1", adjuster, {"runs": 200})
      for adjuster in ("static", "score", "value")],
    ("constant(1,5)", "ucb1", "maxfreq", {"runs": 200, "adjuster_params": {"offset": -0.5}}),
    ("random(4,2)", "klucb", "value", {"trees": 2, "runs": 100, "restart": True}),
    # small enough to be solved within the budget: runs stop early, playouts vary
    ("constant(1,3)", "ucb1", "plain", {"runs": 200, "branching": 2, "depth": 6}),
    # every built-in policy x adjuster, on a tree where the adjusters' thresholds move
    *[("random(4,2)", policy, adjuster, {"runs": 40, "trees": 2})
      for policy in ALL_POLICIES for adjuster in ALL_ADJUSTERS
      if (policy, adjuster) not in PINNED_FIRST],
    # reward shaping (seed 000's bonuses) and exact re-scoring, as engine options
    *[("random(4,2)", policy, "plain", {"runs": 40, "trees": 2,
                                        "shaping": "rb(k=8)+qb(k=2,a=online)"})
      for policy in ("ucb1", "ucb1tuned", "thompson")],
    ("constant(1,3)+end(0.2)", "ucb1", "plain", {"runs": 100, "shaping": "rb(k=4)"}),
    *[("random(4,2)", policy, "maxfreq", {"runs": 40, "trees": 2, "rescore": True})
      for policy in ("ucb1", "klucb", "ucbv")],
    # Kocsis & Szepesvari's bias exponent, D the plies left at the node (Sect. 3.1)
    ("pgame(127)", "ucb1", "plain", {"runs": 100, "failure": "score", "final_move": "mean",
                                     "policy_params": {"depth_exponent": 1, "c": 1.0}}),
]


def _case_id(case) -> str:
    tree, policy, adjuster, options = case
    extra = ",".join(f"{k}={v}" for k, v in options.items() if k not in ("runs", "trees"))
    return f"{tree} {policy} {adjuster}" + (f" {extra}" if extra else "")


def _measure(case) -> dict:
    tree, policy, adjuster, options = case
    curve = Curve(tree, policy, adjuster, max_budget=512, **options)
    blocks = [simulate_block(curve, j, 0, curve.runs, SEED) for j in range(curve.trees)]
    failed = np.concatenate([failed for failed, _ in blocks])
    played = sum(int(n.sum()) for _, n in blocks)
    return {"failures": failed.sum(axis=0).tolist(), "playouts": played,
            "runs_md5": hashlib.md5(np.packbits(failed).tobytes()).hexdigest()}


@pytest.fixture(scope="module")
def golden() -> dict:
    return golden_values(GOLDEN, CASES, _case_id, _measure,
                         lambda case: case[1] if case[1] in POLICIES else None)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_golden_curve(case, golden):
    assert _case_id(case) in golden, missing_pin(_case_id(case))
    assert _measure(case) == golden[_case_id(case)]
