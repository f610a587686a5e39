"""User plug-ins (docs/extending.md): the document's code is the examples' code, the UCB1 copy
chooses exactly as the built-in, a plug-in adjuster runs through the engine's hooks as the
built-ins do, every command takes plug-ins by name, and bad names fail in one line."""

import json
import pickle
import re
import shlex
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import pytest

import bandits.plugins
from bandits import UCB1, index_tables, make_policy
from experiments import failure_rate
from experiments.cli import main
from experiments.comparisons.study_files import read_study
from experiments.curves.curve import Curve
from experiments.curves.failure import search_config, tree_instance
from experiments.tournaments.match import play_game
from games.registry import get_game
from mcts.games import GameSearchConfig
from mcts.games import search as games_search
from mcts.players import parse_player
from mcts.synthetic import search, tree_arrays

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--runs", "20", "--max-budget", "64", "--branching", "2", "--depth", "4", "--seed", "3"]


@pytest.fixture
def examples(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples"))


def _documented_code() -> dict[str, str]:
    """The code blocks of docs/extending.md that follow a ``<!-- examples/NAME.py -->`` mark."""
    text = (ROOT / "docs" / "extending.md").read_text()
    blocks = re.findall(r"<!-- (examples/\w+\.py) -->\n```python\n(.*?)```", text, re.DOTALL)
    return dict(blocks)


def test_the_document_shows_the_example_files_as_they_are():
    documented = _documented_code()
    assert set(documented) == {"examples/my_ucb1.py", "examples/my_cached_ucb1.py",
                               "examples/my_adjuster.py", "examples/my_tree.py",
                               "examples/my_backup.py", "examples/my_reward.py",
                               "examples/my_network.py"}
    for path, code in documented.items():
        assert code == (ROOT / path).read_text()
        assert len(code.splitlines()) < 40


def test_the_ucb1_copy_gives_the_built_in_curve_bit_for_bit(examples):
    options = {"runs": 40, "budgets": 256, "seed": 5, "branching": 2, "depth": 6, "trees": 2}
    for tree in ("constant(1,3)", "random(4,2)"):
        mine = failure_rate(tree, "my_ucb1:policy", "maxfreq", **options)
        built_in = failure_rate(tree, "ucb1", "maxfreq", **options)
        assert mine.failure_rate.tolist() == built_in.failure_rate.tolist()
    with_c = failure_rate("random(4,2)", "my_ucb1:policy", policy_params={"c": 0.3}, **options)
    built_in_c = failure_rate("random(4,2)", "ucb1", policy_params={"c": 0.3}, **options)
    assert with_c.failure_rate.tolist() == built_in_c.failure_rate.tolist()
    # the entries as compare and the command line write them
    for entry, same in (("my_ucb1:policy(c=0.3)", with_c), ("ucb1(c=0.3)", built_in_c)):
        assert failure_rate("random(4,2)", entry, **options).failures.tolist() == (
            same.failures.tolist())
    with pytest.raises(ValueError, match=r"^policy parameter c is given twice: in "
                                         r"policy_params and in the policy 'ucb1\(c=0.3\)'"):
        failure_rate("random(4,2)", "ucb1(c=0.3)", policy_params={"c": 0.3}, **options)


@pytest.mark.parametrize("options", [{}, {"adjuster": "maxfreq", "restart": True},
                                     {"adjuster": "maxfreq", "rescore": True}])
def test_a_plugin_cache_chooses_as_the_index_without_it(examples, options):
    """The cached UCB1 copy (its own columns and index_children; invalidated by re-scoring)
    gives the built-in UCB1's curve bit for bit, under the restart and re-scoring too."""
    common = {"runs": 40, "budgets": 256, "seed": 5, "branching": 2, "depth": 6, "trees": 2}
    mine = failure_rate("random(4,2)", "my_cached_ucb1:policy", **common, **options)
    built_in = failure_rate("random(4,2)", "ucb1", **common, **options)
    assert mine.failure_rate.tolist() == built_in.failure_rate.tolist()


def test_a_plugin_cache_is_kept_in_the_tree(examples):
    """The engine keeps the plug-in's 4 columns per node and its hook fills them; with the
    columns off (``cache_indices=False``) the plug-in's index alone gives the same search."""
    curve = Curve("constant(1,3)", "my_cached_ucb1:policy", "maxfreq", max_budget=512,
                  branching=2, depth=6, restart=True)  # the kernel of the test above
    instance = tree_instance(curve.tree, 2, 6, 0, 0)
    config, policy = search_config(curve, instance), make_policy("my_cached_ucb1:policy")
    trees = [search(tree_arrays(instance), config._replace(cache_indices=keep), 512,
                    np.uint64(4), index_tables(512), policy, np.zeros(10, np.bool_))
             for keep in (True, False)]
    assert trees[0].index_cache.shape[1] == 4 and (trees[0].index_cache[1:, 1] > 0).any()
    assert trees[1].index_cache.shape[0] == 1
    assert np.array_equal(trees[0].stats, trees[1].stats)
    assert np.array_equal(trees[0].rewards, trees[1].rewards)


def test_a_plugin_cache_plays_as_its_index_in_the_game_engine(examples):
    """The game engine keeps no columns: the cached copy searches Breakthrough as UCB1."""
    game = get_game("breakthrough")
    state = game.new_initial_state()
    results = [games_search(game, state, 300, GameSearchConfig(policy=policy), seed=2)
               for policy in (make_policy("my_cached_ucb1:policy", c=0.8), UCB1(c=0.8))]
    assert results[0].action == results[1].action
    assert np.array_equal(results[0].visits, results[1].visits)
    assert np.array_equal(results[0].values, results[1].values)


def test_a_plugin_cache_plays_as_its_index_in_the_generic_engine(examples):
    """The generic (OpenSpiel) engine keeps no columns either: the cached copy searches
    tic-tac-toe as UCB1, move for move and visit for visit."""
    pytest.importorskip("pyspiel")
    from games.openspiel import load_openspiel
    from mcts.generic import generic_search

    game = load_openspiel("openspiel:tic_tac_toe")
    state = game.new_initial_state()
    state.apply(4)
    results = [generic_search(game, state, 400, GameSearchConfig(policy=policy),
                              np.random.default_rng(3))
               for policy in (make_policy("my_cached_ucb1:policy", c=0.8), UCB1(c=0.8))]
    assert results[0].action == results[1].action
    assert np.array_equal(results[0].visits, results[1].visits)
    assert np.array_equal(results[0].values, results[1].values)


_BAD_HOOKS = {
    "cache_columns=-1": "cache_columns = -1: declare a whole number >= 0",
    "cache_columns=2.5, index_children=scan": "cache_columns = 2.5: declare a whole number",
    "cache_columns=2": "cache_columns = 2 but no index_children reads them",
    "cache_columns=2, index_children=short": "its index_children takes 4 parameters",
    "cache_columns=2, index_children=plain": "its index_children is not compiled",
    "invalidate=forget": "its invalidate has no columns to update",
}


@pytest.mark.parametrize("declaration", _BAD_HOOKS)
def test_a_malformed_hook_declaration_fails_in_one_line(tmp_path, monkeypatch, capsys,
                                                        declaration):
    monkeypatch.syspath_prepend(str(tmp_path))
    module = f"bad_hooks_{abs(hash(declaration))}"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(f"""
        from typing import NamedTuple
        from numba import njit
        from bandits import Policy

        class Bad(NamedTuple):
            c: float = 1.0

        @njit(inline="always")  # per child of every selection, as a user writes an index
        def index(policy, arm, tables, rng):
            return arm.mean

        @njit(inline="always")  # per selection, as a user writes index_children
        def scan(policy, view, tables, rng, values):
            return 0.0

        @njit(inline="always")  # as a user would; refused for its parameters, never run
        def short(policy, view, tables, rng):
            return 0.0

        def plain(policy, view, tables, rng, values):
            return 0.0

        @njit(inline="always")  # per re-scored node, as a user writes invalidate
        def forget(policy, cache, row):
            cache[row, 0] = 0.0

        policy = Policy("bad", Bad, index, {declaration})
    """))
    assert main(["failure-rate", "--tree", "constant(1,3)", *SMALL, "--policy",
                 f"{module}:policy"]) == 2
    error = capsys.readouterr().err.strip()
    assert _BAD_HOOKS[declaration] in error and "\n" not in error


