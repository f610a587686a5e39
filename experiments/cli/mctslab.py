"""The ``mctslab`` command. Each sub-command lives in ``experiments.cli.commands.<name>`` and
exposes ``register(subparsers)``. Errors the user can fix (bad input, an output that cannot be
written, a folder another process writes, too little memory) end in one line on stderr and exit
code 2; any other exception is a bug of the lab: its traceback, a line asking to report it,
exit 1.
A Ctrl-C, from the program's first line on, is one line and exit code 130 (``INTERRUPTED``)."""

from __future__ import annotations

import argparse
import errno
import os
import re
import signal
import sys
import traceback
from concurrent.futures import BrokenExecutor

INTERRUPTED = 130  # the shells' exit code of a program ended by SIGINT


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem, not the whole usage."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from .commands import COMMANDS

    parser = _OneLineParser(
        prog="mctslab", description="A laboratory for Monte-Carlo Tree Search research."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for command in COMMANDS:
        command.register(sub)
    return parser


# a value that starts with "-" but is no negative number argparse knows, taken as the option's
# value rather than as an option: --sprt -10,10 (argparse reads "-10,10" as an unknown flag)
_NEGATIVE_PAIR = re.compile(r"-\d*\.?\d+,-?\d*\.?\d+")


def _with_negative_values(argv: list[str]) -> list[str]:
    """``argv`` with ``--option -a,b`` written ``--option=-a,b``."""
    joined: list[str] = []
    for word in argv:
        if (_NEGATIVE_PAIR.fullmatch(word) and joined and joined[-1].startswith("--")
                and "=" not in joined[-1]):
            joined[-1] = f"{joined[-1]}={word}"
        else:
            joined.append(word)
    return joined


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(
            _with_negative_values(sys.argv[1:] if argv is None else argv))
    except SystemExit as done:  # --help, or a usage error already printed in one line
        return done.code
    if getattr(args, "out", None) == "":  # else the current folder would take the results
        print(f"mctslab {args.command}: error: --out is empty: name a folder, e.g. --out "
              "results/run", file=sys.stderr)
        return 2
    try:
        return args.run(args) or 0
    except ValueError as error:
        print(f"mctslab {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except OSError as error:
        print(f"mctslab {args.command}: error: {os_error_line(error)}", file=sys.stderr)
        return 2
    except MemoryError:
        options = _size_options(args)
        print(f"mctslab {args.command}: error: out of memory: the command needs more than this "
              f"machine has free; lower the sizes{f' (e.g. {options})' if options else ''}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted(args.command)
    except BrokenExecutor:
        print(f"mctslab {args.command}: error: a worker process ended abruptly (the system "
              f"may have killed it for lack of memory): lower --workers or the sizes; the "
              f"results already written are kept", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001  (the catch-all that names a bug of the lab)
        if _caused_by_interrupt(error):
            return interrupted(args.command)
        from experiments.curves.plugin_check import plugin_compile_error

        line = plugin_compile_error(error)  # a user's plug-in that numba cannot compile
        if line:
            print(f"mctslab {args.command}: error: {line}", file=sys.stderr)
            return 2
        traceback.print_exc()  # a bug of the lab, not of the command line
        print(f"mctslab {args.command}: internal error: this is a bug in mctslab, not in your "
              f"command; please report it with the command line and the traceback above",
              file=sys.stderr)
        return 1


# the options that size a command's work, in the order a memory line names them
SIZE_OPTIONS = ("runs", "values", "horizon", "max_budget", "budget", "games", "playouts",
                "workers")


def _size_options(args) -> str:
    """The size options the command has and uses, as a memory line names them: ``--runs,
    --horizon`` for ``bandit`` (``tune`` on a tree has no --games)."""
    return ", ".join(f"--{name.replace('_', '-')}" for name in SIZE_OPTIONS
                     if getattr(args, name, None) is not None)


def interrupted(command: str | None) -> int:
    """Say that ``command`` (None: the program, before it knew its command) was interrupted;
    the exit code."""
    name = f"mctslab {command}" if command else "mctslab"
    print(f"{name}: interrupted; results already written are kept", file=sys.stderr)
    return INTERRUPTED


def _caused_by_interrupt(error: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in ``error``'s chain of causes: numba's dispatcher turns
    a Ctrl-C that comes while a kernel runs into a SystemError when the kernel next calls back
    into Python."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


_OS_HINTS = {
    errno.EACCES: "check its permissions or choose another place for the output",
    errno.EPERM: "check its permissions or choose another place for the output",
    errno.EROFS: "the file system is read-only: choose another place for the output",
    errno.ENOSPC: "the disk is full: free some space or choose another place for the output",
    errno.EDQUOT: "the disk quota is used up: free some space or choose another place",
    errno.EFBIG: "a file size limit (ulimit -f) is reached: raise it or choose another place",
    errno.EISDIR: "move it away or choose another name",
    errno.ENOTDIR: "choose another place for the output",
    errno.EEXIST: "something is in the way: move it away or choose another name",
}


def os_error_line(error: OSError) -> str:
    """One line for an error of the operating system: the path, the reason, what to do."""
    if not error.strerror:
        return str(error)
    where = error.filename if error.filename is not None else ""
    if error.filename2 is not None:
        where = f"{where} -> {error.filename2}"
    hint = _OS_HINTS.get(error.errno)
    line = f"{where}: {error.strerror}" if where != "" else error.strerror
    return f"{line}: {hint}" if hint else line


def program() -> None:
    """The ``mctslab`` program: :func:`main` on the command line, in a process of its own.

    Ctrl-C (SIGINT) stops a command and keeps what it computed, also when the program was
    started with SIGINT ignored (a shell script's background job, where Python would keep it
    ignored). While the program still imports its modules (its first second), before it has
    written anything, a Ctrl-C ends it at once (``_end_at_start``): raised there, the
    interrupt could surface as another error of the module being imported. It draws with
    matplotlib's non-interactive backend (chosen here, not on import of ``plots``, so a
    notebook keeps its own; by ``MPLBACKEND``, so that a command that draws nothing does not
    import matplotlib) and removes the kernel caches of old versions of the compiled
    sources (``bandits.kernel_cache``). The objects made at start-up (numba's types and
    registries, mostly) live until the process ends, so the cycle collector is told to leave
    them alone (``gc.freeze``), now and at exit: a command starts and ends ~0.3 s sooner (of
    ~1 s)."""
    signal.signal(signal.SIGINT, _end_at_start)
    _start()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())


def _end_at_start(signum, frame) -> None:
    """SIGINT while the program starts: say so and end, with nothing written to keep."""
    interrupted(None)
    sys.stderr.flush()
    os._exit(INTERRUPTED)


def _start() -> None:
    import atexit
    import gc

    from bandits import kernel_cache

    from . import commands  # noqa: F401  (its modules' objects too, before gc.freeze)

    os.environ["MPLBACKEND"] = "Agg"
    kernel_cache.prune_old_versions()
    gc.freeze()
    atexit.register(gc.freeze)

