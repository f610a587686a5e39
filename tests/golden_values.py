"""The pinned values of the golden tests (``tests/golden/``): read, or written afresh from every
case's measurement when ``MCTSLAB_UPDATE_GOLDEN`` is set (only for a change that moves the
numbers on purpose, said so in its commit).

A case of a built-in policy keeps its pins in that policy's own file,
``tests/golden/policies/<name>.json``, one section per golden test (``curves``, ``engines``,
``bandit``), so that a new built-in brings its pins in one new file; the other cases keep theirs
in the test's own file (``tests/golden/<test>.json``).
"""

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

POLICY_PINS = Path(__file__).parent / "golden" / "policies"


def golden_values(path: Path, cases: Iterable, case_id: Callable, measure: Callable,
                  policy_of: Callable = lambda case: None) -> dict:
    """{case id: pinned value} of ``cases``: from ``path``, or, for a case whose
    ``policy_of(case)`` names a built-in policy, from that policy's file (its section
    ``path.stem``); first regenerated from ``measure(case)`` of every case when asked to."""
    cases = list(cases)
    section = path.stem

    def file_of(case) -> Path:
        name = policy_of(case)
        return POLICY_PINS / f"{name}.json" if name else path

    if os.environ.get("MCTSLAB_UPDATE_GOLDEN"):
        measured: dict[Path, dict] = {}
        for case in cases:
            measured.setdefault(file_of(case), {})[case_id(case)] = measure(case)
        for file, pins in measured.items():
            if file == path:
                file.write_text(_lines(pins, "  ") + "\n")
            else:
                _write_section(file, section, pins)
    pins = json.loads(path.read_text()) if path.exists() else {}
    for file in {file_of(case) for case in cases} - {path}:
        if file.exists():
            pins.update(json.loads(file.read_text()).get(section, {}))
    return pins


def _lines(pins: dict, indent: str) -> str:
    """``pins`` as a JSON object of one line per case (a diff reads by case)."""
    rows = [f"{indent}{json.dumps(key)}: {json.dumps(value)}" for key, value in pins.items()]
    return "{\n" + ",\n".join(rows) + "\n" + indent[:-2] + "}"


def _write_section(file: Path, section: str, pins: dict) -> None:
    """Replace ``section`` of a policy's pin file, keeping the other tests' sections."""
    sections = json.loads(file.read_text()) if file.exists() else {}
    sections[section] = pins
    file.parent.mkdir(parents=True, exist_ok=True)
    body = ",\n".join(f"  {json.dumps(name)}: {_lines(sections[name], '    ')}"
                      for name in sorted(sections))
    file.write_text("{\n" + body + "\n}\n")


def missing_pin(case_id: str) -> str:
    """The line a golden test fails with when a case has no pin yet (a new built-in)."""
    return (f"no pin for {case_id!r}: regenerate with MCTSLAB_UPDATE_GOLDEN=1 python -m pytest "
            "-n 0 on this test file (tests/golden_values.py)")
