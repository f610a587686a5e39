"""Plug-in errors in one line: a user's policy, adjuster or backup rule that numba cannot
compile is named with its file and numba's message (``plugin_errors``, around every compile:
``kernels.prepare_kernel``), and commands that write a folder or start workers compile
plug-ins first (``kernels.check_plugins``), in the main process, before either (a worker's
traceback would run to 150 lines)."""

from __future__ import annotations

import os
import re
import shlex
from contextlib import contextmanager

from .curve import Curve

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# numba's lines that say where it failed, not what is wrong (the cause is nested inside them)
_GENERIC = re.compile(r"^(Failed in .* mode pipeline|During: |No implementation of function|"
                      r">>> |There are \d+ candidate|- Of which|Overload |With argument|"
                      r"Rejected as |\w+Error: Failed in |File |raised from |$)")


def plugin_specs(curve: Curve) -> list[str]:
    """The curve's plug-ins (``package.module:object``): its policy, adjuster, backup rule,
    reward rule."""
    return [spec for spec in (curve.policy, curve.adjuster, curve.backup, curve.reward)
            if ":" in spec]


def with_plugin_path(command: str, curves) -> str:
    """``command`` as a user reruns it: after ``PYTHONPATH=...`` when one of ``curves`` names
    a plug-in and this process ran with a PYTHONPATH (where the plug-in was found), since the
    command imports it again."""
    path = os.environ.get("PYTHONPATH")
    if path and any(plugin_specs(curve) for curve in curves):
        return f"PYTHONPATH={shlex.quote(path)} {command}"
    return command


def _plugins(curve: Curve) -> list[tuple[str, str]]:
    """(spec, source file) of the curve's plug-ins."""
    from bandits.plugins import source_file

    return [(spec, source_file(spec)) for spec in plugin_specs(curve)]


def numba_line(error: BaseException) -> str:
    """The first line of numba's message that says what is wrong (not where it failed)."""
    lines = [line.strip() for line in _ANSI.sub("", str(error)).splitlines()]
    useful = [line for line in lines if not _GENERIC.match(line)]
    return (useful or lines or [type(error).__name__])[0]


def _does_not_compile(error: BaseException, plugins: list[tuple[str, str]]) -> str:
    """The line naming the plug-in of ``plugins`` ((spec, file)) whose file numba's message
    cites, else the first, with the line there and numba's line."""
    text = _ANSI.sub("", str(error))
    spec, path = next(((s, p) for s, p in plugins if p in text), plugins[0])
    line = re.search(rf"at {re.escape(path)} \((\d+)\)", text)
    where = f"{path}, line {line.group(1)}" if line else path
    return f"plug-in {spec} ({where}) does not compile: {numba_line(error)}"


@contextmanager
def plugin_errors(curve: Curve):
    """Turn numba's failure to compile ``curve``'s kernels into a one-line ValueError naming
    the plug-in (the one whose file the message cites, else the first) and numba's line."""
    from numba.core.errors import NumbaError

    try:
        yield
    except NumbaError as error:
        plugins = _plugins(curve)
        if not plugins:
            raise
        raise ValueError(_does_not_compile(error, plugins)) from None


def plugin_compile_error(error: BaseException) -> str | None:
    """For any command (``experiments.cli``): the one line of numba's failure to compile a
    kernel when its message cites the file of a plug-in this process loaded (a bandit's,
    inspect's or a game player's policy; a reward rule), else None."""
    from numba.core.errors import NumbaError

    from bandits.plugins import PLUGIN_FILES

    if not isinstance(error, NumbaError):
        return None
    text = _ANSI.sub("", str(error))
    cited = [(spec, path) for spec, path in PLUGIN_FILES.items() if path in text]
    return _does_not_compile(error, cited) if cited else None
