"""One grammar for every ``name(key=value, ...)`` spec of the lab: tree specs
(``random(4,3)+trap(3,0.2)``), shaping (``rb(k=8)+qb(k=2,a=online)``), player specs
(``uct(c=0.8)+qb``), compare's entries (``maxfreq(offset=-0.5)``) and ``--policy-param c=1``.

    spec  = part ("+" part)*
    part  = name ["(" [arg ("," arg)*] ")"]
    arg   = [key "="] value
    value = word | part | "[" value ("," value)* "]"
                               (a part as a value: ``root=gumbel(m=4)``; a list: a sweep)
    name  = identifier ("." identifier)* [":" identifier] ["'"]

A keyword argument's list sweeps it: :func:`sweep` turns ``ucb1(c=[0.25,0.5,1])`` into the
specs ``ucb1(c=0.25)``, ``ucb1(c=0.5)`` and ``ucb1(c=1)`` (every combination when several
arguments are lists), as ``compare``'s entries and a study file's policy and adjuster read it.

Blanks are ignored. A value is kept as text here; :func:`parse_value` reads it as a number
(an int when it is written as one) or leaves a word (``online``). Every error is one
``ValueError`` line saying what is wrong and where (an unclosed parenthesis, an empty
argument, a key given twice).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .domains import Domain, check_values

_NAME = re.compile(r"[A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?'?")
_KEY = re.compile(r"[A-Za-z_]\w*")
_INTEGER = re.compile(r"[+-]?\d+")


@dataclass(frozen=True)
class Part:
    """One ``name(args)`` of a spec: positional values and keyword values, as text."""

    name: str
    args: tuple[str, ...] = ()
    kwargs: tuple[tuple[str, str], ...] = ()
    brackets: bool = False  # written with "(...)"

    @property
    def params(self) -> dict[str, str]:
        return dict(self.kwargs)


def parse_spec(text: str, what: str) -> tuple[Part, ...]:
    """The parts of ``text``; ``what`` names the kind of spec in messages ("tree spec")."""
    if not isinstance(text, str):
        raise ValueError(f"{what} {text!r} must be a string such as name(key=value)")
    compact = "".join(text.split())
    if not compact:
        raise ValueError(f"{what} is empty: write name or name(key=value,...)")
    parts, position = [], 0
    while True:
        part, position = _part(compact, position, text, what)
        parts.append(part)
        if position == len(compact):
            return tuple(parts)
        if compact[position] != "+":
            raise ValueError(f"bad {what} {text!r}: unexpected {compact[position:]!r} after "
                             f"{part.name}{'(...)' if part.brackets else ''}; join parts with +")
        position += 1


def _part(compact: str, start: int, text: str, what: str) -> tuple[Part, int]:
    match = _NAME.match(compact, start)
    if match is None:
        rest = compact[start:] or "the end"
        raise ValueError(f"bad {what} {text!r}: expected a name at {rest!r}")
    name, position = match.group(), match.end()
    if position == len(compact) or compact[position] != "(":
        return Part(name), position
    items, close = _arguments(compact, position)
    if close < 0:
        raise ValueError(f"bad {what} {text!r}: the parenthesis after {name!r} is not closed; "
                         f"write {name}(...)")
    args, kwargs = [], {}
    inside = compact[position + 1:close]
    for item in items:
        if not item:
            raise ValueError(f"bad {what} {text!r}: an empty argument in {name}({inside})")
        key, sep, value = item.partition("=")
        if not sep:
            if kwargs:
                raise ValueError(f"bad {what} {text!r}: {item!r} follows key=value arguments "
                                 f"in {name}(...); name it as key=value")
            args.append(item)
            continue
        if not _KEY.fullmatch(key) or not value:
            raise ValueError(f"bad {what} {text!r}: {item!r} in {name}(...) is not key=value")
        if key in kwargs:
            raise ValueError(f"bad {what} {text!r}: {key} is given twice in {name}(...); "
                             "give it once")
        kwargs[key] = value
    return Part(name, tuple(args), tuple(kwargs.items()), True), close + 1


def _arguments(compact: str, start: int) -> tuple[list[str], int]:
    """The comma-separated arguments of the parenthesis opened at ``start`` and the position
    of its ``)`` (-1: not closed). A value may itself be a part with its own parenthesis
    (``root=gumbel(m=4)``) or a list (``c=[0.25,0.5]``): commas inside them do not separate."""
    items, depth, begin = [], 0, start + 1
    for position in range(start + 1, len(compact)):
        char = compact[position]
        if char in "([":
            depth += 1
        elif char in ")]" and depth > 0:
            depth -= 1
        elif char == ")" or (char == "," and depth == 0):
            items.append(compact[begin:position])
            begin = position + 1
            if char == ")":
                return ([] if items == [""] else items), position
    return [], -1


def sweep(text: str, what: str) -> list[str]:
    """The specs a sweep stands for: ``ucb1(c=[0.25,0.5])+qb`` -> ``["ucb1(c=0.25)+qb",
    "ucb1(c=0.5)+qb"]``, every combination of the lists of keyword arguments, in the order
    written (the last list innermost); a spec without a list is itself. An empty list or a
    list in a positional argument is a one-line ValueError."""
    parts = parse_spec(text, what)
    choices = []
    for part in parts:
        if any(value.startswith("[") for value in part.args):
            raise ValueError(f"bad {what} {text!r}: a list sweeps a named argument; write "
                             f"{part.name}(key=[...])")
        options = []
        for key, value in part.kwargs:
            if value.startswith("["):
                if not value.endswith("]") or not value[1:-1]:
                    raise ValueError(f"bad {what} {text!r}: {key}={value} is not a list "
                                     f"[value,...] of at least one value")
                options.append([(key, item) for item in _list_items(value[1:-1])])
            elif "[" in value:  # a part as a value, with a sweep of its own
                options.append([(key, item) for item in sweep(value, what)])
            else:
                options.append([(key, value)])
        choices.append([_text(part, dict(pairs)) for pairs in itertools.product(*options)])
    return ["+".join(combination) for combination in itertools.product(*choices)]


def _list_items(inside: str) -> list[str]:
    """The values of a list's inside, split at its top-level commas."""
    items, depth, begin = [], 0, 0
    for position, char in enumerate(inside):
        depth += (char in "([") - (char in ")]")
        if char == "," and depth == 0:
            items.append(inside[begin:position])
            begin = position + 1
    return [*items, inside[begin:]]


