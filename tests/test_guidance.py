"""Guidance of known quality (``mcts.synthetic.guidance``): the oracle's arrays by hand, its
noise a fixed standard normal, the guided PUCT against deepmind/mctx's ``muzero_policy``
(fixtures written by benchmarks/peers/mctx_fixtures.py), and bad specs."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from experiments import Curve, search_runs
from experiments.cli import main
from experiments.comparisons.grid import Grid
from experiments.curves.failure import simulate_block, tree_instance
from mcts.synthetic.guidance import _VALUE_SLOT_SALT as VALUE_SALT
from mcts.synthetic.guidance import (
    gaussian,
    make_guidance,
    network_key,
    prior_logits,
    values,
)
from trees.layout import level_start

FIXTURES = Path(__file__).parent / "data" / "mctx" / "puct.npz"
TIED = Path(__file__).parent / "data" / "mctx" / "tied.npz"
# the b = 4 PUCT kernel the engine's tests compile
PUCT = "puct(qtransform=parent_and_siblings)"


def test_the_noise_is_a_standard_normal_fixed_per_node():
    """gaussian(key, node, slot) is the same at every call, and over 20,000 nodes a standard
    normal (Kolmogorov-Smirnov; two keys nearly uncorrelated)."""
    draws = np.array([gaussian(np.uint64(5), node, 1) for node in range(20_000)])
    again = np.array([gaussian(np.uint64(5), node, 1) for node in range(0, 20_000, 97)])
    assert np.array_equal(draws[::97], again)
    assert stats.kstest(draws, "norm").pvalue > 1e-3
    other = np.array([gaussian(np.uint64(6), node, 1) for node in range(20_000)])
    assert abs(np.corrcoef(draws, other)[0, 1]) < 0.03


def test_the_oracle_prior_and_value_by_hand():
    """Logits = the mover's exact outcome / tau + noise z(key, node, child); values = clip(o +
    sigma z(key ^ salt, node, b)) with a terminal's true outcome, on Constant(1,5), b = 4,
    d = 4: at the root the optimal move (a draw) has logit 0.5 / tau, the others (losses) 0."""
    instance, key = tree_instance("constant(1,5)", 4, 4, 0, 0), 123
    exact = prior_logits(instance, "oracle(tau=0.5)", key)
    assert exact.shape == (level_start(4, 4), 4)
    root = np.zeros(4)
    root[instance.optimal_move] = 1.0  # 0.5 / tau
    assert np.array_equal(exact[0], root)
    noisy = prior_logits(instance, "oracle(tau=0.5,noise=0.7)", key)
    z = np.array([[gaussian(np.uint64(key), node, j) for j in range(4)]
                  for node in range(exact.shape[0])])
    assert np.allclose(noisy, exact + 0.7 * z, rtol=0, atol=1e-12)
    assert np.array_equal(prior_logits(instance, "uniform", key), np.zeros_like(exact))
    minimax = instance.minimax
    outcome = minimax.outcome(0.0)
    assert np.array_equal(values(instance, "value", key), outcome)
    noisy_values = values(instance, "value(sigma=0.3)", key)
    inner = ~np.asarray(instance.terminal, bool)
    z = np.array([gaussian(np.uint64(key) ^ VALUE_SALT, node, 4)
                  for node in range(outcome.size)])
    assert np.array_equal(noisy_values[inner], np.clip(outcome + 0.3 * z, 0, 1)[inner])
    assert np.array_equal(noisy_values[~inner], outcome[~inner])


def test_a_network_per_run_or_per_instance():
    """By default each run draws its own network; ``network="instance"`` gives every run on
    an instance the instance's."""
    per_run = make_guidance("oracle", "value")
    per_instance = make_guidance("oracle", "value", network="instance")
    assert network_key(per_run, 9, 1) != network_key(per_run, 9, 2)
    assert network_key(per_instance, 9, 1) == network_key(per_instance, 9, 2)
    rows = search_runs("constant(1,5)", PUCT, budget=8, runs=3, depth=4, prior="oracle",
                       evaluate="value", network="instance", trees=2)
    assert rows.groupby("tree").network.nunique().tolist() == [1, 1]
    assert rows.network.nunique() == 2


