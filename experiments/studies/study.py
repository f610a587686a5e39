"""A study: a list of failure-rate curves with one seed, read from a TOML file, and its results.

A study file::

    [study]
    name = "demo"          # optional, default: the file name
    seed = 1               # required: every run's seed derives from it and the curve
    block = 50             # optional, runs per shard (default 100): fixes the shards

    [defaults]             # optional: keys every [[curves]] entry starts from
    branching = 4
    depth = 8

    [[curves]]             # one entry per curve; a key holding a list gives one curve per
    tree = "constant(1,5)" # element, several lists every combination of their elements
    policy = ["ucb1", "thompson"]
    adjuster = "maxfreq"
    adjuster_params = { offset = -0.5 }
    runs = 1000
    max_budget = 16384

``kind = "compare"`` in [study] makes the file a comparison grid instead
(``experiments.comparisons``).
Curve keys are the fields of ``Curve``: tree, policy, policy_params, adjuster, adjuster_params,
restart, freeze, branching, depth, runs, trees, max_budget, search_depth, shaping (e.g.
``shaping = "rb(k=8)"``, seed 000's reward shaping), rescore, discount (the backup's gamma per
ply, ``mcts.core.backup``), backup, reward (``mcts.synthetic.score_reward``), final_move
(``mcts.core.final_move``), failure (``outcome`` or ``score``), solver (false: no MCTS-Solver), root
(``sh``, ``gumbel``), terminals_at_threshold (the tree's terminals rewarded at the threshold, an
ablation), store_episodes and stop_episodes (Kocsis & Szepesvari 2006's episodes), prior,
evaluate and network (a guided search, ``mcts.synthetic.guidance``). Results come back as one
tidy table (``load_results``).
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd

from bandits.plugins import PluginNotImported, reading_stored_results
from mcts.core.options import ADJUSTER_FLAGS

from ..curves.curve import Curve, curve_columns, rate_columns, recorded_plugins
from ..curves.entries import method_fields, swept
from .shards import Shard, plan_shards
from .store import damaged, read_shard, read_study_file, shard_path
from .tables import (
    COUNT,
    FLAG,
    NUMBER,
    SEED,
    STRING,
    TABLE,
    check_entry,
    check_keys,
    check_table,
)

DEFAULT_BLOCK = 100
CURVE_KEYS = {
    "tree": STRING,
    "policy": STRING,
    "policy_params": TABLE,
    "adjuster": STRING,
    "adjuster_params": TABLE,
    "restart": FLAG,
    "freeze": COUNT,
    "branching": COUNT,
    "depth": COUNT,
    "runs": COUNT,
    "trees": COUNT,
    "max_budget": COUNT,
    "search_depth": COUNT,
    "shaping": STRING,
    "rescore": FLAG,
    "discount": NUMBER,
    "backup": STRING,
    "reward": STRING,
    "final_move": STRING,
    "failure": STRING,
    "solver": FLAG,
    "root": STRING,
    "terminals_at_threshold": FLAG,
    "store_episodes": FLAG,
    "stop_episodes": FLAG,
    "prior": STRING,
    "evaluate": STRING,
    "network": STRING,
}
STUDY_KEYS = {"kind": STRING, "name": STRING, "seed": SEED, "block": COUNT}
KINDS = ("curves", "compare")


@dataclass(frozen=True)
class Study:
    """Curves computed under one study seed, split into shards of ``block`` runs."""

    curves: tuple[Curve, ...]
    seed: int
    block: int = DEFAULT_BLOCK
    name: str = "study"

    def __post_init__(self) -> None:
        object.__setattr__(self, "curves", tuple(self.curves))
        if not self.curves:
            raise ValueError("a study needs at least one curve: add a [[curves]] table")
        if self.seed < 0:
            raise ValueError(f"study seed {self.seed} is negative: use a seed >= 0")
        if self.block < 1:
            raise ValueError(f"block = {self.block} runs per shard must be at least 1")
        seen = {}
        for number, curve in enumerate(self.curves, 1):
            if curve.key in seen:
                raise ValueError(
                    f"curves {seen[curve.key]} and {number} are the same ({curve.label}): "
                    "remove one"
                )
            seen[curve.key] = number

    def shards(self) -> list[Shard]:
        """All shards of the study, curve by curve."""
        return [s for curve in self.curves for s in plan_shards(curve, self.block, self.seed)]

    def to_dict(self) -> dict:
        """The study as ``study.json`` stores it, with what it records of its plug-ins
        (``recorded_plugins``: none, the key left out)."""
        plugins = recorded_plugins(self.curves)
        return {
            "name": self.name,
            "seed": self.seed,
            "block": self.block,
            "curves": [curve.to_dict() for curve in self.curves],
            **({"plugins": plugins} if plugins else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Study:
        curves = tuple(Curve(**curve) for curve in data["curves"])
        return cls(curves, data["seed"], data["block"], data["name"])


def _expand(where: str, entry: dict) -> list[dict]:
    """Check the keys of one [[curves]] entry and expand its lists into one dict per curve."""
    check_keys(where, entry, CURVE_KEYS)
    if "tree" not in entry:
        raise ValueError(f"{where}: key 'tree' is missing: add e.g. tree = \"constant(1,5)\"")
    choices = {}
    for key, value in entry.items():
        values = value if isinstance(value, list) else [value]
        if not values:
            raise ValueError(f"{where}: key {key!r} is an empty list: give at least one value")
        choices[key] = [check_entry(where, key, one, CURVE_KEYS[key]) for one in values]
    return [dict(zip(choices, combination)) for combination in itertools.product(*choices.values())]


def _methods(config: dict) -> list[dict]:
    """A curve's fields with its policy and adjuster read as ``compare`` reads its entries
    (``curves.entries``): ``policy = "ucb1(c=0.25,root=sh)"``, an adjuster's engine flags,
    and sweeps, ``"ucb1(c=[0.25,0.5])"`` or ``policy_params = { c = [0.25, 0.5] }``, one
    curve per value (every combination, in the order written)."""
    entries = [swept(config[key], key) if key in config else [None]
               for key in ("policy", "adjuster")]
    params = [_swept(config.get(f"{key}_params", {})) for key in ("policy", "adjuster")]
    curves = []
    for policy, adjuster, policy_params, adjuster_params in itertools.product(*entries, *params):
        fields = {**config, "policy_params": policy_params, "adjuster_params": adjuster_params}
        method = method_fields(policy or "ucb1", adjuster or "plain")
        for key, entry in (("policy", policy), ("adjuster", adjuster)):
            if entry is None:
                continue
            fields[key] = method[key]
            given = method[f"{key}_params"]
            twice = sorted(set(given) & set(fields[f"{key}_params"]))
            if twice:
                raise ValueError(f"{key} parameter {twice[0]!r} is given twice, in {key} = "
                                 f"{entry!r} and in {key}_params: give it once")
            fields[f"{key}_params"] = {**fields[f"{key}_params"], **given}
        for option in ("root", *ADJUSTER_FLAGS):
            if method[option]:
                if config.get(option):
                    raise ValueError(f"{option} is given twice, as a key and in an entry's "
                                     f"{option}=...: give it once")
                fields[option] = method[option]
        curves.append(fields)
    return curves


def _swept(params: dict) -> list[dict]:
    """The parameter tables a table with list values stands for, every combination."""
    choices = [[(key, one) for one in value] if isinstance(value, list) else [(key, value)]
               for key, value in params.items()]
    if any(not options for options in choices):
        raise ValueError(f"a parameter list is empty in {params}: give at least one value")
    return [dict(combination) for combination in itertools.product(*choices)]


def read_study_document(path: str | Path) -> dict:
    """The parsed TOML of a study file; a missing, unreadable or malformed file is a one-line
    ValueError."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"study file {path} not found: check the path") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"study file {path} is unreadable: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: malformed TOML ({error}): fix the syntax") from None


