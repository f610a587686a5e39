"""Bad input to the ``mctslab`` command: each row is one case (the arguments, a fragment of the
one line on stderr); every case exits with code 2, prints exactly one line, and leaves the
folder it names as it was. The CLI runs in this process
through ``experiments.cli.main``; sizes are checked against a small injected memory limit."""

from __future__ import annotations

import json
import textwrap
from typing import ClassVar

import pytest

from experiments.cli import main
from experiments.runtime.lock import LOCK_FILE

FR = ["failure-rate", "--tree", "constant(1,1)", "--depth", "2", "--max-budget", "8",
      "--runs", "2", "--out", "{tmp}/curve.csv"]
CMP = ["compare", "--trees", "constant(1,1)", "--depth", "2", "--out", "{tmp}/grid"]
TOUR = ["tournament", "breakthrough", "--b", "uct", "--games", "2", "--playouts", "8",
        "--out", "{tmp}/tour"]
STUDY = ["study", "run", "{tmp}/study.toml", "--out", "{tmp}/results"]
TUNE = ["tune", "--tree", "constant(1,1)", "--depth", "2", "--budget", "8", "--runs", "2",
        "--trees", "1", "--out", "{tmp}/tune"]
BANDIT = ["bandit", "--arms", "bernoulli(0.9,0.8)", "--horizon", "10", "--runs", "2", "--out",
          "{tmp}/bandit"]

CURVES = """
[study]
seed = 1
[[curves]]
tree = "constant(1,1)"
depth = 2
max_budget = 8
runs = 2
"""
GRID = """
[study]
kind = "compare"
[compare]
trees = ["constant(1,1)"]
policies = ["ucb1"]
adjusters = ["plain"]
depth = 2
runs = 2
trees_per_model = 1
max_budget = 8
"""

NOJIT_POLICY = '''
from typing import NamedTuple
from bandits import Policy

class NoJit(NamedTuple):
    c: float = 1.0

def index(policy, arm, tables, rng):
    return arm.mean

policy = Policy("nojit", NoJit, index)
'''
# examples/my_ucb1.py and my_backup.py, each with one attribute misspelt
TYPO_POLICY = '''
from typing import NamedTuple
import numpy as np
from numba import njit
from bandits import Policy

class TypoUCB1(NamedTuple):
    c: float = 1.4

@njit(inline="always")  # per child of every selection, as in examples/my_ucb1.py
def index(policy, arm, tables, rng):
    if arm.visits == 0:
        return np.inf
    return arm.mean + policy.c * tables.sqrt_lgo[arm.parent_visits] * tables.inv_sqrt[arm.visits]

policy = Policy("typo_ucb1", TypoUCB1, index)
'''
TYPO_BACKUP = '''
from typing import NamedTuple
from numba import njit
from mcts.core.backup import Backup

class ShrinkingWins(NamedTuple):
    w: float = 0.9

@njit
def reward(rule, u, ply, end):
    return u * rule.ww ** (end - ply) if u == 1.0 else u

rule = Backup("typo_backup", ShrinkingWins, reward)
'''
BAD_FILL = '''
from trees import Model

def fill(tree, rng, k=1):
    raise KeyError("boom")

model = Model(fill, {"k": 1})
'''

