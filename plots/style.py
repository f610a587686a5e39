"""The lab's one look: publication defaults, a method's colour and line style, the 95% band,
and a figure's file in every format asked for.

A method is a policy and an adjuster. Its colour is its policy's and its line style (with its
marker) its adjuster's, in every figure of the lab: the registries' order fixes them
(``bandits.POLICIES``: ucb1 blue, klucb orange, thompson green, ...; ``enhancements.ADJUSTERS``:
plain solid, maxfreq dashed, static dotted, ...), and an entry the registry does not list (a
plug-in, or a registered name with parameters such as ``ucb1(c=0.5)``) comes after them in the
order the caller gives (a grid's), else by name. A policy's variant (``ucb1(c=0.5)``) has its
policy's hue, darker or lighter, and a marker of its own (a sweep's values are told apart by
shape as well as by shade); any other entry (a plug-in) a hue of its own. Never the order
of a table's rows, so two figures drawn from tables sorted differently agree.

Every band is the Wilson score 95% interval of a failure rate (failures of runs), and its
figure says so (``BAND``).

Importing ``plots`` leaves matplotlib's backend alone (a notebook keeps its inline one); the
``mctslab`` program chooses the non-interactive one."""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.colors import to_hex, to_rgb
from statsmodels.stats.proportion import proportion_confint

from specs import NUMBER

RC = {"figure.dpi": 120, "savefig.dpi": 200, "axes.grid": True, "grid.alpha": 0.3, "font.size": 9}
FORMATS = ("png", "pdf", "svg")
BAND = "bands: Wilson 95% intervals"

# tab10's first nine (the registered policies), then hues away from theirs, the first ones
# (teal, ochre, magenta) furthest, for the policies past them; tab10's cyan is close to blue
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#1b9e77", "#a6761d", "#e7298a", "#17becf", "#393b79",
           "#637939", "#7b4173")
# a policy's variants, in order: its colour mixed with black (> 0) or white (< 0) by so much,
# and their markers (no triangles: they mark what is not reached)
VARIANT_TONES = (0.5, -0.5, 0.75, -0.7, 0.3, -0.3, 0.62, -0.6)
VARIANT_MARKERS = ("s", "D", "P", "X", "*", "h", "p", "8")
_VARIANT = re.compile(r"^(?P<policy>[^()]+)\(.*\)$")
# (line style, marker): plain and maxfreq, the paper's pair, first
# (triangles are left for what a figure marks as not reached)
LINES = {"plain": ("-", "o"), "maxfreq": ("--", "s"), "static": (":", "D"),
         "score": ("-.", "P"), "value": ((0, (5, 1, 1, 1, 1, 1)), "X")}
MORE_LINES = (((0, (8, 2)), "h"), ((0, (2, 2, 8, 2)), "*"), ((0, (4, 1, 1, 1, 1, 1, 1, 1)), "p"),
              ((0, (1, 2, 1, 2, 6, 2)), "8"), ((0, (12, 2, 2, 2)), "d"))


def _registered() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from bandits import POLICIES
    from enhancements import ADJUSTERS

    return tuple(POLICIES), tuple(ADJUSTERS)


