"""Baseline players: alpha-beta with iterative deepening is exact at full
depth on every tree model and spends the hand-counted leaves on a hand-built tree; flat
Monte-Carlo pulls the root moves uniformly; both run through ``mctslab failure-rate`` and
``compare``, and bad input is one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bandits.rng import randint, seed_state
from experiments.cli import main
from experiments.comparisons.grid import Grid
from experiments.curves.curve import Curve
from mcts.baselines.alphabeta import (
    DRAW_LEAF,
    EXPANDED,
    HEURISTIC_LEAF,
    LEAVES,
    PLAYOUT_LEAF,
    deepening,
    iteration,
)
from mcts.baselines.flat_mc import flat_search
from trees import TREE_MODELS, TreeInstance, analyze, make_tree, parse_tree_spec

NO_VALUES = np.zeros(0, np.int64)


def _hand_tree() -> TreeInstance:
    """b = 2, d = 3, every score on the last edge (heap order: children of n are 2n+1, 2n+2):

        root 0 (max)
        ├─ 1 (min) ─┬─ 3 (max) ─ 7: +4, 8: +6
        │           └─ 4: terminal, +1
        └─ 2 (min) ─┬─ 5 (max) ─ 11: +2, 12: +8
                    └─ 6 (max) ─ 13: +9, 14: +3

    Minimax: 3 = 6, 1 = min(6, 1) = 1; 5 = 8, 6 = 9, 2 = min(8, 9) = 8; root = 8 by move 1.
    """
    edge = np.zeros(15, np.int32)
    terminal = np.zeros(15, bool)
    for node, score in ((7, 4), (8, 6), (4, 1), (11, 2), (12, 8), (13, 9), (14, 3)):
        edge[node], terminal[node] = score, True
    return TreeInstance(parse_tree_spec("pgame"), 2, 3, 0, edge, terminal)


def _iterate(tree, limit, leaf=DRAW_LEAF, sigma=0.0, allowed=10**9):
    counts = np.zeros(2, np.int64)
    values = tree.minimax.value if leaf == HEURISTIC_LEAF else NO_VALUES
    result = iteration(tree.path_score, tree.terminal, values, tree.branching, limit, leaf,
                       sigma, allowed, seed_state(1), counts)
    return (*result, counts)


def test_hand_count_of_each_iteration():
    tree = _hand_tree()
    assert tree.minimax.value[0] == 8 and list(tree.minimax.best_moves()) == [1]
    # depth 1: root expanded; 1 and 2 are horizon leaves (draw, 0 each): 2 leaves, move 0
    complete, move, value, horizon, used, counts = _iterate(tree, 1)
    assert (complete, move, value, horizon, used) == (True, 0, 0.0, True, 2)
    assert counts[LEAVES] == 2 and counts[EXPANDED] == 1
    # depth 2: root, 1 expanded; leaves 3 (horizon, 0) and 4 (terminal, +1): node 1 = 0,
    # alpha = 0; 2 expanded (alpha 0): leaf 5 (horizon, 0) gives beta = 0 <= alpha, so 6 is
    # cut: 3 leaves, 3 expanded, move 0
    complete, move, value, horizon, used, counts = _iterate(tree, 2)
    assert (complete, move, value, horizon, used) == (True, 0, 0.0, True, 3)
    assert counts[LEAVES] == 3 and counts[EXPANDED] == 3
    # depth 3 (exact): root, 1, 3 expanded; 7, 8 (3 = 6), 4 (1 = 1, alpha = 1); 2, 5 expanded:
    # 11, 12 (5 = 8, beta = 8); 6 expanded (alpha 1, beta 8): 13 = 9 >= beta cuts 14:
    # leaves 7, 8, 4, 11, 12, 13 = 6; expanded root, 1, 3, 2, 5, 6 = 6; move 1, value 8
    complete, move, value, horizon, used, counts = _iterate(tree, 3)
    assert (complete, move, value, horizon, used) == (True, 1, 8.0, False, 6)
    assert counts[LEAVES] == 6 and counts[EXPANDED] == 6


def test_iterative_deepening_plays_the_last_complete_iteration():
    """Iterations complete after 2, 2 + 3 = 5 and 5 + 6 = 11 leaves, playing 0, 0, 1; judged
    here by the best-score set {1} (a failure set is an argument)."""
    tree = _hand_tree()
    best = np.array([False, True])
    failed, counts = np.zeros(5, bool), np.zeros(2, np.int64)
    spent, move = deepening(tree.path_score, tree.terminal, best, NO_VALUES, 2, 3, DRAW_LEAF,
                            0.0, 16, seed_state(3), failed, counts)
    assert (spent, move) == (11, 1)
    assert counts[LEAVES] == 11 and counts[EXPANDED] == 1 + 3 + 6
    assert list(failed[1:]) == [True, True, True, False]  # budgets 2, 4, 8 play 0; 16 plays 1
    # budget 8: the third iteration is cut short after 3 of its leaves; iteration 2's move
    failed, counts = np.zeros(4, bool), np.zeros(2, np.int64)
    spent, move = deepening(tree.path_score, tree.terminal, best, NO_VALUES, 2, 3, DRAW_LEAF,
                            0.0, 8, seed_state(3), failed, counts)
    assert (spent, move) == (8, 0) and list(failed[1:]) == [True, True, True]


def test_a_random_move_stands_until_the_search_is_exact():
    """Kocsis & Szepesvari's rule (``partial=random``): one search to the depth, 3, which
    completes after its 6 leaves and plays 1, the best-score move; the run's first draw
    stands at the budgets below (1, 2 and 4 leaves)."""
    tree = _hand_tree()
    best = np.array([False, True])
    draws = set()
    for seed in range(8):
        drawn = randint(seed_state(seed), 2)
        draws.add(drawn)
        failed, counts = np.zeros(5, bool), np.zeros(2, np.int64)
        spent, move = deepening(tree.path_score, tree.terminal, best, NO_VALUES, 2, 3,
                                DRAW_LEAF, 0.0, 16, seed_state(seed), failed, counts, True)
        assert (spent, move) == (6, 1)
        assert list(failed) == [drawn == 0] * 3 + [False] * 2
    assert draws == {0, 1}


def test_the_heuristic_at_sigma_zero_is_an_oracle():
    tree = _hand_tree()
    assert _iterate(tree, 1, HEURISTIC_LEAF)[1:3] == (1, 8.0)


def _model_trees():
    for name, model in TREE_MODELS.items():
        spec = f"random(4,3)+{model.example.split('+')[-1]}" if model.modifier else model.example
        for seed in range(3):
            yield name, make_tree(spec, 3, 6, seed)


@pytest.mark.parametrize("leaf", [DRAW_LEAF, PLAYOUT_LEAF, HEURISTIC_LEAF])
def test_full_depth_is_the_exact_analysis_on_every_tree_model(leaf):
    """With budget for every iteration, the move played is the first best-minimax-score root
    move (so an optimal one) and the full-depth iteration returns the minimax score."""
    for name, tree in _model_trees():
        minimax = tree.minimax
        values = minimax.value if leaf == HEURISTIC_LEAF else NO_VALUES
        failed, counts = np.zeros(13, bool), np.zeros(2, np.int64)
        _, move = deepening(tree.path_score, tree.terminal, tree.optimal, values, 3, 6, leaf,
                            1.5, 2**12, seed_state(7), failed, counts)
        assert move == minimax.best_moves()[0], name
        assert not failed[-1], name
        assert _iterate(tree, 6, leaf, 1.5)[2] == minimax.value[0], name


def _limited_minimax(tree, node, ply, limit, horizon):
    """Plain depth-limited minimax by recursion: terminals their score, nodes at ``limit``
    ``horizon[node]``."""
    if tree.terminal[node]:
        return float(tree.path_score[node])
    if ply == limit:
        return float(horizon[node])
    b = tree.branching
    values = [_limited_minimax(tree, node * b + 1 + k, ply + 1, limit, horizon)
              for k in range(b)]
    return max(values) if ply % 2 == 0 else min(values)


@pytest.mark.parametrize("leaf", [DRAW_LEAF, HEURISTIC_LEAF])
def test_every_depth_agrees_with_plain_depth_limited_minimax(leaf):
    """Alpha-beta's root value and move at each depth limit are those of plain minimax to
    that depth (horizon: 0, or the exact score: the heuristic at sigma = 0); the move is the
    first root move of the best value."""
    for spec in ("random(4,3)+end(0.2)", "pgame", "constant'(1,13)+trap(1,0.3)"):
        for seed in range(2):
            tree = make_tree(spec, 3, 6, seed)
            horizon = (tree.minimax.value if leaf == HEURISTIC_LEAF
                       else np.zeros(tree.n_nodes, np.int64))
            for limit in range(1, 7):
                children = [_limited_minimax(tree, 1 + k, 1, limit, horizon) for k in range(3)]
                _, move, value, _, _, _ = _iterate(tree, limit, leaf)
                assert value == max(children) and move == children.index(max(children))


def test_flat_monte_carlo_means_are_the_exact_win_rates():
    """After 30,000 playouts (7,500 a move) each move's mean reward is mu_i(0) of the exact
    analysis: |z| < 4.5 against the reward's exact variance (1 win, 1/2 draw, 0 loss)."""
    tree = make_tree("constant(1,5)", 4, 6, 4)
    exact = analyze(tree)
    theta = int(np.flatnonzero(exact.thresholds == 0.0)[0])
    sums, pulls = np.zeros(4), np.zeros(4, np.int64)
    flat_search(tree.path_score, tree.terminal, tree.optimal, 4, 30_000, seed_state(11),
                np.zeros(15, bool), sums, pulls)
    for move in range(4):
        mu = exact.win_rates[move, theta]
        second = (exact.pmf[move, exact.support > 0].sum()
                  + 0.25 * exact.pmf[move, exact.support == 0].sum())
        z = (sums[move] / pulls[move] - mu) / np.sqrt((second - mu**2) / pulls[move])
        assert abs(z) < 4.5, (move, z)


