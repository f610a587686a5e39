"""Dominion solitaire, base set, "First Game" kingdom: compiled rules (seed 003 Sect. 4.1; DESIGN
§9).

One player, no opponent: maximise the victory points (Estate 1, Duchy 3, Province 6) in the deck
after a fixed number of turns (``DEFAULT_TURNS`` = 15, about a two-player game's length). Start:
7 Copper + 3 Estate, hands of 5; supply as for two players (46 Copper, 40 Silver, 30 Gold, 8 of
each victory card, 10 of each kingdom card). The game also ends after a turn in which the
Provinces or any 3 supply piles ran out. Militia is just +2 money and Moat just +2 cards.
Mine and Remodel must trash when they can (first edition); Mine only upgrades (Copper -> Silver,
Silver -> Gold, into the hand): its dominated choices are left out. No Curse pile (nothing here
gives Curses; gaining one never helps).

State ``int64[89]``: turns left (0 = over, also set by an early end), phase, actions, buys,
coins from played cards, draws pending, lowest card type allowed next (Cellar discards and buys
go in non-decreasing type order, so no two orders reach the same position), gain cost cap, cards
discarded by Cellar, then per card type (``NAMES`` order) the counts in the draw pile, hand,
discard pile, in play and supply. The deck as counts is a shuffled deck: a draw is a chance
node whose equiprobable outcomes are the cards of the draw pile (outcome i = the i-th card by
cumulative counts in type order); an empty draw pile takes the discard pile. Decisions, encoded
16 kind + card: play an action card, buy, gain (Workshop, Remodel), trash (Remodel), discard
(Cellar), mine (the treasure to upgrade); and end actions, end discards (Cellar draws as many),
end turn. Treasures are played automatically when the action phase ends, and a decision with a
single legal move is taken automatically (so a position is a chance node, a choice of two or
more moves, or the end).

Variance reduction (seed 003 Sect. 4.2). Control variate: b = "this draw lifts the money
available this turn (coins from played cards + treasures in hand) from below 8 to 8 or more",
the paper's "hand with 8 or more money"; P[b] = (cards in the draw pile that do so) / (draw
pile size), 0 when already at 8; offline c = -0.7 (the paper's; measured here from the start
under the default policy: -1.2, with Corr^2 about 0.01, so little variance goes). Antithetic
ranking: cards by money value (Gold; Silver, Militia, Woodcutter; Copper, Market; other
actions; victory cards), lucky first; the paper found no useful antithetic mapping for
Dominion, this one is provided for completeness. Common random numbers: ``mcts.stochastic``
shares streams of chance ranks at the root only; the paper shared pre-shuffled decks
recursively at every state (a deviation). A turn's draws are chance nodes in a row, which
``mcts.stochastic`` resolves one after another.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandits.rng import randint, uniform

NAMES = ("copper", "silver", "gold", "estate", "duchy", "province", "cellar", "market",
         "militia", "mine", "moat", "remodel", "smithy", "village", "woodcutter", "workshop")
(COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CELLAR, MARKET, MILITIA, MINE, MOAT, REMODEL,
 SMITHY, VILLAGE, WOODCUTTER, WORKSHOP) = range(16)
CARDS = 16
COST = np.array([0, 3, 6, 2, 5, 8, 2, 5, 4, 5, 2, 4, 4, 3, 3, 3], dtype=np.int64)
MONEY = np.array([1, 2, 3] + [0] * 13, dtype=np.int64)
VP = np.array([0, 0, 0, 1, 3, 6] + [0] * 10, dtype=np.int64)
SUPPLY_2P = np.array([46, 40, 30, 8, 8, 8] + [10] * 10, dtype=np.int64)
_LUCK_VALUE = np.array([1, 2, 3, -1, -1, -1, 0, 1, 2, 0, 0, 0, 0, 0, 2, 0])
LUCK = np.lexsort((np.arange(CARDS), -_LUCK_VALUE)).astype(np.int64)  # card types, lucky first

TURNS, PHASE, ACTIONS, BUYS, COINS, PENDING, LOW, CAP, DISCARDED = range(9)
DRAW, HAND, DISCARD, PLAY, SUPPLY = 9, 25, 41, 57, 73  # zones of 16 counts
STATE_SIZE = 89
ACTION_PHASE, CELLAR_PHASE, MINE_PHASE, TRASH_PHASE, GAIN_PHASE, BUY_PHASE = range(6)
PHASES = ("action", "cellar discards", "mine", "remodel trash", "gain", "buy")
PLAY_CARD, BUY_CARD, GAIN_CARD, TRASH_CARD, DISCARD_CARD, MINE_CARD = 0, 16, 32, 48, 64, 80
END_ACTIONS, END_DISCARDS, END_TURN = 96, 97, 98
HAND_SIZE = 5
DEFAULT_TURNS = 15
MAX_ACTIONS = 10 + int(SUPPLY_2P.sum())  # 250 >= any draw pile: the outcomes of a chance node
PROVINCE_MONEY = 8  # the control variate's threshold
BUY_PROBABILITY = 0.9  # default policy: the preferred buy, else a uniformly random buy move
ENDGAME_TURNS = 2  # default policy: victory cards first in the last turns


def initial_state(turns: int = DEFAULT_TURNS) -> np.ndarray:
    """The start: 7 Copper and 3 Estate in the draw pile, the first hand of 5 to be drawn."""
    if turns < 1:
        raise ValueError(f"Dominion needs at least one turn, not {turns}")
    state = _blank(turns)
    state[DRAW + COPPER], state[DRAW + ESTATE], state[PENDING] = 7, 3, HAND_SIZE
    return state


def from_cards(turns: int, hand: dict[str, int], draw: dict[str, int] | None = None,
               discard: dict[str, int] | None = None,
               supply: dict[str, int] | None = None) -> np.ndarray:
    """The start of a turn (1 action, 1 buy) with ``turns`` left and the given cards by name
    (supply: changes to the two-player supply, at most ``MAX_ACTIONS`` cards in all); forced
    moves are taken."""
    if turns < 1:
        raise ValueError(f"Dominion needs at least one turn, not {turns}")
    state = _blank(turns)
    for zone, cards in ((HAND, hand), (DRAW, draw), (DISCARD, discard), (SUPPLY, supply)):
        for name, count in (cards or {}).items():
            if name not in NAMES or count < 0:
                raise ValueError(f"no {count} x {name!r}: cards are {', '.join(NAMES)}")
            state[zone + NAMES.index(name)] = count
    if state[DRAW:].sum() > MAX_ACTIONS:
        raise ValueError(f"at most {MAX_ACTIONS} cards in all (deck and supply), the bound "
                         f"of a draw pile; take some from the supply")
    _settle(state)
    return state


def _blank(turns: int) -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[TURNS], state[ACTIONS], state[BUYS] = turns, 1, 1
    state[SUPPLY: SUPPLY + CARDS] = SUPPLY_2P
    return state


@njit(cache=True)
def _size(state, zone):
    total = 0
    for t in range(CARDS):
        total += state[zone + t]
    return total


@njit(cache=True)
def money(state):
    """The money available this turn: coins from played cards plus the treasures in hand."""
    return state[COINS] + state[HAND + COPPER] + 2 * state[HAND + SILVER] + 3 * state[HAND + GOLD]


@njit(cache=True)
def card_at(state, outcome):
    """The card type of draw-pile position ``outcome`` (positions by cumulative type counts)."""
    for t in range(CARDS):
        if outcome < state[DRAW + t]:
            return t
        outcome -= state[DRAW + t]
    return -1


@njit(cache=True)
def is_terminal(state):
    return state[TURNS] == 0


@njit(cache=True)
def n_outcomes(state):
    """The draw pile's size while draws are pending, else 0."""
    return _size(state, DRAW) if state[TURNS] > 0 and state[PENDING] > 0 else 0