def test_puct_with_priors_visits_the_root_as_mctx_muzero_policy():
    """On 25 Constant(1,5) and 25 Random(4,3) trees (b = 4, d = 4) with noisy priors and noisy
    values (oracle(tau=1,noise=1), value(sigma=0.2)), the guided PUCT's root visit counts equal
    mctx's ``muzero_policy`` (no Dirichlet noise, the Q transform by parent and siblings) after
    every number of simulations 1..64: all 3,200 (tree, budget) pairs when written, none
    within mctx's float32 tie noise. A budget of n playouts is n - 1 simulations: the first
    evaluates the root, as mctx does before its simulations."""
    fixtures = np.load(FIXTURES)
    assert fixtures["policy"] == PUCT
    for name, model in zip(("constant", "random"), fixtures["models"]):
        expected = fixtures[f"{name}_visits"]
        trees = expected.shape[0]
        for simulations in range(1, expected.shape[1] + 1):
            rows = search_runs(str(model), PUCT, budget=simulations + 1, runs=1,
                               seed=int(fixtures["seed"]), prior=str(fixtures["prior"]),
                               evaluate=str(fixtures["evaluate"]), trees=trees,
                               branching=int(fixtures["branching"]),
                               depth=int(fixtures["depth"]), solver=False)
            assert np.array_equal(rows.network.to_numpy(np.uint64),
                                  fixtures[f"{name}_keys"])
            visits = rows[[f"visits_{k}" for k in range(4)]].to_numpy()
            assert (visits.sum(axis=1) == simulations).all()
            assert np.array_equal(visits, expected[:, simulations - 1]), (model, simulations)


def test_puct_with_tied_priors_visits_the_root_as_mctx_in_distribution():
    """Under a uniform prior and exact values, ties everywhere, broken at random (mctx: 1e-7
    uniform noise), 2,000 searches of each of 2 trees per model at 2, 4, 8 and 16 simulations
    (tests/data/mctx/tied.npz), the unit the search: the distribution of the root's visit
    vectors is mctx's with its scores in float64. Homogeneity (chi-square, rare vectors pooled)
    is not rejected at 0.001 / 16 and, the equivalence, each child's mean visit share differs
    from mctx's by less than 0.03 with 99% confidence. In float32, as mctx runs by default, its
    noise lies below the scores' resolution near 1: ties mostly stay ties and go to the lowest
    index, and the same test rejects at 2 simulations (its power at this size)."""
    fixtures = np.load(TIED)
    for name, model in zip(("constant", "random"), fixtures["models"]):
        expected = fixtures[f"{name}_visits"]  # [trees, budgets, runs, b]
        trees, _, runs, b = expected.shape
        for i, simulations in enumerate(fixtures["budgets"]):
            rows = search_runs(str(model), PUCT, budget=int(simulations) + 1, runs=runs,
                               seed=int(fixtures["seed"]), prior=str(fixtures["prior"]),
                               evaluate=str(fixtures["evaluate"]), trees=trees,
                               branching=b, depth=int(fixtures["depth"]), solver=False)
            for j in range(trees):
                ours = rows[rows.tree == j][[f"visits_{k}" for k in range(b)]].to_numpy()
                theirs = expected[j, i].astype(np.int64)
                assert _homogeneity_p(ours, theirs) > 0.001 / 16, (name, j, simulations)
                share = (ours.mean(0) - theirs.mean(0)) / simulations
                se = np.sqrt(ours.var(0) / runs + theirs.var(0) / runs) / simulations
                assert (np.abs(share) + 2.576 * se < 0.03).all(), (name, j, simulations)
                if simulations == 2:
                    biased = fixtures[f"{name}_visits_float32"][j, i].astype(np.int64)
                    assert _homogeneity_p(ours, biased) < 1e-6


def _homogeneity_p(first: np.ndarray, second: np.ndarray) -> float:
    """The chi-square homogeneity test's p of two samples of vectors, the vectors seen fewer
    than 10 times in both together pooled into one category (1 when there is one category)."""
    vectors, index = np.unique(np.vstack([first, second]), axis=0, return_inverse=True)
    counts = np.zeros((2, len(vectors)), np.int64)
    np.add.at(counts, (np.repeat([0, 1], [len(first), len(second)]), index.ravel()), 1)
    common = counts.sum(0) >= 10
    table = np.column_stack([counts[:, common], counts[:, ~common].sum(1)])
    table = table[:, table.sum(0) > 0]
    return 1.0 if table.shape[1] < 2 else stats.chi2_contingency(table)[1]


