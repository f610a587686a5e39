"""Golden runs of ``mctslab bandit`` (``experiments.plain_bandits``): every built-in policy's
pulls and recommendations, and each baseline's recommended arms, for seeded runs on a Bernoulli
and a Beta problem, pinned exactly (an MD5 of the arrays and a few totals to read a change by),
so that a change of the flat loop or of the baselines that moves a single pull fails here.

Regenerate (only for a change that moves the numbers on purpose, said so in its commit):
``MCTSLAB_UPDATE_GOLDEN=1 python -m pytest -n 0 tests/test_golden_bandit.py``.
"""

import hashlib
from pathlib import Path

import numpy as np
import pytest
from golden_values import golden_values, missing_pin

from bandits import POLICIES
from bandits.arms import parse_arms
from bandits.pure_exploration import ALGORITHMS, minimum_budget
from experiments.plain_bandits.study import baseline_runs, log_grid, policy_runs

GOLDEN = Path(__file__).parent / "golden" / "bandit.json"
SEED, RUNS, HORIZON = 45, 6, 300
PROBLEMS = ("bernoulli(0.6,0.5,0.5,0.3)", "beta(0.7,0.6,s=4)")
CASES = [*[(problem, "policy", name) for problem in PROBLEMS for name in POLICIES],
         *[(problem, "baseline", name) for problem in PROBLEMS for name in ALGORITHMS]]


def _case_id(case) -> str:
    return " ".join(case)


def _digest(*arrays) -> str:
    return hashlib.md5(b"".join(np.ascontiguousarray(a, np.int64).tobytes()
                                for a in arrays)).hexdigest()


def _measure(case) -> dict:
    problem, kind, name = case
    arms = parse_arms(problem)
    if kind == "policy":
        pulls, recommended = policy_runs(name, arms, HORIZON, RUNS, SEED, log_grid(HORIZON))
        return {"md5": _digest(pulls, recommended), "best_arm_pulls": int(pulls[:, -1, 0].sum()),
                "recommended_best": int((recommended[:, -1, :] == 0).sum())}
    # the smallest budget every baseline accepts, where they still err
    budget = max(minimum_budget(other, len(arms.means)) for other in ALGORITHMS)
    chosen = baseline_runs(name, arms, budget, 4 * RUNS, SEED)
    return {"md5": _digest(chosen), "recommended_best": int((chosen == 0).sum())}


@pytest.fixture(scope="module")
def golden() -> dict:
    return golden_values(GOLDEN, CASES, _case_id, _measure,
                         lambda case: case[2] if case[1] == "policy" else None)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_golden_bandit_run(case, golden):
    assert _case_id(case) in golden, missing_pin(_case_id(case))
    assert _measure(case) == golden[_case_id(case)]
