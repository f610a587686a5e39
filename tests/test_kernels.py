"""Kernels: one per policy, b and score type, whatever the options (each compiled once), and
``mctslab compile``."""

import numpy as np

from enhancements import ADJUSTERS
from experiments import Curve, failure_block
from experiments.cli import main
from experiments.curves.failure import tree_instance
from experiments.studies.execution import run_study
from experiments.studies.study import Study
from mcts.synthetic import run_searches

OPTIONS = [{}, {"restart": True}, {"freeze": 3}, {"shaping": "rb(k=8)+qb(k=2,a=online)"},
           {"discount": 0.8}]


def _kernels(policy_record: str, dtype: str) -> set:
    """The signatures of ``run_searches`` for this policy record on b = 4 trees of this score
    type."""
    return {signature for signature in run_searches.signatures
            if policy_record in str(signature) and "UniTuple(int64 x 4)" in str(signature)
            and f"array({dtype}" in str(signature)}


def test_every_built_in_adjuster_and_option_shares_one_kernel():
    """A run over every built-in adjuster (with their parameters, re-scoring for maxfreq) and
    the options restart, freeze, shaping and discount compiles one kernel for the policy."""
    tree = "random(4,2)+end(0.1)"
    dtype = str(tree_instance(tree, 4, 4, 0, 0).path_score.dtype)
    curves = [Curve(tree, "moss", adjuster, depth=4, max_budget=8, runs=2, **options)
              for adjuster in ADJUSTERS for options in OPTIONS]
    curves += [Curve(tree, "moss", "maxfreq", depth=4, max_budget=8, runs=2, rescore=True),
               Curve(tree, "moss", "score", depth=4, max_budget=8, runs=2,
                     adjuster_params={"s": 0.5, "interval": 3})]
    for curve in curves:
        assert failure_block(curve, 0, 0, 2, seed=1).shape == (2, 4)
    assert len(_kernels("MOSS", dtype)) == 1, _kernels("MOSS", dtype)


def test_the_compile_command_prepares_a_kernel(capsys):
    """One search kernel, and with --bandit the policy's plain-bandit loop and the baselines'
    (compiled here: one worker runs in this process)."""
    from bandits.flat import flat_runs
    from bandits.pure_exploration import pure_exploration_runs

    assert main(["compile", "--policies", "egreedy", "--trees", "constant(1,3)",
                 "--workers", "1", "--bandit"]) == 0
    out = capsys.readouterr().out
    assert "the egreedy search kernel (b=4)" in out and "1 kernel on 1 process " in out
    assert np.isfinite(float(out.split("constant(1,3): ")[1].split(" s")[0]))
    assert "the egreedy plain-bandit loop" in out and "the baselines' plain-bandit loop" in out
    assert any("EpsilonGreedy" in str(signature[0]) for signature in flat_runs.signatures)
    assert pure_exploration_runs.signatures


def test_a_study_says_what_it_compiles_and_times_search_apart(tmp_path, capsys):
    """While a kernel is first used the progress bar names it; the summary counts search
    seconds and kernel seconds apart."""
    study = Study((Curve("constant(1,3)", "ucb1tuned", "plain", depth=4, max_budget=64,
                         runs=8),), seed=3, block=4)
    summary = run_study(study, tmp_path / "s", workers=1, progress=True)
    err = capsys.readouterr().err
    assert "1 search kernel(s): each is compiled on first use" in err
    assert "compiling or loading the ucb1tuned search kernel (b=4)" in err
    assert summary.computed == 2 and summary.playouts > 0
    assert summary.kernel_seconds > 0 and summary.search_seconds > 0
    assert "playouts/s per worker searching" in summary.speed()


def test_the_atlas_and_the_main_job_share_one_kernel_per_policy(monkeypatch, capsys):
    """Seed 001's trees and the atlas's P-game share one score type, so
    `mctslab compile --policies ucb1 klucb` prepares two kernels, not two per score type."""
    from experiments.comparisons.atlas import ATLAS_TREES
    from experiments.curves.kernels import distinct_kernels

    assert len(distinct_kernels(Curve(tree, "ucb1", runs=1, max_budget=1)
                                for tree in ATLAS_TREES)) == 1
    monkeypatch.setattr("experiments.curves.kernels.prepare_kernels",
                        lambda curves, workers: iter(()))
    assert main(["compile", "--policies", "ucb1", "klucb", "--workers", "1"]) == 0
    assert "compiling 2 kernels" in capsys.readouterr().out


def test_compile_takes_entries_with_parameters_and_root_policies(monkeypatch, capsys):
    """``compile --policies 'ucb1(c=0.5)' 'ucb1(root=sh)' 'ucb1(root=gumbel)'``: the entries
    read as compare reads them; c=0.5 shares UCB1's kernel and each root policy has its own
    (``kernel_key``), so three are prepared (not compiled here: the root kernels would cost the
    suite compiles no other test needs)."""
    prepared = []

    def record(curves, workers):
        prepared.extend(curves)
        return iter(())

    monkeypatch.setattr("experiments.curves.kernels.prepare_kernels", record)
    assert main(["compile", "--policies", "ucb1(c=0.5)", "ucb1(root=sh)", "ucb1(root=gumbel)",
                 "--trees", "constant(1,5)", "--workers", "1"]) == 0
    assert "compiling 3 kernels" in capsys.readouterr().out
    assert sorted((curve.policy, curve.root) for curve in prepared) == [
        ("ucb1", ""), ("ucb1", "gumbel"), ("ucb1", "sh")]