@njit(inline="always")  # per legal move listed, at every playout step (_settle)
def _put(out, n, first, move):
    if out is not None:
        out[n] = move
    return n + 1, move if n == 0 else first


@njit(cache=True)
def _moves(state, out):
    """(number, first) of the legal moves of a decision node (0 for a sub-decision without
    options), written to ``out`` unless it is None."""
    phase, n, first = state[PHASE], 0, -1
    if phase == ACTION_PHASE:
        if state[ACTIONS] > 0:
            for t in range(CELLAR, CARDS):
                if state[HAND + t] > 0:
                    n, first = _put(out, n, first, PLAY_CARD + t)
        n, first = _put(out, n, first, END_ACTIONS)
    elif phase == CELLAR_PHASE:
        for t in range(state[LOW], CARDS):
            if state[HAND + t] > 0:
                n, first = _put(out, n, first, DISCARD_CARD + t)
        n, first = _put(out, n, first, END_DISCARDS)
    elif phase == MINE_PHASE:
        for t in range(GOLD):
            if state[HAND + t] > 0 and state[SUPPLY + t + 1] > 0:
                n, first = _put(out, n, first, MINE_CARD + t)
    elif phase == TRASH_PHASE:
        for t in range(CARDS):
            if state[HAND + t] > 0:
                n, first = _put(out, n, first, TRASH_CARD + t)
    elif phase == GAIN_PHASE:
        for t in range(CARDS):
            if state[SUPPLY + t] > 0 and COST[t] <= state[CAP]:
                n, first = _put(out, n, first, GAIN_CARD + t)
    else:
        if state[BUYS] > 0:
            for t in range(state[LOW], CARDS):
                if state[SUPPLY + t] > 0 and COST[t] <= state[COINS]:
                    n, first = _put(out, n, first, BUY_CARD + t)
        n, first = _put(out, n, first, END_TURN)
    return n, first


