"""Player specs: the examples of DESIGN §8, per-game defaults, and one-line errors."""

import numpy as np
import pytest

from bandits import KLUCB, MOSS, POLICIES, PUCT, UCB1, UCBV, Thompson, UCB1Tuned
from experiments.tournaments.match import play_game
from games import get_game
from mcts.core.rewards import ONLINE
from mcts.games.playouts import MAST, POLICY, UNIFORM
from mcts.players import parse_player


def test_plain_uct_takes_the_games_defaults():
    bt, ch = parse_player("uct", "breakthrough").config, parse_player("uct", "checkers").config
    assert (bt.policy, bt.playout, bt.epsilon) == (UCB1(c=0.8), MAST, 0.7)
    assert (ch.policy, ch.playout) == (UCB1(c=1.0), POLICY)
    assert bt.rb_k == bt.qb_k == 0 and not bt.quality


def test_the_full_example():
    config = parse_player("uct(c=0.8)+rb(k=8)+qb(k=2,a=online)", "amazons").config
    assert (config.policy, config.rb_k, config.rb_a, config.qb_k, config.qb_a) == (
        UCB1(c=0.8), 8.0, 0.25, 2.0, ONLINE)


@pytest.mark.parametrize("spec, fields", [
    ("uct+qb", {"qb_k": 2.0, "qb_a": 0.25, "rb_k": 0.0}),
    ("uct + rb", {"rb_k": 8.0}),
    ("thompson+qb", {"policy": Thompson(), "qb_k": 2.0}),
    ("klucb", {"policy": KLUCB(c=0.0)}),
    ("klucb(c=3)", {"policy": KLUCB(c=3.0)}),
    ("uct+quality", {"quality": True}),
    ("uct+random", {"playout": UNIFORM}),
    ("uct+mast(eps=0.2)", {"playout": MAST, "epsilon": 0.2}),
])
def test_specs(spec, fields):
    config = parse_player(spec, "breakthrough").config
    assert {key: getattr(config, key) for key in fields} == fields
    if "policy" in fields:  # records of one layout compare equal as tuples
        assert type(config.policy) is type(fields["policy"])


@pytest.mark.parametrize("spec, policy", [
    ("ucb1", UCB1(c=0.8)),
    ("ucb1(c=0.3)+qb", UCB1(c=0.3)),
    ("ucbv(zeta=2,c=0.5)", UCBV(zeta=2.0, c=0.5)),
    ("puct(c_init=2)", PUCT(c_init=2.0)),
    ("ucb1tuned+mast", UCB1Tuned()),
    ("moss", MOSS()),
])
def test_any_registered_policy_with_its_parameters(spec, policy):
    config = parse_player(spec, "breakthrough").config
    assert type(config.policy) is type(policy) and config.policy == policy


def test_mast_on_a_game_without_it_and_amazons_defaults():
    assert parse_player("uct+mast", "checkers").config.epsilon == 0.1
    config = parse_player("uct+qb+rb", "amazons").config
    assert (config.policy, config.rb_k, config.qb_k, config.epsilon) == (
        UCB1(c=0.4), 2.2, 1.6, 0.3)


@pytest.mark.parametrize("spec, words", [
    ("", "must start with a selection policy"),
    ("qb", "must start with a selection policy"),
    ("uct+foo", "unknown part 'foo'"),
    ("uct(x=1)", "bad parameter 'x=1' of 'uct'"),
    ("uct(c=abc)", "ucb1 parameter c = 'abc': must be a finite number >= 0"),
    ("uct+rb(k=0)", "rb parameter k = 0: must be a finite number > 0"),
    ("uct+qb(a=x)", "or online"),
    ("uct+mast(eps=2)", "mast parameter eps = 2: must be a finite number in [0, 1]"),
    ("thompson(c=1)", "thompson takes root (as key=value)"),
    ("moss(c=1)", "moss takes root"),
    ("ucbv(x=1)", "ucbv takes zeta, c, root"),
    ("uct(root=hmcts)", "unknown root policy 'hmcts': use sh or gumbel"),
    ("uct(root=gumbel(m=0))", "root policy gumbel parameter m = 0"),
    ("uct(root=gumbel(k=2))", "unknown root policy parameter 'k' for gumbel"),
    ("uct(root=3)", "root=3 is not a root policy"),
    ("puct(c_base=-1)", "puct parameter c_base = -1: must be a finite number > 0"),
    ("nosuch+qb", "unknown part 'nosuch'"),
    ("ucb1+uct", "two selection policies"),
    ("uct+qb+qb", "twice"),
    ("uct+klucb", "two selection policies"),
    ("uct+quality+qb", "exclude each other"),
    ("uct(c=1", "the parenthesis after 'uct' is not closed"),
])
def test_bad_specs_are_one_line_value_errors(spec, words):
    with pytest.raises(ValueError) as error:
        parse_player(spec, "breakthrough")
    assert words in str(error.value) and "\n" not in str(error.value)


def test_openspiel_games_take_the_selection_policy_only():
    assert parse_player("thompson", "openspiel:tic_tac_toe").config.policy == Thompson()
    for spec in ("uct+qb", "uct(root=sh)"):
        with pytest.raises(ValueError, match="selection policy only"):
            parse_player(spec, "openspiel:tic_tac_toe")


@pytest.mark.parametrize("name", list(POLICIES))
def test_every_registered_policy_plays_legal_breakthrough(name):
    """Each registry policy (its own compiled search) against itself with the Qualitative Bonus
    (rewards beyond [-1, 1], clipped for the unit-scale policies): every move is legal and the
    game ends with a winner."""
    game = get_game("breakthrough")
    players = (parse_player(f"{name}+qb(a=online)", "breakthrough"),
               parse_player(name, "breakthrough"))
    moves = []

    def check(state, seat, result):
        assert result.action in state.legal_actions()
        assert result.visits.sum() == result.playouts <= 30  # fewer once the root is solved
        moves.append(result.action)

    record = play_game(game, players, 30, np.random.default_rng(0), on_move=check)
    assert record.winner in (0, 1) and record.plies == len(moves) > 10
