"""numba's IR inlining (``inline="always"``) copies a function into every call site: it costs
compile time, and inlined code tripped numba's scope check where this lab's kernels were
miscompiled twice. So each site says why it is on the hot path, in a comment on its line or
the line above (CONTRIBUTING.md)."""

from pathlib import Path

ROOT = Path(__file__).parents[1]
FOLDERS = ("specs", "trees", "bandits", "enhancements", "mcts", "games", "experiments", "plots",
           "examples", "benchmarks", "tests")


def _silent_sites() -> list[str]:
    """file:line of each decorator inlining in numba's IR without a comment saying why."""
    silent = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text().splitlines()
            for i, line in enumerate(lines):
                code = line.strip()
                if not code.startswith("@") or 'inline="always"' not in code:
                    continue
                commented = "#" in code or (i > 0 and lines[i - 1].strip().startswith("#"))
                if not commented:
                    silent.append(f"{path.relative_to(ROOT)}:{i + 1}")
    return silent


def test_every_inlined_function_says_why():
    assert _silent_sites() == []


def test_the_check_finds_a_silent_site(tmp_path, monkeypatch):
    """The scan is no constant: a site without a comment is found."""
    (tmp_path / "mcts").mkdir()
    (tmp_path / "mcts" / "hot.py").write_text(
        'from numba import njit\n\n\n@njit(inline="always")\ndef f(x):\n    return x\n')
    monkeypatch.setattr(__name__ + ".ROOT", tmp_path)
    monkeypatch.setattr(__name__ + ".FOLDERS", ("mcts",))
    assert _silent_sites() == ["mcts/hot.py:4"]
