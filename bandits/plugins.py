"""User plug-ins: a policy (or, through ``enhancements.plugins``, an adjuster) defined in any
importable module and named ``package.module:object``, compiled into every engine at first use
and cached like the built-ins (docs/extending.md). This module holds what every kind of
plug-in shares; each registry loads its own kind (``bandits.registry.load_policy``,
``enhancements.registry.load_adjuster``, ``mcts.core.backup.load_backup``).

The compiled engines dispatch on a record's class, and numba's disk cache names that class in
its index of every kernel's signatures. So a plug-in's record is rebuilt here as a class of this
module whose name carries a digest of the plug-in's source: an edited plug-in gets a new class
(and new kernels, where numba would otherwise load the old ones), and a process without the
plug-in still reads the cache index, where module ``__getattr__`` below stands in a placeholder
for every class it does not hold.
"""

from __future__ import annotations

import collections
import hashlib
import importlib
import inspect
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import NamedTuple

from specs import Domain

# traits a plug-in may declare on its record
TRAITS = ("second_moment", "reads_scores", "raw_rewards")
_PREFIX = "Plugin_"


# the placeholders handed out for record classes not loaded here, one per name: the same
# object at every lookup, so that numba, re-saving a cache index that names them, pickles
# them by reference (by name) and a process that loads the plug-in matches its kernels; a new
# placeholder per lookup was pickled by value, and the plug-in's cached kernels were lost
# whenever another process added a kernel to the same index
_PLACEHOLDERS: dict[str, type] = {}


def __getattr__(name: str):
    """A placeholder for a plug-in record class not loaded in this process (a cache index
    naming it is read, its kernels never matched here)."""
    if name.startswith(_PREFIX):
        return _PLACEHOLDERS.setdefault(name, collections.namedtuple(name, (), module=__name__))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def source_digest(*functions) -> str:
    """12 hex digits of the SHA-256 of the source files of the modules defining ``functions``
    (records or hooks): any edit of them gives a new digest."""
    digest = hashlib.sha256()
    for module_name in sorted({f.__module__ for f in functions}):
        module = sys.modules[module_name]
        try:
            digest.update(inspect.getsource(module).encode())
        except (OSError, TypeError):  # no source file (an interactive session): its code
            digest.update(repr([getattr(f, "py_func", f).__code__.co_code
                                for f in functions if f.__module__ == module_name]).encode())
    return digest.hexdigest()[:12]


def compiled_record(record: type, *hooks) -> type:
    """``record`` (a NamedTuple class of a plug-in) rebuilt as a class of this module, named
    after it and the digest of its and its ``hooks``' sources, with its declared traits."""
    if not (isinstance(record, type) and issubclass(record, tuple)
            and hasattr(record, "_fields")):
        raise ValueError(f"record {record!r} must be a typing.NamedTuple class of the "
                         "parameters, e.g. class MyPolicy(NamedTuple): c: float = 1.0")
    name = f"{_PREFIX}{record.__name__}_{source_digest(record, *hooks)}"
    if name in globals():
        return globals()[name]
    defaults = [record._field_defaults[f] for f in record._fields if f in record._field_defaults]
    rebuilt = collections.namedtuple(name, record._fields, defaults=defaults, module=__name__)
    for trait in TRAITS:
        if getattr(record, trait, False):
            setattr(rebuilt, trait, True)
    globals()[name] = rebuilt
    return rebuilt


@dataclass(frozen=True)
class StoredPlugin:
    """A plug-in as the results computed with it record it: its name, its parameters'
    defaults and, for an adjuster, whether the exploration restart is on by default. Reading
    stored results (:func:`reading_stored_results`) takes it in place of the plug-in, whose
    module is not imported; the values stored with it were checked when they were computed."""

    name: str
    defaults: Mapping = field(default_factory=dict)
    restart: bool = False

    @property
    def label(self) -> str:
        return self.name

    def check(self, values: Mapping) -> dict:
        return dict(values)

    def stored(self, values: Mapping) -> dict:
        return dict(values)


