"""``mctslab bandit`` end to end: the report and its figures, a rerun that computes
nothing, more runs that compute only the new ones, a plug-in policy run by the same loop, and
the Beta arms' lower-bound divergence."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special

from bandits.arms import beta_kinf, parse_arms
from bandits.klucb import bernoulli_kl
from experiments.cli import main
from experiments.plain_bandits.study import BanditStudy, log_grid, policy_runs, run_study

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["bandit", "--arms", "bernoulli(0.7,0.5,0.4)", "beta(0.6,0.5,s=4)", "--horizon", "300",
        "--runs", "20", "--policies", "ucb1", "klucb", "egreedy", "--format", "png", "--quiet"]


def test_report_figures_and_a_rerun_that_computes_nothing(tmp_path, saved_figures, monkeypatch):
    out = tmp_path / "b"
    assert main([*ARGS, "--out", str(out)]) == 0
    report = (out / "report.md").read_text()
    assert "## bernoulli(0.7,0.5,0.4)" in report and "## beta(0.6,0.5,s=4)" in report
    # the parameters, defaults included, and each policy's regret against the first's
    assert "- policy parameters: ucb1(c=1.41421,depth_exponent=0), klucb(c=0)" in report
    assert "| klucb | ucb1 | 300 |" in report and "regret difference [95% interval]" in report
    assert not re.search(r"\de-1\d", report)  # a rounding residue is written 0
    table = pd.read_csv(out / "bandit.csv")
    assert set(table["method"]) == {"ucb1", "klucb", "egreedy", "uniform", "successive_rejects",
                                    "sequential_halving", "Lai-Robbins",
                                    "UCB1 bound (Auer et al.)"}
    regret = saved_figures["regret_problem1_bernoulli.png"].axes[0]
    assert [line.get_label() for line in regret.get_lines()] == [
        "ucb1", "klucb", "egreedy", "Lai-Robbins", "UCB1 bound (Auer et al.)"]
    policies, baselines = saved_figures["identification_problem2_beta.png"].axes
    assert len(policies.get_lines()) == 3 * 2  # each policy by its two rules
    assert [line.get_label() for line in baselines.get_lines()] == [
        "uniform", "successive rejects", "sequential halving"]

    import experiments.plain_bandits.study as runner

    def refuse(*args):
        raise AssertionError("a stored result was computed again")

    monkeypatch.setattr(runner, "flat_runs", refuse)
    monkeypatch.setattr(runner, "pure_exploration_runs", refuse)
    assert main([*ARGS, "--out", str(out)]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(out / "bandit.csv"), table)


def test_more_runs_compute_only_the_new_ones(tmp_path, monkeypatch):
    """A study grown from 20 to 30 runs computes runs 20-29 alone, one cut to 10 computes
    nothing, and both equal the study run from scratch."""
    import experiments.plain_bandits.study as runner
    from experiments.runtime.store import KeyedStore

    def study(runs):
        return BanditStudy(("bernoulli(0.7,0.5,0.4)",), ("ucb1", "thompson"),
                           ("uniform", "sequential_halving"), horizon=200, runs=runs, seed=3)

    store = KeyedStore(tmp_path / "kept")
    run_study(study(20), store=store)
    computed = []
    flat_runs, baseline = runner.flat_runs, runner.pure_exploration_runs

    def counted(function):
        def run(*args):
            computed.append(len(args[-2] if function is flat_runs else args[-1]))
            return function(*args)
        return run

    monkeypatch.setattr(runner, "flat_runs", counted(flat_runs))
    monkeypatch.setattr(runner, "pure_exploration_runs", counted(baseline))
    grown = run_study(study(30), store=store)
    budgets = len(study(30).baseline_budgets(parse_arms("bernoulli(0.7,0.5,0.4)")))
    assert sum(computed) == 10 * (2 + 2 * budgets)  # 10 new runs of each policy and budget
    computed.clear()
    cut = run_study(study(10), store=store)
    assert computed == []
    monkeypatch.undo()
    pd.testing.assert_frame_equal(grown, run_study(study(30)))
    pd.testing.assert_frame_equal(cut, run_study(study(10)))


def test_a_plugin_policy_runs_in_the_same_loop(monkeypatch):
    """examples/my_ucb1.py is UCB1 under another name: it pulls exactly as ucb1 does."""
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    arms, grid = parse_arms("bernoulli(0.6,0.5,0.3)"), log_grid(400)
    mine = policy_runs("my_ucb1:policy", arms, 400, 10, 5, grid)
    builtin = policy_runs("ucb1", arms, 400, 10, 5, grid)
    assert all((a == b).all() for a, b in zip(mine, builtin))


def _beta_kl(a, b, a2, b2):
    """KL(Beta(a, b) || Beta(a2, b2)), in closed form."""
    return (special.betaln(a2, b2) - special.betaln(a, b) + (a - a2) * special.digamma(a)
            + (b - b2) * special.digamma(b) + (a2 - a + b2 - b) * special.digamma(a + b))


@pytest.mark.parametrize(("mean", "s", "star"), [(0.5, 4.0, 0.6), (0.2, 2.0, 0.5),
                                                 (0.8, 10.0, 0.9)])
def test_beta_kinf_lies_between_the_bernoulli_kl_and_a_beta_above_the_best(mean, s, star):
    """K_inf(nu, mu*) is an infimum over the laws on [0, 1] of mean above mu*: at most the KL
    to any one of them (a Beta of mean just above mu*), at least kl(mean, mu*) (the Bernoulli
    law is the least informative of a given mean on [0, 1])."""
    a, b = s * mean, s * (1 - mean)
    kinf = beta_kinf(a, b, star)
    above = min(_beta_kl(a, b, t * (star + 1e-6), t * (1 - star - 1e-6))
                for t in np.geomspace(0.5, 50, 60) * s)
    assert bernoulli_kl(mean, star) < kinf < above
    assert math.isfinite(kinf)


def test_bernoulli_arms_have_the_bernoulli_divergence():
    arms = parse_arms("bernoulli(0.9,0.8,0.9)")
    assert arms.divergences() == pytest.approx([0, bernoulli_kl(0.8, 0.9), 0])


def test_a_second_writer_is_refused_without_advising_a_wait_bandit_lacks(tmp_path, capsys):
    import subprocess
    import sys

    from experiments.cli import main

    folder = tmp_path / "bandit"
    script = ("import time\nfrom experiments.runtime.lock import writing\n"
              f"with writing({str(folder)!r}):\n    print('held', flush=True)\n    time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code = main(["bandit", "--arms", "bernoulli(0.9,0.8)", "--horizon", "10", "--runs", "2",
                     "--out", str(folder)])
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "--wait" not in err


def test_the_regret_difference_interval_is_welchs():
    """Against statsmodels' Welch interval of the difference of two means, from the runs."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    from experiments.plain_bandits.report import difference_table

    rng = np.random.default_rng(4)
    samples = {"ucb1": rng.normal(5.0, 1.0, 20), "klucb": rng.normal(4.0, 2.5, 30)}
    frame = pd.DataFrame([{"problem": "p", "kind": "policy", "method": name, "measure": "regret",
                           "t": 100, "runs": x.size, "estimate": x.mean(),
                           "stderr": x.std(ddof=1) / np.sqrt(x.size)}
                          for name, x in samples.items()])
    shown = difference_table(frame, "p", 100).iloc[0]["regret difference [95% interval]"]
    low, high = CompareMeans(DescrStatsW(samples["klucb"]), DescrStatsW(samples["ucb1"])
                             ).tconfint_diff(usevar="unequal")
    difference = samples["klucb"].mean() - samples["ucb1"].mean()
    assert shown == f"{difference:.3g} [{low:.3g}, {high:.3g}]"
