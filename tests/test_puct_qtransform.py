"""PUCT's Q transform: raw by default, bit for bit today's search; mctx's
``qtransform_by_parent_and_siblings`` by hand, against the plain-Python reference (written as
mctx writes it), in the game engines, and its bad values."""

import numpy as np
import pandas as pd
import pytest
from numba import njit
from reference_mcts import parent_and_siblings_q, reference_failure_rate

from bandits import PUCT, Arm, index_tables, make_policy, policy_value, with_q_range
from experiments import Curve, failure_block
from experiments.cli import main
from experiments.curves.failure import tree_instance

# the b = 4 PUCT kernel that the engine's tests compile
OPTIONS = {"branching": 4, "depth": 4, "max_budget": 256}


@njit
def _indices(policy, means, counts, parent_value, low, high, tables, rng):
    ranged = with_q_range(policy, parent_value, 1.0, low, high)
    return [policy_value(ranged, Arm(means[i], 0.0, counts[i], counts.sum(),
                                             means.size, 1.0 / means.size),
                         tables, rng) for i in range(means.size)]


def test_the_transform_by_hand():
    """Children with means 0.2, 0.6 and one unvisited, parent value 0.4: the range is
    [0.2, 0.6], so Q = 0, 1 and 0 (unvisited: the range's bottom), and the index is Q plus
    the prior term sqrt(t) / (K (1 + n)) (c_init + ln((t + c_base + 1) / c_base))."""
    means, counts = np.array([0.2, 0.6, 0.0]), np.array([3, 1, 0])
    tables, rng = index_tables(8), np.zeros(4, np.uint64)
    scale = 1.25 + np.log((4 + 19652.0 + 1) / 19652.0)
    prior = np.sqrt(4) / (3 * (1.0 + counts)) * scale
    ranged = _indices(make_policy("puct", qtransform="parent_and_siblings"), means, counts, 0.4,
                      0.2, 0.6, tables, rng)
    assert np.allclose(ranged, np.array([0.0, 1.0, 0.0]) + prior, rtol=0, atol=1e-12)
    raw = _indices(make_policy("puct"), means, counts, 0.4, 0.2, 0.6, tables, rng)
    assert np.allclose(raw, np.array([0.2, 0.6, 0.5]) + prior, rtol=0, atol=1e-12)
    # the reference, written as mctx writes it, agrees; a parent value outside widens the range
    siblings = [(0.6, 3, 3), (0.6, 1, 1), (0.0, 0, 0)]  # (reward sum, visits, T')
    assert parent_and_siblings_q(0.6, 3, 3, siblings) == pytest.approx(0.0)
    assert parent_and_siblings_q(0.6, 1, 1, siblings) == pytest.approx(1.0)
    assert parent_and_siblings_q(0.0, 0, 0, siblings) == 0.0
    wide = _indices(make_policy("puct", qtransform=1), means, counts, 0.9, 0.2, 0.6, tables,
                    rng)
    assert np.allclose(np.array(wide) - prior, [0.0, 0.4 / 0.7, 0.0], rtol=0, atol=1e-12)


def test_raw_is_the_default_and_todays_search_bit_for_bit():
    default = Curve("random(3,2)", "puct", "plain", runs=100, **OPTIONS)
    raw = Curve("random(3,2)", "puct", "plain", runs=100, policy_params={"qtransform": "raw"},
                **OPTIONS)
    assert raw.key == default.key and "qtransform" not in raw.policy_params
    assert np.array_equal(failure_block(default, 0, 0, 100, seed=5),
                          failure_block(raw, 0, 0, 100, seed=5))
    assert PUCT().qtransform == 0.0


def test_the_transform_agrees_with_the_reference_and_moves_the_curve():
    """Failure rates per budget with the transform agree with the plain-Python reference's
    (|z| < 4 at every budget) and differ from the raw search's (z > 4 at some budget: 10 and
    17 at 64 and 128 when written). Budgets to 128: the plain-Python reference's runs cost
    their playouts."""
    params = {"qtransform": "parent_and_siblings"}
    options = {**OPTIONS, "max_budget": 128}
    curve = Curve("random(3,2)", "puct", "plain", runs=3000, policy_params=params, **options)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=6).mean(axis=0)
    instance = tree_instance(curve.tree, 4, 4, 6, 0)
    runs = 800
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=12,
                                                policy="puct",
                                                policy_params={"qtransform": 1.0}))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)
    raw = failure_block(Curve("random(3,2)", "puct", "plain", runs=3000, **options), 0, 0,
                        3000, seed=6).mean(axis=0)
    both = (raw + kernel) / 2
    z = np.abs(raw - kernel) / (np.sqrt(both * (1 - both) * 2 / 3000) + 1e-12)
    assert z.max() > 4, (raw, kernel)


def test_the_transform_reaches_the_game_engine(tmp_path, capsys):
    """A Breakthrough match between raw PUCT and PUCT with the transform, same seed: the
    transform changes the moves (the games differ from raw against raw)."""
    def moves(spec):
        out = tmp_path / spec.replace("=", "-")
        assert main(["tournament", "breakthrough", "--a", spec, "--b", "puct", "--games", "2",
                     "--playouts", "60", "--seed", "3", "--workers", "1", "--out", str(out)]) == 0
        return pd.concat(pd.read_parquet(p) for p in sorted(out.glob("**/blocks/*.parquet")))

    raw, ranged = moves("puct"), moves("puct(qtransform=parent_and_siblings)")
    assert not raw.equals(ranged)


@pytest.mark.parametrize("value", ["2", "minmax", "-1"])
def test_a_bad_transform_is_one_line(value, capsys):
    assert main(["failure-rate", "--tree", "constant(1,3)", "--policy", "puct",
                 "--policy-param", f"qtransform={value}", "--runs", "2"]) == 2
    err = capsys.readouterr().err
    assert "qtransform" in err and "parent_and_siblings" in err and err.count("\n") == 1, err