def _text(part: Part, kwargs: dict[str, str]) -> str:
    if not part.brackets:
        return part.name
    return f"{part.name}({','.join([*part.args, *(f'{k}={v}' for k, v in kwargs.items())])})"


def parse_value(text: str) -> int | float | str:
    """``"3"`` -> 3, ``"0.5"``/``"nan"``/``"inf"`` -> float, any other word stays text (a
    domain may accept it, e.g. ``online``)."""
    text = text.strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    try:
        return float(text)
    except ValueError:
        return text


def parse_assignments(items: list[str], option: str) -> dict[str, int | float | str]:
    """``{"c": 0.5}`` from ``["c=0.5"]`` (``--policy-param c=0.5 ...``); a malformed item or a
    name given twice is a one-line ValueError naming ``option``."""
    values: dict[str, int | float | str] = {}
    for item in items:
        key, sep, value = (s.strip() for s in item.partition("="))
        if not sep or not _KEY.fullmatch(key) or not value:
            raise ValueError(f"{option} {item!r} is not NAME=VALUE: write e.g. {option} c=0.5")
        if key in values:
            raise ValueError(f"{option} {key} is given twice ({key}={values[key]} and "
                             f"{item}); give it once")
        values[key] = parse_value(value)
    return values


def parse_kind(spec: str, what: str, defaults: Mapping[str, Mapping],
               domains: Mapping[str, Domain], usage: str) -> tuple[str, dict]:
    """(name, values) of a one-part spec ``name(key=value,...)`` whose name is a key of
    ``defaults`` (name -> {parameter: default}): the values given over the defaults, each
    checked against its ``domains`` entry. One-line ValueErrors name ``what`` it is: another
    name, positional arguments or several parts ("use ``usage``"), an unknown parameter
    (the allowed ones), a value outside its domain."""
    parts = parse_spec(spec, what)
    part = parts[0]
    if len(parts) > 1 or part.name not in defaults or part.args:
        raise ValueError(f"unknown {what} {spec!r}: use {usage} (parameters as key=value)")
    given = {key: parse_value(value) for key, value in part.kwargs}
    unknown = sorted(set(given) - set(defaults[part.name]))
    if unknown:
        allowed = ", ".join(defaults[part.name]) or "none"
        raise ValueError(f"unknown {what} parameter {unknown[0]!r} for {part.name}: "
                         f"allowed {allowed}")
    return part.name, check_values(f"{what} {part.name}", {**defaults[part.name], **given},
                                   {key: domains[key] for key in defaults[part.name]})

