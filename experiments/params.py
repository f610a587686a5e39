"""``NAME=VALUE`` parameters from the command line, as numbers where they read as numbers."""

from __future__ import annotations


def parse_params(items: list[str], option: str) -> dict:
    """{'c': 0.5} from ['c=0.5']; a malformed item is a one-line ValueError naming it."""
    params = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"{option} {item!r} is not NAME=VALUE: write e.g. {option} c=0.5")
        try:
            whole = value.strip().lstrip("-").isdigit()
            params[name.strip()] = int(value) if whole else float(value)
        except ValueError:
            raise ValueError(f"{option} {item!r}: {value!r} is not a number") from None
    return params
