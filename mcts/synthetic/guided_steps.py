"""The synthetic engine's guided steps (``mcts.synthetic.engine``): where a guided search
differs from the unguided one, each read from the search's guidance record
(``mcts.synthetic.guidance``). For ``NoGuidance`` each step is nothing (or its unguided
value), chosen by the record's type when the kernel is typed, so the unguided kernels hold no
guided code; for ``Guidance`` the kinds and parameters are values read at run time.
"""

from __future__ import annotations

from numba.extending import overload

from .guidance import MIX, PLAYOUT, VALUE, Guidance, child_priors, node_value


def is_guided(guidance) -> bool:
    """Whether the search is guided (a constant of the record's type; compiled code only)."""
    raise NotImplementedError("is_guided runs inside compiled kernels only")


# a constant of the record's type, inlined in numba's IR so the unguided search is pruned on it
@overload(is_guided, inline="always", jit_options={"cache": True})  # per selection: a constant
def _is_guided(guidance):
    guided = guidance.instance_class is Guidance
    return lambda guidance: guided


def set_priors(guidance, game, node, depth, b, key, out, at):
    """:func:`child_priors` of a guided search's expansion; nothing unguided."""
    raise NotImplementedError("set_priors runs inside compiled kernels only")


# once per expansion: a call
@overload(set_priors, jit_options={"cache": True})
def _set_priors(guidance, game, node, depth, b, key, out, at):
    if guidance.instance_class is not Guidance:
        return lambda guidance, game, node, depth, b, key, out, at: None
    return lambda guidance, game, node, depth, b, key, out, at: child_priors(
        guidance, game.minimax, game.logits, node, depth, b, key, out, at)


def plays_out(guidance, in_tree) -> bool:
    """Whether an evaluation plays a random playout: always unguided; guided, unless the value
    replaces it (``value``; a terminal in the tree is scored as ever)."""
    raise NotImplementedError("plays_out runs inside compiled kernels only")


# inlined in numba's IR: unguided, a constant True, so the playout's branch is unconditional
@overload(plays_out, inline="always", jit_options={"cache": True})  # per evaluation
def _plays_out(guidance, in_tree):
    if guidance.instance_class is not Guidance:
        return lambda guidance, in_tree: True
    return lambda guidance, in_tree: in_tree or guidance.evaluate != VALUE


def guided_reward(guidance, game, node, b, theta, key, playout, in_tree):
    """Max's reward of an evaluation: the ``playout``'s unguided or under ``playout``
    evaluation and at a terminal in the tree; else the oracle's value of ``node`` against
    ``theta`` (``value``) or its mix (1 - lam) v + lam r with the playout's (``mix``)."""
    raise NotImplementedError("guided_reward runs inside compiled kernels only")


# once per evaluation: a call (the identity unguided)
@overload(guided_reward, jit_options={"cache": True})
def _guided_reward(guidance, game, node, b, theta, key, playout, in_tree):
    if guidance.instance_class is not Guidance:
        return lambda guidance, game, node, b, theta, key, playout, in_tree: playout

    def reward(guidance, game, node, b, theta, key, playout, in_tree):
        if in_tree or guidance.evaluate == PLAYOUT:
            return playout
        value = node_value(guidance, game.minimax, game.values, node, b, theta, key)
        if guidance.evaluate == MIX:
            return (1.0 - guidance.lam) * value + guidance.lam * playout
        return value

    return reward


def root_value(guidance, game, b, theta, key, middle):
    """The raw value of the root: the oracle's (the value part of ``mix`` too) when a value
    evaluates, else ``middle``, the rewards' middle (no playout is spent on the root)."""
    raise NotImplementedError("root_value runs inside compiled kernels only")


# once per search: a call
@overload(root_value, jit_options={"cache": True})
def _root_value(guidance, game, b, theta, key, middle):
    if guidance.instance_class is not Guidance:
        return lambda guidance, game, b, theta, key, middle: middle

    def value(guidance, game, b, theta, key, middle):
        if guidance.evaluate == PLAYOUT:
            return middle
        return node_value(guidance, game.minimax, game.values, 0, b, theta, key)

    return value