# (argv, fragment of the line, study file text or None)
CASES = [
    # parameters outside their domain, on the command line
    (FR + ["--policy-param", "c=nan"], "ucb1 parameter c = nan: must be a finite number >= 0",
     None),
    (FR + ["--policy-param", "c=inf"], "ucb1 parameter c = inf: must be a finite number", None),
    (FR + ["--policy-param", "c=-inf"], "ucb1 parameter c = -inf", None),
    (FR + ["--policy-param", "c=-1"], "ucb1 parameter c = -1: must be a finite number >= 0",
     None),
    (FR + ["--policy", "puct", "--policy-param", "c_init=nan"], "puct parameter c_init = nan",
     None),
    (FR + ["--policy", "puct", "--policy-param", "c_base=0"],
     "puct parameter c_base = 0: must be a finite number > 0", None),
    (FR + ["--policy", "klucb", "--policy-param", "c=nan"], "klucb parameter c = nan", None),
    (FR + ["--policy", "ucbv", "--policy-param", "zeta=-1"],
     "ucbv parameter zeta = -1: must be a finite number > 0", None),
    (FR + ["--policy", "ucbv", "--policy-param", "zeta=0"], "ucbv parameter zeta = 0", None),
    (FR + ["--policy", "egreedy", "--policy-param", "epsilon=2"],
     "egreedy parameter epsilon = 2: must be a finite number in [0, 1]", None),
    (FR + ["--policy", "egreedy", "--policy-param", "epsilon=nan"], "epsilon = nan", None),
    (FR + ["--policy", "bayesucb", "--policy-param", "c=inf"], "bayesucb parameter c = inf",
     None),
    (FR + ["--policy-param", "c=abc"], "ucb1 parameter c = 'abc'", None),
    (FR + ["--policy-param", "x=1"], "unknown policy parameter 'x' for ucb1", None),
    (FR + ["--policy", "thompson", "--policy-param", "c=1"],
     "unknown policy parameter 'c' for thompson: allowed none", None),
    (FR + ["--adjuster", "maxfreq", "--adjuster-param", "offset=nan"],
     "maxfreq parameter offset = nan", None),
    (FR + ["--adjuster", "maxfreq", "--adjuster-param", "offset=1"],
     "maxfreq parameter offset = 1: must be a finite number in [-0.5, 0.5]", None),
    (FR + ["--adjuster", "score", "--adjuster-param", "interval=0"],
     "score parameter interval = 0: must be an integer >= 1", None),
    (FR + ["--adjuster", "score", "--adjuster-param", "interval=1.5"],
     "score parameter interval = 1.5", None),
    (FR + ["--adjuster", "value", "--adjuster-param", "x_lo=nan"], "value parameter x_lo = nan",
     None),
    (FR + ["--adjuster", "value", "--adjuster-param", "x_lo=0.9", "--adjuster-param",
           "x_hi=0.1"], "x_lo < x_hi", None),
    # duplicate parameters, malformed ones
    (FR + ["--policy-param", "c=1", "--policy-param", "c=2"],
     "--policy-param c is given twice", None),
    (FR + ["--adjuster", "maxfreq", "--adjuster-param", "offset=0", "--adjuster-param",
           "offset=0.5"], "--adjuster-param offset is given twice", None),
    (FR + ["--policy-param", "c"], "--policy-param 'c' is not NAME=VALUE", None),
    # a spec's parameters are checked as the options' are
    (FR + ["--policy", "ucb1(c=0.5)", "--policy-param", "c=1"],
     "--policy-param c is given twice: also in --policy ucb1(c=0.5)", None),
    (FR + ["--policy", "ucb1(c=nan)"], "ucb1 parameter c = nan", None),
    (FR + ["--adjuster", "maxfreq(offset=2)"], "maxfreq parameter offset = 2", None),
    # shaping
    (FR + ["--shaping", "qb(k=nan)"],
     "shaping qb parameter k = nan: must be a finite number > 0", None),
    (FR + ["--shaping", "rb(k=0)"], "rb parameter k = 0", None),
    (FR + ["--shaping", "qb(a=-1)"], ("qb parameter a = -1: must be a finite number >= 0 or "
     "online"), None),
    (FR + ["--shaping", "qb(a=inf)"], "qb parameter a = inf", None),
    (FR + ["--shaping", "rb(k=1"], "the parenthesis after 'rb' is not closed", None),
    (FR + ["--shaping", "rb+rb"], "rb is given twice", None),
    (FR + ["--shaping", "rb(k=1,k=2)"], "k is given twice in rb(...)", None),
    # tree specs through the one grammar
    (["failure-rate", "--tree", "constant(1", "--out", "{tmp}/c.csv"],
     "the parenthesis after 'constant' is not closed", None),
    (FR[:2] + ["constant(1,nan)"] + FR[3:], "tree constant parameter b = nan", None),
    (FR[:2] + ["random(4,99)"] + FR[3:], ("tree random parameter q = 99: must be an integer in "
     "[0, 20]"), None),
    (FR[:2] + ["random(4,3)+trap(3,inf)"] + FR[3:], "tree trap parameter p = inf", None),
    (FR[:2] + ["constant(1,5)+end(1)"] + FR[3:], ("tree end parameter p_end = 1: must be a "
     "finite number in [0, 1)"), None),
    (FR[:2] + ["constant(1,,5)"] + FR[3:], "an empty argument in constant(1,,5)", None),
    (FR[:2] + ["constant(1,5)x"] + FR[3:], "unexpected 'x' after constant(...)", None),
    (["analyze", "constant(1"], "the parenthesis after 'constant' is not closed", None),
    # options name themselves
    (FR + ["--seed", "-1"], "argument --seed: -1 must be an integer >= 0", None),
    (FR + ["--runs", "0"], "argument --runs: 0 must be an integer >= 1", None),
    (FR + ["--max-budget", "nan"], "argument --max-budget: nan must be an integer", None),
    (FR + ["--workers", "0"], "argument --workers: 0 must be an integer >= 1", None),
    (["analyze", "constant(1,5)", "--tree-seed", "-1"], "argument --tree-seed: -1", None),
    (["games", "perft", "breakthrough", "--depth", "-1"], "argument --depth: -1", None),
    # a figure path that is a folder is refused, not reported as written
    (["analyze", "constant(1,5)", "--plot", "{tmp}"], "is a folder: give a file name", None),
    (["analyze", "constant(1,5)", "--plot", "{tmp}/figure.txt"], "use a figure file name",
     None),
    (FR + ["--plot", "{tmp}"], "a folder is in the way", None),
    # sizes, against MCTSLAB_MEMORY_LIMIT = 64M
    (["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "10000000000000",
      "--max-budget", "8", "--out", "{tmp}/c.csv"], "lower --runs, --trees or --max-budget",
     None),
    (["failure-rate", "--tree", "constant(1,3)", "--max-budget", "268435456"],
     "of MCTSLAB_MEMORY_LIMIT: lower --runs", None),
    (["games", "solve", "pig", "--turns", "300"], "solving Pig for 300 turns needs about", None),
    (["games", "perft", "breakthrough", "--depth", "99"], "perft allows: use --depth", None),
    # a tree too wide at every depth names the branching that fits
    (FR + ["--branching", "10000"], ("depth 2 with branching 10000 needs 100,010,001 nodes, "
     "more than the 33,554,432 stored trees allow: use --branching 5792 or less"), None),
    (["analyze", "constant(1,5)", "--branching", "10000", "--depth", "4"],
     "use --branching 75 or less", None),
    (["analyze", "constant(1,5)", "--branching", "3", "--depth", "18"], "use --depth 14 or less",
     None),
    (CMP + ["--policies", "ucb1", "--adjusters", "plain", "--runs", "100000000000000"],
     "shards) needs about", None),
    # a tuning's parameters and ranges
    (TUNE + ["--param", "zeta=0.1..1"], "ucb1 has no parameter 'zeta': tune one of c,", None),
    (TUNE + ["--policy", "thompson", "--param", "c=0.1..1"],
     "thompson has no parameter to tune: choose a policy with a constant", None),
    (TUNE + ["--param", "c=0.5..0.5"], "c=0.5..0.5 is an empty range: give LOW < HIGH", None),
    (TUNE + ["--param", "c=5..0.1"], "LOW 5 > HIGH 0.1; write the smaller first, c=0.1..5",
     None),
    (TUNE + ["--param", "c=0..5:log"], "c=0..5:log: a log scale needs LOW > 0", None),
    (TUNE + ["--param", "c=-1..5"], "leaves the domain of ucb1's c, a finite number >= 0",
     None),
    (TUNE + ["--param", "c=0.1-5"], "cannot read the range 'c=0.1-5': write NAME=LOW..HIGH",
     None),
    (TUNE + ["--param", "c=a..5"], "'a' is not a number", None),
    (TUNE + ["--param", "c=0.1..5:ln"], "cannot read the range 'c=0.1..5:ln'", None),
    (TUNE, "no parameter to tune: give --param NAME=LOW..HIGH, one of c, depth_exponent", None),
    (TUNE + ["--param", "depth_exponent=0..1"], "a choice rather than a constant to tune",
     None),
    (TUNE + ["--policy", "ucb1(c=1)", "--param", "c=0.1..1"],
     "c is both fixed in the policy entry and tuned", None),
    (TUNE + ["--param", "c=0.1..1", "--param", "c=0.2..2"], "--param c is given twice", None),
    (TUNE + ["--param", "c=0.1..1", "--budget", "100"], "budget 100 is not a power of two",
     None),
    (TUNE + ["--param", "c=0.1..1", "--runs", "1", "--trees", "4"],
     "--runs 1 is fewer than --trees 4", None),
    (["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct", "--param",
      "zeta=0.1..1"], "names zeta, the player's ? is c: write --param c=LOW..HIGH", None),
    (["tune", "breakthrough", "--player", "uct(c=?)"], "needs --player with a ?", None),
    (["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct", "--runs", "64"],
     "--runs applies to a tuning on a tree (--tree), not in a game: drop it", None),
    (TUNE + ["--param", "c=0.1..1", "--confirm", "100"],
     "--confirm applies to a tuning in a GAME, not on a tree: drop it", None),
    (["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct", "--param",
      "c=0..1:log"], "c=0..1:log: a log scale needs LOW > 0", None),
    # compare's grid values
    (CMP + ["--policies", "ucb1(c=nan)", "--adjusters", "plain"], "ucb1 parameter c = nan",
     None),
    (CMP + ["--policies", "klucb(c=nan)", "--adjusters", "plain"], "klucb parameter c = nan",
     None),
    (CMP + ["--policies", "puct(c_base=0)", "--adjusters", "plain"],
     "puct parameter c_base = 0", None),
    (CMP + ["--policies", "ucb1", "--adjusters", "maxfreq(rescore=2)"],
     "maxfreq parameter rescore = 2: must be true or false", None),
    (CMP + ["--policies", "ucb1", "--adjusters", "maxfreq(offset=inf)"],
     "maxfreq parameter offset = inf", None),
    (CMP + ["--policies", "ucb1(c=1", "--adjusters", "plain"],
     "the parenthesis after 'ucb1' is not closed", None),
    (CMP + ["--policies", "ucb1(c=1,c=2)", "--adjusters", "plain"], "c is given twice", None),
    (CMP + ["--policies", "ucb1", "--adjusters", "plain", "--epsilon", "2"],
     "argument --epsilon: 2 must be a finite number in (0, 1)", None),
    (CMP + ["--policies", "ucb1", "--adjusters", "plain", "--seed", "-1"],
     "argument --seed: -1", None),
    # study files: the same checks as the command line
    (STUDY, "ucb1 parameter c = nan", CURVES + "policy_params = { c = nan }\n"),
    (STUDY, "ucb1 parameter c = inf", CURVES + "policy_params = { c = inf }\n"),
    (STUDY, "maxfreq parameter offset = nan",
     CURVES + "adjuster = \"maxfreq\"\nadjuster_params = { offset = nan }\n"),
    (STUDY, "qb parameter k = nan", CURVES + "shaping = \"qb(k=nan)\"\n"),
    (STUDY, "the parenthesis after 'constant' is not closed",
     CURVES.replace("constant(1,1)", "constant(1")),
    (STUDY, "study (1,000,000,000,000 shards) needs about",
     CURVES.replace("runs = 2", "runs = 1e14")),
    (STUDY, "key 'runs' must be an integer >= 1, not 2.5",
     CURVES.replace("runs = 2", "runs = 2.5")),
    (STUDY, "shards) needs about", CURVES.replace("runs = 2", "runs = 100000000000000")),
    (STUDY, "key 'seed' must be an integer >= 0", CURVES.replace("seed = 1", "seed = -1")),
    (STUDY, "ucb1 parameter c = nan", GRID.replace('["ucb1"]', '["ucb1(c=nan)"]')),
    (STUDY, "maxfreq parameter rescore = 2", GRID.replace('["plain"]', '["maxfreq(rescore=2)"]')),
    (STUDY, "key 'runs' must be an integer >= 1", GRID.replace("runs = 2", "runs = 0")),
    (STUDY, "key 'epsilon' must be a finite number in (0, 1)", GRID + "epsilon = nan\n"),
    # player specs: the same checks again
    (TOUR + ["--a", "uct(c=nan)"], "ucb1 parameter c = nan", None),
    (TOUR + ["--a", "uct+qb(k=inf)"], "qb parameter k = inf", None),
    (TOUR + ["--a", "uct+mast(eps=2)"], "mast parameter eps = 2", None),
    (TOUR + ["--a", "puct(c_base=0)"], "puct parameter c_base = 0", None),
    (TOUR + ["--a", "uct(c=1"], "the parenthesis after 'uct' is not closed", None),
    (TOUR + ["--a", "uct(c=1,c=2)"], "c is given twice", None),
    (TOUR[:2] + ["--a", "uct", "--b", "uct", "--games", "0", "--playouts", "8"],
     "argument --games: 0", None),
    (["play", "breakthrough", "--player1", "uct(c=nan)", "--player2", "uct"],
     "ucb1 parameter c = nan", None),
    # plain bandits (mctslab bandit)
    (BANDIT[:1] + ["--arms", "bernoulli(1.2,0.5)", "--out", "{tmp}/bandit"],
     "bernoulli arm 1 parameter mean = 1.2: must be a finite number in [0, 1]", None),
    (BANDIT[:1] + ["--arms", "beta(0.5,1)", "--out", "{tmp}/bandit"],
     "beta arm 2 parameter mean = 1: must be a finite number in (0, 1)", None),
    (BANDIT[:1] + ["--arms", "bernoulli(0.5,-0.1)", "--out", "{tmp}/bandit"],
     "bernoulli arm 2 parameter mean = -0.1", None),
    (BANDIT[:1] + ["--arms", "poisson(1,2)", "--out", "{tmp}/bandit"],
     "write bernoulli(mu_1,...,mu_K)", None),
    (BANDIT[:1] + ["--arms", "bernoulli(0.5)", "--out", "{tmp}/bandit"],
     "a bandit needs at least 2 arms", None),
    (BANDIT + ["--horizon", "0"], "argument --horizon: 0 must be an integer >= 1", None),
    (BANDIT[:1] + ["--arms", "bernoulli(0.5,0.4,0.3,0.2)", "--baselines", "sequential_halving",
                   "--budgets", "7", "--out", "{tmp}/bandit"],
     "budget 7 is too small for sequential halving on 4 arms: it needs at least 8", None),
    (BANDIT + ["--policies", "nosuch"], "unknown policy 'nosuch'", None),
    (BANDIT + ["--policies", "ucb1(c=-1)"], "ucb1 parameter c = -1", None),
    (BANDIT + ["--preset", "garivier-cappe"], "give --arms or --preset, not both", None),
    (BANDIT[:1] + ["--arms", "bernoulli(0.5,0.4,0.3,0.2)", "--horizon", "5", "--out",
                   "{tmp}/bandit"], "horizon 5 is below the smallest budget", None),
    # tournaments: sizes (2^30 playouts grew to 9.2 GB before), players
    (TOUR[:5] + ["10000000000000", "--a", "uct", *TOUR[6:]],
     "1 pairing of 10,000,000,000,000 games (1,000,000,000,000 blocks) needs about", None),
    (TOUR[:7] + ["1073741824", "--a", "uct", *TOUR[8:]],
     "a search of 1,073,741,824 playouts per move", None),
    (TOUR[:7] + [str(2**40), "--a", "uct", "--workers", "1", *TOUR[8:]],
     "of MCTSLAB_MEMORY_LIMIT: lower --playouts", None),
    (["play", "breakthrough", "--player1", "uct", "--player2", "uct", "--playouts",
      "1073741824"], "a search of 1,073,741,824 playouts per move needs about", None),
    (["play", "breakthrough", "--player1", "uct", "--player2", "uct", "--playouts",
      str(2**40)], "lower --playouts", None),
    (TOUR, "a tournament needs at least 2 players", None),
    (TOUR[:2] + ["--players", "uct", *TOUR[4:]], "a tournament needs at least 2 players, got 1",
     None),
    (TOUR + ["--a", "uct", "--players", "uct", "uct+qb"], "not both", None),
    # the sequential test
    (TOUR + ["--a", "uct+qb", "--sprt", "10,0"], "argument --sprt: '10,0' must be two", None),
    (TOUR + ["--a", "uct+qb", "--sprt", "abc"], "argument --sprt: 'abc' must be two", None),
    (TOUR + ["--a", "uct+qb", "--sprt", "0,10,20"], "argument --sprt", None),
    (TOUR + ["--a", "uct+qb", "--sprt", "0,nan"], "argument --sprt", None),
    (TOUR + ["--a", "uct+qb", "--sprt", "0,10", "--alpha", "0.5"],
     "argument --alpha: 0.5 must be a finite number in (0, 0.5)", None),
    (TOUR + ["--a", "uct+qb", "--beta", "0.1"], "--alpha and --beta are the error rates", None),
    (TOUR[:2] + ["--players", "uct", "uct+qb", "uct+rb", "--sprt", "0,10", *TOUR[4:]],
     "--sprt tests two players, not 3", None),
    # plug-ins
    (FR + ["--policy", "nojit_policy:policy"], "nojit_policy.py): its index is not compiled",
     None),
    (["analyze", "bad_fill:model(2)"], "bad_fill.py): fill raised KeyError", None),
    (["analyze", "bad_fill:model(nan)"], "tree bad_fill:model parameter k = nan", None),
    # what a researcher tripped on: an option a baseline ignores, a size numba overflows, an
    # empty --out (the current folder), a policy named twice
    (FR + ["--policy", "flatmc", "--root", "sh"], "flatmc is not an MCTS search: root does not",
     None),
    (FR + ["--root", "gumbel(m=1e21)"], "gumbel parameter m = 1e+21: must be an integer in",
     None),
    (FR[:-1] + [""], "--out is empty: name a folder", None),
    (BANDIT + ["--policies", "ucb1", "ucb1"], "policy ucb1 is given twice", None),
    (BANDIT + ["--budgets", "1e11"], "budget 100,000,000,000 is beyond the horizon 10", None),
    (BANDIT + ["--runs", "1e12"], "lower --runs", None),
    (["bandit", "--arms", "beta(0.9,0.8,s=1e308)", *BANDIT[3:]],
     "beta parameter s = 1e+308: must be a finite number in (0, 1000000]", None),
    (TOUR + ["--a", "uct", "--sprt", "0,100000"], "beyond +-1000 is out of the test's model",
     None),
    # the command that lists the built-in ones, or the built-in option
    (STUDY, "policy ':x' is neither built in (`mctslab policies list`) nor of the form",
     CURVES + 'policy = ":x"\n'),
    (STUDY, "adjuster 'x:' is neither built in (`mctslab adjusters list`) nor of the form",
     CURVES + 'adjuster = "x:"\n'),
    (FR + ["--backup", ":rule"], "backup rule ':rule' is neither built in (--discount) nor",
     None),
    # a numba typing error in a plug-in, under every command that compiles
    (FR + ["--policy", "typo_policy:policy"],
     "typo_policy.py, line 14) does not compile: Unknown attribute 'sqrt_lgo'", None),
    (FR + ["--backup", "typo_backup:rule"],
     "typo_backup.py, line 11) does not compile: Unknown attribute 'ww'", None),
    (["compile", "--policies", "typo_policy:policy", "--trees", "constant(1,1)", "--workers",
      "1"], "typo_policy.py, line 14) does not compile", None),
    (STUDY, "typo_backup.py, line 11) does not compile", CURVES + 'backup = "typo_backup:rule"\n'),
    (["inspect", "--tree", "constant(1,1)", "--depth", "2", "--max-budget", "8", "--policy",
      "typo_policy:policy", "--out", "{tmp}/page"], "typo_policy.py, line 14) does not compile",
     None),
    # every size checked before the first run, naming the command's own option
    (BANDIT + ["--horizon", "1e30"], "MiB of MCTSLAB_MEMORY_LIMIT: lower --horizon", None),
    (BANDIT + ["--horizon", "9223372036854775808"], "9,223,372,036,854,775,808 pulls needs",
     None),
    (TUNE + ["--param", "c=0.1..2", "--values", "100000000"],
     ("100,000,000 candidate values needs about 381.5 GiB of memory, more than the 64.0 MiB "
      "of MCTSLAB_MEMORY_LIMIT: lower --values"), None),
    (TUNE + ["--param", "c=0.1..2", "--runs", "1e30"], "runs needs about", None),
    (TUNE + ["--param", "c=0.1..2", "--runs", "1e9"], "lower --runs (or --values)", None),
    # a size that fits in memory but not in days of work
    (TUNE + ["--param", "c=0.1..2", "--runs", "50000", "--budget", "16777216"],
     "more than the 1e+13 that finish within days on this machine: lower --runs or --values",
     None),
    # an empty file name, and a sweep's kind spelt in the singular
    (["play", "breakthrough", "--player1", "uct", "--player2", "uct", "--playouts", "8",
      "--trace", ""],
     "--trace is empty: name a file", None),
    (["compare", "--trees", "constant(1,1)", "--policies", "ucb1(c=[])", "--adjusters", "plain",
      "--out", "{tmp}/grid"], "bad policy 'ucb1(c=[])': c=[] is not a list", None),
    (["compare", "--trees", "constant(1,1)", "--policies", "ucb1", "--adjusters",
      "maxfreq(offset=[])", "--out", "{tmp}/grid"], "bad adjuster 'maxfreq(offset=[])'", None),
    # a refusal inside a folder's lock leaves no lock file or folder behind
    (["reproduce", "imagawa", "--format", "gif", "--out", "{tmp}/repro"],
     "--format 'gif': use png, pdf or svg", None),
    (["study", "repair", "{tmp}"], "holds no readable shard file", None),
]


