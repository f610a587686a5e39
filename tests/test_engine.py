"""The compiled synthetic-tree engine against an independent reference, exact analysis,
brute-force minimax, and the curve shapes of seed 001."""

import math

import numba
import numpy as np
import pytest
from reference_mcts import reference_failure_rate

from bandits import POLICIES, index_tables, make_policy
from experiments import Curve, failure_block, failure_rate
from experiments.curves.failure import search_config, tree_instance
from mcts.core.search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from mcts.core.solver import DRAW, LOSS, WIN
from mcts.synthetic import search, tree_arrays
from trees import analyze, make_tree, node_count


def _run(curve, instance, budget, seed, path_score=None):
    failed = np.zeros(int(math.log2(budget)) + 1, np.bool_)
    game = tree_arrays(instance)
    if path_score is not None:
        game = game._replace(path_score=path_score)
    tree = search(game, search_config(curve, instance),
                  budget, np.uint64(seed), index_tables(budget),
                  make_policy(curve.policy, **curve.policy_params),
                  failed)
    return failed, tree


# The agreement cases' shape, unless a case sets it. The engine compiles one kernel per policy
# and b, so the cases keep to b = 4 but for UCB1 ones.
SHAPE = {"branching": 4, "depth": 4, "max_budget": 64}
AGREEMENT_CASES = [
    ("constant'(1,5)", "ucb1", "plain", {}),
    ("constant'(1,5)", "klucb", "plain", {}),
    ("constant'(1,5)", "thompson", "plain", {}),
    ("random(3,2)", "ucb1", "static", {}),
    ("random(3,2)", "ucb1", "score", {}),
    ("random(3,2)", "ucb1", "value", {}),
    ("constant(1,3)", "ucb1", "maxfreq", {}),
    ("constant(1,3)", "thompson", "maxfreq", {"adjuster_params": {"offset": -0.5}}),
    ("random(3,2)", "klucb", "value", {"restart": True}),
    ("constant'(1,5)", "ucb1tuned", "plain", {}),
    ("random(3,2)", "ucbv", "maxfreq", {}),
    ("constant'(1,5)", "moss", "plain", {}),
    ("random(3,2)", "puct", "value", {"restart": True, "policy_params": {"c_init": 0.5}}),
    ("random(3,2)", "egreedy", "value", {"restart": True, "policy_params": {"epsilon": 0.25}}),
    ("constant(1,3)", "bayesucb", "maxfreq", {}),
]
# a built-in added to the registry gets its plain case from its reference index
AGREEMENT_CASES += [("constant'(1,5)", name, "plain", {}) for name in POLICIES
                    if name not in {policy for _, policy, _, _ in AGREEMENT_CASES}]


KOCSIS = {"reward": "sum", "policy_params": {"c": 1.0, "depth_exponent": 1},
          "store_episodes": True, "final_move": "mean", "failure": "score"}


@pytest.mark.parametrize("tree, policy, adjuster, options", AGREEMENT_CASES + [
    # To 256 playouts much of the tree gets proven (at b=4, d=4 one run in seven settles before
    # the end), so the kernel's stop at proven nodes (the reference always descends to the
    # terminal) is exercised
    ("constant(1,3)", "thompson", "plain", {"max_budget": 256}),
    ("random(2,1)", "ucb1", "value", {"branching": 2, "depth": 6, "max_budget": 256}),
    # exact re-scoring (mcts.synthetic.rescoring): at b=4, d=4 it lowers maxfreq's failure rate at
    # 32 playouts by about 0.2 (constant) and 0.1 (random), well beyond these tests' 4 sigma
    ("constant(1,3)", "ucb1", "maxfreq", {"rescore": True}),
    ("random(3,2)", "ucb1", "maxfreq", {"rescore": True}),
    # Kocsis & Szepesvari 2006's UCT: summed scores, c = 1 with their depth exponent, every
    # node of an episode stored, the best mean, the best-score failure; then with episodes
    # stopped at a node of n visits with probability 1/n
    ("random(2,1)", "ucb1", "plain", {**KOCSIS, "branching": 2, "depth": 6, "max_budget": 128}),
    ("random(2,1)", "ucb1", "plain", {**KOCSIS, "stop_episodes": True, "branching": 2,
                                      "depth": 6, "max_budget": 128}),
    # their MMMC: uniform selection (epsilon-greedy at epsilon 1), episodes stored, the final
    # move of best minimax value
    ("random(3,2)", "egreedy", "plain", {"policy_params": {"epsilon": 1.0},
                                         "store_episodes": True, "final_move": "minimax"}),
])
def test_kernel_agrees_with_reference(tree, policy, adjuster, options):
    """Failure rates per budget agree with the plain-Python reference (|z| < 4 per budget)."""
    shape = {key: options.get(key, value) for key, value in SHAPE.items()}
    options = {k: v for k, v in options.items() if k not in shape}
    curve = Curve(tree, policy, adjuster, runs=4000, **shape, **options)
    kernel = failure_block(curve, 0, 0, curve.runs, seed=5).mean(axis=0)
    instance = tree_instance(curve.tree, curve.branching, curve.depth, 5, 0)
    runs = 300 if policy == "klucb" else 600 if curve.max_budget > 64 else 1000
    rules = {name: getattr(curve, name) for name in (
        "reward", "final_move", "store_episodes", "stop_episodes")}
    reference = np.array(reference_failure_rate(
        instance, curve.budgets, runs, seed=9, policy=policy, adjuster=adjuster,
        policy_params=options.get("policy_params"), adjuster_params=options.get("adjuster_params"),
        restart=curve.restart, rescore=curve.rescore, failure=curve.failure, **rules))
    pooled = (kernel * curve.runs + reference * runs) / (curve.runs + runs)
    se = np.sqrt(pooled * (1 - pooled) * (1 / curve.runs + 1 / runs)) + 1e-12
    assert np.all(np.abs(kernel - reference) / se < 4.0), (kernel, reference)


