"""The ablation ``terminals_at_threshold``: a terminal reached inside the tree rewarded at the
adjuster's effective threshold instead of threshold 0 (DESIGN.md §3), against the plain-Python
reference; what it changes for the root policies under MaxFrequency; its spellings."""

import numpy as np
import pytest
from reference_mcts import reference_failure_rate

from experiments import Curve, failure_block
from experiments.cli import main
from experiments.comparisons.grid import cell_labels
from experiments.curves.entries import method_fields
from experiments.curves.failure import tree_instance

# a tree ending early at every depth (terminals inside the tree from the first playouts) whose
# static threshold and MaxFrequency's move the terminals' outcomes away from threshold 0's; b = 4,
# the UCB1 kernel the suite compiles anyway
SMALL = {"branching": 4, "depth": 6, "max_budget": 128}
SMALL_TREE = "constant(1,5)+end(0.4)"


def _z(a, b, runs_a, runs_b):
    pooled = (a * runs_a + b * runs_b) / (runs_a + runs_b)
    return np.abs(a - b) / (np.sqrt(pooled * (1 - pooled) * (1 / runs_a + 1 / runs_b)) + 1e-12)


@pytest.mark.parametrize("adjuster", ["static", "maxfreq"])
def test_the_engine_agrees_with_the_reference(adjuster):
    """Failure rates per budget agree with the plain-Python reference's under the flag (|z| < 4
    at every budget, 3000 engine runs against 1000), and differ from the default rule's
    (z > 4 at some budget: the flag reaches the search; at 32 playouts the static threshold's
    rates are 0.001 and 0.998)."""
    curve = Curve(SMALL_TREE, "ucb1", adjuster, runs=3000, terminals_at_threshold=True, **SMALL)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=4).mean(axis=0)
    instance = tree_instance(SMALL_TREE, SMALL["branching"], SMALL["depth"], 4, 0)
    runs = 1000
    reference = np.array(reference_failure_rate(instance, curve.budgets, runs, seed=11,
                                                adjuster=adjuster, terminals_at_threshold=True))
    assert np.all(_z(kernel, reference, curve.runs, runs) < 4.0), (kernel, reference)
    default = Curve(SMALL_TREE, "ucb1", adjuster, runs=3000, **SMALL)
    at_zero = failure_block(default, 0, 0, default.runs, seed=4).mean(axis=0)
    assert _z(kernel, at_zero, curve.runs, default.runs).max() > 4.0, (kernel, at_zero)


def test_it_removes_the_root_policies_failures_at_8k_under_maxfreq():
    """Sequential halving at the root under MaxFrequency on Constant(1,5) fails about 0.45 of
    its runs at 8,192 playouts (the quick atlas's rise): its last round's means mix playouts
    scored at the threshold with the tree's terminals scored at 0. Scored at the threshold
    too, it fails about 0.003. 200 runs: the two binomials are 12 standard errors apart."""
    def rate(flag):
        curve = Curve("constant(1,5)", "ucb1", "maxfreq", runs=200, max_budget=8192,
                      root="sh", terminals_at_threshold=flag)
        return failure_block(curve, 0, 0, curve.runs, seed=7)[:, -1].mean()

    assert rate(False) > 0.25
    assert rate(True) < 0.05


def test_the_default_keeps_stored_keys_and_the_entries_read_back():
    """Off, the field is left out of the stored configuration (old keys stay valid); on, an
    adjuster entry's ``terminals_at_threshold=1`` asks for it, and the tables write it back."""
    default = Curve("constant(1,5)", "ucb1", "maxfreq")
    assert "terminals_at_threshold" not in default.to_dict()
    fields = method_fields("ucb1", "maxfreq(terminals_at_threshold=1,rescore=1)")
    assert fields["terminals_at_threshold"] and fields["rescore"]
    curve = Curve("constant(1,5)", **fields)
    assert curve.key != Curve("constant(1,5)", **{**fields, "terminals_at_threshold": False}).key
    adjuster = cell_labels(curve)[2]
    assert method_fields("ucb1", adjuster) == fields, adjuster


def test_a_malformed_flag_is_one_line_and_exit_2(capsys):
    """``terminals_at_threshold=2`` in an adjuster entry names the problem, exit 2."""
    code = main(["failure-rate", "--tree", "constant(1,5)", "--adjuster",
                 "maxfreq(terminals_at_threshold=2)", "--runs", "2", "--max-budget", "8"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "terminals_at_threshold" in err, err