def study_kind(path: str | Path) -> str:
    """A study file's ``[study] kind``: "curves" (the default) or "compare" (a grid of trees x
    policies x adjusters, ``experiments.comparisons``)."""
    settings = read_study_document(path).get("study", {})
    kind = settings.get("kind", "curves") if isinstance(settings, dict) else "curves"
    if kind not in KINDS:
        raise ValueError(f"{path}: [study] kind = {kind!r} is unknown: use "
                         f"{' or '.join(map(repr, KINDS))}")
    return kind


def read_curves(path: str | Path) -> Study:
    """Read a study file of kind "curves" (TOML); any problem is a one-line ValueError naming
    file, key and fix. ``experiments.comparisons.study_files.read_study`` reads either kind."""
    path = Path(path)
    document = read_study_document(path)
    check_keys(str(path), document, {"study": "a table", "defaults": "a table",
                                     "curves": "a list of tables"})
    settings = document.get("study", {})
    check_keys(f"{path}: [study]", settings, STUDY_KEYS)
    if "seed" not in settings:
        raise ValueError(f"{path}: key 'study.seed' is missing: add [study] with seed = 1")
    settings = check_table(f"{path}: [study]", settings, STUDY_KEYS)
    defaults = document.get("defaults", {})
    check_keys(f"{path}: [defaults]", defaults, CURVE_KEYS)
    entries = document.get("curves")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: no [[curves]] entries: add at least one [[curves]] table")
    curves = []
    for number, entry in enumerate(entries, 1):
        where = f"{path}: [[curves]] entry {number}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} must be a table: write it as [[curves]]")
        for config in _expand(where, {**defaults, **entry}):
            try:
                curves += [Curve(**fields) for fields in _methods(config)]
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
    try:
        return Study(
            tuple(curves),
            settings["seed"],
            settings.get("block", DEFAULT_BLOCK),
            settings.get("name", path.stem),
        )
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def open_study(folder: str | Path, trust_plugins: bool = False) -> Study:
    """The study that owns ``folder`` (from its ``study.json``). Its plug-ins are the ones
    the file records, not imported, unless ``trust_plugins`` (:func:`reading_study`); each
    curve keeps the key it was read with, so using the study later imports nothing either."""
    with reading_study(folder, trust_plugins):
        data = read_study_file(folder)
        try:
            study = Study.from_dict(data)
        except PluginNotImported:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise damaged(folder, f"damaged ({type(error).__name__}: {error})") from None
        for curve in study.curves:
            _ = curve.key  # computed from the records, and kept by the curve
        return study