class PluginNotImported(ValueError):
    """A plug-in named by stored results, which reading them does not import."""


# None: plug-ins are imported; else (the file read, its recorded plug-ins by kind and name)
_READING: ContextVar[tuple[str, Mapping] | None] = ContextVar("reading_stored_results",
                                                               default=None)


@contextmanager
def reading_stored_results(source: str, plugins: Mapping | None,
                           trusted: bool = False) -> Iterator[None]:
    """Within it, the plug-ins that the file ``source`` names are read from ``plugins`` (its
    record, ``{kind: {name: {"defaults": ..., "restart": ...}}}``), never imported: a stored
    file must not run code (a ``study.json`` naming ``evil:rule`` beside an ``evil.py``). A
    plug-in it does not record is a :class:`PluginNotImported` naming the module that would
    run. ``trusted``: the user has said the plug-ins may be imported."""
    token = _READING.set(None if trusted else (source, plugins or {}))
    try:
        yield
    finally:
        _READING.reset(token)


def reading() -> bool:
    """Whether stored results are being read (:func:`reading_stored_results`)."""
    return _READING.get() is not None


def reading_state() -> tuple[str, Mapping] | None:
    """How plug-ins are read here: None (imported), or the stored file and its records, for
    an object read from that file to keep reading them so later (:func:`read_as`)."""
    return _READING.get()


@contextmanager
def read_as(state: tuple[str, Mapping] | None) -> Iterator[None]:
    """Within it, plug-ins are read as ``state`` (:func:`reading_state`) says; None changes
    nothing."""
    if state is None:
        yield
        return
    token = _READING.set(state)
    try:
        yield
    finally:
        _READING.reset(token)


def recorded_plugin(kind: str, spec: str) -> StoredPlugin | None:
    """The record of the plug-in ``spec`` of ``kind`` while stored results are read, else
    None (the plug-in is imported as usual)."""
    state = _READING.get()
    if state is None:
        return None
    source, plugins = state
    entry = plugins.get(kind, {}).get(spec)
    if entry is None:
        raise _not_imported(source, kind, spec)
    return StoredPlugin(spec, dict(entry.get("defaults", {})), bool(entry.get("restart", False)))


def _not_imported(source: str, kind: str, spec: str) -> PluginNotImported:
    module = spec.partition(":")[0]
    return PluginNotImported(
        f"{source} names the {kind} plug-in {spec!r}, and reading stored results runs no code: "
        f"this would import module {module!r}; if you trust it, pass --trust-plugins "
        f"(Python: trust_plugins=True)")


def load_object(spec: str, kind: str, expected: type, public_name: str, built_in: str):
    """The object ``spec`` = ``package.module:name`` of type ``expected`` (which users know
    as ``public_name``); any failure is a one-line ValueError naming the problem and the fix.
    ``built_in`` says where the built-in ones are, e.g. "`mctslab policies list`". While
    stored results are read (:func:`reading_stored_results`) nothing is imported."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{kind} {spec!r} is neither built in ({built_in}) nor of the form "
                         f"package.module:object")
    state = _READING.get()
    if state is not None:
        raise _not_imported(state[0], kind, spec)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # noqa: BLE001 (any error of the plug-in's import, in one line)
        raise ValueError(f"cannot import module {module_name!r} for {kind} {spec!r} "
                         f"({type(error).__name__}: {error}); is its folder on PYTHONPATH?"
                         ) from None
    if not hasattr(module, attribute):
        raise ValueError(f"module {module_name!r} has no object {attribute!r} for {kind} "
                         f"{spec!r}")
    value = getattr(module, attribute)
    if not isinstance(value, expected):
        article = "an" if kind[0] in "aeiou" else "a"
        raise ValueError(f"{spec} is of type {type(value).__name__}, not {article} {kind}: "
                         f"define it as {public_name}(...) (docs/extending.md)")
    return value


@dataclass(frozen=True)
class Policy:
    """A user's selection policy: a name, a NamedTuple ``record`` of its parameters (with
    defaults), and its compiled ``index(policy, arm, tables, rng) -> float`` over a
    :class:`bandits.Arm` (``@njit``, ``inline`` set to ``"always"``). ``record`` may declare
    ``second_moment = True`` to have ``arm.square_mean`` filled in. ``parameters``: the fields
    a user may set (default: all of them); ``domains``: a ``specs.Domain`` per parameter
    (default: any finite number). ``cache_columns`` and the compiled ``index_children``,
    ``after_backup`` and ``invalidate`` are the policy's hooks (``bandits.hooks``: float64
    columns kept per child and its own ways to use them; None: the engine's default)."""

    name: str
    record: type[NamedTuple]
    index: object
    description: str = ""
    citation: str = ""
    label: str | None = None
    parameters: tuple[str, ...] | None = None
    domains: Mapping[str, Domain] | None = None
    cache_columns: int = 0
    index_children: object = None
    after_backup: object = None
    invalidate: object = None


