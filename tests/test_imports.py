"""Importing a package has no side effects on numba or matplotlib, and data flows one way:
``plots`` draws from what it is given and imports nothing from ``experiments`` (DESIGN.md §1)."""

import subprocess
import sys

import pytest

PACKAGES = ("specs", "bandits", "enhancements", "mcts", "games", "trees", "experiments", "plots")

CHECK = """
import sys
import matplotlib
import numba

matplotlib.use("svg")  # as a notebook would choose its own backend
before = {{k: repr(getattr(numba.config, k)) for k in dir(numba.config) if k.isupper()}}
import {package}
after = {{k: repr(getattr(numba.config, k)) for k in dir(numba.config) if k.isupper()}}
assert after == before, {{k: after[k] for k in after if after[k] != before.get(k)}}
assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
"""


def _run(code: str) -> None:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("package", PACKAGES)
def test_import_leaves_numba_config_and_backend_alone(package):
    _run(CHECK.format(package=package))


def test_plots_imports_nothing_from_experiments():
    _run("import plots, plots.aggregates, plots.bandit, plots.compare, plots.failure\n"
         "import plots.imagawa, plots.pepels\n"
         "import plots.inspect, plots.tournament, plots.veness\n"
         "import sys\n"
         "assert not [m for m in sys.modules if m.startswith('experiments')]")


def test_specs_imports_no_package_of_the_lab():
    """trees, bandits and mcts read specs and domains from ``specs``: it must import none of
    them (nor numpy or numba), so the imports stay acyclic."""
    _run("import specs\n"
         "import sys\n"
         "lab = ('bandits', 'enhancements', 'mcts', 'games', 'trees', 'experiments', 'plots',\n"
         "       'numpy', 'numba')\n"
         "assert not [m for m in sys.modules if m.split('.')[0] in lab], sorted(sys.modules)")


SUBPACKAGES = ("runtime", "curves", "studies", "comparisons", "inspect", "plain_bandits",
               "tournaments", "cli")


def test_every_package_hands_on_the_names_it_lists():
    _run("import importlib\n"
         f"for name in ('experiments', *('experiments.' + p for p in {SUBPACKAGES!r})):\n"
         "    package = importlib.import_module(name)\n"
         "    missing = [n for n in package.__all__ if not hasattr(package, n)]\n"
         "    assert not missing, (name, missing)")


def test_the_command_starts_without_the_statistics():
    """``mctslab`` imports every sub-command before it answers; a package's face imports a
    module when one of its names is first used (``experiments.exports``), so the statistics'
    modules (statsmodels: most of a second) wait for a command that needs them."""
    _run("import sys\n"
         "import experiments.cli.commands\n"
         "assert 'statsmodels' not in sys.modules")