@njit(cache=True)
def legal_actions(state, out):
    """The moves at a decision node, the draw-pile positions at a chance node, none at the end."""
    if state[TURNS] == 0:
        return 0
    n = n_outcomes(state)
    if n > 0:
        for o in range(n):
            out[o] = o
        return n
    return _moves(state, out)[0]


@njit(cache=True)
def _play(state, card):
    """The effect of playing action ``card`` (already moved to play, action spent)."""
    if card == CELLAR:
        state[ACTIONS] += 1
        state[PHASE], state[LOW], state[DISCARDED] = CELLAR_PHASE, 0, 0
    elif card == MARKET:
        state[PENDING] += 1
        state[ACTIONS] += 1
        state[BUYS] += 1
        state[COINS] += 1
    elif card == MILITIA:
        state[COINS] += 2
    elif card == MINE:
        state[PHASE] = MINE_PHASE
    elif card == MOAT:
        state[PENDING] += 2
    elif card == REMODEL:
        state[PHASE] = TRASH_PHASE
    elif card == SMITHY:
        state[PENDING] += 3
    elif card == VILLAGE:
        state[PENDING] += 1
        state[ACTIONS] += 2
    elif card == WOODCUTTER:
        state[BUYS] += 1
        state[COINS] += 2
    else:
        state[PHASE], state[CAP] = GAIN_PHASE, 4


@njit(cache=True)
def _cleanup(state):
    """End the turn: hand and play to the discard pile; the game ends after the last turn or
    when the Provinces or 3 supply piles are gone, else the next hand of 5 is to be drawn."""
    empty = 0
    for t in range(CARDS):
        state[DISCARD + t] += state[HAND + t] + state[PLAY + t]
        state[HAND + t] = state[PLAY + t] = 0
        empty += state[SUPPLY + t] == 0
    state[TURNS] -= 1
    if state[SUPPLY + PROVINCE] == 0 or empty >= 3:
        state[TURNS] = 0
    state[PHASE], state[COINS], state[LOW], state[CAP], state[DISCARDED] = ACTION_PHASE, 0, 0, 0, 0
    over = state[TURNS] == 0
    state[ACTIONS], state[BUYS] = (0, 0) if over else (1, 1)
    state[PENDING] = 0 if over else HAND_SIZE


@njit(cache=True)
def _do(state, action):
    """One move, without the automatic steps that follow it."""
    if action == END_ACTIONS:
        for t in range(GOLD + 1):
            state[COINS] += MONEY[t] * state[HAND + t]
            state[PLAY + t] += state[HAND + t]
            state[HAND + t] = 0
        state[PHASE], state[ACTIONS], state[LOW] = BUY_PHASE, 0, 0
        return
    if action == END_DISCARDS:
        state[PENDING] += state[DISCARDED]
        state[PHASE], state[LOW], state[DISCARDED] = ACTION_PHASE, 0, 0
        return
    if action == END_TURN:
        _cleanup(state)
        return
    kind, card = action - action % CARDS, action % CARDS
    if kind == PLAY_CARD:
        state[HAND + card] -= 1
        state[PLAY + card] += 1
        state[ACTIONS] -= 1
        _play(state, card)
    elif kind == BUY_CARD:
        state[COINS] -= COST[card]
        state[BUYS] -= 1
        state[SUPPLY + card] -= 1
        state[DISCARD + card] += 1
        state[LOW] = card
    elif kind == GAIN_CARD:
        state[SUPPLY + card] -= 1
        state[DISCARD + card] += 1
        state[PHASE], state[CAP] = ACTION_PHASE, 0
    elif kind == TRASH_CARD:
        state[HAND + card] -= 1
        state[PHASE], state[CAP] = GAIN_PHASE, COST[card] + 2
    elif kind == DISCARD_CARD:
        state[HAND + card] -= 1
        state[DISCARD + card] += 1
        state[LOW] = card
        state[DISCARDED] += 1
    else:
        state[HAND + card] -= 1
        state[SUPPLY + card + 1] -= 1
        state[HAND + card + 1] += 1
        state[PHASE] = ACTION_PHASE