def test_first_budgets_by_hand():
    """b=2, d=2, Constant(1,5): after 1 and 2 playouts the choice is a coin flip. At t=4 both
    root moves have one playout (optimal: reward 1/2 or 1; other: 0 or 1), UCB1 revisits the
    better one (ties at random), P = 1/4 + 1/8 for the other, and expands it into a terminal:
    score -1 proves it lost, score 4 (p 1/2) leaves it chosen. Failure 3/8 * 1/2 = 3/16."""
    curve = Curve("constant(1,5)", branching=2, depth=2, runs=40000, max_budget=4)
    rates = failure_block(curve, 0, 0, curve.runs, seed=1).mean(axis=0)
    assert rates == pytest.approx([0.5, 0.5, 3 / 16], abs=0.01)


def test_failure_starts_at_three_quarters_for_b4():
    rates = failure_rate("constant(1,5)", runs=4000, budgets=[1, 2])
    assert rates.failure_rate.tolist() == pytest.approx([0.75, 0.75], abs=0.03)


def test_one_ply_search_is_a_bandit_on_the_exact_win_rates():
    """With expansion stopped at depth 1 every root child is an arm whose mean reward is the
    exact mu_i(0) of the analysis (seed 001, Sect. IV-A)."""
    curve = Curve("constant'(1,13)", search_depth=1, max_budget=2048)
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    exact = analyze(instance)
    rewards, visits = np.zeros(4), np.zeros(4)
    for seed in range(40):
        _, tree = _run(curve, instance, 2048, seed)
        first = tree.stats[0, FIRST_CHILD]
        assert (tree.stats[first:first + 4, FIRST_CHILD] == -1).all()  # never expanded
        rewards += tree.rewards[first:first + 4, REWARD_SUM]
        visits += tree.stats[first:first + 4, VISITS]
    means = rewards / visits
    expected = [exact.win_rate(move, 0.0) for move in range(4)]
    assert np.all(np.abs(means - expected) < 4 * 0.5 / np.sqrt(visits)), (means, expected)


def _minimax(edge_value, node, depth, d, b):
    """Max player's minimax outcome (1, 0.5, 0) at heap index ``node``: the score of the path
    from the root plus the minimax score of the subtree below."""
    def below(n, ply):
        if ply == d:
            return 0
        children = [edge_value[n * b + 1 + k] + below(n * b + 1 + k, ply + 1) for k in range(b)]
        return max(children) if ply % 2 == 0 else min(children)
    path, n = 0, node
    while n > 0:
        path, n = path + edge_value[n], (n - 1) // b
    s = path + below(node, depth)
    return 1.0 if s > 0 else 0.5 if s == 0 else 0.0