@dataclass(frozen=True)
class Look:
    """Colours by policy and line styles by adjuster, in the order of ``policies`` and
    ``adjusters`` (registered names first). Build it with :func:`look`."""

    policies: tuple[str, ...]
    adjusters: tuple[str, ...]

    def variant_of(self, policy: str) -> str | None:
        """The policy ``policy`` is a variant of (``ucb1`` for ``ucb1(c=0.5)``) when that one
        is listed, else None."""
        match = _VARIANT.match(policy)
        return match["policy"] if match and match["policy"] in self.policies else None

    def _variant_index(self, policy: str) -> int | None:
        """k for the k-th variant of a policy (in the order listed), None for no variant."""
        base = self.variant_of(policy)
        if base is None:
            return None
        variants = [name for name in self.policies if self.variant_of(name) == base]
        return variants.index(policy) if policy in variants else len(variants)

    def colour(self, policy: str) -> str:
        """COLOURS in the order of the policies that are no variant; the k-th variant of a
        policy (in the order listed) its policy's colour at VARIANT_TONES[k]."""
        index = self._variant_index(policy)
        if index is not None:
            return to_hex(_toward(self.colour(self.variant_of(policy)),
                                  VARIANT_TONES[index % len(VARIANT_TONES)]))
        own = [name for name in self.policies if self.variant_of(name) is None]
        index = own.index(policy) if policy in own else len(own)
        return COLOURS[index % len(COLOURS)]

    def line(self, adjuster: str) -> tuple:
        """(line style, marker) of ``adjuster``: its own for plain, maxfreq, static, score and
        value, the next of MORE_LINES for the others, in order."""
        if adjuster in LINES:
            return LINES[adjuster]
        others = [name for name in self.adjusters if name not in LINES]
        index = others.index(adjuster) if adjuster in others else len(others)
        return MORE_LINES[index % len(MORE_LINES)]

    def rank(self, policy: str, adjuster: str) -> tuple[int, int]:
        """Where the method policy+adjuster comes in a legend: by policy, then adjuster."""
        def place(names, name):
            return names.index(name) if name in names else len(names)

        return place(self.policies, policy), place(self.adjusters, adjuster)

    def method(self, policy: str, adjuster: str) -> dict:
        """Keyword arguments of ``Axes.plot`` for the method policy+adjuster: the policy's
        colour, the adjuster's line style and marker, a variant's own marker
        (VARIANT_MARKERS[k] for the k-th)."""
        ls, marker = self.line(adjuster)
        index = self._variant_index(policy)
        if index is not None:
            marker = VARIANT_MARKERS[index % len(VARIANT_MARKERS)]
        return {"color": self.colour(policy), "ls": ls, "marker": marker}


def look(policies=(), adjusters=()) -> Look:
    """The look of the registered policies and adjusters followed by the other entries of
    ``policies`` and ``adjusters``, in their order (duplicates dropped)."""
    known_policies, known_adjusters = _registered()
    return Look(tuple(dict.fromkeys([*known_policies, *policies])),
                tuple(dict.fromkeys([*known_adjusters, *adjusters])))


def look_of(frame) -> Look:
    """The look of the methods of a table (columns policy and adjuster, or method as
    ``policy+adjuster``), its unregistered entries sorted by name: the same whatever the
    order of its rows."""
    policies, adjusters = zip(*methods(frame)) if len(frame) else ((), ())
    return look(sorted(set(policies)), sorted(set(adjusters)))


def _registered_info(name: str, kind: str):
    """The registry's (or a plug-in's) record of policy or adjuster ``name``, or None when it
    cannot be found here. A figure imports no code: a plug-in's record is the one of its module
    already loaded, or the one the results being read record
    (``bandits.plugins.reading_stored_results``)."""
    from bandits.plugins import reading
    from enhancements import get_adjuster
    from mcts.baselines import player_info

    if ":" in name and not reading() and name.partition(":")[0] not in sys.modules:
        return None
    try:
        return (player_info if kind == "policy" else get_adjuster)(name)
    except (ValueError, ImportError, AttributeError):
        return None


def entry(name: str, params: str | dict | None = None, kind: str = "policy") -> str:
    """``name`` with the parameters that differ from its defaults (those of the ``kind``'s
    registry, "policy" or "adjuster"): ``ucb1(c=0.5)``; ``params`` may be JSON text, as
    stored tables hold it."""
    if isinstance(params, str):
        params = json.loads(params) if params else {}
    info = _registered_info(name, kind)
    defaults = info.defaults if info is not None else {}
    domains = getattr(info, "domains", None) or {}
    changed = [f"{key}={domains.get(key, NUMBER).spell(value)}"
               for key, value in (params or {}).items() if defaults.get(key) != value]
    return f"{name}({','.join(changed)})" if changed else name