@njit(cache=True)
def _settle(state):
    """The automatic steps: reshuffle the discard pile into an empty draw pile when a draw is
    pending (no cards at all: the draw is lost), take a decision's only move, leave a
    sub-decision without options; stop at a chance node, a real choice or the end."""
    while state[TURNS] > 0:
        if state[PENDING] > 0:
            if _size(state, DRAW) > 0:
                return
            if _size(state, DISCARD) == 0:
                state[PENDING] = 0
            for t in range(CARDS):
                state[DRAW + t] += state[DISCARD + t]
                state[DISCARD + t] = 0
            continue
        n, first = _moves(state, None)
        if n > 1:
            return
        if n == 1:
            _do(state, first)
        else:
            state[PHASE], state[CAP] = ACTION_PHASE, 0


@njit(cache=True)
def apply_action(state, action):
    _do(state, action)
    _settle(state)


@njit(cache=True)
def apply_outcome(state, outcome):
    """Draw the card at draw-pile position ``outcome`` into the hand."""
    card = card_at(state, outcome)
    state[DRAW + card] -= 1
    state[HAND + card] += 1
    state[PENDING] -= 1
    _settle(state)


@njit(cache=True)
def score(state):
    """The victory points in the deck (all zones): the final score at a terminal."""
    total = 0
    for zone in (DRAW, HAND, DISCARD, PLAY):
        total += state[zone + ESTATE] + 3 * state[zone + DUCHY] + 6 * state[zone + PROVINCE]
    return float(total)


@njit(cache=True)
def _preferred(state, cap, low, rng):
    """The default policy's card to buy or gain for at most ``cap``: the most expensive in the
    supply (type >= ``low``), ties uniformly at random; never Copper; Duchy and Estate only in
    the last ``ENDGAME_TURNS`` turns, where victory cards come first. -1 if none."""
    endgame = state[TURNS] <= ENDGAME_TURNS
    best, pick, ties = -1, -1, 0
    for t in range(max(low, SILVER), CARDS):
        if state[SUPPLY + t] == 0 or COST[t] > cap:
            continue
        if (t == ESTATE or t == DUCHY) and not endgame:
            continue
        key = COST[t] + (10 if endgame and VP[t] > 0 else 0)
        if key > best:
            best, pick, ties = key, t, 1
        elif key == best:
            ties += 1
            if randint(rng, ties) == 0:
                pick = t
    return pick


@njit(cache=True)
def _useful(state, card):
    """Does playing ``card`` do something worthwhile now (the default policy's filter)?"""
    if card == CELLAR:
        return state[HAND + ESTATE] + state[HAND + DUCHY] + state[HAND + PROVINCE] > 0
    if card == SMITHY or card == MOAT:
        return _size(state, DRAW) + _size(state, DISCARD) > 0
    if card == MINE:
        return (state[HAND + COPPER] > 0 and state[SUPPLY + SILVER] > 0) or \
            (state[HAND + SILVER] > 0 and state[SUPPLY + GOLD] > 0)
    if card == REMODEL:
        return (state[HAND + GOLD] > 0 and state[SUPPLY + PROVINCE] > 0) or \
            (state[HAND + ESTATE] > 0 and state[TURNS] > ENDGAME_TURNS)
    return True


_PLAY_ORDER = np.array([VILLAGE, MARKET, CELLAR, SMITHY, MINE, MILITIA, WOODCUTTER, MOAT,
                        WORKSHOP, REMODEL], dtype=np.int64)  # non-terminal actions first


