"""Chinese Checkers: hop chains, the home rule, and a check of the move
generator against OpenSpiel's ``chinese_checkers`` on its 121-cell board."""

import numpy as np
import pytest

from bandits.rng import seed_state
from games import chinese_checkers as cc
from games import compiled, get_game

GAME = get_game("chinesecheckers")
INDEX = {tuple(c): i for i, c in enumerate(cc.COORDS.tolist())}
WIDTHS = [1, 2, 3, 10, 9, 8, 7, 8, 9, 10, 3, 2, 1]
START_O = [(3, -6), (2, -5), (3, -5), (1, -4), (2, -4), (3, -4)]  # player 1 at the top


def position(x, o=START_O, to_move=0, plies=0):
    """A state with player 0's pieces on the axial cells ``x`` and player 1's on ``o``."""
    cells = ["."] * cc.CELLS
    for piece, where in (("x", x), ("o", o)):
        for q, r in where:
            cells[INDEX[q, r]] = piece
    rows = np.split(np.array(cells), np.cumsum(WIDTHS)[:-1])
    return GAME.from_board(["".join(row) for row in rows], to_move, plies=plies)


def destinations(state, origin):
    """The axial cells the piece on ``origin`` can move to."""
    start = INDEX[origin]
    return sorted(tuple(cc.COORDS[a % cc.CELLS].tolist()) for a in state.legal_actions()
                  if a // cc.CELLS == start)


def play(state, origin, to):
    state.apply(INDEX[origin] * cc.CELLS + INDEX[to])


def test_board_and_start():
    assert cc.CELLS == 73 and np.diff(cc._ROW_STARTS).tolist() == WIDTHS
    assert cc.TARGETS.sum(axis=1).tolist() == [6, 6]
    lines = GAME.new_initial_state().render().splitlines()
    assert lines[0].split() == ["a", "o"] and lines[-1].split() == ["m", "x"]


def test_hop_chain_over_any_pieces_lands_on_every_stop():
    x = [(1, 0), (1, -3), (-3, 3), (-2, 3), (-1, 3), (0, 3)]
    state = position(x, o=[(1, -1), (3, -6), (2, -5), (3, -5), (2, -4), (3, -4)])
    steps = [(2, 0), (0, 0), (1, 1), (2, -1), (0, 1)]
    assert destinations(state, (1, 0)) == sorted(steps + [(1, -2), (1, -4)])
    play(state, (1, 0), (1, -4))
    assert state.array[INDEX[1, -1]] == 2 and state.array[INDEX[1, -3]] == 1  # nothing taken
    assert state.array[INDEX[1, -4]] == 1 and state.array[INDEX[1, 0]] == 0


def test_pieces_in_the_target_stay_there():
    x = [(1, -4), (1, -3), (-3, 3), (-2, 3), (-1, 3), (0, 3)]
    state = position(x, o=[(2, -4), (-3, 0), (-2, 0), (-1, 0), (0, 0), (1, 0)])
    # from c1: d4, d5 lie outside; over c2 to c3 stays inside; over d5 to e-row would leave
    assert destinations(state, (1, -4)) == [(2, -5), (3, -4)]
    assert (0, -3) in destinations(state, (1, -3))  # a piece outside moves freely


def test_the_last_piece_home_wins():
    x = [(3, -6), (2, -5), (3, -5), (1, -4), (2, -4), (2, -3)]
    o = [(-3, 6), (-3, 5), (0, 0), (1, 0), (2, 0), (3, 0)]
    state = position(x, o)
    out = np.empty(GAME.max_actions, dtype=np.int64)
    rng = seed_state(5)
    for _ in range(20):
        action = compiled.policy_action(GAME.game_id, state.array, out, rng)
        assert action == INDEX[2, -3] * cc.CELLS + INDEX[3, -4]
    play(state, (2, -3), (3, -4))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.quality() == pytest.approx(1 - 2 / 6)


def test_a_target_full_with_a_spoilers_piece_wins():
    """The seed's framework counts occupied target cells: an opponent piece left in the target
    (here o's on the tip) does not stop x from winning by filling the rest."""
    x = [(2, -5), (3, -5), (1, -4), (2, -4), (2, -3), (0, 0)]
    o = [(3, -6), (-3, 6), (-3, 5), (-2, 5), (-3, 4), (-1, 0)]
    state = position(x, o)
    out = np.empty(GAME.max_actions, dtype=np.int64)
    action = compiled.policy_action(GAME.game_id, state.array, out, seed_state(3))
    assert action == INDEX[2, -3] * cc.CELLS + INDEX[3, -4]  # the decisive move
    play(state, (2, -3), (3, -4))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.quality() == pytest.approx(1 - 4 / 6)  # o has 4 pieces home


def test_stepping_back_home_to_fill_the_opponents_target_loses():
    x = [(-2, 4), (-1, 3), (2, -3), (3, -3), (1, -2), (2, -2)]
    o = [(-3, 6), (-3, 5), (-2, 5), (-3, 4), (0, 0), (1, 0)]
    state = position(x, o)
    play(state, (-1, 3), (-1, 4))  # the last empty cell of o's target, x's own start
    assert state.is_terminal() and state.returns() == (-1.0, 1.0)


def test_a_target_full_of_the_opponents_start_pieces_is_no_win():
    state = GAME.new_initial_state()
    play(state, (-1, 4), (-1, 3))  # x's target is still full, of o's pieces only
    assert not state.is_terminal()


def test_draw_after_1000_plies():
    state = position([(-3, 6), (-3, 5), (-2, 5), (-3, 4), (-2, 4), (-1, 4)],
                     plies=cc.DRAW_AFTER - 1)
    play(state, (-1, 4), (-1, 3))
    assert state.is_terminal() and state.winner() == -1 and state.quality() == 0.0


def test_moves_agree_with_openspiel_on_its_121_cell_board():
    """OpenSpiel has no home rule and plays a chain hop by hop (ended by a pass, or by itself when
    no hop is left); with the home rule off, our whole moves must be exactly the (start, stop)
    pairs of its hop sequences, along 100 random plies."""
    pyspiel = pytest.importorskip("pyspiel")
    coords, neighbours, hops, _ = cc.board_tables(4)
    no_home = np.zeros((2, len(coords)), dtype=np.bool_)
    to_ours = [3, 4, 1, 0, 5, 2]  # OpenSpiel's directions in doubled coordinates -> ours
    rng = np.random.default_rng(0)
    game = pyspiel.load_game("chinese_checkers")
    state = game.new_initial_state()
    board = np.zeros(len(coords) + 4, dtype=np.int8)
    board[:10], board[111:121] = 1, 2
    out = np.empty(10 * len(coords), dtype=np.int64)
    for _ in range(100):
        player = state.current_player()
        theirs = _openspiel_moves(state, board, neighbours, hops, to_ours)
        n = cc.generate(board, player, out, neighbours, hops, no_home, False)
        ours = {(a // len(coords), a % len(coords)) for a in out[:n]}
        assert ours == set(theirs)
        (origin, to), path = sorted(theirs.items())[rng.integers(len(theirs))]
        for action in path:
            state.apply_action(action)
        board[to], board[origin] = board[origin], 0


def _openspiel_moves(state, board, neighbours, hops, to_ours):
    """{(start, stop): OpenSpiel actions} of every whole move (depth-first over hop chains,
    each landing cell followed once: it reaches the same cells as every chain)."""
    moves = {}
    pass_action = state.get_game().num_distinct_actions() - 1
    stack = [(state, None, [])]
    while stack:
        node, origin, path = stack.pop()
        for action in node.legal_actions():
            if action == pass_action:
                continue
            start, d = divmod(action, 6)
            near = neighbours[start, to_ours[d]]
            lifted = origin if origin is not None else start
            if origin is not None or board[near] != 0:  # in a chain, every action is a hop
                landing = hops[start, to_ours[d]]
                if (lifted, landing) not in moves:
                    child = node.child(action)
                    if child.current_player() != node.current_player():  # the chain is over
                        moves[(lifted, landing)] = path + [action]
                    else:
                        moves[(lifted, landing)] = path + [action, pass_action]
                        stack.append((child, lifted, path + [action]))
            else:
                moves[(start, near)] = path + [action]
    return {move: path for move, path in moves.items() if move[0] != move[1]}