def methods(frame) -> list[tuple[str, str]]:
    """(policy entry, adjuster entry) of every row: from a ``method`` column
    (``policy+adjuster``), else from policy and adjuster with the parameters, the re-scoring
    and the restart that differ from the registry's defaults when the table stores them (a
    study's results): ``maxfreq(offset=-0.5)``, ``maxfreq(rescore=1)``, ``maxfreq(restart=0)``,
    ``maxfreq(terminals_at_threshold=1)``."""
    if "method" in frame and "policy" not in frame:
        return [tuple(text.split("+", 1)) for text in frame["method"]]
    policies, adjusters = list(frame["policy"]), list(frame["adjuster"])
    if "policy_params" in frame:
        policies = [entry(name, params) for name, params in zip(policies, frame["policy_params"])]
    if "adjuster_params" not in frame:
        return list(zip(policies, adjusters))
    from mcts.core.options import ADJUSTER_FLAGS

    rows = zip(adjusters, frame["adjuster_params"],
               zip(*(frame[flag] if flag in frame else [False] * len(frame)
                     for flag in ADJUSTER_FLAGS)),
               frame["restart"] if "restart" in frame else [None] * len(frame))
    named = []
    for name, params, chosen, restart in rows:
        params = json.loads(params) if isinstance(params, str) else dict(params or {})
        params.update({flag: 1 for flag, on in zip(ADJUSTER_FLAGS, chosen) if on})
        info = _registered_info(name, "adjuster")
        if restart is not None and info is not None and bool(restart) != bool(info.restart):
            params["restart"] = int(bool(restart))
        named.append(entry(name, params, "adjuster"))
    return list(zip(policies, named))


def _toward(colour: str, weight: float) -> tuple:
    """``colour`` mixed with black by ``weight`` > 0, with white by -``weight`` when < 0."""
    target = 1.0 if weight < 0 else 0.0
    return tuple(c + abs(weight) * (target - c) for c in to_rgb(colour))


def shade(colour: str, step: int, steps: int) -> tuple:
    """``colour`` from light (step 0) to dark (step steps - 1): lines of one method that
    differ in something else (the tree), the darkest the last."""
    if steps < 2:
        return to_rgb(colour)
    return _toward(colour, -0.55 + 1.0 * step / (steps - 1))  # -0.55 white .. 0.45 black


def band(ax, rows, **kwargs):
    """The Wilson 95% band of a failure curve (columns budget, failures, runs, sorted by
    budget; statsmodels' ``proportion_confint``), filled in ``kwargs``' colour."""
    low, high = proportion_confint(rows["failures"], rows["runs"], alpha=0.05, method="wilson")
    return ax.fill_between(rows["budget"], low, high, alpha=0.15, lw=0, **kwargs)


def power_of_two(value: float) -> str:
    """2^k written short: 1, 2, ..., 512, 1k, 2k, ..., 16k, 1M."""
    value = float(value)
    for scale, suffix in ((2**20, "M"), (2**10, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def new_figure(rows: int = 1, cols: int = 1, **kwargs):
    with plt.rc_context(RC):
        return plt.subplots(rows, cols, **kwargs)


def render(fig, fmt: str) -> bytes:
    """``fig`` as the bytes of a ``fmt`` file (png, pdf, svg), in the lab's look. Rendered in
    memory: the caller writes the file (``experiments.runtime.store.write_figures``), so a
    full disk is an error of that one write, never of matplotlib's half-written file."""
    buffer = io.BytesIO()
    with plt.rc_context(RC):
        fig.savefig(buffer, format=fmt, bbox_inches="tight")
    return buffer.getvalue()


def formats_option(text: str) -> tuple[str, ...]:
    """The formats of a ``--format`` option: ``png``, ``pdf``, ``svg`` or several joined by
    commas (``png,pdf``)."""
    formats = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",")
                                  if part.strip()))
    unknown = [fmt for fmt in formats if fmt not in FORMATS]
    if unknown or not formats:
        raise ValueError(f"--format {text!r}: use png, pdf or svg, or several joined by commas "
                         "(png,pdf)")
    return formats