@contextmanager
def reading_study(folder: str | Path, trust_plugins: bool = False) -> Iterator[None]:
    """Read the study in ``folder`` importing none of the plug-ins its ``study.json`` names
    (``bandits.plugins.reading_stored_results``), unless ``trust_plugins``."""
    try:
        plugins = read_study_file(folder).get("plugins")
    except ValueError:  # no study, or a damaged one: the reader says which
        plugins = None
    with reading_stored_results(f"{Path(folder) / 'study.json'}", plugins, trust_plugins):
        yield


def study_status(folder: str | Path, trust_plugins: bool = False) -> pd.DataFrame:
    """Per curve of the study in ``folder``: shards and runs planned, stored and damaged
    (files present but unreadable or not the shard's, recomputed by the next run). It imports
    no plug-in unless ``trust_plugins`` (:func:`reading_study`)."""
    with reading_study(folder, trust_plugins):
        return _status(folder, trust_plugins)


def _status(folder: str | Path, trust_plugins: bool) -> pd.DataFrame:
    study = open_study(folder, trust_plugins)
    rows = []
    for curve in study.curves:
        shards = plan_shards(curve, study.block, study.seed)
        stored = [read_shard(folder, shard) is not None for shard in shards]
        present = [shard_path(folder, shard).exists() for shard in shards]
        rows.append({
            "label": describe(curve),
            "shards": len(shards),
            "shards_done": sum(stored),
            "shards_damaged": sum(p and not s for p, s in zip(present, stored)),
            "runs": curve.total_runs,
            "runs_done": sum(shard.n_runs for shard, s in zip(shards, stored) if s),
        })
    return pd.DataFrame(rows)


