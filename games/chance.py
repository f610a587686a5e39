"""The compiled interface of the one-player chance games, dispatched on a chance-game id.

Kept apart from ``games.compiled`` (the two-player deterministic games): these games have chance
nodes and a score, not a winner. Ids, not function objects, for the reason given there.

Contract, for every game (states are small ``int64`` arrays, actions and outcomes ``int64``):
- ``legal_actions(gid, state, out) -> n``: at a decision node the actions; at a chance node the
  outcomes ``0..n-1``; n == 0 iff terminal. ``out`` needs ``SolitaireGame.max_actions`` slots.
- ``apply_action(gid, state, action)``: in place; an action with a random effect leaves the
  state at a chance node, where ``n_outcomes > 0`` and ``apply_outcome`` resolves it; one
  outcome may lead to the next chance node (Dominion draws card by card). Outcomes are
  equiprobable (dice faces, the cards left in a deck).
- ``score``: the points so far (the final score at a terminal); returns are on this scale.
- ``policy_action(gid, state, out, rng)``: one step of the default playout policy (decision
  nodes only), -1 at a terminal.
- Variance reduction (seed 003 Sect. 4.2): at a chance node, ``feature(gid, state, outcome)``
  is the boolean b of Eq. 4 for that outcome and ``feature_probability(gid, state)`` its known
  probability; ``ranked_outcome(gid, state, rank)`` orders the outcomes from lucky to unlucky,
  so ranks r and n - 1 - r are antithetic.
Adding a game: give it these functions in its module and one branch in each dispatcher here.
"""

from __future__ import annotations

from numba import njit

from bandits.rng import randint

from . import cantstop, die_bet, dominion, pig

PIG, DIE_BET, CANT_STOP, DOMINION = 0, 1, 2, 3


@njit(cache=True)
def legal_actions(gid, state, out):
    if gid == DOMINION:
        return dominion.legal_actions(state, out)
    if gid == CANT_STOP:
        return cantstop.legal_actions(state, out)
    if gid == PIG:
        return pig.legal_actions(state, out)
    return die_bet.legal_actions(state, out)


@njit(cache=True)
def apply_action(gid, state, action):
    if gid == DOMINION:
        dominion.apply_action(state, action)
    elif gid == CANT_STOP:
        cantstop.apply_action(state, action)
    elif gid == PIG:
        pig.apply_action(state, action)
    else:
        die_bet.apply_action(state, action)


@njit(cache=True)
def n_outcomes(gid, state):
    if gid == DOMINION:
        return dominion.n_outcomes(state)
    if gid == CANT_STOP:
        return cantstop.n_outcomes(state)
    if gid == PIG:
        return pig.n_outcomes(state)
    return die_bet.n_outcomes(state)


@njit(cache=True)
def apply_outcome(gid, state, outcome):
    if gid == DOMINION:
        dominion.apply_outcome(state, outcome)
    elif gid == CANT_STOP:
        cantstop.apply_outcome(state, outcome)
    elif gid == PIG:
        pig.apply_outcome(state, outcome)
    else:
        die_bet.apply_outcome(state, outcome)


@njit(cache=True)
def is_terminal(gid, state):
    if gid == DOMINION:
        return dominion.is_terminal(state)
    if gid == CANT_STOP:
        return cantstop.is_terminal(state)
    if gid == PIG:
        return pig.is_terminal(state)
    return die_bet.is_terminal(state)


@njit(cache=True)
def score(gid, state):
    if gid == DOMINION:
        return dominion.score(state)
    if gid == CANT_STOP:
        return cantstop.score(state)
    if gid == PIG:
        return pig.score(state)
    return die_bet.score(state)


@njit(cache=True)
def policy_action(gid, state, out, rng):
    if gid == DOMINION:
        return dominion.policy_action(state, out, rng)
    if gid == CANT_STOP:
        return cantstop.policy_action(state, out, rng)
    if gid == PIG:
        return pig.policy_action(state, out, rng)
    return die_bet.policy_action(state, out, rng)


@njit(cache=True)
def feature(gid, state, outcome):
    if gid == DOMINION:
        return dominion.feature(state, outcome)
    if gid == CANT_STOP:
        return cantstop.feature(state, outcome)
    if gid == PIG:
        return pig.feature(state, outcome)
    return die_bet.feature(state, outcome)


@njit(cache=True)
def feature_probability(gid, state):
    if gid == DOMINION:
        return dominion.feature_probability(state)
    if gid == CANT_STOP:
        return cantstop.feature_probability(state)
    if gid == PIG:
        return pig.feature_probability(state)
    return die_bet.feature_probability(state)


@njit(cache=True)
def ranked_outcome(gid, state, rank):
    if gid == DOMINION:
        return dominion.ranked_outcome(state, rank)
    if gid == CANT_STOP:
        return cantstop.ranked_outcome(state, rank)
    if gid == PIG:
        return pig.ranked_outcome(state, rank)
    return die_bet.ranked_outcome(state, rank)


@njit(cache=True)
def playout(gid, state, out, rng):
    """Play ``state`` to its end in place by the default policy, outcomes drawn uniformly;
    return the number of decisions taken."""
    moves = 0
    while True:
        n = n_outcomes(gid, state)
        if n > 0:
            apply_outcome(gid, state, randint(rng, n))
            continue
        action = policy_action(gid, state, out, rng)
        if action < 0:
            return moves
        apply_action(gid, state, action)
        moves += 1
