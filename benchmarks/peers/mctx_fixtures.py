"""Fixtures of deepmind/mctx's searches on the lab's guided trees, for tests/test_guidance_mctx.py.

Needs the optional ``peers`` extra (jax, mctx), kept out of the test command's dependencies:

    pip install -e ".[peers]" && python benchmarks/peers/mctx_fixtures.py

For each tree instance the lab's guided search runs on (``experiments.search_runs``: run 0 of
each instance, its network key), the very prior logits and values it reads
(``mcts.synthetic.guidance.prior_logits`` and ``values``) are handed to mctx's
``muzero_policy`` (no Dirichlet noise, ``qtransform_by_parent_and_siblings``, c_init 1.25,
c_base 19652), the trees batched, and the root's visit counts are recorded after every
simulation 1..64, and under a uniform prior and exact values (ties everywhere, its scores in
float64, where its noise breaks them uniformly, and in float32) in
2,000 searches of each of 2 trees at 2, 4, 8 and 16 simulations; and to
``gumbel_muzero_policy`` (its defaults): without Gumbel noise (``gumbel_scale`` 0, a
deterministic search) its root visits and move at budgets 1..64, and
with it the moves of 2,000 searches of one network per instance (``network="instance"``).
The game is mctx's two-player convention: values for the player to move, discount -1 between
moves; a move into a terminal rewards its mover with the true outcome and
discounts 0, so that what lies beyond a terminal counts for nothing (the lab's search stops
there and scores the terminal again). Values are centred (v - 1/2): the Q transform is
invariant to the shift. The fixtures: ``tests/data/mctx/puct.npz``, ``tied.npz`` and ``gumbel.npz``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import jax
import jax.numpy as jnp
import mctx
import numpy as np

from experiments import search_runs
from experiments.curves.failure import tree_instance
from mcts.synthetic.guidance import prior_logits, values
from trees.layout import level_start

MODELS = ("constant(1,5)", "random(4,3)")
BRANCHING, DEPTH, TREES, SIMULATIONS, SEED = 4, 4, 25, 64, 7
PRIOR, EVALUATE = "oracle(tau=1,noise=1)", "value(sigma=0.2)"
POLICY = "puct(qtransform=parent_and_siblings)"
GUMBEL = "gumbel_muzero(gumbel_scale=0)"  # the noise is mctx's own draw: none, to compare runs
GUMBEL_BUDGETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64)
DISTRIBUTION_TREES, DISTRIBUTION_BUDGETS, DISTRIBUTION_RUNS = 4, (2, 4, 8, 16), 2000
# tied priors and values: every tie broken at random, so a distribution of visit counts
TIED_PRIOR, TIED_EVALUATE, TIED_TREES = "uniform", "value", 2
OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "mctx"


def guided_inputs(model: str, policy: str, network: str = "run", trees: int = TREES,
                  prior: str = PRIOR, evaluate: str = EVALUATE):
    """Per instance: network key, logits [n_internal, b], values for the mover [n_nodes] and
    the terminal flags, as the lab's run 0 of ``policy`` reads them."""
    runs = search_runs(model, policy, budget=2, runs=1, seed=SEED, prior=prior,
                       evaluate=evaluate, network=network, trees=trees, branching=BRANCHING,
                       depth=DEPTH, solver=False)
    keys, logits, movers, terminal = [], [], [], []
    depth_of = np.repeat(np.arange(DEPTH + 1), [level_start(BRANCHING, d + 1)
                                                - level_start(BRANCHING, d)
                                                for d in range(DEPTH + 1)])
    for j, key in enumerate(runs.network):
        instance = tree_instance(model, BRANCHING, DEPTH, SEED, j)
        keys.append(key)
        logits.append(prior_logits(instance, prior, key))
        max_value = values(instance, evaluate, key)
        movers.append(np.where(depth_of % 2 == 0, max_value, 1.0 - max_value))
        terminal.append(np.asarray(instance.terminal, bool))
    return np.array(keys, np.uint64), np.stack(logits), np.stack(movers), np.stack(terminal)


