"""The comparison grid: tree specs x policies x adjusters, its entries' spelling and
its sizes per scale. Every cell of the grid is a :class:`Curve` of one study, so every policy and
adjuster on a tree configuration (spec, b, d) searches the same ``trees_per_model`` instances."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from bandits.plugins import (
    PluginNotImported,
    read_as,
    reading_state,
    reading_stored_results,
)
from mcts.baselines import is_baseline
from mcts.core.options import ADJUSTER_FLAGS
from specs import NUMBER

from ..curves.curve import Curve, plays_no_playouts, reads_playout_scores, recorded_plugins
from ..curves.entries import method_fields, parse_entry, swept
from ..studies.study import Study

GRID_FILE = "compare.json"  # a comparison's grid, in its folder

SCALES = ("quick", "full")
DEFAULT_SEED = 2029
# Sizes per scale: quick gives 8 x 25 = 200 runs per cell at budgets up to 2^14, where seed 001's
# biased trees separate (docs/performance.md); full gives 20 x 100 = 2,000 runs per
# cell up to 2^14, over 20 instances: the atlas is core-hours, for a Dask cluster.
SIZES = {
    "quick": {"runs": 25, "trees_per_model": 8, "max_budget": 2**14, "block": 25},
    "full": {"runs": 100, "trees_per_model": 20, "max_budget": 2**14, "block": 50},
}


def engine_flags(curve: Curve) -> dict:
    """The engine's flags an adjuster entry carries (``method_fields``) that ``curve`` sets:
    ``{"rescore": 1}``, ``{"terminals_at_threshold": 1}``, both or none."""
    return {flag: 1 for flag in ADJUSTER_FLAGS if getattr(curve, flag)}


def _is_baseline(policy: str) -> bool:
    """Whether the policy entry names a baseline player (``mcts.baselines``)."""
    return is_baseline(parse_entry(policy, "policy")[0])


def _adjuster_entry(policy: str, adjuster: str) -> tuple[str, dict]:
    """The adjuster's name and parameters in the cell of ``policy`` and ``adjuster``, its
    engine flags apart (``method_fields``)."""
    fields = method_fields(policy, adjuster)
    return fields["adjuster"], fields["adjuster_params"]


def entry_label(name: str, params: dict, defaults: dict, domains: dict | None = None) -> str:
    """``name``, followed by the parameters that differ from ``defaults``: ``ucb1(c=0.5)``; a
    value that a word of its domain stands for is written as that word, as the user wrote it
    (``alphabeta(leaf=playout)``, not ``leaf=1``)."""
    changed = [f"{key}={(domains or {}).get(key, NUMBER).spell(value)}"
               for key, value in params.items() if defaults.get(key) != value]
    return f"{name}({','.join(changed)})" if changed else name


def _spelled(value, domain) -> str:
    if isinstance(value, str):
        return value
    word = next((word for word, number in getattr(domain, "words", ()) if number == value),
                None)
    return word if word is not None else format(value, "g")


def config_label(tree: str, branching: int, depth: int) -> str:
    """A tree configuration as the tables name it: ``constant(1,5) b=4 d=8``."""
    return f"{tree} b={branching} d={depth}"


def cell_labels(curve: Curve) -> tuple[str, str, str]:
    """(config, policy, adjuster) of a grid cell as the tables name them: the policy and the
    adjuster as the grid writes them, with their non-default parameters."""
    from enhancements import get_adjuster
    from mcts.baselines import player_info

    player, adjusting = player_info(curve.policy), get_adjuster(curve.adjuster)
    own_root = getattr(getattr(player, "record", None), "root_policy", "")
    root = {"root": curve.root} if curve.root and not own_root else {}
    root.update({key: getattr(curve, key) for key in ("prior", "evaluate")
                 if getattr(curve, key) and not (own_root and getattr(curve, key) == "uniform")})
    if curve.network != "run":
        root["network"] = curve.network
    policy = entry_label(curve.policy, {**curve.policy_params, **root}, player.defaults,
                         getattr(player, "domains", None))
    adjuster = entry_label(curve.adjuster, {**curve.adjuster_params, **engine_flags(curve)},
                           adjusting.defaults, getattr(adjusting, "domains", None))
    return config_label(curve.tree, curve.branching, curve.depth), policy, adjuster


def _as_read(method):
    """``method`` of a grid, run with its plug-ins read as when the grid was made: from a
    stored file's records when it was read from one (``open_grid``), so that building its
    cells again imports nothing."""
    @functools.wraps(method)
    def as_read(self, *args, **kwargs):
        with read_as(self._reading):
            return method(self, *args, **kwargs)

    return as_read


# every cell's rules and their defaults (``experiments.Curve``'s: seed 001's); left out of
# compare.json at them
RULES = {"reward": "outcome", "final_move": "visits", "failure": "outcome", "solver": True}


@dataclass(frozen=True)
class Grid:
    """Tree specs x policies x adjusters on trees of shape (``branching``, ``depth``):
    ``trees_per_model`` instances per spec, ``runs`` runs on each (``runs * trees_per_model``
    per cell), budgets 2^0 .. ``max_budget``. ``epsilon`` is the failure rate the report asks
    the playouts to reach and ``baseline`` the method (``policy+adjuster``, default the first)
    every other is tested against; neither changes what is computed. ``block``: runs per
    stored block (``experiments.comparisons.cells``). ``reward``, ``final_move``, ``failure``
    and ``solver`` are every cell's rules (``experiments.Curve``; defaults: seed 001's)."""

    trees: tuple[str, ...]
    policies: tuple[str, ...]
    adjusters: tuple[str, ...]
    branching: int = 4
    depth: int = 8
    runs: int = SIZES["quick"]["runs"]
    trees_per_model: int = SIZES["quick"]["trees_per_model"]
    max_budget: int = SIZES["quick"]["max_budget"]
    seed: int = DEFAULT_SEED
    scale: str = "quick"
    epsilon: float = 0.05
    block: int = SIZES["quick"]["block"]
    name: str = "compare"
    baseline: str | None = None
    reward: str = RULES["reward"]  # every cell's rules (``experiments.Curve``)
    final_move: str = RULES["final_move"]
    failure: str = RULES["failure"]
    # MCTS-Solver in every MCTS cell (False: Kocsis & Szepesvari's UCT)
    solver: bool = RULES["solver"]
    # cells at tuned constants: {"tree", "policy", "adjuster": the entries, "params": the
    # tuned values}, each a cell beside its entry's, labelled "POLICY(tuned)"
    # (``experiments.tuning.compared``)
    tuned: tuple[dict, ...] = ()

    def __post_init__(self) -> None:
        # a grid read from a stored file keeps reading its plug-ins from the file's records
        # when its cells are built again (``curves``), wherever that happens; not a field
        object.__setattr__(self, "_reading", reading_state())
        object.__setattr__(self, "tuned", tuple(dict(one) for one in self.tuned))
        for key, kind in (("trees", None), ("policies", "policy"), ("adjusters", "adjuster")):
            value = getattr(self, key)
            value = (value,) if isinstance(value, str) else tuple(value)
            if not value:
                raise ValueError(f"the grid has no {key}: give at least one (--{key})")
            if kind is not None:  # a sweep, ucb1(c=[0.25,0.5]), is an entry per value
                value = tuple(one for entry in value for one in swept(entry, kind))
            object.__setattr__(self, key, value)
        if self.scale not in SCALES:
            raise ValueError(f"unknown scale {self.scale!r}: use quick or full")
        if isinstance(self.epsilon, bool) or not 0 < self.epsilon < 1:
            raise ValueError(f"epsilon {self.epsilon} must lie strictly between 0 and 1, "
                             "e.g. --epsilon 0.05")
        if self.seed < 0:
            raise ValueError(f"seed {self.seed} is negative: use a seed >= 0")
        if self.block < 1:
            raise ValueError(f"block = {self.block} runs per shard must be at least 1")
        self._check_cells()
        if self.baseline is not None and self.baseline not in self.methods:
            raise ValueError(f"--baseline {self.baseline} names no method of the grid: use one "
                             f"of {', '.join(self.methods)}")

    def _check_cells(self) -> None:
        """Build every curve once: names, parameters and shapes are checked here, before any
        run; two entries that are the same curve are refused (a cell at tuned constants may be
        any entry's cell: its entry's when the constants tuned are the defaults)."""
        seen = {}
        for curve, tuned in self._cells():
            if tuned is not None:  # may be any entry's curve, listed before or after it
                continue
            if curve.key in seen:
                raise ValueError(f"the grid names {curve.label} twice ({seen[curve.key]}): "
                                 "remove one")
            seen[curve.key] = curve.label

    @classmethod
    def from_scale(cls, trees, policies, adjusters, scale: str = "quick", **overrides) -> Grid:
        """The grid with the sizes of ``scale`` (quick: 8 instances x 25 runs, budgets up to
        2^14; full: 20 x 100, up to 2^14); ``overrides`` (None values ignored) set any field."""
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}: use quick or full")
        given = {key: value for key, value in overrides.items() if value is not None}
        unknown = sorted(set(given) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown grid setting {unknown[0]!r}: use "
                             f"{', '.join(f.name for f in fields(cls))}")
        return cls(trees, policies, adjusters, **{**SIZES[scale], "scale": scale, **given})

    @_as_read
    def _cells(self) -> list[tuple[Curve, str | None]]:
        """Every cell, policy x adjuster innermost (so neighbouring shards need different
        compiled kernels), with the policy entry it is tuned from (None for an entry's own
        cell). A policy crosses the adjusters it takes (``_adjusters_taken``); one that takes
        none has one cell per tree, with the plain adjuster, beside the first adjuster's."""
        tuned = {(one["tree"], one["policy"], one["adjuster"]): one["params"]
                 for one in self.tuned}
        takes = {policy: self._adjusters_taken(policy) for policy in self.policies}
        cells = []
        for tree in self.trees:
            for adjuster in self.adjusters:
                for policy in self.policies:
                    if adjuster in takes[policy]:
                        cells.append((self._curve(tree, policy, adjuster), None))
                    elif not takes[policy] and adjuster == self.adjusters[0]:
                        cells.append((self._curve(tree, policy, "plain"), None))
                    if (tree, policy, adjuster) in tuned:
                        cells.append((self._curve(tree, policy, adjuster,
                                                  tuned[tree, policy, adjuster]), policy))
        return cells

    @_as_read
    def curves(self) -> list[Curve]:
        """The distinct curves of the cells, in their order: what is computed and stored."""
        return list({curve.key: curve for curve, _ in self._cells()}.values())

    @_as_read
    def labelled(self) -> list[tuple[Curve, tuple[str, str, str]]]:
        """Every cell's curve with its (config, policy, adjuster) as the tables name them
        (``cell_labels``). A cell at tuned constants is its entry's policy marked tuned,
        ``ucb1(tuned)``, on every tree (a variant of its policy in the figures' colours), even
        where its curve is the entry's own (the constants tuned are the defaults)."""
        rows = []
        for curve, entry in self._cells():
            config, policy, adjuster = cell_labels(curve)
            if entry is not None:
                policy = f"{entry[:-1]},tuned)" if entry.endswith(")") else f"{entry}(tuned)"
            rows.append((curve, (config, policy, adjuster)))
        return rows

    def same_cells(self) -> dict[tuple[str, str], str]:
        """{(config, method): the method whose cell it is} for every cell at tuned constants
        whose curve is another's (its constants tuned are its entry's defaults, or values an
        entry fixes): the two share their runs, so the tests test one of them
        (``tests.same_runs_as``). The other is an entry's cell when one has that curve, else
        the first cell listed with it."""
        cells = [(curve, config, f"{policy}+{adjuster}", entry is None)
                 for (curve, (config, policy, adjuster)), (_, entry)
                 in zip(self.labelled(), self._cells(), strict=True)]
        first = {curve.key: method for curve, _, method, own in cells if own}
        same = {}
        for curve, config, method, _ in cells:
            owner = first.setdefault(curve.key, method)
            if owner != method:
                same[config, method] = owner
        return same

    def tuned_pairs(self) -> list[tuple[str, str, str]]:
        """(config, tuned method, default method) of every cell at tuned constants and its
        entry's own cell, listed just before it (``_cells``): what ``tests.tuned_tests``
        compares."""
        cells = [(config, f"{policy}+{adjuster}", entry)
                 for (_, (config, policy, adjuster)), (_, entry)
                 in zip(self.labelled(), self._cells(), strict=True)]
        return [(config, method, cells[i - 1][1])
                for i, (config, method, entry) in enumerate(cells) if entry is not None]

    def _adjusters_taken(self, policy: str) -> tuple[str, ...]:
        """The grid's adjusters ``policy`` is crossed with: none for a baseline player
        (``mcts.baselines``), which has no adjuster; for a search that evaluates by value,
        the adjusters that read no playout scores, since it plays no playouts (a guided
        search against UCB1 with and without MaxFrequency: ``--preset guidance``); all of
        them for any other search."""
        if _is_baseline(policy):
            return ()
        if not plays_no_playouts(method_fields(policy, "plain").get("evaluate", "")):
            return self.adjusters
        return tuple(one for one in self.adjusters
                     if not reads_playout_scores(*_adjuster_entry(policy, one)))

    def _curve(self, tree: str, policy: str, adjuster: str, tuned: dict | None = None) -> Curve:
        """The cell's curve (``method_fields``), at the ``tuned`` parameters if given."""
        fields = method_fields(policy, adjuster)
        fields["policy_params"] = {**fields["policy_params"], **(tuned or {})}
        return Curve(tree=tree, branching=self.branching, depth=self.depth, runs=self.runs,
                     trees=self.trees_per_model, max_budget=self.max_budget,
                     reward=self.reward, final_move=self.final_move, failure=self.failure,
                     solver=self.solver or _is_baseline(policy),  # a baseline proves nothing
                     **fields)

    @_as_read
    def study(self) -> Study:
        """The study of every cell, under the grid's seed."""
        return Study(tuple(self.curves()), self.seed, self.block, f"{self.name}-{self.scale}")

    @property
    def methods(self) -> list[str]:
        """The grid's methods ``policy+adjuster`` in its order; the first is the default
        baseline of the tests."""
        return list(dict.fromkeys(f"{policy}+{adjuster}"
                                  for _, (_, policy, adjuster) in self.labelled()))

    @property
    def cells(self) -> int:
        return len(self._cells())

    @property
    def playouts(self) -> int:
        """Playouts the whole grid spends at most: every run searches up to ``max_budget``,
        a root policy's once per budget 2^k (2 max_budget - 1, ``mcts.core.root_policies``)."""
        return sum(self.trees_per_model * self.runs
                   * (2 * self.max_budget - 1 if curve.root else self.max_budget)
                   for curve in self.curves())

    @_as_read
    def to_dict(self) -> dict:
        """The fields; the rules are left out at their defaults, as older grids were stored.
        With plug-ins, what reading the grid needs of them (``recorded_plugins``)."""
        plugins = recorded_plugins(self.curves())
        return {**{key: list(value) if isinstance(value, tuple) else value
                   for key, value in asdict(self).items()
                   if not (key in RULES and value == RULES[key]) and key != "tuned"},
                **({"tuned": list(self.tuned)} if self.tuned else {}),
                **({"plugins": plugins} if plugins else {})}

    @classmethod
    def from_dict(cls, data: dict) -> Grid:
        return cls(**{key: value for key, value in data.items() if key != "plugins"})