def test_perfect_guidance_plays_the_optimal_move_after_one_simulation():
    """With the prior's mass on the optimal moves (tau 0.05) and exact values, PUCT's first
    simulation visits an optimal move and none of the others catches up: no failure from
    budget 2 on, in 200 runs (budget 1 is the root's evaluation: a random move)."""
    curve = Curve("constant(1,5)", "puct", runs=200, max_budget=256, depth=4,
                  prior="oracle(tau=0.05)", evaluate="value")
    failed = simulate_block(curve, 0, 0, 200, 3)[0]
    assert failed[:, 0].mean() > 0.5
    assert not failed[:, 1:].any()


def test_values_without_playouts_beat_random_playouts():
    """PUCT with the exact values and a uniform prior (no playout) fails less than with random
    playouts on Constant(1,5) at 64 evaluations: the value reaches the search. (PUCT, whose
    guided kernel the other tests compile, rather than a guided UCB1 kernel of its own.)"""
    rates = []
    for evaluate in ("", "value"):
        curve = Curve("constant(1,5)", "puct", runs=200, max_budget=64, evaluate=evaluate)
        rates.append(simulate_block(curve, 0, 0, 200, 4)[0][:, -1].mean())
    assert rates[1] < rates[0] - 0.2


def test_a_grid_crosses_maxfreq_with_the_searches_that_play_playouts():
    """MaxFrequency reads playout scores: a comparison crosses it with UCB1 and with a search
    that mixes values and playouts, not with one evaluated by value alone, which keeps its
    plain cell (beside the first adjuster's when it takes none of them)."""
    grid = Grid(("constant(1,5)",), ("ucb1", "puct(evaluate=mix(lam=0.5))",
                                     "puct(evaluate=value(sigma=0.1))"), ("plain", "maxfreq"))
    assert grid.methods == ["ucb1+plain", "puct(evaluate=mix)+plain",
                            "puct(evaluate=value(sigma=0.1))+plain", "ucb1+maxfreq",
                            "puct(evaluate=mix)+maxfreq"]
    only = Grid(("constant(1,5)", "random(4,2)"), ("ucb1", "puct(evaluate=value)"),
                ("maxfreq",))
    assert only.methods == ["ucb1+maxfreq", "puct(evaluate=value)+plain"] and only.cells == 4


def test_the_guidance_preset_at_a_tiny_scale(tmp_path):
    """``compare --preset guidance`` on one tree: its report's section and map; UCB1 with and
    without MaxFrequency beside the guided searches; the exact prior agrees with an optimal
    move at every decisive node; the worse-than-the-prior check at 2, 4, 8, 16 simulations for
    each search and prior with exact values."""
    import pandas as pd

    out = tmp_path / "g"
    assert main(["compare", "--preset", "guidance", "--trees", "constant(1,5)", "--runs", "2",
                 "--trees-per-model", "1", "--max-budget", "8", "--out", str(out),
                 "--workers", "1", "--quiet"]) == 0
    assert "## Guidance of known quality" in (out / "report.md").read_text()
    assert (out / "guidance_map.png").stat().st_size > 0
    curves = pd.read_csv(out / "curves.csv")
    methods = set(curves.policy + "+" + curves.adjuster)
    assert {"ucb1+plain", "ucb1+maxfreq"} <= methods
    assert not any(method.endswith("+maxfreq") for method in methods - {"ucb1+maxfreq"})
    quality = pd.read_csv(out / "guidance_quality.csv")
    assert (quality[quality.prior == "oracle(tau=0.25)"].top1 == 1.0).all()
    worse = pd.read_csv(out / "guidance_worse.csv")
    assert set(worse.search) == {"puct", "gumbel_muzero"} and (worse.runs == 50).all()
    assert worse.groupby(["search", "prior"]).simulations.apply(list).map(
        [2, 4, 8, 16].__eq__).all() and worse.prior.nunique() == 4


