"""One grammar for every ``name(key=value, ...)`` spec of the lab: tree specs
(``random(4,3)+trap(3,0.2)``), shaping (``rb(k=8)+qb(k=2,a=online)``), player specs
(``uct(c=0.8)+qb``), compare's entries (``maxfreq(offset=-0.5)``) and ``--policy-param c=1``.

    spec  = part ("+" part)*
    part  = name ["(" [arg ("," arg)*] ")"]
    arg   = [key "="] value
    value = word | part        (a part as a value: ``root=gumbel(m=4)``)
    name  = identifier ("." identifier)* [":" identifier] ["'"]

Blanks are ignored. A value is kept as text here; :func:`parse_value` reads it as a number
(an int when it is written as one) or leaves a word (``online``). Every error is one
``ValueError`` line saying what is wrong and where (an unclosed parenthesis, an empty
argument, a key given twice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    (``root=gumbel(m=4)``): commas inside it do not separate."""
    items, depth, begin = [], 0, start + 1
    for position in range(start + 1, len(compact)):
        char = compact[position]
        if char == "(":
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
        elif char == ")" or (char == "," and depth == 0):
            items.append(compact[begin:position])
            begin = position + 1
            if char == ")":
                return ([] if items == [""] else items), position
    return [], -1


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