# what every compare.json holds (the rules are left out at their defaults, tuned when none)
_WRITTEN = tuple(f.name for f in fields(Grid) if f.name not in RULES and f.name != "tuned")


def open_grid(folder: str | Path, trust_plugins: bool = False) -> Grid | None:
    """The grid stored in ``folder/compare.json`` by ``run_compare``, or None. Its plug-ins
    are the ones the file records, not imported, unless ``trust_plugins``
    (:func:`reading_grid`); so are its cells' whenever they are built again."""
    path = Path(folder) / GRID_FILE
    if path.exists() and not path.is_file():
        raise damaged_file(path, "not a file")
    if not path.is_file():
        return None
    with reading_grid(folder, trust_plugins):
        try:
            data = json.loads(path.read_text())
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            missing = [key for key in _WRITTEN if key not in data]
            if missing:
                raise ValueError(f"no {missing[0]!r}")
            return Grid.from_dict(data)
        except PluginNotImported:
            raise
        except (OSError, ValueError, TypeError) as error:
            raise damaged_file(path, f"damaged ({error})") from None


@contextmanager
def reading_grid(folder: str | Path, trust_plugins: bool = False) -> Iterator[None]:
    """Read the comparison in ``folder`` importing none of the plug-ins its ``compare.json``
    names (``bandits.plugins.reading_stored_results``), unless ``trust_plugins``."""
    path = Path(folder) / GRID_FILE
    try:
        plugins = json.loads(path.read_text()).get("plugins")
    except (OSError, ValueError, AttributeError):  # none, or damaged: the reader says which
        plugins = None
    with reading_stored_results(str(path), plugins, trust_plugins):
        yield


def damaged_file(path: Path, what: str) -> ValueError:
    """The error for a comparison's ``cells.json`` or ``compare.json`` that is ``what``: both
    are written anew by the next run, which reuses every stored block."""
    return ValueError(f"{path} is {what}: delete {path} and run the comparison again (it is "
                      "written anew; the stored runs are reused)")
