"""Numba's inlining of ``@njit(inline="always")`` callees, their IR built once per process.

Numba inlines such a callee by building its untyped IR from its bytecode at each call site, its
own inlined callees built again inside that build, and all of it anew for every kernel: a
synthetic search kernel inlines about 370 callees of about 100 functions, and a second policy's
kernel built again every IR the first had built. The untyped IR of a function depends on its
bytecode, its closure and globals as they are when it is built, and the compiler's flags, so
:func:`memoise_inlined_ir` keeps it per (function, SSA form, flags, pipeline); numba's inliner
copies it at each call site, as it copies a fresh one. A module global reassigned after a
callee was first inlined keeps its first value in later kernels (numba freezes a global into
every kernel compiled before the change anyway; the lab reassigns none).

The golden tests hold bit for bit with it; a cold compile of the golden and inspect tests took
14% less CPU (docs/performance.md). It patches a private method of numba's
``InlineWorker``: on a numba whose method differs (``_PATCHED_SIGNATURE``), numba is left as
it is and compiles as before.
"""

from __future__ import annotations

import inspect

from numba.core import inline_closurecall

_PATCHED_SIGNATURE = "(self, func, enable_ssa=False)"
_BUILT: dict[tuple, object] = {}  # (function, enable_ssa, flags, pipeline) -> its untyped IR


def memoise_inlined_ir() -> None:
    """Make numba's inliner build each callee's untyped IR once per process (once; nothing on
    a numba whose inliner has another shape)."""
    worker = inline_closurecall.InlineWorker
    build = worker.run_untyped_passes
    if getattr(build, "memoised", False) or str(inspect.signature(build)) != _PATCHED_SIGNATURE:
        return

    def run_untyped_passes(self, func, enable_ssa=False):
        key = (func, enable_ssa, _options(self.flags), self._compiler_pipeline)
        if key not in _BUILT:
            _BUILT[key] = build(self, func, enable_ssa)
        return _BUILT[key]

    run_untyped_passes.memoised = True
    worker.run_untyped_passes = run_untyped_passes


def _options(flags) -> tuple:
    """The compiler's options but SSA form, which the build itself sets on the flags."""
    return tuple((name, repr(getattr(flags, name))) for name in flags.options
                 if name != "enable_ssa")


def built_callees() -> list:
    """The functions whose IR was built for inlining in this process, once each per key."""
    return [key[0] for key in _BUILT]
