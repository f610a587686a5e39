"""The registry of tree models (DESIGN.md §10): one record per name, read by the spec parser,
``make_tree``, ``analyze`` and ``mctslab trees list``.

A model is a spec parser (its parameters, with defaults), a seeded generator of instances and
its exact analysis. A modifier changes any model's instance: specs read
``model(args)+modifier(args)...``, e.g. ``random(4,3)+trap(3,0.2)``; ``name`` or ``name()``
takes the defaults (``pgame`` is ``pgame(127)``). A user's model is named
``package.module:object(args)`` (``trees.Model``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from specs import NUMBER, Domain, at_least, between, check_value, parse_spec, parse_value

from .analysis import ThresholdAnalysis, convolved_pmf, enumerated_pmf, threshold_analysis
from .decisive import check_decisive, decisive
from .instance import TreeInstance, seed001_tree
from .layout import check_shape
from .pgame import MAX_PGAME_M, PGameSpec, pgame
from .plugins import blank_tree, load_model
from .spec import MAX_RANDOM_Q, TreeSpec
from .traps import add_traps, check_trap
from .variable_depth import check_end, end_early


def _format(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


@dataclass(frozen=True)
class ModelSpec:
    """A model without a dedicated spec type (modifiers, users' models): its name and
    parameter values."""

    model: str
    values: tuple

    @property
    def text(self) -> str:
        return f"{self.model}({','.join(map(_format, self.values))})"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class ModifiedSpec:
    """A model's spec followed by modifiers, applied in order."""

    base: object
    modifiers: tuple[ModelSpec, ...]

    @property
    def model(self) -> str:
        return self.base.model

    @property
    def text(self) -> str:
        return "+".join([self.base.text, *(modifier.text for modifier in self.modifiers)])

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class TreeModel:
    """A tree model's (or a modifier's) name, its parameters with their defaults (an int or a
    float each: how a spec's value is read), how to describe and cite it, an ``example``
    spec, and its plain functions:
    ``spec(*values) -> spec`` (checks the values, raising a one-line ValueError),
    ``generate(spec, branching, depth, seed) -> TreeInstance`` (shape and seed checked
    already), or for a modifier ``generate(instance, rng, *values) -> (edge_value, terminal)``,
    and ``exact_pmf(instance) -> (support [n_scores], pmf [b, n_scores])``, the root moves'
    score distributions under uniform playouts. ``domains``: a ``specs.Domain`` per
    parameter (default: any finite number, an integer for int defaults); ``spec`` checks
    what depends on several values."""

    name: str
    params: tuple[tuple[str, int | float], ...]
    description: str
    citation: str
    example: str
    spec: Callable
    generate: Callable
    exact_pmf: Callable[[TreeInstance], tuple[np.ndarray, np.ndarray]] = enumerated_pmf
    modifier: bool = False
    domains: Mapping[str, Domain] = field(default_factory=dict)

    @property
    def defaults(self) -> dict:
        return dict(self.params)

    def domain(self, key: str) -> Domain:
        if key in self.domains:
            return self.domains[key]
        return Domain("integer") if isinstance(self.defaults[key], int) else NUMBER

    def parse(self, args: tuple[str, ...], kwargs: Mapping[str, str] | None = None):
        """The spec of these parameter texts (positional, then by name); none given means the
        defaults. Each value is checked against its domain (``specs.check_value``)."""
        names = list(self.defaults)
        if len(args) > len(names):
            raise ValueError(f"bad tree spec {self.name}({','.join(args)}): {self.name}"
                             f"({','.join(names)}) takes {len(names)} numbers, "
                             f"e.g. {self.example}")
        given = dict(zip(names, args))
        for key, text in (kwargs or {}).items():
            if key not in self.defaults or key in given:
                raise ValueError(f"bad tree spec {self.name}(...): "
                                 + (f"{key} is given twice" if key in given else
                                    f"unknown parameter {key!r}, use "
                                    f"{', '.join(names) or 'none'}"))
            given[key] = text
        if given and len(given) < len(names):
            missing = [key for key in names if key not in given]
            raise ValueError(f"bad tree spec {self.name}(...): {missing[0]} is missing: "
                             f"{self.name}({','.join(names)}) takes {len(names)} numbers, "
                             f"e.g. {self.example}")
        values = [check_value(f"tree {self.name}", key,
                              parse_value(given[key]) if key in given else self.defaults[key],
                              self.domain(key))
                  for key in names]
        return self.spec(*values)

    def to_dict(self) -> dict:
        return {"name": self.name, "params": self.defaults, "description": self.description,
                "citation": self.citation, "example": self.example,
                "domains": {key: self.domain(key).describe() for key in self.defaults}}


def _convolved_pmf(instance: TreeInstance) -> tuple[np.ndarray, np.ndarray]:
    return convolved_pmf(instance.spec, instance.branching, instance.depth,
                         instance.optimal_move)


def _seed001(name: str, first: str, second: str, description: str, example: tuple[int, int],
             exact_pmf, domains: dict[str, Domain]) -> TreeModel:
    return TreeModel(
        name, ((first, example[0]), (second, example[1])), description,
        "Imagawa & Kaneko; seed 001, Sect. III", f"{name}({example[0]},{example[1]})",
        lambda a, b: TreeSpec(name, a, b), seed001_tree, exact_pmf, domains=domains)


_POSITIVE = at_least(1, "integer")


def _checked(check: Callable, name: str) -> Callable:
    """A modifier's spec constructor: ``check(*values)``, then the spec."""
    def spec(*values):
        check(*values)
        return ModelSpec(name, values)
    return spec


TREE_MODELS: dict[str, TreeModel] = {
    model.name: model
    for model in (
        _seed001("constant", "a", "b", "one optimal move of value 0 per node; suboptimal max "
                 "moves -a, suboptimal min moves +b", (1, 5), _convolved_pmf,
                 {"a": _POSITIVE, "b": _POSITIVE}),
        _seed001("constant'", "a", "b", "as constant, but suboptimal min moves +a except "
                 "+b at the last ply", (1, 13), _convolved_pmf,
                 {"a": _POSITIVE, "b": _POSITIVE}),
        _seed001("random", "p", "q", "one optimal move of value 0 per node; suboptimal max "
                 "moves uniform in [-p,-1], min moves uniform in [2^q, 2^q+p-1]", (4, 3),
                 enumerated_pmf, {"p": _POSITIVE, "q": between(0, MAX_RANDOM_Q, "integer")}),
        TreeModel(
            "pgame", (("m", 127),),
            "random leaf sums: max moves add, min moves subtract a uniform integer in [0,m]; "
            "max wins when the sum is > 0",
            "Kocsis & Szepesvari 2006, Sect. 4", "pgame(127)", PGameSpec,
            lambda spec, b, d, seed: pgame(spec, b, d, seed),
            domains={"m": between(1, MAX_PGAME_M, "integer")}),
        TreeModel(
            "trap", (("k", 3), ("p", 0.2)),
            "modifier: each strictly suboptimal move becomes with probability p a level-k "
            "trap (the opponent wins within k plies, the game ending there)",
            "Ramanujan, Sabharwal & Selman 2010", "random(4,3)+trap(3,0.2)",
            _checked(check_trap, "trap"), add_traps, modifier=True,
            domains={"k": _POSITIVE, "p": between(0, 1)}),
        TreeModel(
            "decisive", (),
            "modifier: keeps only instances whose root moves differ in game value (seeded "
            "rejection; the failure rule of Kocsis & Szepesvari's Fig. 2 counts no other)",
            "Kocsis & Szepesvari 2006, Sect. 4", "pgame(127)+decisive()",
            _checked(check_decisive, "decisive"),
            lambda instance, rng: decisive(instance, rng, _redraw_before_decisive),
            modifier=True),
        TreeModel(
            "end", (("p_end", 0.1),),
            "modifier: each move ends the game with probability p_end (variable depth)",
            "seed 000, Sect. 4 (Relative Bonus); DESIGN.md §6", "random(4,3)+end(0.1)",
            _checked(check_end, "end"), end_early, modifier=True,
            domains={"p_end": between(0, 1, high_open=True)}),
    )
}


def get_tree_model(name: str) -> TreeModel:
    """The registered model ``name``, or a user's ``package.module:object``; an unknown name
    is a one-line ValueError."""
    if ":" in name:
        return _user_model(name)
    if name not in TREE_MODELS:
        raise ValueError(f"unknown tree model {name!r}: use one of {', '.join(TREE_MODELS)} "
                         "or package.module:object (see `mctslab trees list`)")
    return TREE_MODELS[name]


def _user_model(name: str) -> TreeModel:
    """A user's ``trees.Model`` as a registry record: its instances are filled by its
    ``fill`` and checked (shapes, a terminal on every path, score range)."""
    model = load_model(name)
    params = tuple(model.params.items())
    names = [key for key, _ in params]

    def generate(spec, branching, depth, seed):
        tree = blank_tree(branching, depth)
        try:
            model.fill(tree, np.random.default_rng(seed), **dict(zip(names, spec.values)))
            edge_value = np.asarray(tree.edge_value)
            if not np.issubdtype(edge_value.dtype, np.integer):
                raise ValueError(f"edge values of type {edge_value.dtype}: use integers")
            if np.abs(edge_value).max(initial=0) >= 2**31:
                raise ValueError("an edge value does not fit int32: use smaller values")
            return TreeInstance(spec, branching, depth, seed, edge_value.astype(np.int32),
                                np.asarray(tree.terminal))
        except ValueError as error:
            raise ValueError(f"tree model {spec.text}: {error}") from None
        except Exception as error:  # noqa: BLE001 (a user's fill: its bug, in one line)
            raise ValueError(f"tree model {spec.text} ({_source(model.fill)}): fill raised "
                             f"{type(error).__name__}: {error}") from None

    example = f"{name}({','.join(_format(value) for _, value in params)})" if params else name
    return TreeModel(name, params, model.description, model.citation, example,
                     lambda *values: ModelSpec(name, values), generate,
                     domains=dict(model.domains))


def _source(function) -> str:
    import inspect

    try:
        return inspect.getsourcefile(function) or function.__module__
    except TypeError:
        return getattr(function, "__module__", "?")


def parse_tree_spec(text):
    """The spec of ``model(args)`` followed by any ``+modifier(args)`` (``specs.parse_spec``;
    arguments by position or as key=value): names of built-ins are case-insensitive; a spec
    object is returned as it is."""
    if not isinstance(text, str):
        return text
    base, *modifiers = ((_model(part.name, text), part)
                        for part in parse_spec(text, "tree spec"))
    if base[0].modifier or not all(model.modifier for model, _ in modifiers):
        raise ValueError(f"bad tree spec {text!r}: write a model, then any modifiers, e.g. "
                         "random(4,3)+trap(3,0.2) (see `mctslab trees list`)")
    spec = base[0].parse(base[1].args, base[1].params)
    if not modifiers:
        return spec
    return ModifiedSpec(spec, tuple(model.parse(part.args, part.params)
                                    for model, part in modifiers))


def _model(name: str, text: str) -> TreeModel:
    name = name if ":" in name else name.lower()
    if ":" not in name and name not in TREE_MODELS:
        raise ValueError(f"unknown tree model {name!r} in {text!r}: use one of "
                         f"{', '.join(TREE_MODELS)} or package.module:object, e.g. "
                         "constant(1,5) (see `mctslab trees list`)")
    return get_tree_model(name)


def _redraw_before_decisive(instance: TreeInstance, seed: int) -> TreeInstance:
    """``instance``'s spec up to its ``decisive`` modifier (the model and the modifiers before
    it), drawn from ``seed``: what ``trees.decisive`` redraws until a root is decisive."""
    spec = instance.spec
    if isinstance(spec, ModifiedSpec):
        before = spec.modifiers[:[m.model for m in spec.modifiers].index("decisive")]
        spec = ModifiedSpec(spec.base, before) if before else spec.base
    return make_tree(spec, instance.branching, instance.depth, seed)


def make_tree(spec, branching: int = 4, depth: int = 8, seed: int = 0) -> TreeInstance:
    """Draw the instance of ``spec`` of shape (b, d) for tree seed ``seed``: the model's
    instance from ``seed``, then modifier i's change from the stream (seed, i + 1)."""
    spec = parse_tree_spec(spec)
    check_shape(branching, depth)
    if seed < 0:
        raise ValueError(f"tree seed {seed} is negative: use a seed >= 0")
    if not isinstance(spec, ModifiedSpec):
        return get_tree_model(spec.model).generate(spec, branching, depth, seed)
    instance = get_tree_model(spec.base.model).generate(spec.base, branching, depth, seed)
    for i, modifier in enumerate(spec.modifiers):
        rng = np.random.default_rng([seed, i + 1])
        arrays = get_tree_model(modifier.model).generate(instance, rng, *modifier.values)
        instance = TreeInstance(spec, branching, depth, seed, *arrays)
    return instance


def analyze(spec, branching: int = 4, depth: int = 8, tree_seed: int = 0) -> ThresholdAnalysis:
    """Exact threshold analysis of one instance, by its model's ``exact_pmf`` (a modified
    tree's by enumeration)."""
    instance = spec if isinstance(spec, TreeInstance) else make_tree(
        spec, branching, depth, tree_seed)
    exact_pmf = (enumerated_pmf if isinstance(instance.spec, ModifiedSpec)
                 else get_tree_model(instance.spec.model).exact_pmf)
    return threshold_analysis(instance, *exact_pmf(instance))