def test_a_plugin_adjuster_runs_as_its_built_in_twin(tmp_path, monkeypatch):
    """A user's copy of the static adjuster (a fixed theta) gives the built-in's numbers; the
    example adjuster runs from the command line."""
    (tmp_path / "fixed_theta.py").write_text(textwrap.dedent("""
        from typing import NamedTuple
        from numba import njit
        from enhancements import Adjuster

        class Fixed(NamedTuple):
            theta: float = 0.0

        @njit(inline="always")  # once per search, not hot: inlined only as its sibling hooks are
        def start(adjuster, low, high):
            return adjuster.theta, 0

        @njit(inline="always")  # after every playout, as a user writes the hook
        def observe(adjuster, state, score, reward, theta, since_change):
            return state

        @njit(inline="always")  # per playout once the threshold has held the freeze
        def threshold(adjuster, state, theta, since_change):
            return theta, state

        adjuster = Adjuster("fixed", Fixed, start, observe, threshold)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    curve = Curve("random(4,3)", adjuster="static", runs=30, max_budget=256, branching=2, depth=6)
    theta = search_config(curve, tree_instance(curve.tree, 2, 6, 0, 0)).adjuster.theta
    options = {"runs": 30, "budgets": 256, "seed": 0, "branching": 2, "depth": 6}
    mine = failure_rate("random(4,3)", "ucb1", "fixed_theta:adjuster",
                        adjuster_params={"theta": theta}, **options)
    built_in = failure_rate("random(4,3)", "ucb1", "static", **options)
    assert mine.failure_rate.tolist() == built_in.failure_rate.tolist()


def test_the_example_adjuster_moves_the_threshold(examples, capsys):
    args = ["failure-rate", "--tree", "random(4,3)", "--json", *SMALL]
    assert main(args + ["--adjuster", "my_adjuster:adjuster",
                        "--adjuster-param", "offset=0.5"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert mine["adjuster"] == "my_adjuster:adjuster"
    assert mine["config"]["adjuster_params"] == {"offset": 0.5}
    assert mine["failure_rate"] != plain["failure_rate"]


def test_study_files_name_plugins(examples, tmp_path):
    code = (ROOT / "docs" / "extending.md").read_text()
    toml = re.search(r"```toml\n(.*?)```", code, re.DOTALL).group(1)
    path = tmp_path / "mine.toml"
    path.write_text(toml)
    study = read_study(path)
    assert [c.policy for c in study.curves] == ["ucb1", "my_ucb1:policy"]
    assert {c.adjuster for c in study.curves} == {"my_adjuster:adjuster"}


@pytest.mark.parametrize("option, problem", [
    (["--policy", "no_such_module:policy"], "cannot import module 'no_such_module'"),
    (["--policy", "my_ucb1:nothing"], "has no object 'nothing'"),
    (["--policy", "my_adjuster:adjuster"], "not a policy: define it as bandits.Policy"),
    (["--adjuster", "my_ucb1:policy"], "not an adjuster: define it as enhancements.Adjuster"),
    (["--policy", "my_ucb1:policy", "--policy-param", "zeta=1"], "unknown policy parameter"),
    (["--policy", "my_ucb1:policy", "--policy-param", "c=x"],
     "my_ucb1:policy parameter c = 'x': must be a finite number"),
])
def test_bad_plugins_fail_in_one_line_and_store_nothing(examples, tmp_path, capsys, option,
                                                        problem):
    out = tmp_path / "curve.csv"
    assert main(["failure-rate", "--tree", "constant(1,3)", *SMALL, *option,
                 "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert problem in error and "\n" not in error
    assert not out.exists()


def test_a_cache_index_naming_an_absent_plugin_still_loads():
    """Numba's cache index pickles the record classes of every cached kernel's signature; in a
    process without the plug-in, its class unpickles as a placeholder (no error)."""
    record = bandits.plugins.compiled_record(_Probe)
    stored = pickle.dumps(numba.typeof(record(1.0)))
    del vars(bandits.plugins)[record.__name__]
    try:
        assert pickle.loads(stored).instance_class is not record
    finally:
        vars(bandits.plugins)[record.__name__] = record


def test_an_index_resaved_without_the_plugin_keeps_its_kernels():
    """A process without the plug-in that adds a kernel re-saves the whole index (numba's
    serializer, cloudpickle): the placeholder must be saved by name, so that a process with the
    plug-in unpickles its real class and finds its kernels (saved by value, the placeholder's
    empty class came back, and every later process compiled the plug-in's kernels again)."""
    from numba.core.serialize import dumps

    record = bandits.plugins.compiled_record(_Probe)
    del vars(bandits.plugins)[record.__name__]
    try:
        placeholder = getattr(bandits.plugins, record.__name__)
        assert placeholder is not record and placeholder._fields == ()
        resaved = dumps(numba.typeof(placeholder()))
    finally:
        vars(bandits.plugins)[record.__name__] = record
    assert pickle.loads(resaved).instance_class is record


def test_an_edited_plugin_is_a_new_record(tmp_path, monkeypatch):
    """Kernels are cached by the record class: a plug-in's edit must give a new one."""
    monkeypatch.syspath_prepend(str(tmp_path))
    names = []
    for version in ("1.0", "2.0"):
        module = f"probe_{version[0]}"
        (tmp_path / f"{module}.py").write_text(
            f"from typing import NamedTuple\nclass Probe(NamedTuple):\n    c: float = {version}\n")
        __import__(module)
        names.append(bandits.plugins.compiled_record(sys.modules[module].Probe).__name__)
    assert names[0] != names[1] and all(n.startswith("Plugin_Probe_") for n in names)


class _Probe(NamedTuple):
    """Stands in for a user's record class in the cache-index test."""

    c: float = 0.0


def test_player_specs_take_a_plugin_policy(examples):
    """A plug-in policy plays Breakthrough legally through a player spec (the game engine reads
    it on the unit reward scale, as it does every policy but its own UCT)."""
    game = get_game("breakthrough")
    player = parse_player("my_ucb1:policy(c=0.8)", "breakthrough")
    assert player.config.policy.c == 0.8
    state = game.new_initial_state()
    for ply in range(6):
        result = player.search(game, state, 100, ply)
        assert result.action in state.legal_actions() and result.visits.sum() > 0
        state.apply(result.action)


def test_the_documented_tournament_command_runs(examples, capsys):
    """The document's tournament of a plug-in player, as written (on one worker here)."""
    text = (ROOT / "docs" / "extending.md").read_text()
    line = re.search(r"^PYTHONPATH=examples mctslab (tournament .*)$", text, re.MULTILINE)
    assert main([*shlex.split(line[1]), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "my_ucb1:policy(c=0.8) (A) vs uct (B) in breakthrough, 10 games" in out


def test_the_ucb1_copy_gives_the_built_in_numbers_under_shaping(examples):
    """Declaring ``raw_rewards`` puts the copy on UCB1's reward scale under seed 000's
    shaping, so its curve is the built-in's bit for bit."""
    options = {"runs": 40, "budgets": 128, "seed": 3, "branching": 2, "depth": 6,
               "shaping": "rb(k=8)+qb(k=2,a=online)"}
    mine = failure_rate("random(3,2)+end(0.2)", "my_ucb1:policy", **options)
    built_in = failure_rate("random(3,2)+end(0.2)", "ucb1", **options)
    assert mine.failure_rate.tolist() == built_in.failure_rate.tolist()


def test_the_ucb1_copy_plays_the_built_in_games_in_breakthrough(examples):
    """Same seed, same Breakthrough game move for move: the copy with the qb bonus against
    UCT, and UCT with the bonus against UCT (the copy's c defaults to the game's C, as UCT's)."""
    game = get_game("breakthrough")
    records = []
    for spec in ("my_ucb1:policy+qb", "uct+qb"):
        moves = []
        players = (parse_player(spec, "breakthrough"), parse_player("uct", "breakthrough"))
        assert players[0].config.policy.c == players[1].config.policy.c
        record = play_game(game, players, 60, np.random.default_rng(7),
                           on_move=lambda state, seat, result, moves=moves:
                           moves.append(result.action))
        records.append((record, moves))
    assert records[0] == records[1] and len(records[0][1]) > 10


def test_the_commands_a_report_prints_carry_the_plugin_path(examples, monkeypatch):
    """A cell's anatomy command and the rerun command import the plug-in again: they name the
    PYTHONPATH the run found it on; without a plug-in they stay as they were."""
    from experiments.comparisons.anatomy_links import anatomy_command
    from experiments.curves.plugin_check import with_plugin_path

    monkeypatch.setenv("PYTHONPATH", "examples dir")
    mine = Curve("constant(1,3)", "my_ucb1:policy", branching=2, depth=6, max_budget=64)
    built_in = Curve("constant(1,3)", "ucb1", branching=2, depth=6, max_budget=64)
    assert anatomy_command(mine, 5, "out").startswith("PYTHONPATH='examples dir' mctslab inspect")
    assert anatomy_command(built_in, 5, "out").startswith("mctslab inspect")
    assert with_plugin_path("mctslab compare", [built_in, mine]) == (
        "PYTHONPATH='examples dir' mctslab compare")
    monkeypatch.delenv("PYTHONPATH")
    assert with_plugin_path("mctslab compare", [mine]) == "mctslab compare"


def test_a_plugins_first_compile_is_reported_where_it_is_spent(examples):
    """``check_plugins`` times the plug-in kernels it readies in this process before any worker
    starts; a run's summary says so beside the workers' seconds (the 38.7 s of a run were
    reported as 2.0 worker-s of compiling)."""
    from experiments.curves.kernels import check_plugins
    from experiments.studies.execution import RunSummary

    mine = Curve("constant(1,3)", "my_ucb1:policy", branching=2, depth=6, max_budget=64)
    assert check_plugins([mine]) > 0 and check_plugins([replace(mine, policy="ucb1")]) < 0.05
    summary = RunSummary(shards=2, reused=0, computed=2, playouts=6400, seconds=38.7,
                         search_seconds=1.0, kernel_seconds=2.0)
    assert summary.speed(36.2).endswith("worker-s, once, then cached; plug-in kernels compiled "
                                        "or loaded first, in this process, in 36.2 s)")
    assert "this process" not in summary.speed()