def _left_out(curve: Curve, name: str):
    """The value field ``name`` of ``curve`` would take if the study file left it out (None
    when leaving it out is not a valid curve)."""
    field = next(f for f in fields(Curve) if f.name == name)
    default = field.default_factory() if field.default is MISSING else field.default
    try:
        return getattr(Curve(**{**curve.to_dict(), name: default}), name)
    except ValueError:
        return None


def describe(curve: Curve) -> str:
    """``curve.label`` followed by every setting that leaving out would change, e.g.
    ``constant(1,5) ucb1 maxfreq offset=-0.5 depth=6 runs=1000``."""
    extras = []
    for field in fields(Curve):
        if field.name in ("tree", "policy", "adjuster", "shaping", "reward", "final_move",
                          "failure", "solver", "root"):  # in the label
            continue
        value, default = getattr(curve, field.name), _left_out(curve, field.name)
        if isinstance(value, dict):
            extras += [f"{k}={v:g}" for k, v in value.items() if (default or {}).get(k) != v]
        elif value != default:
            extras.append(f"{field.name}={value}")
    return " ".join([curve.label, *extras])


def _curve_columns(curve: Curve) -> dict:
    """The curve's identity columns (``curve_columns``), labelled with every setting that
    sets it apart (``describe``)."""
    return {**curve_columns(curve), "label": describe(curve)}


def load_results(folder: str | Path, trust_plugins: bool = False) -> pd.DataFrame:
    """The stored results of the study in ``folder`` as one tidy table, a row per curve and
    budget: the curve's configuration, ``budget``, ``failures``, ``runs`` (stored so far; a
    curve with none is left out), ``failure_rate`` = failures / runs, ``std`` (sample standard
    deviation of the per-run failure indicator, ddof 1), ``stderr`` = std / sqrt(runs) and the
    Wilson 95% interval ``ci_low``, ``ci_high`` (what ``plots`` draws).

    Two curves at a budget compare with Welch's test,
    ``scipy.stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False)`` on
    (failure_rate, std, runs).

    Reading imports none of the plug-ins the folder names unless ``trust_plugins``
    (:func:`reading_study`): its ``study.json`` records what a curve needs of them.
    """
    with reading_study(folder, trust_plugins):
        return _results(folder, trust_plugins)


def _results(folder: str | Path, trust_plugins: bool) -> pd.DataFrame:
    study = open_study(folder, trust_plugins)
    parts = []
    for curve in study.curves:
        failures = np.zeros(len(curve.budgets), dtype=np.int64)
        runs = 0
        for shard in plan_shards(curve, study.block, study.seed):
            counts = read_shard(folder, shard)
            if counts is not None:
                failures += counts
                runs += shard.n_runs
        if runs:
            part = pd.DataFrame({"budget": curve.budgets, "failures": failures, "runs": runs})
            parts.append(part.assign(**_curve_columns(curve)))
    columns = [*_curve_columns(study.curves[0]), "budget", "failures", "runs"]
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    frame = frame[columns]
    n = frame["runs"].astype(float)
    rate = frame["failures"] / n
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.sqrt(n * rate * (1.0 - rate) / (n - 1.0))
        interval = (rate_columns(frame["failures"], frame["runs"]) if len(frame)
                    else {"ci_low": [], "ci_high": []})
    return frame.assign(failure_rate=rate, std=std, stderr=std / np.sqrt(n),
                        ci_low=interval["ci_low"], ci_high=interval["ci_high"])
