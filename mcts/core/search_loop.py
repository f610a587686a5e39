"""The one search loop of the compiled engines (DESIGN.md §3): seed 000's Algorithm 1 and
Kocsis & Szepesvari's UCT, written once, each engine a *domain* that supplies its steps.

As mctx's ``search`` takes a ``recurrent_fn`` and OpenSpiel's ``mcts_search`` an evaluator,
the loop of :func:`make_search_loop` takes a domain record (a NamedTuple: the search's options
and its arrays, updated in place) and a walk (a NamedTuple: what the engine carries from one
playout to the next, such as its node count, its threshold or its grown arrays), and runs

    start the root policy's schedule
    while not stopped:  descend (select, the root policy at the root; expand; chance events)
                        evaluate (prove a terminal, play out, reward)
                        back up (``mcts.core.backup``); the root policy observes the root's child
                        learn (the solver's proofs, adjusters, records, MAST)
    the root policy's move, under the solver's rules

A domain has the fields ``root`` and ``roots`` (the root policy and its state,
``mcts.core.root_policies``; ``NoRoot`` for a domain with its own backup, whose path and
statistics a root policy cannot read), ``budget``, ``path`` (the nodes of the playout's path,
[0] the root), ``second_moment`` (whether the nodes keep squared rewards) and ``values``
(float64 [3, K] or more, scratch). Without a root policy, or with the root proven, the final
move is the engine's, after the loop: it reads what its domain has recorded.

Chance is a kind of node, as pgx and OpenSpiel treat it: the chance games' engine
(``mcts.stochastic``, seed 003) is a domain whose descent resolves each chance event after an
action and whose statistics are its edges' moments of (return, control variate), which it
backs up by its own step.
"""

from __future__ import annotations

from numba import njit

from bandits.hooks import INDEX

from .backup import back_up
from .root_policies import has_root, observe_root, root_choice, root_finished, start_root
from .solver import NO_CHILD


def make_search_loop(stopped, descend, evaluate, statistics, learn, back_up_step=None,
                     **jit_options):
    """The search loop of a domain whose steps are these compiled functions:

    - ``stopped(domain, walk, t)``: whether the search stops after ``t`` playouts (its budget
      spent, its root solved), before the root policy's schedule is asked;
    - ``descend(domain, walk, t, rng)``: playout ``t``'s selection from the root to a leaf of
      the search tree, the root's child by the root policy if there is one, and the leaf's
      expansion: (walk, leaf), the leaf a tuple of the domain's own;
    - ``evaluate(domain, walk, leaf, t, rng)``: the leaf's value, proven, or played out and
      rewarded: (walk, evaluation, the path's depth, the gains ``mcts.core.backup.back_up`` reads);
    - ``statistics(domain, walk)``: the tree's statistics, rewards and proofs
      (``mcts.core.search_tree``, ``mcts.core.solver``);
    - ``learn(domain, walk, evaluation, depth, gains, t, rng)``: what the search learns from
      playout ``t`` once it is backed up: the walk;
    - ``back_up_step(domain, walk, depth, gains)``, for a domain whose statistics are not the
      trees' columns: its backup (None: ``mcts.core.backup.back_up`` over ``statistics``).
    """
    if back_up_step is None:
        @njit(inline="always")  # per playout: a step of the search loop
        def back_up_step(domain, walk, depth, gains):
            stats, rewards, _ = statistics(domain, walk)
            back_up(stats, rewards, domain.path, depth, gains, domain.second_moment)

    # once per search: a call from the engine's kernel, compiled with its options (the
    # synthetic engine's counts no references); its steps are inlined into it. Inlined into
    # the kernel as well, numba lost the tree's first expansion (tests/test_golden.py).
    @njit(**jit_options)
    def search_loop(domain, walk, rng):
        """Run the playouts of one search: the walk after the last, their number and the
        root policy's move (``mcts.core.root_policies.root_choice``: NO_CHILD without one, or
        with the root proven)."""
        root, roots, path = domain.root, domain.roots, domain.path
        start_root(root, roots, domain.budget, rng)
        t = 0
        while not stopped(domain, walk, t):
            if root_finished(root, roots):  # sequential halving's rounding
                break
            t += 1
            walk, leaf = descend(domain, walk, t, rng)
            walk, evaluation, depth, gains = evaluate(domain, walk, leaf, t, rng)
            back_up_step(domain, walk, depth, gains)
            if has_root(root):
                stats, _, _ = statistics(domain, walk)
                observe_root(root, roots, path, stats, gains, rng)
            walk = learn(domain, walk, evaluation, depth, gains, t, rng)
        choice = NO_CHILD
        if has_root(root):
            stats, rewards, proven = statistics(domain, walk)
            choice = root_choice(root, roots, stats, rewards, proven, rng, domain.values[INDEX])
        return walk, t, choice

    return search_loop
