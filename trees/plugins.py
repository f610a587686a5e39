"""User tree models (DESIGN.md §10): a function that fills a blank tree's arrays with numpy,
named ``package.module:object`` wherever a tree spec is read (docs/extending.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bandits.plugins import load_object  # the policies' loader, for one set of messages

from .instance import uniform_terminals
from .layout import level_start, node_count, ply_of


@dataclass(frozen=True)
class Model:
    """A user's tree model: ``fill(tree, rng, **params)`` fills the arrays of a
    :class:`BlankTree` in place (vectorised numpy) from ``rng`` (the instance's
    ``np.random.Generator``); ``params`` maps each parameter to its default (an int or a
    float: the type a spec's value is read as). ``domains`` may give a ``specs.Domain`` per
    parameter (default: an integer or any finite number, by the default's type); ``fill``
    raises ValueError for values out of range."""

    fill: Callable
    params: dict = field(default_factory=dict)
    domains: dict = field(default_factory=dict)
    description: str = "a user's tree model"
    citation: str = "user plug-in"


@dataclass(eq=False)
class BlankTree:
    """The arrays a model fills, in heap order (``trees.layout``): ``edge_value`` int64
    [n_nodes] (zeros: the value of the move into each node) and ``terminal`` bool [n_nodes]
    (the nodes of ply d already set; set others to end the game early), with ``ply`` int64
    [n_nodes], each node's ply (the max player moves from even plies, into odd ones). Fill
    the arrays in place or assign new ones of the same shape."""

    branching: int
    depth: int
    edge_value: np.ndarray
    terminal: np.ndarray
    ply: np.ndarray

    def level(self, ply: int) -> slice:
        """The nodes of one ply."""
        return slice(level_start(self.branching, ply), level_start(self.branching, ply + 1))


def blank_tree(branching: int, depth: int) -> BlankTree:
    n_nodes = node_count(branching, depth)
    return BlankTree(branching, depth, np.zeros(n_nodes, dtype=np.int64),
                     uniform_terminals(branching, depth),
                     ply_of(np.arange(n_nodes), branching, depth))


def load_model(name: str) -> Model:
    """The :class:`Model` ``name`` = ``package.module:object``; a one-line ValueError if it
    cannot be imported or is of another type."""
    return load_object(name, "tree model", Model, "trees.Model", "`mctslab trees list`")
