"""The one MCTS-Solver (``mcts.core.solver``) on hand-built trees, and on scripted positions of a
synthetic tree and a real game, whose engines both call it."""

import math

import numpy as np
import pytest
from numba import njit

from bandits import index_tables, make_policy
from bandits.rng import seed_state
from experiments import Curve
from experiments.curves.failure import search_config
from games import get_game
from mcts.core.search_tree import FIRST_CHILD, VISITS
from mcts.core.solver import (
    DRAW,
    LOSS,
    NO_CHILD,
    UNPROVEN,
    WIN,
    final_move,
    prove,
    solver_choice,
    value_from_children,
)
from mcts.games import GameSearchConfig
from mcts.games import search as game_search
from mcts.synthetic import search, tree_arrays
from trees import make_tree, solve_minimax


@njit
def _value(proven, first, count):
    return value_from_children(proven, first, count)


@njit
def _prove(proven, path, depth, leaf, first_child, count):
    prove(proven, path, depth, leaf, first_child, count)


@njit
def _choice(proven, first, count, seed):
    return solver_choice(proven, first, count, seed_state(seed))


@njit
def _final(proven, visits, first, count, seed):
    return final_move(proven, visits, first, count, seed_state(seed), np.empty(count))


def _flags(*values):
    return np.array(values, np.int8)


@pytest.mark.parametrize("children, value", [
    ((WIN, UNPROVEN, LOSS), LOSS),  # one child won for the opponent: lost, whatever the rest
    ((UNPROVEN, LOSS, LOSS), UNPROVEN),
    ((LOSS, LOSS, LOSS), WIN),  # every move loses for the opponent
    ((LOSS, DRAW, LOSS), DRAW),
    ((DRAW, DRAW), DRAW),
])
def test_a_node_takes_the_negation_of_its_best_child(children, value):
    assert _value(_flags(*children), 0, len(children)) == value


# A tree of 7 nodes in rows: 0 -> (1, 2); 1 -> (3, 4); 2 -> (5, 6)
FIRST = np.array([1, 3, 5, -1, -1, -1, -1], np.int64)
COUNTS = np.array([2, 2, 2, 0, 0, 0, 0], np.int64)


def test_a_proof_propagates_to_the_root_and_stops_where_unknown():
    proven = _flags(UNPROVEN, UNPROVEN, UNPROVEN, UNPROVEN, UNPROVEN, UNPROVEN, UNPROVEN)
    _prove(proven, np.array([0, 1, 3]), 2, WIN, FIRST, COUNTS)  # 3 won: 1 lost, 0 unknown
    assert proven.tolist() == [UNPROVEN, LOSS, UNPROVEN, WIN, UNPROVEN, UNPROVEN, UNPROVEN]
    _prove(proven, np.array([0, 2, 5]), 2, LOSS, FIRST, COUNTS)  # 5 lost, 6 unknown: 2 too
    assert proven[2] == UNPROVEN and proven[0] == UNPROVEN
    _prove(proven, np.array([0, 2, 6]), 2, DRAW, FIRST, COUNTS)  # 2 a draw: 0 won (1 lost)
    assert proven[2] == DRAW and proven[0] == DRAW
    # uniform branching: the count is one number
    uniform = _flags(*[UNPROVEN] * 7)
    _prove(uniform, np.array([0, 1, 3]), 2, WIN, FIRST, 2)
    assert uniform[1] == LOSS


def test_propagation_ends_at_a_node_proven_before():
    """A proven value is exact: the solver does not recompute it, nor anything above it."""
    proven = _flags(UNPROVEN, LOSS, UNPROVEN, DRAW, DRAW, UNPROVEN, UNPROVEN)  # 1 is stale
    _prove(proven, np.array([0, 1, 3]), 2, DRAW, FIRST, COUNTS)
    assert proven[1] == LOSS and proven[0] == UNPROVEN


def test_selection_takes_a_proven_win_at_random_and_counts_losses():
    picks = {_choice(_flags(WIN, LOSS, WIN, UNPROVEN), 0, 4, np.uint64(s))[0] for s in range(40)}
    assert picks == {0, 2}
    pick, losses, open_child = _choice(_flags(LOSS, UNPROVEN, LOSS), 0, 3, np.uint64(1))
    assert (pick, losses, open_child) == (NO_CHILD, 2, 1)


def test_the_final_move_prefers_a_proven_win_then_visits_among_moves_not_lost():
    visits = np.array([50.0, 90.0, 10.0, 90.0])
    assert _final(_flags(UNPROVEN, UNPROVEN, WIN, UNPROVEN), visits, 0, 4, np.uint64(0)) == 2
    assert _final(_flags(UNPROVEN, LOSS, UNPROVEN, UNPROVEN), visits, 0, 4, np.uint64(0)) == 3
    ties = {_final(_flags(*[UNPROVEN] * 4), visits, 0, 4, np.uint64(s)) for s in range(40)}
    assert ties == {1, 3}
    assert _final(_flags(LOSS, LOSS, LOSS, LOSS), visits, 0, 4, np.uint64(3)) in (1, 3)


@pytest.mark.parametrize("spec", ["pgame(3)", "constant(1,3)", "random(4,3)+trap(1,0.5)"])
def test_a_synthetic_search_proves_its_root_and_stops(spec):
    """b = 2, d = 4: 4096 playouts exhaust the tree. The root is proven to its minimax value
    (``trees.solve_minimax``) for the player who moved into it (min: the root is max's), and
    the run stops there."""
    budget = 4096
    for seed in range(6):
        instance = make_tree(spec, 2, 4, seed)
        curve = Curve(spec, "ucb1", "plain", branching=2, depth=4, max_budget=budget)
        failed = np.zeros(int(math.log2(budget)) + 1, np.bool_)
        tree = search(tree_arrays(instance), search_config(curve, instance), budget,
                      np.uint64(seed), index_tables(budget), make_policy("ucb1"), failed)
        outcome = solve_minimax(instance).outcome()[0]  # exact, vectorised bottom-up
        assert tree.proven[0] == {1.0: LOSS, 0.5: DRAW, 0.0: WIN}[outcome], (spec, seed)
        assert tree.stats[0, VISITS] < budget and not failed[-1]
        first = tree.stats[0, FIRST_CHILD]
        assert _value(tree.proven, first, 2) == tree.proven[0]


def _board(**cells):
    rows = [["."] * 8 for _ in range(8)]
    for name, piece in cells.items():
        rows[8 - int(name[1:])]["abcdefgh".index(name[0])] = piece
    return ["".join(row) for row in rows]


@pytest.mark.parametrize("policy", ["ucb1", "thompson"])
def test_a_game_search_proves_a_win_in_three_plies_and_stops(policy):
    """Breakthrough, White to move: the c6 pawn reaches row 8 in two moves and Black's pawns
    (g8, h8) can neither stop it nor win first. No move wins at once, so the proof needs the
    tree: a White move, every Black reply, each answered by a promotion. The search proves the
    root (a child won for White), plays a proven win and stops early."""
    game = get_game("breakthrough")
    state = game.from_board(_board(c6="w", a2="w", g8="b", h8="b"))
    result = game_search(game, state, 3000, GameSearchConfig(policy=make_policy(policy)),
                         seed=3)
    chosen = list(result.actions).index(result.action)
    assert result.proven[chosen] == WIN and result.playouts < 3000
    assert state.action_to_string(result.action)[:2] == "c6"
