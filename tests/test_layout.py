"""The docs as the code is: docs/design.md's layout table against the packages on disk (a row
for every package the distribution installs, every subpackage named in its package's row), and
one figure for a kernel's compile cost wherever the docs give it."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _table(text: str) -> dict[str, str]:
    """The rows of the "package | holds" table of ``text``: package name -> what it holds."""
    section = text.split("## 1. Layout", 1)[1].split("\n## ", 1)[0]
    return {match.group(1): match.group(2)
            for match in re.finditer(r"^\| `(\w+)` \| (.+) \|$", section, re.MULTILINE)}


def _packages(root: Path) -> dict[str, list[str]]:
    """Top-level packages the distribution installs (pyproject's ``include``) and each one's
    subpackages."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    names = sorted(pattern.rstrip("*") for pattern in include)
    return {name: sorted(path.parent.name for path in (root / name).glob("*/__init__.py"))
            for name in names}


def _mismatches(text: str, packages: dict[str, list[str]]) -> list[str]:
    rows = _table(text)
    problems = [f"no row for {name}" for name in packages if name not in rows]
    problems += [f"a row for {name}, no such package" for name in rows if name not in packages]
    problems += [f"{name}.{sub} not named in its row" for name, subs in packages.items()
                 for sub in subs if name in rows and f"`{sub}`" not in rows[name]]
    return problems


def test_the_layout_table_is_the_packages():
    packages = _packages(ROOT)
    assert "mcts" in packages and "papers" in packages["experiments"]
    assert _mismatches((ROOT / "docs" / "design.md").read_text(), packages) == []


def test_a_missing_package_or_subpackage_is_found():
    text = "## 1. Layout\n| package | holds |\n|---|---|\n| `mcts` | engines (`core`) |\n## 2."
    assert _mismatches(text, {"mcts": ["core", "games"], "trees": []}) == [
        "no row for trees", "mcts.games not named in its row"]


COMPILE_FIGURE = re.compile(r"(\d+-\d+) CPU-seconds each")


def test_the_docs_quote_one_compile_figure():
    """README, CONTRIBUTING, docs/usage.md and docs/extending.md give a kernel's compile cost
    as docs/performance.md measured it."""
    measured = COMPILE_FIGURE.findall((ROOT / "docs" / "performance.md").read_text())
    assert len(measured) == 1, measured
    for name in ("README.md", "CONTRIBUTING.md", "docs/usage.md", "docs/extending.md"):
        text = " ".join((ROOT / name).read_text().split())  # lines joined
        assert COMPILE_FIGURE.findall(text) == measured, name


def test_the_engines_face_names_entry_points_that_exist():
    """``mcts``'s docstring lists each engine's entry point; every one it names resolves."""
    import importlib

    import mcts

    named = re.findall(r"``(mcts\.[\w.]+)``", mcts.__doc__)
    assert {"mcts.games.search", "mcts.stochastic.search", "mcts.generic.generic_search",
            "mcts.baselines.run_baseline"} <= set(named)
    for dotted in named:
        module, _, name = dotted.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), dotted
    assert all(callable(getattr(mcts, name)) for name in ("run_searches", "search", "trace_runs"))