PLUGIN_FILES: dict[str, str] = {}  # plug-in spec -> the file defining it (policies and adjusters)


def source_file(spec: str) -> str:
    """The file that defines the loaded plug-in ``spec``, for messages."""
    return PLUGIN_FILES.get(spec, spec.partition(":")[0])


def load_plugin(spec: str, kind: str, expected: type, public_name: str, built_in: str,
                hooks: tuple[str, ...], optional: tuple[str, ...] = ()):
    """The plug-in ``spec`` (``load_object``) with its record rebuilt for the engines
    (``compiled_record``): (plugin, record, its compiled hooks in the order of ``hooks``), each
    hook checked to be compiled, but those in ``optional`` may be None; the first hook's file
    names the plug-in in messages."""
    plugin = load_object(spec, kind, expected, public_name, built_in)
    functions = tuple(getattr(plugin, hook) for hook in hooks)
    PLUGIN_FILES[spec] = plugin_file(functions[0])
    given = []
    for hook, function in zip(hooks, functions, strict=True):
        if function is None and hook in optional:
            continue
        check_compiled(spec, hook, function)
        given.append(function)
    return plugin, compiled_record(plugin.record, *given), functions


def plugin_file(function) -> str:
    """The source file that defines ``function`` (a plug-in's hook), for messages."""
    function = getattr(function, "py_func", function)
    try:
        return inspect.getsourcefile(function) or function.__module__
    except TypeError:
        return getattr(function, "__module__", "?")


def check_compiled(spec: str, hook: str, function) -> None:
    """A one-line ValueError unless the plug-in's ``hook`` is a numba-compiled function."""
    from numba.core.dispatcher import Dispatcher

    if not isinstance(function, Dispatcher):
        raise ValueError(f"plug-in {spec} ({source_file(spec)}): its {hook} is not "
                         f"compiled: decorate it with @njit(inline=\"always\")")


def plugin_domains(spec: str, plugin, parameters: tuple[str, ...]) -> dict[str, Domain]:
    """A plug-in's declared domains, checked to be ``specs.Domain`` values of its
    parameters."""
    domains = dict(plugin.domains or {})
    for key, domain in domains.items():
        if key not in parameters:
            raise ValueError(f"plug-in {spec}: domains names {key!r}, which is not one of its "
                             f"parameters ({', '.join(parameters) or 'none'})")
        if not isinstance(domain, Domain):
            raise ValueError(f"plug-in {spec}: the domain of {key!r} is {domain!r}: use a "
                             "specs.Domain, e.g. specs.at_least(0)")
    return domains


def settable_parameters(plugin, record) -> tuple[str, ...]:
    """The fields of a plug-in's ``record`` a user may set (``plugin.parameters``, default all);
    each needs a default."""
    parameters = record._fields if plugin.parameters is None else tuple(plugin.parameters)
    missing = [p for p in parameters if p not in record._field_defaults]
    if missing:
        raise ValueError(f"{plugin.name}: parameter {missing[0]!r} needs a default in "
                         f"{plugin.record.__name__}")
    return parameters