@pytest.mark.parametrize("options, message", [
    (["--prior", "oracle(tau=0)"], "tau = 0: must be a finite number > 0"),
    (["--prior", "oracle(noise=-1)"], "noise = -1: must be a finite number >= 0"),
    (["--evaluate", "value(sigma=-0.5)"], "sigma = -0.5: must be a finite number >= 0"),
    (["--evaluate", "mix(lam=1.5)"], "lam = 1.5: must be a finite number in [0, 1]"),
    (["--policy", "ucb1", "--prior", "oracle"], "policy ucb1 does not read a prior"),
    (["--policy", "klucb", "--prior", "oracle"], "policy klucb does not read a prior"),
    (["--evaluate", "value", "--adjuster", "maxfreq"], "reads playout scores"),
    (["--prior", "net"], "unknown prior 'net'"),
    (["--prior", "guidance_networks:wrong_shape"], "returned an array of shape (5,) at node 0"),
    (["--prior", "guidance_networks:not_finite"], "returned a logit that is not finite"),
    (["--evaluate", "guidance_networks:too_high"], "returned 1.5 at node 0"),
    (["--prior", "guidance_networks:not_a_network"],
     "not a prior: define it as mcts.synthetic.PriorNetwork"),
    (["--evaluate", "guidance_networks:nothing"], "has no object 'nothing'"),
    (["--policy", "ucb1", "--prior", "guidance_networks:oracle"],
     "policy ucb1 does not read a prior"),
])
def test_bad_guidance_is_one_line_and_exit_2(options, message, capsys):
    options = ["--policy", "puct", *options] if "--policy" not in options else options
    code = main(["failure-rate", "--tree", "constant(1,5)", "--runs", "2", "--max-budget", "4",
                 *options])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and len(err.splitlines()) == 1


def test_a_users_networks_guide_as_the_oracle_they_write_again():
    """A user's prior and value (``mcts.synthetic.networks``; tests/guidance_networks.py writes
    the oracle again from the tree's minimax scores) give the arrays and the searches of the
    built-in ``oracle`` and ``value``: the same logits and values, and the same root visits
    in every run of PUCT and Gumbel MuZero."""
    instance, user = tree_instance("constant(1,5)", 4, 4, 0, 1), "guidance_networks:"
    assert np.array_equal(prior_logits(instance, user + "oracle", 7),
                          prior_logits(instance, "oracle", 7))
    reachable = np.asarray(instance.reachable, bool)
    assert np.array_equal(values(instance, user + "exact", 7)[reachable],
                          values(instance, "value", 7)[reachable])
    for policy in (PUCT, "gumbel_muzero"):
        built_in, theirs = (search_runs("constant(1,5)", policy, budget=24, runs=10, depth=4,
                                        trees=2, prior=prior, evaluate=evaluate)
                            for prior, evaluate in (("oracle", "value"),
                                                    (user + "oracle", user + "exact")))
        visits = [f"visits_{k}" for k in range(4)]
        assert np.array_equal(built_in[visits].to_numpy(), theirs[visits].to_numpy())
        assert np.array_equal(built_in.move, theirs.move)


