"""The compiled interface of the one-player chance games, dispatched on a rules key.

Kept apart from ``games.compiled`` (the two-player deterministic games): these games have chance
nodes and a score, not a winner. ``gid`` is a :class:`games.SolitaireGame`'s ``game_id``, its
rules module's typed key (``games.rules``): a kernel is compiled per module, and anything else in
its place is a typing error, for the reasons given in ``games.compiled``.

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
Adding a game: a module with the functions of ``games.rules.CHANCE_RULES`` and one line in
``games.registry``. ``legal_actions``, ``apply_action``, ``is_terminal`` and ``policy_action``
are ``games.compiled``'s, which take either protocol's key.
"""

from __future__ import annotations

from numba import njit

from bandits.rng import randint

from .compiled import apply_action, is_terminal, legal_actions, policy_action
from .rules import protocol_function

# the chance games' interface: their own operations and the four shared with ``games.compiled``
__all__ = ["apply_action", "apply_outcome", "feature", "feature_probability", "is_terminal",
           "legal_actions", "n_outcomes", "playout", "policy_action", "ranked_outcome", "score"]

_n_outcomes = protocol_function("chance", "n_outcomes")
_apply_outcome = protocol_function("chance", "apply_outcome")
_score = protocol_function("chance", "score")
_feature = protocol_function("chance", "feature")
_feature_probability = protocol_function("chance", "feature_probability")
_ranked_outcome = protocol_function("chance", "ranked_outcome")


@njit(cache=True)
def n_outcomes(gid, state):
    return _n_outcomes(gid, state)


@njit(cache=True)
def apply_outcome(gid, state, outcome):
    _apply_outcome(gid, state, outcome)


@njit(cache=True)
def score(gid, state):
    return _score(gid, state)


@njit(cache=True)
def feature(gid, state, outcome):
    return _feature(gid, state, outcome)


@njit(cache=True)
def feature_probability(gid, state):
    return _feature_probability(gid, state)


@njit(cache=True)
def ranked_outcome(gid, state, rank):
    return _ranked_outcome(gid, state, rank)


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
