"""The registry of tree models (DESIGN.md §10): one record per name, read by the spec parser,
``make_tree``, ``analyze`` and ``mctslab trees list``.

A model is a spec parser (its integer parameters, with defaults), a seeded generator of
instances and its exact analysis, or a one-line ``refusal`` saying what the engine still lacks
to search it. Specs read ``name(args)``: ``constant(1,5)``; ``name`` or ``name()`` takes the
defaults (``pgame`` is ``pgame(127)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .analysis import ThresholdAnalysis, convolved_pmf, enumerated_pmf, threshold_analysis
from .instance import TreeInstance, check_shape, seed001_tree
from .pgame import PGame, PGameSpec, pgame
from .spec import TreeSpec

Spec = TreeSpec | PGameSpec
_SPEC_PATTERN = re.compile(r"^\s*([a-z_][a-z0-9_]*'?)\s*(?:\(([^()]*)\))?\s*$")
_INTEGER = re.compile(r"^-?\d+$")


@dataclass(frozen=True)
class TreeModel:
    """A tree model's name, its integer parameters with their defaults, how to describe and cite
    it, an ``example`` spec, and its plain functions:
    ``spec(*params) -> Spec`` (checks the values, raising a one-line ValueError),
    ``generate(spec, branching, depth, seed) -> instance`` (the shape is checked already),
    ``exact_pmf(instance) -> (support [n_scores], pmf [b, n_scores])`` (the root moves' score
    distributions under uniform playouts), or ``None`` with a one-line ``refusal``."""

    name: str
    params: tuple[tuple[str, int], ...]
    description: str
    citation: str
    example: str
    spec: Callable[..., Spec]
    generate: Callable[[Spec, int, int, int], TreeInstance | PGame]
    exact_pmf: Callable[[TreeInstance], tuple[np.ndarray, np.ndarray]] | None
    refusal: str = ""

    @property
    def defaults(self) -> dict[str, int]:
        return dict(self.params)

    def parse(self, args: tuple[int, ...]) -> Spec:
        """The spec of these parameters; none given means the defaults."""
        if not args:
            return self.spec(*self.defaults.values())
        if len(args) != len(self.params):
            names = ",".join(self.defaults)
            given = f"{self.name}({','.join(map(str, args))})"
            raise ValueError(f"bad tree spec {given}: {self.name}({names}) takes "
                             f"{len(self.params)} integers, e.g. {self.example}")
        return self.spec(*args)

    def to_dict(self) -> dict:
        return {"name": self.name, "params": self.defaults, "description": self.description,
                "citation": self.citation, "example": self.example}


def _convolved_pmf(instance: TreeInstance) -> tuple[np.ndarray, np.ndarray]:
    return convolved_pmf(instance.spec, instance.branching, instance.depth,
                         instance.optimal_move)


def _seed001(name: str, first: str, second: str, description: str, example: tuple[int, int],
             exact_pmf) -> TreeModel:
    return TreeModel(
        name, ((first, example[0]), (second, example[1])), description,
        "Imagawa & Kaneko; seed 001, Sect. III", f"{name}({example[0]},{example[1]})",
        lambda a, b: TreeSpec(name, a, b), seed001_tree, exact_pmf)


TREE_MODELS: dict[str, TreeModel] = {
    model.name: model
    for model in (
        _seed001("constant", "a", "b", "one optimal move of value 0 per node; suboptimal max "
                 "moves -a, suboptimal min moves +b", (1, 5), _convolved_pmf),
        _seed001("constant'", "a", "b", "as constant, but suboptimal min moves +a except "
                 "+b at the last ply", (1, 13), _convolved_pmf),
        _seed001("random", "p", "q", "one optimal move of value 0 per node; suboptimal max "
                 "moves uniform in [-p,-1], min moves uniform in [2^q, 2^q+p-1]", (4, 3),
                 enumerated_pmf),
        TreeModel(
            "pgame", (("m", 127),),
            "random leaf sums: max moves add, min moves subtract a uniform integer in [0,m]; "
            "max wins when the sum is > 0",
            "Kocsis & Szepesvari 2006, Sect. 4", "pgame(127)", PGameSpec,
            lambda spec, b, d, seed: pgame(spec, b, d, seed), None,
            refusal="the engine and the analysis need one optimal root move, a P-game has a "
                    "set from minimax (trees.solve_minimax); draw one with trees.pgame"),
    )
}


def get_tree_model(name: str) -> TreeModel:
    """The registered model ``name``; an unknown name is a one-line ValueError."""
    if name not in TREE_MODELS:
        raise ValueError(f"unknown tree model {name!r}: use one of {', '.join(TREE_MODELS)} "
                         "(see `mctslab trees list`)")
    return TREE_MODELS[name]


def parse_spec(text: str | Spec) -> Spec:
    """The spec of any registered model, from ``name(args)`` (case-insensitive)."""
    if isinstance(text, (TreeSpec, PGameSpec)):
        return text
    match = _SPEC_PATTERN.match(str(text).lower())
    if match is None or match.group(1) not in TREE_MODELS:
        raise ValueError(f"unknown tree spec {text!r}: write name(args) with a name from "
                         f"{', '.join(TREE_MODELS)}, e.g. constant(1,5) "
                         "(see `mctslab trees list`)")
    model = TREE_MODELS[match.group(1)]
    args = [arg.strip() for arg in (match.group(2) or "").split(",")]
    if args == [""]:
        return model.parse(())
    if not all(_INTEGER.match(arg) for arg in args):
        raise ValueError(f"bad tree spec {text!r}: parameters are integers, e.g. {model.example}")
    return model.parse(tuple(int(arg) for arg in args))


def parse_tree_spec(text: str | Spec) -> Spec:
    """The spec of a model the engine can search today: ``constant(1,5)``,
    ``constant'(1,13)`` or ``random(4,3)``; a registered model that it cannot search yet is
    refused in one line."""
    spec = parse_spec(text)
    refusal = get_tree_model(spec.model).refusal
    if refusal:
        raise ValueError(f"tree {spec.text} cannot be searched or analysed yet: {refusal}")
    return spec


def make_tree(spec: str | Spec, branching: int = 4, depth: int = 8,
              seed: int = 0) -> TreeInstance:
    """Draw the instance of ``spec`` of shape (b, d) for tree seed ``seed``."""
    spec = parse_tree_spec(spec)
    check_shape(branching, depth)
    if seed < 0:
        raise ValueError(f"tree seed {seed} is negative: use a seed >= 0")
    return get_tree_model(spec.model).generate(spec, branching, depth, seed)


def analyze(spec: str | Spec | TreeInstance, branching: int = 4, depth: int = 8,
            tree_seed: int = 0) -> ThresholdAnalysis:
    """Exact threshold analysis of one instance, by its model's ``exact_pmf``."""
    instance = spec if isinstance(spec, TreeInstance) else make_tree(
        spec, branching, depth, tree_seed)
    model = get_tree_model(instance.spec.model)
    return threshold_analysis(instance, *model.exact_pmf(instance))
