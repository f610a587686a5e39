"""The pinned values of the golden tests (``tests/golden/*.json``): read, or written afresh from
every case's measurement when ``MCTSLAB_UPDATE_GOLDEN`` is set (only for a change that moves
the numbers on purpose, said so in its commit)."""

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path


def golden_values(path: Path, cases: Iterable, case_id: Callable, measure: Callable) -> dict:
    """{case id: pinned value} from ``path``, first regenerated from ``measure(case)`` of every
    case when asked to."""
    if os.environ.get("MCTSLAB_UPDATE_GOLDEN"):
        lines = [f"  {json.dumps(case_id(c))}: {json.dumps(measure(c))}" for c in cases]
        path.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    return json.loads(path.read_text())
