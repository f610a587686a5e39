"""Per-game defaults of the game MCTS, all in one place (seed 000 Sect. 6; DESIGN §9).

UCT C and the bonus slopes k_RB / k_QB are those of DESIGN §9 (seed 000 Tables 1 and 3; C as in
the seed's framework ``tpepels/mcts_gameframe``, tuned without enhancements). Playouts: MAST with
epsilon-greedy in Amazons and Breakthrough (epsilon = share of the game's own policy moves, the
rest greedy on MAST: 0.3 and 0.7, see ``mcts.games.playouts``); Breakthrough's own policy always
plays decisive and anti-decisive moves and prefers captures (``games.breakthrough.policy_action``);
uniformly random moves in Checkers (its own policy). Pentalath: MAST with the framework's
``mastEps`` 0.95 over uniform placements; Cannon and Chinese Checkers: their own policies, which
always play decisive moves (``games.cannon``, ``games.chinese_checkers``). Games without an
entry (stochastic games, OpenSpiel games) get ``GENERIC``: their own playout policy, C = 0.8 and
k = 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from .playouts import MAST, POLICY


@dataclass(frozen=True)
class GamePreset:
    """Defaults a player spec starts from in one game."""

    c: float = 0.8  # UCT C on rewards in [-1, 1]
    rb_k: float = 2.0  # Relative Bonus slope
    qb_k: float = 2.0  # Qualitative Bonus slope
    playout: int = POLICY  # mcts.games.playouts.POLICY or MAST
    epsilon: float = 1.0  # MAST's share of the game's own policy moves


GENERIC = GamePreset()
_AMAZONS = GamePreset(c=0.4, rb_k=2.2, qb_k=1.6, playout=MAST, epsilon=0.3)
PRESETS: dict[str, GamePreset] = {
    "amazons": _AMAZONS,
    "amazons8": _AMAZONS,
    "breakthrough": GamePreset(c=0.8, rb_k=8.0, qb_k=2.0, playout=MAST, epsilon=0.7),
    "checkers": GamePreset(c=1.0, rb_k=2.8, qb_k=2.0),
    "cannon": GamePreset(c=0.8, rb_k=3.0, qb_k=4.0),
    "chinesecheckers": GamePreset(c=0.8, rb_k=1.2, qb_k=2.8),
    "pentalath": GamePreset(c=0.8, rb_k=1.0, qb_k=1.6, playout=MAST, epsilon=0.95),
}


def preset(game: str) -> GamePreset:
    """The defaults for the game named ``game`` (``GENERIC`` if it has none of its own)."""
    return PRESETS.get(game, GENERIC)
