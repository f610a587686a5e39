"""One failure-rate curve: a frozen configuration, varied with ``dataclasses.replace``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from bandits.plugins import reading
from enhancements import engine_adjuster, get_adjuster, make_adjuster
from enhancements.adjusters import reads_scores
from mcts.baselines import check_baseline, is_baseline, player_info
from mcts.core.backup import load_backup
from mcts.core.final_move import FINAL_MOVES
from mcts.core.options import check_exclusions
from mcts.core.root_specs import check_root_budget, parse_root, root_spec
from mcts.synthetic import FAILURES
from mcts.synthetic.guidance import NETWORKS, evaluate_spec, parse_evaluate, prior_spec
from mcts.synthetic.networks import is_network, load_prior_network, load_value_network
from mcts.synthetic.score_reward import load_reward
from mcts.synthetic.shaping import parse_shaping, shaping_spec
from specs import between
from trees import check_shape, parse_tree_spec


def plays_no_playouts(evaluate: str) -> bool:
    """Whether an ``--evaluate`` spec puts a value in place of every playout (``value(...)`` or
    a network; ``mcts.synthetic.guidance``)."""
    return bool(evaluate) and parse_evaluate(evaluate)[0] in ("value", "network")


def reads_playout_scores(adjuster: str, params: dict) -> bool:
    """Whether the adjuster ``adjuster`` with ``params`` observes playout scores (MaxFrequency,
    the situational thresholds: ``enhancements.adjusters``); a plug-in read from stored
    results is not imported, and counts as one that does not."""
    if reading() and ":" in adjuster:
        return False
    return reads_scores(engine_adjuster(make_adjuster(adjuster, **params)))


def _check_params(kind: str, name: str, given: dict, known: dict) -> dict:
    unknown = sorted(set(given) - set(known))
    if unknown:
        allowed = ", ".join(known) or "none"
        raise ValueError(f"unknown {kind} parameter {unknown[0]!r} for {name}: allowed {allowed}")
    return {**known, **given}


# fields added after the first stored results, and their defaults
_DISCOUNT = between(0.0, 1.0, low_open=True)  # the backup's gamma; 1: no discount
_LATER = {"shaping": "", "rescore": False, "discount": 1.0, "backup": "", "reward": "outcome",
          "final_move": "visits", "failure": "outcome", "solver": True, "root": "",
          "terminals_at_threshold": False, "store_episodes": False, "stop_episodes": False,
          "prior": "", "evaluate": "", "network": "run"}


@dataclass(frozen=True)
class Curve:
    """A tree model, a bandit policy and a threshold adjuster, with run counts and budgets.
    ``policy`` may name a baseline player instead (``mcts.baselines``: flatmc, alphabeta),
    which takes the plain adjuster and none of the search options below.

    ``trees`` tree instances x ``runs`` runs per instance; budgets 2^0 .. ``max_budget``.
    ``restart`` switches the exploration restart of seed 001, Eqs. 6-8 (None: on for maxfreq
    only); ``freeze`` is the number of playouts a threshold must stay before it may change;
    ``search_depth`` stops expansion at that depth (1: the one-ply search of Sect. IV-A).
    ``shaping`` is seed 000's reward shaping, e.g. ``rb(k=8)+qb(k=2,a=online)``
    (``mcts.synthetic.shaping``; "" none), kept in its canonical spelling.
    ``rescore`` re-scores the rewards stored in the tree exactly after a threshold change (an
    ablation, ``mcts.synthetic.rescoring``; off: the paper's method).
    ``discount`` is the backup's gamma per ply between a node and the playout's terminal
    (``mcts.core.backup``; 1: the paper's search); ``backup`` a user's backup rule
    ``package.module:object`` instead ("" the built-in).
    ``reward`` is the playout's reward of its terminal's score (``mcts.synthetic.score_reward``:
    ``outcome``, the paper's; ``linear``; or a user's rule ``package.module:object``);
    ``final_move`` the rule of the move played (``mcts.core.final_move``: ``visits``, the paper's;
    ``mean``; ``robust``); ``failure`` the set of correct root moves (``mcts.synthetic``:
    ``outcome``, the optimal outcome's, the paper's; ``score``, the best minimax score's).
    ``solver`` switches the MCTS-Solver (``mcts.core.solver``; off: no node is proven, Kocsis &
    Szepesvari's UCT, for the best-score failure the outcome solver bends).
    ``root`` is a root policy built for the simple regret (``mcts.core.root_policies``: ``sh``,
    ``gumbel(m=16,c_visit=50,c_scale=1)``; "" none, the paper's search), kept in its canonical
    spelling; it plays its own move, so it takes the default final move.
    ``terminals_at_threshold`` rewards a terminal reached inside the tree at the effective
    threshold, as a playout's (an ablation, ``mcts.synthetic``; off: at threshold 0, its true
    value, DESIGN.md §3). Under MaxFrequency it removes the root policies' failures at 8,192
    playouts on the constant trees (docs/design.md §3).
    ``store_episodes`` stores every node an episode reaches, down to a terminal (Kocsis &
    Szepesvari 2006, Sect. 2.1; off: one expansion per playout), and ``stop_episodes`` stops an
    episode at a node of n visits with probability 1/n, played out at random from there (their
    "approximate iterative deepening"; ``mcts.synthetic.SearchConfig``). ``reward="sum"``, the
    paper's rewards (the score unscaled), takes ``ucb1`` only.
    ``prior`` and ``evaluate`` guide the search with a prior and a value of known quality
    (``mcts.synthetic.guidance``: ``oracle(tau=1,noise=0.5)``, ``value(sigma=0.1)``,
    ``mix(lam=0.5,sigma=0)``; "" none: the unguided search), from a network drawn per run or,
    with ``network="instance"``, per tree instance; either makes the search mctx's (a leaf's
    child chosen by the policy, a node's own evaluation counted). A prior takes a policy that
    reads one (its record's ``reads_prior`` trait: ``puct``).
    """

    tree: str
    policy: str = "ucb1"
    adjuster: str = "plain"
    branching: int = 4
    depth: int = 8
    runs: int = 100
    trees: int = 1
    max_budget: int = 2**14
    policy_params: dict = field(default_factory=dict, compare=True)
    adjuster_params: dict = field(default_factory=dict, compare=True)
    restart: bool | None = None
    freeze: int = 10
    search_depth: int | None = None
    shaping: str = ""
    rescore: bool = False
    discount: float = 1.0
    backup: str = ""
    reward: str = "outcome"
    final_move: str = "visits"
    failure: str = "outcome"
    solver: bool = True
    root: str = ""
    terminals_at_threshold: bool = False
    store_episodes: bool = False
    stop_episodes: bool = False
    prior: str = ""
    evaluate: str = ""
    network: str = "run"

    def __post_init__(self) -> None:
        # stored results are read without their plug-ins (``bandits.plugins``): a stored
        # curve's names and values were checked when it was computed
        stored = reading()
        if not (stored and ":" in self.tree):
            object.__setattr__(self, "tree", parse_tree_spec(self.tree).text)
        check_shape(self.branching, self.depth)
        policy_info, adjuster_info = player_info(self.policy), get_adjuster(self.adjuster)
        for name, value in (("runs", self.runs), ("trees", self.trees)):
            if value < 1:
                raise ValueError(f"{name} = {value} must be at least 1")
        if self.max_budget < 1:
            raise ValueError(f"budget {self.max_budget} must be at least 1 playout")
        if self.max_budget & (self.max_budget - 1):
            raise ValueError(f"budget {self.max_budget} is not a power of two: use e.g. 16384")
        if self.search_depth is None:
            object.__setattr__(self, "search_depth", self.depth)
        if not 1 <= self.search_depth <= self.depth:
            raise ValueError(f"search_depth {self.search_depth} must lie in 1..{self.depth}")
        if self.freeze < 1:
            raise ValueError(f"freeze = {self.freeze} must be at least 1 playout")
        policy = _check_params("policy", self.policy, self.policy_params, policy_info.defaults)
        adjuster = _check_params("adjuster", self.adjuster, self.adjuster_params,
                                 adjuster_info.defaults)
        checked = policy_info.check(policy)  # the values' domains (specs.check_value)
        policy = {key: checked[key] if isinstance(value, str) else value  # words as numbers
                  for key, value in policy.items()}
        if not (stored and ":" in self.adjuster):
            make_adjuster(self.adjuster, **adjuster)  # checks the values
        object.__setattr__(self, "policy_params", policy_info.stored(policy))
        object.__setattr__(self, "adjuster_params", adjuster)
        if self.restart is None:
            object.__setattr__(self, "restart", adjuster_info.restart)
        for name in ("solver", "terminals_at_threshold", "store_episodes", "stop_episodes"):
            if getattr(self, name) not in (True, False):
                raise ValueError(f"{name} {getattr(self, name)!r} must be true or false")
            object.__setattr__(self, name, bool(getattr(self, name)))
        if not isinstance(self.shaping, str):
            raise ValueError(f"shaping {self.shaping!r} must be a spec such as rb(k=8)+qb(k=2)")
        object.__setattr__(self, "shaping", shaping_spec(parse_shaping(self.shaping)))
        discount = _DISCOUNT.convert(self.discount)
        if discount is None:
            raise ValueError(f"discount {self.discount!r} must lie in (0, 1] (1: no discount), "
                             "e.g. --discount 0.9")
        object.__setattr__(self, "discount", discount)
        if self.final_move not in FINAL_MOVES:
            raise ValueError(f"final move {self.final_move!r} is not one of "
                             f"{', '.join(FINAL_MOVES)}")
        if self.failure not in FAILURES:
            raise ValueError(f"failure {self.failure!r} is not one of {', '.join(FAILURES)}")
        self._policy_root(policy_info)
        root = parse_root(self.root)
        object.__setattr__(self, "root", root_spec(root))
        check_exclusions({option for option, chosen in (
            ("rescore", self.rescore), ("shaping", self.shaping), ("backup", self.backup),
            ("discount", self.discount != 1.0), ("reward", self.reward != "outcome"),
            ("root", self.root), ("final_move", self.final_move != "visits"))
            if chosen})
        check_root_budget(root, self.branching, self.max_budget)
        self._check_guidance(policy_info)
        if self.backup and not stored:
            load_backup(self.backup)  # checks it
        if not (stored and ":" in self.reward):
            load_reward(self.reward)  # checks it
        if self.reward == "sum" and (self.policy != "ucb1" or self.root):
            # the other policies' indices, and the root policies, read rewards in [0, 1]
            raise ValueError("reward sum (the score unscaled, outside [0, 1]) takes the policy "
                             "ucb1 without a root policy: use --reward linear for the others")
        if is_baseline(self.policy):
            self._check_baseline()

    def _check_baseline(self) -> None:
        """A baseline player (``mcts.baselines``) takes none of the MCTS options: one line
        naming the first set."""
        check_baseline(self.policy, self.policy_params, self.branching, self.max_budget,
                       {option for option, chosen in (
                           ("adjuster", self.adjuster != "plain" or self.adjuster_params),
                           ("restart", self.restart), ("shaping", self.shaping),
                           ("rescore", self.rescore), ("discount", self.discount != 1.0),
                           ("backup", self.backup),
                           ("reward", self.reward != "outcome"),
                           ("final_move", self.final_move != "visits"),
                           ("solver", not self.solver), ("root", self.root),
                           ("terminals_at_threshold", self.terminals_at_threshold),
                           ("store_episodes", self.store_episodes),
                           ("stop_episodes", self.stop_episodes),
                           ("search_depth", self.search_depth != self.depth)) if chosen})

    def _policy_root(self, policy_info) -> None:
        """A search policy's own root (its record's ``root_policy``: Gumbel MuZero's Gumbel
        root, of its m, c_visit, c_scale and gumbel_scale), and its guidance: a uniform prior
        when none is given."""
        kind = getattr(getattr(policy_info, "record", None), "root_policy", "")
        if not kind or (reading() and self.root):
            return
        params = {**policy_info.defaults, **self.policy_params}
        own = root_spec(parse_root(
            f"{kind}(m={int(params['m'])},c_visit={params['c_visit']!r},"
            f"c_scale={params['c_scale']!r},gumbel_scale={params['gumbel_scale']!r})"))
        if self.root and root_spec(parse_root(self.root)) != own:
            raise ValueError(f"policy {self.policy} has its own root ({own}): drop --root")
        object.__setattr__(self, "root", own)
        if not (self.prior or self.evaluate):
            object.__setattr__(self, "prior", "uniform")

    def _check_guidance(self, policy_info) -> None:
        """Canonical guidance specs, and one-line ValueErrors for what it cannot guide."""
        for name, canonical in (("prior", prior_spec), ("evaluate", evaluate_spec)):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} {getattr(self, name)!r} must be a spec such as "
                                 + ("oracle(tau=1,noise=0.5)" if name == "prior"
                                    else "value(sigma=0.1)"))
            object.__setattr__(self, name, canonical(getattr(self, name)))
            if is_network(getattr(self, name)) and not reading():  # its import errors now
                (load_prior_network if name == "prior" else load_value_network)(
                    getattr(self, name))
        if self.network not in NETWORKS:
            raise ValueError(f"network {self.network!r} is not one of {', '.join(NETWORKS)}")
        if not (self.prior or self.evaluate):
            return
        if is_baseline(self.policy):
            raise ValueError(f"{self.policy} is not an MCTS search: --prior and --evaluate do "
                             "not apply")
        if self.prior and not getattr(getattr(policy_info, "record", None), "reads_prior", False):
            raise ValueError(f"policy {self.policy} does not read a prior: use --policy puct, "
                             "or drop --prior (--evaluate guides any policy)")
        guided_out = [option for option, chosen in (
            ("--store-episodes", self.store_episodes),
            ("--stop-episodes", self.stop_episodes)) if chosen]
        if guided_out:
            raise ValueError(f"{guided_out[0]} does not combine with --prior or --evaluate "
                             "(a guided search is mctx's: drop one)")
        if plays_no_playouts(self.evaluate):
            reads = [option for option, chosen in (
                ("--shaping", self.shaping), ("--rescore", self.rescore),
                ("--reward", self.reward != "outcome"),
                (f"--adjuster {self.adjuster}",
                 reads_playout_scores(self.adjuster, self.adjuster_params))) if chosen]
            if reads:
                raise ValueError(f"{reads[0]} reads playout scores, which --evaluate "
                                 f"{self.evaluate} plays none of: use --evaluate mix(...)")

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def budgets(self) -> list[int]:
        """Budgets 2^0 .. max_budget at which failure is recorded."""
        return [2**k for k in range(self.max_budget.bit_length())]

    @property
    def total_runs(self) -> int:
        return self.runs * self.trees

    def to_dict(self) -> dict:
        """The fields; those added after results were first stored are left out at their
        defaults, so the configuration that older stored files carry still matches."""
        return {name: value for name, value in asdict(self).items()
                if not (name in _LATER and value == _LATER[name])}

    @property
    def key(self) -> str:
        """A stable digest of the configuration (equal curves, equal keys). Settings equal to
        their defaults are left out, so adding a setting later keeps stored keys valid. A curve
        read from stored results keeps the key it was read with (its plug-ins' defaults are
        those recorded, ``bandits.plugins.reading_stored_results``)."""
        if "_stored_key" in self.__dict__:
            return self.__dict__["_stored_key"]
        key = self._digest()
        if reading():
            object.__setattr__(self, "_stored_key", key)
        return key

    def _digest(self) -> str:
        baseline = Curve(self.tree, self.policy, self.adjuster, branching=self.branching,
                         depth=self.depth).to_dict()
        identity = ("tree", "policy", "adjuster", "branching", "depth", "runs", "trees",
                    "max_budget")
        text = json.dumps({name: value for name, value in self.to_dict().items()
                           if name in identity or value != baseline.get(name)},
                          sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        shaping = f" {self.shaping}" if self.shaping else ""
        rescore = " rescored" if self.rescore else ""
        discount = f" gamma={self.discount:g}" if self.discount != 1.0 else ""
        backup = f" {self.backup}" if self.backup else ""
        rules = "".join(f" {word}={getattr(self, name)}" for name, word in (
            ("reward", "reward"), ("final_move", "final"), ("failure", "failure"),
            ("root", "root"))
            if getattr(self, name) != _LATER[name])
        rules += "" if self.solver else " solver=off"
        rules += " terminals@threshold" if self.terminals_at_threshold else ""
        rules += " episodes-stored" if self.store_episodes else ""
        rules += " episodes-stopped" if self.stop_episodes else ""
        rules += f" prior={self.prior}" if self.prior else ""
        rules += f" evaluate={self.evaluate}" if self.evaluate else ""
        rules += " network=instance" if self.network != "run" else ""
        return (f"{self.tree} {self.policy} {self.adjuster}{shaping}{rescore}{discount}{backup}"
                f"{rules}")


def curve_columns(curve: Curve) -> dict:
    """The curve's identity as the columns every curve table carries (``failure_rate``'s,
    ``mctslab failure-rate --out``'s, a study's ``load_results``): curve_key, label, tree,
    policy, adjuster, policy_params and adjuster_params (JSON text), shaping, rescore,
    discount, backup, reward, final_move, failure, solver, root, terminals_at_threshold,
    store_episodes, stop_episodes, restart, freeze, search_depth, branching, depth, trees
    (instances), runs_per_tree, max_budget and planned_runs (runs per budget once every run is
    done)."""
    config = asdict(curve)
    config["runs_per_tree"] = config.pop("runs")
    for name in ("policy_params", "adjuster_params"):
        config[name] = json.dumps(config[name], sort_keys=True)
    return {"curve_key": curve.key, "label": curve.label, **config,
            "planned_runs": curve.total_runs}


def rate_columns(failures, runs) -> dict:
    """failure_rate = failures / runs, its standard error sqrt(r (1 - r) / (n - 1)) and its
    Wilson score 95% interval (ci_low, ci_high), per budget."""
    import numpy as np

    from ..intervals import wilson_interval

    failures, runs = np.asarray(failures, np.int64), np.asarray(runs, np.int64)
    rate = failures / runs
    low, high = wilson_interval(failures, runs)
    return {"failure_rate": rate, "stderr": standard_error(rate, runs),
            "ci_low": np.asarray(low, float), "ci_high": np.asarray(high, float)}


def standard_error(rate, runs):
    """sqrt(r (1 - r) / (n - 1)): the standard error of a failure rate r over n runs."""
    import numpy as np

    return np.sqrt(rate * (1.0 - rate) / np.maximum(np.asarray(runs) - 1, 1))


def recorded_plugins(curves) -> dict:
    """What stored results record of the plug-ins of ``curves`` so that reading them imports
    none (``bandits.plugins.reading_stored_results``): by kind and name, a policy's
    parameter defaults, an adjuster's and whether it restarts by default. Empty without
    plug-ins."""
    plugins: dict = {}
    for curve in curves:
        if ":" in curve.policy:
            plugins.setdefault("policy", {})[curve.policy] = {
                "defaults": player_info(curve.policy).defaults}
        if ":" in curve.adjuster:
            info = get_adjuster(curve.adjuster)
            plugins.setdefault("adjuster", {})[curve.adjuster] = {
                "defaults": info.defaults, "restart": bool(info.restart)}
    return plugins