@pytest.mark.parametrize("spec, seed, adjuster", [
    ("constant(1,3)", 0, "plain"), ("random(2,1)", 4, "plain"),
    ("constant(1,3)", 1, "maxfreq"), ("random(2,1)", 2, "static"), ("random(2,1)", 3, "score"),
    ("constant(1,3)", 5, "value"),
])
def test_solver_proves_nodes_to_their_minimax_value(spec, seed, adjuster):
    """Terminals are valued at threshold 0 whatever the adjuster does, so every proof holds."""
    curve = Curve(spec, adjuster=adjuster, branching=2, depth=6, max_budget=4096)
    instance = make_tree(spec, 2, 6, seed)
    _, tree = _run(curve, instance, 4096, seed)
    proven = np.flatnonzero(tree.proven)
    assert tree.proven[tree.stats[0, FIRST_CHILD]:tree.stats[0, FIRST_CHILD] + 2].all()
    depth_of, place_of = {0: 0}, {0: 0}  # a search node's depth and game-tree node
    for node in range(tree.stats.shape[0]):
        first = tree.stats[node, FIRST_CHILD]
        if node in depth_of and first >= 0:
            depth_of.update({first + k: depth_of[node] + 1 for k in range(2)})
            place_of.update({first + k: 2 * place_of[node] + 1 + k for k in range(2)})
    for node in proven:
        depth = depth_of[node]
        max_outcome = _minimax(instance.edge_value, place_of[node], depth, 6, 2)
        mover_outcome = max_outcome if depth % 2 == 1 else 1 - max_outcome
        expected = WIN if mover_outcome == 1 else DRAW if mover_outcome == 0.5 else LOSS
        assert tree.proven[node] == expected
    first = tree.stats[0, FIRST_CHILD]
    assert tree.proven[first + instance.optimal_move] == DRAW


@pytest.mark.parametrize(("spec", "adjuster"), [
    ("constant(1,5)", "plain"), ("random(4,0)", "plain"), ("random(4,3)", "maxfreq"),
    ("constant'(1,13)", "value")])
def test_cached_klucb_roots_choose_as_solving_every_root(spec, adjuster):
    """KL-UCB keeps each child's root and skips re-solving it while its bound cannot reach the
    best index: the whole search (tree, proofs, failures) equals one solving every root."""
    curve = Curve(spec, "klucb", adjuster, max_budget=2048)
    instance = tree_instance(curve.tree, 4, 8, 0, 0)
    config = search_config(curve, instance)
    tables, policy = index_tables(2048), make_policy("klucb")
    for seed in range(3):
        cached_failed, every_failed = np.zeros(12, np.bool_), np.zeros(12, np.bool_)
        cached = search(tree_arrays(instance), config, 2048, np.uint64(seed), tables, policy,
                        cached_failed)
        assert cached.index_cache.shape[0] > 1
        every = search(tree_arrays(instance), config._replace(cache_indices=False), 2048,
                       np.uint64(seed), tables, policy, every_failed)
        assert every.index_cache.shape[0] == 1
        assert np.array_equal(cached.stats, every.stats)
        assert np.array_equal(cached.proven, every.proven)
        assert np.array_equal(cached_failed, every_failed)


def test_search_is_the_same_whatever_the_integer_type_of_the_scores():
    """Path sums are stored in the narrowest integer type that holds them (int16 here)."""
    curve = Curve("random(4,6)", adjuster="maxfreq", max_budget=512)
    instance = make_tree("random(4,6)", 4, 8, 0)
    narrow_failed, narrow = _run(curve, instance, 512, 3)
    wide_failed, wide = _run(curve, instance, 512, 3, instance.path_score.astype(np.int64))
    assert instance.path_score.dtype == np.int16
    assert np.array_equal(narrow.stats, wide.stats)
    assert np.array_equal(narrow_failed, wide_failed)


def test_same_seed_same_numbers_whatever_the_chunks_and_threads():
    curve = Curve("random(4,3)", "thompson", "maxfreq", runs=24, max_budget=256)
    whole = failure_block(curve, 1, 0, 24, seed=3)
    parts = np.vstack([failure_block(curve, 1, 0, 7, seed=3),
                       failure_block(curve, 1, 7, 17, seed=3)])
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = failure_block(curve, 1, 0, 24, seed=3)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(whole, parts) and np.array_equal(whole, single)
    assert not np.array_equal(whole, failure_block(curve, 1, 0, 24, seed=4))


def test_paper_curve_shapes_constant_trees():
    """Seed 001, Figs. 3a and 4a: Constant(1,1) is solved within a few hundred playouts while
    Constant(1,5) still fails most of the time at 10,000 under plain UCT."""
    easy = failure_rate("constant(1,1)", runs=200, budgets=512)
    hard = failure_rate("constant(1,5)", runs=200, budgets=8192)
    assert easy.failure_rate.iloc[-1] < 0.02
    assert hard.failure_rate.iloc[-1] > 0.4


def test_paper_curve_shapes_random_trees():
    """Seed 001, Fig. 7a: Random(4,0) converges by about 1,000 playouts, Random(4,3) does not."""
    easy = failure_rate("random(4,0)", runs=10, trees=20, budgets=[1024])
    hard = failure_rate("random(4,3)", runs=10, trees=20, budgets=[1024])
    assert easy.failure_rate.iloc[0] < 0.05 and hard.failure_rate.iloc[0] > 0.3