def _snapshot(folder) -> dict:
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
            for path in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def plugins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugins")
    (folder / "nojit_policy.py").write_text(NOJIT_POLICY)
    (folder / "bad_fill.py").write_text(BAD_FILL)
    (folder / "typo_policy.py").write_text(TYPO_POLICY)
    (folder / "typo_backup.py").write_text(TYPO_BACKUP)
    return folder


@pytest.mark.parametrize(("argv", "fragment", "study"), CASES,
                         ids=[f"{i:02d}-{case[1][:40]}" for i, case in enumerate(CASES)])
def test_bad_input_is_one_line_exit_2(argv, fragment, study, tmp_path, plugins, monkeypatch,
                                      capsys):
    monkeypatch.setenv("MCTSLAB_MEMORY_LIMIT", "64M")
    monkeypatch.syspath_prepend(str(plugins))
    if study is not None:
        (tmp_path / "study.toml").write_text(textwrap.dedent(study))
    before = _snapshot(tmp_path)
    code = main([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1, err
    assert fragment in err, err
    assert _snapshot(tmp_path) == before  # nothing written, nothing removed


GROW = [*CMP, "--policies", "ucb1", "--adjusters", "plain", "--runs", "2", "--trees-per-model",
        "1", "--max-budget", "8", "--quiet"]


def test_damaged_comparison_files_name_the_file_to_delete(tmp_path, capsys):
    """A damaged cells.json or compare.json is one line naming that file
    (not the folder, whose blocks are reused), and doing what it says works."""
    grid = [arg.replace("{tmp}", str(tmp_path)) for arg in GROW]
    assert main(grid) == 0
    for name in ("cells.json", "compare.json"):
        path = tmp_path / "grid" / name
        path.write_text(path.read_text()[:10])  # truncated
        capsys.readouterr()
        assert main(grid) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"delete {path} and run the comparison again" in err, err
        path.unlink()
        assert main(grid[:-1]) == 0  # not --quiet: the summary says what was reused
        assert "already stored" in capsys.readouterr().out


@pytest.mark.parametrize("other, folder, kind, manifest", [
    (GROW, "grid", "a comparison", "cells.json"),
    ([*BANDIT, "--policies", "ucb1", "--quiet"], "bandit", "a bandit study", "bandit.json"),
])
def test_a_study_and_another_kind_refuse_each_others_folders(tmp_path, capsys, other, folder,
                                                             kind, manifest):
    """A comparison's or a bandit study's folder is not a study's, nor the other way round:
    one line, and the folder is left as it was but for the lock file's record of its last
    writer (the last --out is the one taken)."""
    (tmp_path / "study.toml").write_text(textwrap.dedent(CURVES))
    study = [arg.replace("{tmp}", str(tmp_path)) for arg in STUDY]
    other = [arg.replace("{tmp}", str(tmp_path)) for arg in other]
    assert main(study) == 0 and main(other) == 0
    for argv, into, holds in (
            (other, "results", f"holds a study (study.json), not {kind}"),
            (study, folder, f"holds {kind} ({manifest}), not a study")):
        before = _snapshot(tmp_path / into)
        capsys.readouterr()
        assert main([*argv, "--out", str(tmp_path / into)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and holds in err, err
        after = _snapshot(tmp_path / into)
        assert {**after, LOCK_FILE: None} == {**before, LOCK_FILE: None}


def test_enough_rows():
    assert len(CASES) >= 50


def test_memory_limit_reads_the_environment(monkeypatch):
    from experiments.cli.limits import memory_limit

    monkeypatch.setenv("MCTSLAB_MEMORY_LIMIT", "2G")
    assert memory_limit() == (2 * 2**30, "MCTSLAB_MEMORY_LIMIT")
    monkeypatch.setenv("MCTSLAB_MEMORY_LIMIT", "lots")
    with pytest.raises(ValueError, match="is not a size"):
        memory_limit()
    monkeypatch.delenv("MCTSLAB_MEMORY_LIMIT")
    assert memory_limit()[0] > 0


@pytest.mark.parametrize("text", ["inf", "-4G", "nan", "0", "1e400", "B"])
def test_the_memory_limit_must_be_a_positive_size(text, monkeypatch, capsys):
    """An infinite, negative or zero limit is refused in one line."""
    monkeypatch.setenv("MCTSLAB_MEMORY_LIMIT", text)
    code = main(["failure-rate", "--tree", "constant(1,1)", "--depth", "2", "--runs", "1",
                 "--max-budget", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"MCTSLAB_MEMORY_LIMIT={text!r} is not a size" in err, err


def test_one_check_everywhere():
    """The Python API refuses what the CLI refuses, with the same line."""
    from bandits import make_policy
    from experiments import failure_rate
    from experiments.curves.curve import Curve

    line = "ucb1 parameter c = nan: must be a finite number >= 0"
    for call in (lambda: make_policy("ucb1", c=float("nan")),
                 lambda: Curve("constant(1,1)", policy_params={"c": float("nan")}),
                 lambda: failure_rate("constant(1,1)", policy_params={"c": float("nan")})):
        with pytest.raises(ValueError) as error:
            call()
        assert str(error.value) == line


def test_a_plugin_record_may_have_a_field_called_name(tmp_path, monkeypatch):
    """make_policy's own argument no longer collides with a parameter called ``name``."""
    from bandits import make_policy

    (tmp_path / "named_policy.py").write_text(textwrap.dedent('''
        from typing import NamedTuple
        from numba import njit
        from bandits import Policy
        from specs import at_least

        class Named(NamedTuple):
            name: float = 1.0

        @njit(inline="always")  # per child of every selection, as a user writes an index
        def index(policy, arm, tables, rng):
            return arm.mean + policy.name

        policy = Policy("named", Named, index, domains={"name": at_least(0)})
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert make_policy("named_policy:policy", name=2).name == 2.0
    with pytest.raises(ValueError, match="named_policy:policy parameter name = -1: must be a "
                                         "finite number >= 0"):
        make_policy("named_policy:policy", name=-1)


def test_numba_errors_become_one_line_naming_the_plugin(tmp_path, monkeypatch):
    """A typing error's nested cause and the plug-in's file and line, not numba's frames."""
    from numba.core.errors import TypingError

    from bandits.plugins import PLUGIN_FILES
    from experiments.curves.curve import Curve
    from experiments.curves.plugin_check import plugin_errors

    path = str(tmp_path / "typo.py")
    monkeypatch.setitem(PLUGIN_FILES, "typo:policy", path)
    monkeypatch.setattr("experiments.curves.curve.player_info", lambda name: _FakeInfo)
    curve = Curve("constant(1,1)", policy="typo:policy")
    message = (f"Failed in nopython mode pipeline (step: nopython frontend)\n"
               f"No implementation of function Function(<function policy_value>) found\n"
               f" >>> policy_value(Plugin_Typo(float64 x 1), Arm(float64))\n"
               f"  Rejected as the implementation raised a specific error:\n"
               f"    TypingError: Failed in nopython mode pipeline (step: nopython frontend)\n"
               f"  Unknown attribute 'no_such_table' of type IndexTables\n"
               f"  During: typing of get attribute at {path} (13)\n")
    with pytest.raises(ValueError) as error, plugin_errors(curve):
        raise TypingError(message)
    assert str(error.value) == (f"plug-in typo:policy ({path}, line 13) does not compile: "
                                "Unknown attribute 'no_such_table' of type IndexTables")


class _FakeInfo:
    """A registry record standing in for a plug-in that is never compiled."""

    defaults: ClassVar[dict] = {}

    @staticmethod
    def check(values):
        return dict(values)

    @staticmethod
    def stored(values):
        return dict(values)


def test_a_plugin_index_returning_nan_is_refused_by_the_engine(tmp_path, monkeypatch, capsys):
    """The engine refuses a NaN index at the first selection that meets one: one line, exit
    2, rather than a failure rate of 1.0 without a word."""
    (tmp_path / "nan_policy.py").write_text(textwrap.dedent('''
        from typing import NamedTuple
        import numpy as np
        from numba import njit
        from bandits import Policy

        class NaNIndex(NamedTuple):
            c: float = 1.0

        @njit(inline="always")  # per child of every selection, as a user writes an index
        def index(policy, arm, tables, rng):
            return np.nan if arm.visits > 0 else np.inf

        policy = Policy("nan_index", NaNIndex, index)
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["failure-rate", "--tree", "constant(1,3)", "--depth", "4", "--runs", "4",
                 "--max-budget", "32", "--policy", "nan_policy:policy", "--workers", "1"])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "index is NaN" in error, error


def test_a_plugins_compile_error_is_one_line_under_any_command(monkeypatch):
    """The catch-all's check (``plugin_compile_error``): numba's typing error citing a loaded
    plug-in's file is that plug-in's line; one citing no plug-in stays a bug of the lab."""
    from numba.core.errors import TypingError

    from bandits import plugins
    from experiments.curves.plugin_check import plugin_compile_error

    monkeypatch.setitem(plugins.PLUGIN_FILES, "mine:policy", "/x/mine.py")
    error = TypingError("Failed in nopython mode pipeline\nUnknown attribute 'sqrt_lgo' of "
                        "type IndexTables\nDuring: typing of get attribute at /x/mine.py (14)")
    assert plugin_compile_error(error) == ("plug-in mine:policy (/x/mine.py, line 14) does not "
                                           "compile: Unknown attribute 'sqrt_lgo' of type "
                                           "IndexTables")
    assert plugin_compile_error(TypingError("at /lab/engine.py (3)")) is None
    assert plugin_compile_error(ValueError("/x/mine.py")) is None


# A folder's manifest that is valid JSON but not what the lab wrote: not an object, {} or a key
# missing. Each is "FILE is damaged" and how to mend it, as unreadable JSON is; never read as
# another configuration ("holds cells of seed None ... use --seed None").
TUNED = [*TUNE, "--param", "c=0.1..2"]
GAME_TUNE = ["tune", "breakthrough", "--player", "uct(c=?)", "--against", "uct", "--games", "8",
             "--playouts", "8", "--workers", "1", "--out", "{tmp}/game"]
PAIRING = "pairings/uct(c=0.5)_vs_uct"
MANIFESTS = [
    (GROW, "grid/compare.json", "[]"),
    (GROW, "grid/compare.json", '"x"'),
    (GROW, "grid/compare.json", "{}"),
    (GROW, "grid/compare.json", "no seed"),
    (["study", "status", "{tmp}/grid"], "grid/compare.json", "[] after compare"),
    (GROW, "grid/cells.json", "{}"),
    (TUNED, "tune/tune.json", "{}"),
    (TUNED, "tune/tune.json", "no seed"),
    (GAME_TUNE, "game/tuning.json", "{}"),
    ([*TOUR, "--a", "uct"], "tour/round_robin.json", "{}"),
    ([*TOUR, "--a", "uct(c=0.5)", "--b", "uct"], f"tour/{PAIRING}/tournament.json",
     "{} after a run"),
    (STUDY, "results/study.json", "{}"),
    (STUDY, "results/study.json", "no seed"),
    (STUDY, "results/study.json", "a folder"),
    (BANDIT, "bandit/bandit.json", "{}"),
]


@pytest.mark.parametrize(("argv", "name", "content"), MANIFESTS,
                         ids=[f"{name}-{content}" for _, name, content in MANIFESTS])
def test_a_manifest_that_is_not_the_labs_is_damaged(argv, name, content, tmp_path, capsys):
    """The folder's other files stay as they were (a key missing: in a folder of stored
    results, which the command ran into first)."""
    path = tmp_path / name
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    (tmp_path / "study.toml").write_text(textwrap.dedent(CURVES))
    if content == "no seed":
        assert main(argv) == 0
        stored = json.loads(path.read_text())
        del stored["seed"]
        content = json.dumps(stored)
    elif " after " in content:  # a folder of stored results, then its file damaged
        first = GROW if content.endswith("compare") else argv
        assert main([arg.replace("{tmp}", str(tmp_path)) for arg in first]) == 0
        content = content.split()[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    if content == "a folder":
        path.mkdir()
    else:
        path.write_text(content)
    before = _snapshot(tmp_path)
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    if name.endswith("study.json"):  # mended from its shards, as when unreadable
        assert f"{path} is " in err and "`mctslab study repair" in err, err
    else:
        assert f"{path} is damaged" in err and "delete" in err, err
    assert "None" not in err, err
    assert _without_lock(_snapshot(tmp_path)) == _without_lock(before)


def _without_lock(snapshot: dict) -> dict:
    """A folder's files but its lock file (which records its last writer)."""
    return {name: data for name, data in snapshot.items() if not name.endswith(LOCK_FILE)}


@pytest.mark.parametrize(("argv", "engine", "options"), [
    (BANDIT, "experiments.plain_bandits.study.run_study", "(e.g. --runs, --horizon)"),
    (TUNE + ["--param", "c=0.1..2"], "experiments.tuning.synthetic.run_tuning",
     "(e.g. --runs, --budget)"),
])
def test_out_of_memory_names_the_commands_own_sizes(argv, engine, options, tmp_path,
                                                    monkeypatch, capsys):
    """Memory that runs out all the same (the estimates leave some out) is one line naming
    the sizes this command has: never --max-budget, which bandit and tune lack."""
    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(engine, out_of_memory)
    assert main([arg.replace("{tmp}", str(tmp_path)) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "out of memory: " in err and options in err, err
    assert "--max-budget" not in err


def test_a_bandit_study_beyond_days_of_work_is_refused_whatever_the_memory(monkeypatch):
    """Sizes that fit in memory are still checked against the work they make (the limits'
    MAX_WORK): 10^6 runs of 10^7 pulls of 3 policies is refused, naming the options."""
    from experiments.cli.limits import check_bandit
    from experiments.plain_bandits.study import BanditStudy

    monkeypatch.setenv("MCTSLAB_MEMORY_LIMIT", "1T")
    study = BanditStudy(("bernoulli(0.9,0.8)",), horizon=10**7, runs=10**6)
    with pytest.raises(ValueError, match="finish within days on this machine: lower --horizon "
                                         "or --runs"):
        check_bandit(study)
    check_bandit(BanditStudy(("bernoulli(0.9,0.8)",), horizon=10**5, runs=200))

