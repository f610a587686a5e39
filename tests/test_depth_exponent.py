"""UCB1's depth exponent (Kocsis & Szepesvari 2006): the index by hand, the record the engine
indexes a node's children with, and where it is refused."""

import math

import numpy as np
import pytest
from numba import njit

from bandits import KLUCB, UCB1, at_depth, index_tables, make_policy
from bandits.ucb1 import ucb1_power_value, ucb1_value
from mcts.players import parse_player


@njit
def _at_depth(policy, depth, game_depth):
    return at_depth(policy, depth, game_depth)


@njit
def _power_value(mean, count, parent_count, c, power, tables):
    return ucb1_power_value(mean, count, parent_count, c, power, tables)


@njit
def _sqrt_value(mean, count, parent_count, c, tables):
    return ucb1_value(mean, count, parent_count, c, tables, None)


def test_the_exponent_by_hand():
    """(D + d) / (2D + d), D the plies left (Sect. 3.1: "the estimated game length starting
    from the node"): 1/2 at the root, (15 + 5) / (30 + 5) at depth 5 of a game of 20, 20 / 21
    at its last decision; off, every depth keeps the record as it is (the square root)."""
    on = make_policy("ucb1", depth_exponent="kocsis")
    assert on == UCB1(math.sqrt(2.0), 1.0, 0.5)
    assert _at_depth(on, 0, 20).power == 0.5
    assert _at_depth(on, 5, 15).power == pytest.approx(20 / 35)
    assert _at_depth(on, 19, 1).power == pytest.approx(20 / 21)
    assert _at_depth(UCB1(), 7, 20) == UCB1()
    assert _at_depth(KLUCB(), 7, 20) == KLUCB()


def test_the_index_by_hand():
    """mean + c (ln t / T)^p; the power 1/2 is UCB1's own index, bit for bit."""
    tables = index_tables(64)
    assert _power_value(0.25, 4, 50, 1.5, 0.6, tables) == pytest.approx(
        0.25 + 1.5 * (math.log(50) / 4) ** 0.6, rel=1e-14)
    assert _power_value(0.25, 4, 50, 1.5, 0.5, tables) == _sqrt_value(0.25, 4, 50, 1.5, tables)
    assert _power_value(0.25, 0, 50, 1.5, 0.6, tables) == np.inf


@pytest.mark.parametrize("value", [2, -1, 0.5, "sqrt"])
def test_a_depth_exponent_out_of_range_is_one_line(value):
    with pytest.raises(ValueError) as error:
        make_policy("ucb1", depth_exponent=value)
    assert "depth_exponent" in str(error.value) and "\n" not in str(error.value)


def test_a_game_player_refuses_it():
    """A game's length is not fixed and its engines do not read the exponent: refused."""
    with pytest.raises(ValueError, match="depth_exponent is for synthetic trees"):
        parse_player("uct(depth_exponent=kocsis)", "breakthrough")
    assert parse_player("uct(depth_exponent=off)", "breakthrough").config.policy == UCB1(c=0.8)