def test_tree_instances_are_reused_within_a_bound_on_their_bytes():
    """The cache of tree instances hands an instance out again and counts what it holds by the
    bytes of the arrays the search reads; its bound keeps the largest tree (b=2, d=24), alone,
    and all 200 instances of a paper figure (b=4, d=8)."""
    tree_instance.cache_clear()
    instance = tree_instance("random(4,1)", 4, 8, 3, 1)
    assert tree_instance("random(4,1)", 4, 8, 3, 1) is instance
    deep = tree_instance("constant(1,5)", 2, 12, 3, 0)
    for tree in (instance, deep):
        arrays = (tree.edge_value, tree.terminal, tree.path_score, tree.optimal_child)
        assert tree.nbytes == sum(array.nbytes for array in arrays)
    assert tree_instance.cache.currsize == instance.nbytes + deep.nbytes
    largest = deep.nbytes / node_count(2, 12) * node_count(2, 24)  # as many bytes a node
    assert largest <= tree_instance.cache.maxsize
    assert 200 * instance.nbytes <= tree_instance.cache.maxsize


# Kocsis & Szepesvari 2006's episodes (``SearchConfig.store_episodes``, ``stop_episodes``), on
# the tree and kernel of the solver's test above

def _episodes(budget, seed, **options):
    curve = Curve("random(2,1)", branching=2, depth=6, max_budget=budget, **options)
    return _run(curve, make_tree("random(2,1)", 2, 6, 4), budget, seed)[1]


def test_a_stored_episode_expands_every_node_it_reaches():
    """From an empty tree one episode expands the root and the five nodes below it on its way
    to a terminal at depth 6: 1 + 2 x 6 nodes, the 7 of its path visited once."""
    tree = _episodes(1, 0, store_episodes=True)
    assert tree.stats.shape[0] == 13
    assert (tree.stats[:, FIRST_CHILD] >= 0).sum() == 6
    assert sorted(tree.stats[:, VISITS]) == [0] * 6 + [1] * 7


def test_a_stopped_episode_grows_one_node_of_three_visits_at_most():
    """An episode stops at a node never visited, and at one visited once (1/n = 1), so it
    expands a node only after two visits, and at most one a playout; without the stop the
    lab's rule expands a leaf on its second visit."""
    stopped = _episodes(64, 1, store_episodes=True, stop_episodes=True)
    assert (_episodes(2, 1, store_episodes=True, stop_episodes=True).stats[:, FIRST_CHILD]
            < 0).all()
    expanded = stopped.stats[:, FIRST_CHILD] >= 0
    assert 0 < expanded.sum() <= 64 and (stopped.stats[expanded, VISITS] >= 3).all()
    grown = _episodes(64, 1)
    assert (grown.stats[grown.stats[:, FIRST_CHILD] >= 0, VISITS] == 2).any()


def test_episodes_stop_at_the_root_with_probability_one_over_its_visits():
    """Over 400 searches of 64 stored episodes the root's stops (its visits less its
    children's) average 1 + sum_{n=1}^{63} 1/n (|z| < 4)."""
    stops = []
    for seed in range(400):
        tree = _episodes(64, seed, store_episodes=True, stop_episodes=True)
        first = tree.stats[0, FIRST_CHILD]
        stops.append(64 - tree.stats[first:first + 2, VISITS].sum())
    expected = 1 + sum(1 / n for n in range(1, 64))
    assert abs(np.mean(stops) - expected) < 4 * np.std(stops) / np.sqrt(len(stops))


def test_negamax_values_by_hand():
    """Root 0 -> 1, 2; 1 -> 3, 4 (4 never visited). The mover into 3 averages 0.8, so the
    mover into 1 gets 1 - 0.8; node 2 is a leaf of mean 0.5; the root's value is 1 - 0.5."""
    from mcts.core.final_move import negamax_value

    visits = np.array([10, 6, 4, 5, 0], np.int32)
    sums = np.array([0.0, 3.0, 2.0, 4.0, 0.0])
    children = np.array([1, 3, -1, -1, -1], np.int32)
    stack = np.zeros((3, 3))
    values = [negamax_value(visits, sums, children, 2, node, stack) for node in range(4)]
    assert np.allclose(values, [0.5, 0.2, 0.5, 0.8])


@pytest.mark.parametrize("options, words", [
    ({"policy": "klucb", "reward": "sum"}, "reward sum"),
    ({"reward": "sum", "root": "sh"}, "reward sum"),
    ({"policy": "flatmc", "store_episodes": True}, "store_episodes"),
    ({"stop_episodes": "yes"}, "stop_episodes"),
])
def test_kocsis_options_refused_where_they_mean_nothing(options, words):
    with pytest.raises(ValueError, match=words):
        Curve("pgame(127)", branching=2, depth=4, **options)
