"""The root policies in the games engine: sequential halving and the Gumbel
root above UCT in ``mcts.games``, from player specs such as ``uct(root=sh)+qb``.

The root's visits are a function of the schedule alone, so they are checked against the
schedules written out here and in ``reference_gumbel`` (mctx's, transcribed apart); the
synthetic engine's tests (``test_root_policies``) check the pulls bit for bit. Every search
below shares one compiled kernel: UCT with a root policy's record."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from reference_gumbel import considered_visit_sequence

from experiments.cli import main
from experiments.inspect.position import one_search
from experiments.tournaments.match import play_game
from experiments.tournaments.tournament import Tournament
from games import get_game
from mcts.core.solver import WIN
from mcts.players import parse_player

GAME = "breakthrough"


def halving_visits(arms: int, budget: int) -> list[int]:
    """Every arm's pulls under sequential halving (Karnin et al. 2013, Algorithm 1), largest
    first: round r gives each of the |S_r| arms left floor(T / (|S_r| ceil(log2 K))) pulls and
    keeps ceil(|S_r| / 2)."""
    rounds = math.ceil(math.log2(arms))
    totals, left, pulls = [], arms, 0
    for _ in range(rounds):
        pulls += budget // (left * rounds)
        kept = math.ceil(left / 2)
        totals += [pulls] * (left - kept)
        left = kept
    return sorted(totals + [pulls] * left, reverse=True)


def gumbel_visits(arms: int, considered: int, budget: int) -> list[int]:
    """Every child's visits after mctx's considered-visit sequence: as many children have more
    than j visits as the sequence holds j's."""
    counts = Counter(considered_visit_sequence(min(considered, arms), budget))
    return sorted((sum(counts[j] > k for j in counts) for k in range(arms)), reverse=True)


def win_in_one(seed: int = 0):
    """A Breakthrough position, reached by uniformly random plies, whose mover wins at once."""
    game, rng = get_game(GAME), np.random.default_rng(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            wins = [a for a in state.legal_actions()
                    if state.child(a).is_terminal() and state.child(a).returns()[mover] > 0]
            if wins:
                return game, state, wins
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("budget", [110, 1000])
def test_sequential_halving_at_a_game_root_keeps_its_schedule(budget):
    game = get_game(GAME)
    state = game.new_initial_state()
    arms = len(state.legal_actions())
    result = parse_player("uct(root=sh)+qb", GAME).search(game, state, budget, seed=3)
    expected = halving_visits(arms, budget)
    assert sorted(result.visits.astype(int), reverse=True) == expected
    assert result.playouts == sum(expected) <= budget
    played = result.visits[result.actions == result.action][0]
    assert played == expected[0]  # the last child left is among the two most visited


@pytest.mark.parametrize("m, budget", [(16, 200), (4, 1000), (1, 50)])
def test_the_gumbel_root_keeps_mctx_schedule(m, budget):
    game = get_game(GAME)
    state = game.new_initial_state()
    result = parse_player(f"uct(root=gumbel(m={m}))", GAME).search(game, state, budget, seed=5)
    expected = gumbel_visits(len(state.legal_actions()), m, budget)
    assert sorted(result.visits.astype(int), reverse=True) == expected
    assert result.visits[result.actions == result.action][0] == expected[0]


@pytest.mark.parametrize("root", ["sh", "gumbel(m=2)"])
def test_a_win_in_one_proves_the_root_before_any_playout(root):
    """MCTS-Solver: a root child that ends the game in the mover's favour proves the root when
    it is expanded, so the root policy, which might never visit it, does not get to choose."""
    game, state, wins = win_in_one()
    result = parse_player(f"uct(root={root})", GAME).search(game, state, 400, seed=1)
    assert result.action in wins and result.playouts == 0
    assert result.proven[result.actions == result.action][0] == WIN


def test_root_players_play_legal_games_and_small_budgets_run():
    """Under sequential halving's minimum (K ceil(log2 K)) its rounds of no playouts keep
    children drawn uniformly: a legal move, as at every budget."""
    game = get_game(GAME)
    players = (parse_player("uct(root=sh)", GAME), parse_player("uct(root=gumbel)", GAME))

    def check(state, seat, result):
        assert result.action in state.legal_actions()
        assert result.visits.sum() == result.playouts <= 120

    record = play_game(game, players, 120, np.random.default_rng(0), on_move=check)
    assert record.winner in (0, 1)
    tiny = players[0].search(game, game.new_initial_state(), 7, seed=0)
    assert tiny.action in game.new_initial_state().legal_actions() and tiny.playouts <= 7


def test_too_few_playouts_for_a_halving_round_are_refused(capsys):
    with pytest.raises(ValueError, match="needs at least 110"):
        Tournament(GAME, "uct(root=sh)", "uct", games=2, playouts=100)
    code = main(["play", GAME, "--player1", "uct", "--player2", "uct(root=sh)",
                 "--playouts", "50"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--playouts 50 is too small for uct(root=sh)" in err
    assert "\n" not in err
    assert not one_search(parse_player("uct(root=gumbel)", GAME))
    assert one_search(parse_player("uct", GAME))
