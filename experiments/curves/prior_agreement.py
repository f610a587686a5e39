"""A prior's top-1 agreement with an optimal move at a tree's decisive nodes, and the noise
that gives an oracle prior an agreement asked for (``oracle(tau=..., agreement=...)``,
``mcts.synthetic.guidance``): a ladder of priors named by their measured quality, not by
their noise."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mcts.synthetic.guidance import make_guidance, network_key, parse_prior, prior_logits
from trees.layout import level_start


def _plies(branching: int, depth: int) -> np.ndarray:
    return np.repeat(np.arange(depth + 1), [level_start(branching, d + 1)
                                            - level_start(branching, d) for d in range(depth + 1)])


def decisive_nodes(instance, n_internal: int) -> tuple[np.ndarray, np.ndarray]:
    """The decisive reachable nodes among the first ``n_internal`` (heap order: bool
    [n_internal]) and every internal node's optimal moves (bool [n_internal, b])."""
    b = instance.branching
    outcome = instance.minimax.outcome(0.0)
    plies = _plies(b, instance.depth)[:n_internal]
    children = outcome[1:1 + n_internal * b].reshape(n_internal, b)
    mover = np.where((plies % 2 == 0)[:, None], children, 1.0 - children)
    optimal = mover == mover.max(axis=1, keepdims=True)
    inner = np.asarray(instance.reachable, bool) & ~np.asarray(instance.terminal, bool)
    return inner[:n_internal] & ~optimal.all(axis=1), optimal


def _top1(logits: np.ndarray, optimal: np.ndarray) -> np.ndarray:
    """The share of each row's argmax moves that are optimal (ties: a uniform pick)."""
    top = logits == logits.max(axis=-1, keepdims=True)
    return (top & optimal).sum(axis=-1) / top.sum(axis=-1)


def prior_agreement(instance, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per decisive reachable node (heap order): its ply, the top-1 agreement (the share of
    the logits' argmax moves that are optimal: ties count as a uniform pick) and the prior's
    probability on the optimal moves, for ``logits`` float64 [n_internal, b]."""
    decisive, optimal = decisive_nodes(instance, logits.shape[0])
    probability = np.exp(logits - logits.max(axis=1, keepdims=True))
    probability /= probability.sum(axis=1, keepdims=True)
    mass = (probability * optimal).sum(axis=1)
    plies = _plies(instance.branching, instance.depth)[:logits.shape[0]]
    return plies[decisive], _top1(logits, optimal)[decisive], mass[decisive]


CALIBRATION_NETWORKS = 8  # networks an agreement's noise is calibrated on
MAX_NOISE_SCALE = 8.0  # noise x tau beyond which the prior is as good as random


@lru_cache(maxsize=256)  # by the instance's identity: ``tree_instance`` keeps them
def _calibrated(instance, tau: float, agreement: float) -> float:
    """The bisection of :func:`prior_noise`: logits = exact / tau + noise z, z drawn once."""
    keys = [int(network_key(make_guidance("oracle", "playout"), np.uint64(k), 0))
            for k in range(CALIBRATION_NETWORKS)]
    exact = prior_logits(instance, f"oracle(tau={tau!r})", 0)
    decisive, optimal = decisive_nodes(instance, exact.shape[0])
    exact, optimal = exact[decisive], optimal[decisive]
    noises = np.stack([prior_logits(instance, f"oracle(tau={tau!r},noise=1.0)", key)[decisive]
                       for key in keys]) - exact

    def measured(noise: float) -> float:
        return float(_top1(exact + noise * noises, optimal).mean())

    low, high = 0.0, MAX_NOISE_SCALE / tau
    if measured(high) >= agreement:  # below the tree's chance level: as random as it gets
        return high
    for _ in range(20):
        middle = (low + high) / 2
        low, high = (middle, high) if measured(middle) > agreement else (low, middle)
    return (low + high) / 2


def prior_noise(prior: str, instance) -> float | None:
    """The noise of ``prior`` on ``instance``: None (its own) unless it names a top-1
    ``agreement``; then the noise giving that agreement (:func:`prior_agreement`'s, over the
    instance's decisive nodes and 8 fixed networks, by bisection to 2^-20 of the range),
    the largest, noise x tau = 8, where the agreement asked lies below the tree's chance
    level (the report shows the agreement measured)."""
    if not prior:
        return None
    _, values = parse_prior(prior)
    if not values.get("agreement"):
        return None
    return _calibrated(instance, values["tau"], values["agreement"])