def test_flat_monte_carlo_pulls_the_root_moves_uniformly():
    tree = make_tree("random(4,3)", 4, 6, 2)
    for budget in (1, 3, 7, 13, 64, 101):
        sums, pulls = np.zeros(4), np.zeros(4, np.int64)
        failed = np.zeros(int(np.log2(budget)) + 1, bool)
        flat_search(tree.path_score, tree.terminal, tree.optimal, 4, budget,
                    seed_state(budget), failed, sums, pulls)
        assert pulls.sum() == budget
        assert set(pulls) <= {budget // 4, -(-budget // 4)}
        assert (sums <= pulls).all() and (sums >= 0).all()


def test_flat_monte_carlo_plays_the_best_mean():
    """b = 2, d = 1: move 0 loses (-1), move 1 wins (+1). After one playout the move is the
    one pulled (a random one); from two on, move 1."""
    edge, terminal = np.array([0, -1, 1], np.int32), np.array([False, True, True])
    tree = TreeInstance(parse_tree_spec("pgame"), 2, 1, 0, edge, terminal)
    first = []
    for seed in range(40):
        failed = np.zeros(4, bool)
        flat_search(tree.path_score, tree.terminal, tree.optimal, 2, 8, seed_state(seed),
                    failed, np.zeros(2), np.zeros(2, np.int64))
        assert not failed[1:].any()
        first.append(failed[0])
    assert 0 < sum(first) < 40


SMALL = ["failure-rate", "--tree", "random(4,3)", "--branching", "3", "--depth", "4",
         "--runs", "6", "--trees", "2", "--max-budget", "256", "--json"]


@pytest.mark.parametrize("policy", ["flatmc", "alphabeta", "alphabeta(leaf=playout)",
                                    "alphabeta(leaf=heuristic,sigma=2.5)"])
def test_players_run_through_failure_rate(policy, capsys):
    assert main([*SMALL, "--policy", policy]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == policy.split("(")[0] and out["runs"] == 12
    assert len(out["failure_rate"]) == 9
    if policy.startswith("alphabeta"):  # 256 leaves cover every iteration on b=3, d=4
        assert out["failure_rate"][-1] == 0.0
    if policy.startswith("alphabeta("):
        assert out["config"]["policy_params"]["leaf"] in (PLAYOUT_LEAF, HEURISTIC_LEAF)


def test_a_comparison_gives_a_baseline_one_cell_per_tree():
    grid = Grid(("constant(1,5)",), ("ucb1", "flatmc", "alphabeta(leaf=playout)"),
                ("plain", "maxfreq"), runs=2, trees_per_model=1, max_budget=64)
    labels = [(curve.policy, curve.adjuster) for curve in grid.curves()]
    assert labels == [("ucb1", "plain"), ("flatmc", "plain"), ("alphabeta", "plain"),
                      ("ucb1", "maxfreq")]
    assert grid.cells == 4


BAD = [
    (["--policy", "alphabeta", "--max-budget", "2"], "below one depth-1 iteration"),
    (["--policy", "alphabeta(depth=3)"], "unknown policy parameter 'depth' for alphabeta"),
    (["--policy", "flatmc(c=1)"], "unknown policy parameter 'c' for flatmc"),
    (["--policy", "alphabeta(leaf=oracle)"], "alphabeta parameter leaf = 'oracle'"),
    (["--policy", "alphabeta(sigma=-1)"], "alphabeta parameter sigma = -1"),
    (["--policy", "alphabeta(sigma=2)"], "sigma is read with leaf=heuristic only"),
    (["--policy", "flatmc", "--adjuster", "maxfreq"], "flatmc is not an MCTS search: adjuster"),
    (["--policy", "alphabeta", "--search-depth", "2"], "search_depth does not apply"),
]


@pytest.mark.parametrize(("extra", "fragment"), BAD)
def test_bad_player_input_is_one_line_exit_2(extra, fragment, capsys):
    argv = ["failure-rate", "--tree", "constant(1,1)", "--depth", "4", "--max-budget", "8",
            "--runs", "2", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err


def test_a_curve_names_a_baseline_like_a_policy():
    curve = Curve("constant(1,5)", "alphabeta", policy_params={"leaf": "heuristic",
                                                               "sigma": 1})
    assert curve.policy_params == {"leaf": float(HEURISTIC_LEAF), "sigma": 1}
    assert curve.key != Curve("constant(1,5)", "alphabeta").key


def test_baselines_list(capsys):
    assert main(["baselines", "list", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [record["name"] for record in records] == ["flatmc", "alphabeta"]
    assert records[1]["params"] == {"leaf": float(DRAW_LEAF), "sigma": 0.0, "partial": 0.0}


STUDY = """
[study]
seed = 5
[[curves]]
tree = "constant(1,3)"
policy = "flatmc"
depth = 4
max_budget = 64
runs = 4
[[curves]]
tree = "constant(1,3)"
policy = "alphabeta"
policy_params = {leaf = "heuristic", sigma = 0.5}
depth = 4
max_budget = 64
runs = 4
"""


def test_players_run_in_a_study(tmp_path, capsys):
    from experiments.studies import load_results

    (tmp_path / "study.toml").write_text(STUDY)
    out = tmp_path / "results"
    assert main(["study", "run", str(tmp_path / "study.toml"), "--out", str(out),
                 "--workers", "1"]) == 0
    capsys.readouterr()
    results = load_results(out)
    assert set(results.policy) == {"flatmc", "alphabeta"}
    assert (results.runs == 4).all() and len(results) == 2 * 7


def test_the_compile_command_prepares_the_players(capsys):
    assert main(["compile", "--policies", "flatmc", "alphabeta", "--trees", "constant(1,3)",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "the flatmc search kernel (b=4)" in out and "the alphabeta search kernel" in out


def test_a_label_spells_a_parameter_by_its_word_and_reads_back():
    """alphabeta(leaf=playout) was labelled alphabeta(leaf=1) in tables and figures."""
    from experiments.comparisons.grid import cell_labels
    from experiments.curves.entries import method_fields
    from plots.style import entry

    for policy, params, label in (("alphabeta", {"leaf": "playout"}, "alphabeta(leaf=playout)"),
                                  ("puct", {"qtransform": "parent_and_siblings"},
                                   "puct(qtransform=parent_and_siblings)"),
                                  ("ucb1", {"c": 0.5}, "ucb1(c=0.5)")):
        curve = Curve("constant(1,3)", policy, "plain", policy_params=params)
        assert cell_labels(curve)[1] == label
        assert entry(policy, curve.policy_params) == label
        again = Curve("constant(1,3)", **method_fields(label, "plain"))
        assert again.key == curve.key


def test_the_partial_rule_keeps_stored_keys_at_its_default():
    """``partial=best`` (the default) is left out of the stored parameters, so curves stored
    before it keep their keys; ``partial=random`` is a curve of its own."""
    default = Curve("pgame(127)", "alphabeta", branching=2, depth=4, max_budget=16)
    best = Curve("pgame(127)", "alphabeta", branching=2, depth=4, max_budget=16,
                 policy_params={"partial": "best"})
    random = Curve("pgame(127)", "alphabeta", branching=2, depth=4, max_budget=16,
                   policy_params={"partial": "random"})
    assert "partial" not in default.policy_params and best.key == default.key
    assert random.key != default.key and random.policy_params["partial"] == 1.0