def test_the_example_networks_run_from_the_command_line(monkeypatch, capsys):
    """examples/my_network.py's prior and value guide PUCT from ``failure-rate``, and ``priors
    list`` and ``evaluations list`` name the kinds and a user's network."""
    monkeypatch.syspath_prepend("examples")
    assert main(["failure-rate", "--tree", "constant(1,5)", "--policy", "puct", "--depth", "4",
                 "--runs", "8", "--max-budget", "16", "--prior", "my_network:prior",
                 "--evaluate", "my_network:value", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert 0 <= summary["prior_top1"] <= 1 and summary["value_rmse"] > 0
    for noun, kinds in (("priors", {"uniform", "oracle", "module:PriorNetwork"}),
                        ("evaluations", {"playout", "value", "mix", "module:ValueNetwork"})):
        assert main([noun, "list", "--json"]) == 0
        assert {record["name"] for record in json.loads(capsys.readouterr().out)} == kinds


GUMBEL_FIXTURES = Path(__file__).parent / "data" / "mctx" / "gumbel.npz"


def _fixture_runs(fixtures, model, policy, budget, **options):
    return search_runs(str(model), policy, budget=budget, seed=int(fixtures["seed"]),
                       prior=str(fixtures["prior"]), evaluate=str(fixtures["evaluate"]),
                       branching=int(fixtures["branching"]), depth=int(fixtures["depth"]),
                       solver=False, **options)


def test_gumbel_muzero_without_noise_searches_as_mctx():
    """Without Gumbel noise (``gumbel_scale`` 0 in both), Gumbel MuZero is deterministic: on
    the 50 trees of the PUCT fixtures its root visits and its move equal mctx's
    ``gumbel_muzero_policy`` (m = 16, c_visit 50, c_scale 0.1) at budgets 1..64: the Gumbel
    root's sequential halving, the mixed value's completed Q and the improved policy below
    the root. Under a root policy every playout is a simulation (the root is evaluated
    apart, as mctx does)."""
    fixtures = np.load(GUMBEL_FIXTURES)
    for name, model in zip(("constant", "random"), fixtures["models"]):
        visits, moves = fixtures[f"{name}_visits"], fixtures[f"{name}_moves"]
        for i, budget in enumerate(fixtures["budgets"]):
            rows = _fixture_runs(fixtures, model, str(fixtures["policy"]), int(budget), runs=1,
                                 trees=visits.shape[0])
            assert np.array_equal(rows.network.to_numpy(np.uint64), fixtures[f"{name}_keys"])
            lab = rows[[f"visits_{k}" for k in range(4)]].to_numpy()
            assert np.array_equal(lab, visits[:, i]), (model, budget)
            assert np.array_equal(rows.move.to_numpy(), moves[:, i]), (model, budget)


def test_gumbel_muzero_moves_are_distributed_as_mctx():
    """With Gumbel noise, the moves of 2,000 searches on one network per instance against
    mctx's 2,000 (its own Gumbel draws), per tree and budget 2, 4, 8, 16 (4 trees of each
    model): a chi-square test of homogeneity does not reject at 0.001 (Bonferroni over the
    32 cells), and, the equivalence, the total variation distance is within 0.05 in every
    cell (sampling alone gives about 0.01-0.03 at these sizes). Power: a shift of 0.05 of
    the moves' mass between two moves is rejected with probability above 0.9."""
    fixtures = np.load(GUMBEL_FIXTURES)
    runs, cells = int(fixtures["distribution_runs"]), 0
    for name, model in zip(("constant", "random"), fixtures["models"]):
        counts = fixtures[f"{name}_move_counts"]
        for j in range(counts.shape[0]):
            for i, budget in enumerate(fixtures["distribution_budgets"]):
                rows = _fixture_runs(fixtures, model, "gumbel_muzero", int(budget), runs=runs,
                                     trees=j + 1, network="instance")
                rows = rows[rows.tree == j]
                assert rows.network.nunique() == 1
                assert rows.network.iloc[0] == fixtures[f"{name}_instance_keys"][j]
                lab = np.bincount(rows.move, minlength=4)
                table = np.stack([lab, counts[j, i]])[:, (lab + counts[j, i]) > 0]
                if table.shape[1] > 1:
                    assert stats.chi2_contingency(table).pvalue > 0.001 / 32, (model, j, budget)
                assert 0.5 * np.abs(lab / runs - counts[j, i] / runs).sum() < 0.05
                cells += 1
    assert cells == 32


def test_gumbel_muzero_improves_on_the_prior_with_exact_values():
    """Danihelka et al. 2022's policy improvement (Sect. 3): with exact values of the root's
    moves (a one-ply search, sigma 0) and no Gumbel noise, the move played is never worth
    less than the prior's argmax, over 1,000 trees and budgets 2..16; with the noise, the
    moves played are worth at least a move drawn from the prior, sum_a pi(a) q(a), on
    average (one-sided, 3 standard errors)."""
    options = {"prior": "oracle(tau=1,noise=1.5)", "evaluate": "value", "trees": 1000,
               "depth": 4, "search_depth": 1, "solver": False}
    for budget in range(2, 17):
        rows = search_runs("random(4,3)", "gumbel_muzero(gumbel_scale=0)", budget=budget,
                           **options)
        worth, argmax_worth, drawn = _root_worth(rows, options)
        assert (worth >= argmax_worth).all(), budget
        noisy = search_runs("random(4,3)", "gumbel_muzero", budget=budget, **options)
        worth = _root_worth(noisy, options)[0]
        difference = worth - drawn
        assert difference.mean() > -3 * difference.std() / np.sqrt(len(difference)), budget


def _root_worth(rows, options):
    """Per row: the exact outcome (the mover's, at the root: max's) of the move played, of
    the prior's argmax and of a move drawn from the prior, on average."""
    played, argmaxes, drawn = [], [], []
    for row in rows.itertuples():
        instance = tree_instance("random(4,3)", 4, 4, 0, row.tree)
        outcome = instance.minimax.outcome(0.0)[1:5]
        logits = prior_logits(instance, options["prior"], row.network)[0]
        prior = np.exp(logits - logits.max())
        prior /= prior.sum()
        played.append(outcome[row.move])
        argmaxes.append(outcome[np.argmax(logits)])
        drawn.append(prior @ outcome)
    return np.array(played), np.array(argmaxes), np.array(drawn)


def test_inspect_shows_each_root_moves_prior_and_value():
    """A guided run's trace gives each root move the prior the search read (softmax of the
    root's logits for the run's network) and its value for the root's mover (the oracle's,
    once the move was evaluated) beside its visit share."""
    from experiments.inspect.traced import trace_frame, trace_run

    prior, evaluate = "oracle(tau=1,noise=1)", "value(sigma=0.2)"
    curve = Curve("constant(1,5)", "puct", runs=1, max_budget=64, depth=4, prior=prior,
                  evaluate=evaluate, policy_params={"qtransform": "parent_and_siblings"})
    frame = trace_frame(trace_run(curve))
    last = frame[frame.playouts == frame.playouts.max()]
    key = search_runs("constant(1,5)", PUCT, budget=2, depth=4, prior=prior,
                      evaluate=evaluate).network[0]
    instance = tree_instance("constant(1,5)", 4, 4, 0, 0)
    logits = prior_logits(instance, prior, key)[0]
    assert np.allclose(last.prior, np.exp(logits) / np.exp(logits).sum(), rtol=0, atol=1e-12)
    visited = (last.visits > 0).to_numpy()
    assert visited.sum() >= 2
    assert np.allclose(last.value[visited], values(instance, evaluate, key)[1:5][visited],
                       rtol=0, atol=1e-12)
    assert last.value[~visited].isna().all()


def test_a_new_kind_or_value_of_guidance_compiles_nothing():
    """Guidance is read at run time: after the unguided PUCT curve, curves with another prior,
    tau, noise, value noise or evaluation kind add no signature to the kernel."""
    from mcts.synthetic import run_searches

    def run(**guidance):
        curve = Curve("constant(1,5)", "puct", runs=4, max_budget=16, depth=4, **guidance)
        simulate_block(curve, 0, 0, 4, 0)

    run()
    before = len(run_searches.signatures)
    run(prior="oracle(tau=0.5,noise=0.3)", evaluate="value(sigma=0.2)")
    run(prior="oracle(tau=2)", evaluate="mix(lam=0.3)", network="instance")
    run(evaluate="playout")
    assert len(run_searches.signatures) == before


def test_failure_rate_says_how_good_its_guidance_is(capsys):
    """``failure-rate`` prints the guidance's quality measured on its instances, the numbers of
    ``guidance_quality``: a prior of noise 0 agrees at every decisive node."""
    from experiments.curves.guidance_quality import guidance_quality

    options = ["--tree", "constant(1,5)", "--policy", "puct", "--runs", "4", "--max-budget", "16",
               "--depth", "4", "--prior", "oracle(tau=0.5)", "--evaluate", "value(sigma=0.2)"]
    assert main(["failure-rate", *options, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["prior_top1"] == 1.0
    curve = Curve("constant(1,5)", "puct", runs=4, max_budget=16, depth=4,
                  prior="oracle(tau=0.5)", evaluate="value(sigma=0.2)")
    expected = guidance_quality(curve).iloc[-1]
    assert summary["value_rmse"] == pytest.approx(expected.rmse, abs=1e-12)
    assert 0 < summary["value_rmse"] < 0.2
    assert main(["failure-rate", *options]) == 0
    assert "prior top-1 agreement 1.000" in capsys.readouterr().out
