"""A user's network as guidance of the search on a synthetic tree (``mcts.synthetic.guidance``):
a prior over a node's children and a value of a node, each a function of the tree instance's
arrays and a node, named ``package.module:object`` where a built-in kind is (``--prior``,
``--evaluate``; docs/extending.md).

* :class:`PriorNetwork`: ``logits(tree, node, depth)`` -> float64 [b], the logits over the
  children ``node * b + 1 + j`` of game-tree ``node`` (heap order) at ``depth``; the search's
  prior is their softmax, P(s, a) of PUCT's Eq. (AlphaZero, Silver et al. 2018).
* :class:`ValueNetwork`: ``value(tree, node, depth)`` -> max's value of ``node`` in [0, 1],
  used instead of a playout, as ``value(sigma)`` uses the oracle's (a terminal in the search
  tree keeps its true outcome).

``tree`` is a :class:`NetworkInput`: the instance's terminal scores so far, its terminals, its
exact minimax scores (a network may be an oracle, or ignore them) and its shape. A network is
evaluated once per instance, at every node the search can reach, into the tables the engine
reads (``TreeArrays.logits``, ``TreeArrays.values``): the functions may be plain Python, numpy
or ``@njit``, and no kernel is compiled for them. Its output is checked there: b finite logits,
a value in [0, 1]; anything else is a one-line ValueError naming the node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from cachetools import LRUCache

from bandits.plugins import load_object
from trees.layout import level_start, ply_of


class NetworkInput(NamedTuple):
    """What a network sees of a tree instance (heap order: node n's children are
    n * branching + 1 + j)."""

    path_score: np.ndarray  # [n_nodes] the sum of the move values from the root to the node
    terminal: np.ndarray  # bool [n_nodes]: the game ends at the node
    minimax: np.ndarray  # int64 [n_nodes]: the node's exact minimax score
    branching: int
    depth: int  # the game's length


@dataclass(frozen=True)
class PriorNetwork:
    """A user's prior: a name and ``logits(tree, node, depth)`` -> b logits (module
    docstring)."""

    name: str
    logits: object
    description: str = ""


@dataclass(frozen=True)
class ValueNetwork:
    """A user's value: a name and ``value(tree, node, depth)`` -> max's value in [0, 1]
    (module docstring)."""

    name: str
    value: object
    description: str = ""


def is_network(spec: str) -> bool:
    """Whether a prior or evaluation spec names a user's network (``package.module:object``)."""
    return isinstance(spec, str) and ":" in spec


def load_prior_network(spec: str) -> PriorNetwork:
    """The :class:`PriorNetwork` ``spec`` names; a one-line ValueError otherwise."""
    return load_object(spec, "prior", PriorNetwork, "mcts.synthetic.PriorNetwork",
                       "`mctslab priors list`")


def load_value_network(spec: str) -> ValueNetwork:
    """The :class:`ValueNetwork` ``spec`` names; a one-line ValueError otherwise."""
    return load_object(spec, "evaluation", ValueNetwork, "mcts.synthetic.ValueNetwork",
                       "`mctslab evaluations list`")


def network_input(instance) -> NetworkInput:
    """The :class:`NetworkInput` of a ``trees.TreeInstance``."""
    return NetworkInput(np.asarray(instance.path_score), np.asarray(instance.terminal, bool),
                        np.asarray(instance.minimax.value), int(instance.branching),
                        int(instance.depth))


def _searched_nodes(instance, inner: int) -> tuple[np.ndarray, np.ndarray]:
    """(nodes, their plies) the search can evaluate: reachable ones, and with ``inner`` > 0
    the reachable non-terminal nodes above the last level (those it can expand)."""
    searched = np.asarray(instance.reachable, bool)
    if inner:
        searched = searched[:inner] & ~np.asarray(instance.terminal, bool)[:inner]
    nodes = np.flatnonzero(searched)
    return nodes, ply_of(nodes, instance.branching, instance.depth)


# the tables of the instances searched last, by (network, instance): a block of runs reads them
_TABLES: LRUCache = LRUCache(maxsize=32)


def _cached(kind: str, spec: str, instance, build) -> np.ndarray:
    key = (kind, spec, instance.spec.text, instance.branching, instance.depth, instance.seed)
    if key not in _TABLES:
        table = build(spec, instance)
        table.flags.writeable = False
        _TABLES[key] = table
    return _TABLES[key]


def prior_table(spec: str, instance) -> np.ndarray:
    """float64 [n_inner, b]: the logits of the network ``spec`` at every inner node the search
    can expand (zero rows elsewhere); a one-line ValueError for a wrong shape or a logit that
    is not finite."""
    return _cached("prior", spec, instance, _prior_table)


def value_table(spec: str, instance) -> np.ndarray:
    """float64 [n_nodes]: max's value by the network ``spec`` at every reachable node (0
    elsewhere); a one-line ValueError for a value outside [0, 1] or not a number."""
    return _cached("value", spec, instance, _value_table)


def _prior_table(spec: str, instance) -> np.ndarray:
    network, tree = load_prior_network(spec), network_input(instance)
    b = tree.branching
    inner = level_start(b, tree.depth)
    table = np.zeros((inner, b))
    for node, depth in zip(*_searched_nodes(instance, inner)):
        logits = np.asarray(network.logits(tree, int(node), int(depth)), np.float64)
        if logits.shape != (b,):
            raise ValueError(f"prior {spec} returned an array of shape {logits.shape} at node "
                             f"{node}: it must return the b = {b} logits of the node's children")
        if not np.all(np.isfinite(logits)):
            raise ValueError(f"prior {spec} returned a logit that is not finite at node {node} "
                             f"({logits.tolist()}): logits must be finite numbers")
        table[node] = logits
    return table


def _value_table(spec: str, instance) -> np.ndarray:
    network, tree = load_value_network(spec), network_input(instance)
    table = np.zeros(len(tree.terminal))
    for node, depth in zip(*_searched_nodes(instance, 0)):
        value = network.value(tree, int(node), int(depth))
        if np.ndim(value) != 0 or not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"evaluation {spec} returned {value!r} at node {node}: it must "
                             "return max's value of the node, one number in [0, 1]")
        table[node] = float(value)
    return table