@njit(cache=True)
def policy_action(state, out, rng):
    """The default policy (seed 003 Sect. 4.3: favour costlier cards, avoid redundant actions),
    -1 at a terminal. Action phase: the first useful card of Village, Market, Cellar (with a
    victory card in hand), Smithy, Mine (with a Copper or Silver to upgrade), Militia,
    Woodcutter, Moat, Workshop, Remodel (with a Gold to turn into a Province, or an Estate
    before the endgame), else end the actions. Cellar: discard the victory cards. Mine: Silver
    before Copper. Remodel trashes Gold (while Provinces last), else Estate, else Copper, else
    the first card in hand. Gains: ``_preferred`` (else the first legal gain). Buys: with
    probability 0.9 ``_preferred`` for the coins left (end the turn if none), else a uniformly
    random buy-phase move (ending the turn included)."""
    if state[TURNS] == 0:
        return -1
    phase = state[PHASE]
    if phase == ACTION_PHASE:
        if state[ACTIONS] > 0:
            for card in _PLAY_ORDER:
                if state[HAND + card] > 0 and _useful(state, card):
                    return PLAY_CARD + card
        return END_ACTIONS
    if phase == CELLAR_PHASE:
        for t in range(max(state[LOW], ESTATE), PROVINCE + 1):
            if state[HAND + t] > 0:
                return DISCARD_CARD + t
        return END_DISCARDS
    if phase == MINE_PHASE:
        if state[HAND + SILVER] > 0 and state[SUPPLY + GOLD] > 0:
            return MINE_CARD + SILVER
        return MINE_CARD + COPPER
    if phase == TRASH_PHASE:
        if state[HAND + GOLD] > 0 and state[SUPPLY + PROVINCE] > 0:
            return TRASH_CARD + GOLD
        for t in (ESTATE, COPPER):
            if state[HAND + t] > 0:
                return TRASH_CARD + t
        return TRASH_CARD + _first_card(state, HAND)
    if phase == GAIN_PHASE:
        card = _preferred(state, state[CAP], 0, rng)
        if card >= 0:
            return GAIN_CARD + card
        return _moves(state, None)[1]
    if uniform(rng) < BUY_PROBABILITY:
        card = _preferred(state, state[COINS], state[LOW], rng) if state[BUYS] > 0 else -1
        return BUY_CARD + card if card >= 0 else END_TURN
    n = _moves(state, out)[0]
    return out[randint(rng, n)]


@njit(cache=True)
def _first_card(state, zone):
    """The lowest card type present in ``zone``, -1 if it is empty."""
    for t in range(CARDS):
        if state[zone + t] > 0:
            return t
    return -1


@njit(cache=True)
def feature(state, outcome):
    """b of seed 003 Sect. 4.2: this draw lifts the money available this turn from below 8 to
    8 or more."""
    m = money(state)
    return m < PROVINCE_MONEY and m + MONEY[card_at(state, outcome)] >= PROVINCE_MONEY


@njit(cache=True)
def feature_probability(state):
    """P[b] at this draw: the draw pile's share of treasures worth at least 8 - money."""
    m = money(state)
    if m >= PROVINCE_MONEY:
        return 0.0
    hits = 0
    for t in range(GOLD + 1):
        if MONEY[t] >= PROVINCE_MONEY - m:
            hits += state[DRAW + t]
    return hits / _size(state, DRAW)


@njit(cache=True)
def ranked_outcome(state, rank):
    """The draw-pile position of ``rank`` when the cards are listed in ``LUCK`` order."""
    for card in LUCK:
        if rank < state[DRAW + card]:
            start = 0
            for t in range(card):
                start += state[DRAW + t]
            return start + rank
        rank -= state[DRAW + card]
    return -1


def action_to_string(state: np.ndarray, action: int) -> str:
    if n_outcomes(state) > 0:
        card = card_at(state, action)
        return f"{NAMES[card]}#{action - int(state[DRAW: DRAW + card].sum()) + 1}"
    if action >= END_ACTIONS:
        return ("end actions", "end discards", "end turn")[action - END_ACTIONS]
    kind = ("play", "buy", "gain", "trash", "discard", "mine")[action // CARDS]
    return f"{kind} {NAMES[action % CARDS]}"


def _cards(state: np.ndarray, zone: int) -> str:
    return ", ".join(f"{state[zone + t]} {NAMES[t]}" for t in range(CARDS) if state[zone + t]) \
        or "-"


def render(state: np.ndarray) -> str:
    if state[TURNS] == 0:
        head = "game over"
    elif state[PENDING] > 0:
        head = f"turns left {state[TURNS]}, {state[PENDING]} card(s) to draw"
    else:
        head = (f"turns left {state[TURNS]}, {PHASES[int(state[PHASE])]} phase, actions "
                f"{state[ACTIONS]}, buys {state[BUYS]}, money {money(state)}")
    return (f"{head}; VP {score(state):.0f}\n  hand: {_cards(state, HAND)}\n  in play: "
            f"{_cards(state, PLAY)}\n  draw pile {_size(state, DRAW)}, discard pile "
            f"{_size(state, DISCARD)}")