def game(logits, movers, terminal, dtype=jnp.float32):
    """mctx's root and ``recurrent_fn`` of a batch of trees (the module docstring's game)."""
    n_trees, n_internal, b = logits.shape
    logits_j, movers_j = jnp.asarray(logits, dtype), jnp.asarray(movers - 0.5, dtype)
    terminal_j = jnp.asarray(terminal)
    batch = jnp.arange(n_trees)

    def recurrent_fn(params, rng_key, action, embedding):
        beyond = (embedding < 0) | terminal_j[batch, jnp.maximum(embedding, 0)]
        child = jnp.where(beyond, -1, embedding * b + 1 + action)
        safe = jnp.maximum(child, 0)
        ends = ~beyond & terminal_j[batch, safe]
        # a move into a terminal: its mover's true outcome; the terminal's own value is its
        # mover's, so the mover into it receives 1/2 - (v - 1/2)
        reward = jnp.where(ends, -movers_j[batch, safe], 0.0)
        discount = jnp.where(beyond | ends, 0.0, -1.0)
        value = jnp.where(beyond | ends, 0.0, movers_j[batch, safe])
        child_logits = jnp.where((beyond | ends | (safe >= n_internal))[:, None], 0.0,
                                 logits_j[batch, jnp.minimum(safe, n_internal - 1)])
        return mctx.RecurrentFnOutput(reward=reward, discount=discount,
                                      prior_logits=child_logits, value=value), child

    root = mctx.RootFnOutput(prior_logits=logits_j[:, 0], value=movers_j[:, 0],
                             embedding=jnp.zeros(n_trees, jnp.int32))
    return root, recurrent_fn


def muzero_visits(logits, movers, terminal) -> np.ndarray:
    """int [trees, SIMULATIONS, b]: the root's children's visits after each simulation of
    ``muzero_policy``."""
    root, recurrent_fn = game(logits, movers, terminal)
    recorded = []

    def loop_fn(lower, upper, body, state):
        for sim in range(lower, upper):
            state = body(sim, state)
            recorded.append(np.asarray(state[1].children_visits[:, 0]))
        return state

    mctx.muzero_policy(None, jax.random.PRNGKey(0), root, recurrent_fn, SIMULATIONS,
                       loop_fn=loop_fn, dirichlet_fraction=0.0, temperature=1.0)
    return np.stack(recorded, axis=1)


def tied_visits(model: str, dtype) -> np.ndarray:
    """int [trees, budgets, runs, b]: the root's children's visits of ``muzero_policy`` after
    each of DISTRIBUTION_BUDGETS simulations under a uniform prior and exact values, in
    DISTRIBUTION_RUNS searches of each tree (its ties broken by mctx's 1e-7 uniform noise,
    each search its own key), its scores of ``dtype``. (In float32 the noise lies below the
    resolution of scores near 1, one unit in the last place being 1.2e-7 there: most ties
    stay ties, and ``argmax`` gives them to the lowest index.)"""
    _, logits, movers, terminal = guided_inputs(model, POLICY, trees=TIED_TREES,
                                                prior=TIED_PRIOR, evaluate=TIED_EVALUATE)
    visits = np.zeros((TIED_TREES, len(DISTRIBUTION_BUDGETS), DISTRIBUTION_RUNS, BRANCHING),
                      np.int8)
    for j in range(TIED_TREES):
        root, recurrent_fn = game(*(np.repeat(array[j:j + 1], DISTRIBUTION_RUNS, 0)
                                    for array in (logits, movers, terminal)), dtype=dtype)
        for i, n in enumerate(DISTRIBUTION_BUDGETS):
            output = mctx.muzero_policy(None, jax.random.PRNGKey(100 * j + i), root,
                                        recurrent_fn, n, dirichlet_fraction=0.0)
            visits[j, i] = np.asarray(output.search_tree.children_visits[:, 0])
    return visits


def gumbel_search(logits, movers, terminal, simulations, gumbel_scale, key=0):
    """(the root's children's visits int [trees, b], the action played int [trees]) of
    ``gumbel_muzero_policy`` (its defaults: m = 16, c_visit 50, c_scale 0.1)."""
    root, recurrent_fn = game(logits, movers, terminal)
    output = mctx.gumbel_muzero_policy(None, jax.random.PRNGKey(key), root, recurrent_fn,
                                       simulations, gumbel_scale=gumbel_scale)
    return (np.asarray(output.search_tree.children_visits[:, 0]), np.asarray(output.action))


