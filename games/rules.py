"""The rules protocols a game module satisfies, and the typed key that dispatches to them.

A game is a module of ``@njit`` functions. Registering it (``rules_key``) checks that it has
every function of its protocol (``GAME_RULES`` for the two-player deterministic games,
``CHANCE_RULES`` for the one-player chance games) and returns its :class:`RulesKey`, the
``game_id`` a :class:`games.Game` carries. Each module's key has its own numba type, so a kernel
taking the key is compiled (and cached) once per rules module, with that module's functions
called directly: ``protocol_function(name)`` is a stub whose compiled form is chosen from the
key's type at compile time (``numba.extending.overload``), as ``bandits.policy_value`` is chosen
from a policy's record. Anything else in the key's place (an old integer id, another protocol's
key where its protocol lacks the function) is a typing error when the kernel compiles, never a
silent fallthrough.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import (
    NativeValue,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)

# The compiled functions of each protocol (their contracts: ``games.compiled``, ``games.chance``)
# and the Python-level helpers of ``games.Game``/``SolitaireGame`` (``action_to_string``,
# ``render``).
GAME_RULES = ("legal_actions", "apply_action", "current_player", "is_terminal", "winner",
              "quality", "policy_action", "decisive_action", "action_to_string", "render")
CHANCE_RULES = ("legal_actions", "apply_action", "n_outcomes", "apply_outcome", "is_terminal",
                "score", "policy_action", "feature", "feature_probability", "ranked_outcome",
                "action_to_string", "render")
PROTOCOLS = {"game": GAME_RULES, "chance": CHANCE_RULES}
# Functions a module may define to do faster what the dispatcher's default does from the required
# ones, with the same result and the same random numbers drawn.
OPTIONAL_GAME_RULES = ("random_action",)


class RulesKey:
    """The compiled dispatch key of one rules module (``games.breakthrough``) under one protocol
    (``"game"`` or ``"chance"``). Equal keys share their kernels."""

    __slots__ = ("module", "protocol")

    def __init__(self, module: str, protocol: str):
        self.module, self.protocol = module, protocol

    def __eq__(self, other) -> bool:
        return isinstance(other, RulesKey) and (self.module, self.protocol) == (
            other.module, other.protocol)

    def __hash__(self) -> int:
        return hash((self.module, self.protocol))

    def __reduce__(self):
        return RulesKey, (self.module, self.protocol)

    def __repr__(self) -> str:
        return f"RulesKey({self.module!r}, {self.protocol!r})"


def rules_key(module: ModuleType, protocol: str = "game") -> RulesKey:
    """``module``'s key after checking it has every function of ``protocol``; ValueError naming
    the first one missing."""
    for name in PROTOCOLS[protocol]:
        if not callable(getattr(module, name, None)):
            raise ValueError(f"{module.__name__} lacks {name}() of the {protocol} rules protocol "
                             f"(games.rules.{protocol.upper()}_RULES)")
    return RulesKey(module.__name__, protocol)


class RulesType(types.Type):
    """The numba type of one module's :class:`RulesKey` (no run-time data). Its name carries a
    digest of the module's source: a kernel compiled for the rules holds their code, and is
    cached under the sources of its own module's imports (``bandits.kernel_cache``), which need
    not include the rules module (a game of one's own, or of the tests); an edited module thus
    gets a new type and new kernels."""

    def __init__(self, module: str, protocol: str):
        self.module, self.protocol = module, protocol
        super().__init__(name=f"Rules({module}, {protocol}, {source_digest(module)})")


@functools.cache
def source_digest(module: str) -> str:
    """12 hex digits of the SHA-256 of ``module``'s source file (its name, if it has none)."""
    origin = importlib.util.find_spec(module).origin
    path = Path(origin) if origin else None
    text = path.read_bytes() if path is not None and path.is_file() else module.encode()
    return hashlib.sha256(text).hexdigest()[:12]


@typeof_impl.register(RulesKey)
def _typeof_key(key, context):
    return RulesType(key.module, key.protocol)


register_model(RulesType)(models.OpaqueModel)


@unbox(RulesType)
def _unbox_key(typ, obj, c):
    return NativeValue(c.context.get_dummy_value(), is_error=cgutils.false_bit)


def _rules_function(key_type, protocol: str | tuple[str, ...], name: str):
    protocols = (protocol,) if isinstance(protocol, str) else protocol
    if not isinstance(key_type, RulesType) or key_type.protocol not in protocols:
        raise TypingError(f"{key_type} is not a {' or '.join(protocols)} rules key: pass the "
                          f"game_id of a registered game (games.get_game(name).game_id)")
    return getattr(importlib.import_module(key_type.module), name, None)


def protocol_function(protocol: str | tuple[str, ...], name: str, default=None):
    """A stub for compiled code: ``stub(key, *args)`` calls ``name(*args)`` of ``key``'s
    module, chosen when the calling kernel compiles, for a key of ``protocol`` (or of any of
    several that share the function, as both share ``legal_actions``); for a function the
    module may leave out, ``default(key, *args)`` when it does."""

    def stub(key, *args):
        raise NotImplementedError(f"{name} of a rules key runs inside compiled kernels only")

    stub.__name__ = stub.__qualname__ = f"rules_{name}"

    @overload(stub, jit_options={"cache": True})
    def _select(key, *args):
        function = _rules_function(key, protocol, name)
        if function is None:
            return lambda key, *args: default(key, *args)

        def impl(key, *args):
            return function(*args)

        return impl

    return stub