def puct_fixtures(out: Path) -> None:
    """``puct.npz``: muzero_policy's root visits after each simulation 1..64 on every tree."""
    puct = {}
    for name, model in zip(("constant", "random"), MODELS):
        keys, logits, movers, terminal = guided_inputs(model, POLICY)
        puct[f"{name}_keys"] = keys
        puct[f"{name}_visits"] = muzero_visits(logits, movers, terminal).astype(np.int16)
        print(f"{model}: {len(keys)} trees, muzero_policy's visits after 1..{SIMULATIONS}")
    np.savez_compressed(out / "puct.npz", **puct, **_settings(PRIOR, EVALUATE), policy=POLICY)


def tied_fixtures(out: Path) -> None:
    """``tied.npz``: muzero_policy's root visits under tied priors and values (tied_visits),
    its scores in float64 (where its noise breaks every tie uniformly) and, as mctx runs by
    default, in float32."""
    tied = {}
    for name, model in zip(("constant", "random"), MODELS):
        with jax.enable_x64(True):
            tied[f"{name}_visits"] = tied_visits(model, jnp.float64)
        tied[f"{name}_visits_float32"] = tied_visits(model, jnp.float32)
        print(f"{model}: muzero_policy's visits under tied priors, {DISTRIBUTION_RUNS} keys")
    np.savez_compressed(out / "tied.npz", **tied, **_settings(TIED_PRIOR, TIED_EVALUATE),
                        policy=POLICY, budgets=DISTRIBUTION_BUDGETS)


def gumbel_fixtures(out: Path) -> None:
    """``gumbel.npz``: gumbel_muzero_policy without Gumbel noise on every tree, and its moves
    with it over DISTRIBUTION_RUNS keys."""
    gumbel = {}
    for name, model in zip(("constant", "random"), MODELS):
        keys, logits, movers, terminal = guided_inputs(model, GUMBEL)
        gumbel[f"{name}_keys"] = keys
        searched = [gumbel_search(logits, movers, terminal, n, 0.0) for n in GUMBEL_BUDGETS]
        gumbel[f"{name}_visits"] = np.stack([v for v, _ in searched], 1).astype(np.int16)
        gumbel[f"{name}_moves"] = np.stack([a for _, a in searched], 1).astype(np.int16)
        keys, logits, movers, terminal = guided_inputs(model, GUMBEL, "instance",
                                                       DISTRIBUTION_TREES)
        gumbel[f"{name}_instance_keys"] = keys
        counts = np.zeros((DISTRIBUTION_TREES, len(DISTRIBUTION_BUDGETS), BRANCHING), np.int32)
        for j in range(DISTRIBUTION_TREES):
            copies = [np.repeat(array[j:j + 1], DISTRIBUTION_RUNS, 0)
                      for array in (logits, movers, terminal)]
            for i, n in enumerate(DISTRIBUTION_BUDGETS):
                moves = gumbel_search(*copies, n, 1.0, key=1000 * j + i)[1]
                counts[j, i] = np.bincount(moves, minlength=BRANCHING)
        gumbel[f"{name}_move_counts"] = counts
        print(f"{model}: gumbel_muzero_policy at {GUMBEL_BUDGETS} (no Gumbel noise) and its "
              f"moves over {DISTRIBUTION_RUNS} keys at {DISTRIBUTION_BUDGETS}")
    np.savez_compressed(out / "gumbel.npz", **gumbel, **_settings(PRIOR, EVALUATE),
                        policy=GUMBEL, budgets=GUMBEL_BUDGETS,
                        distribution_budgets=DISTRIBUTION_BUDGETS,
                        distribution_runs=DISTRIBUTION_RUNS)


def _settings(prior: str, evaluate: str) -> dict:
    return {"models": np.array(MODELS), "seed": SEED, "prior": prior, "evaluate": evaluate,
            "branching": BRANCHING, "depth": DEPTH}


FIXTURES = {"puct": puct_fixtures, "tied": tied_fixtures, "gumbel": gumbel_fixtures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the fixtures' folder")
    parser.add_argument("--only", nargs="+", choices=sorted(FIXTURES), default=list(FIXTURES),
                        help="the fixture files to write (default: all)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.only:
        FIXTURES[name](args.out)
        print(f"wrote {args.out / name}.npz")


if __name__ == "__main__":
    main()
