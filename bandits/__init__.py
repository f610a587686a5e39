"""Bandit selection policies for the compiled engines.

A policy is a typed parameter record (``make_policy("ucb1", c=...)``, names and defaults in
``POLICIES``, ``mctslab policies list``) whose index over an :class:`Arm` engines compute by
``policy_value(policy, arm, tables, rng)``, dispatched on the record's type at compile time;
a user's policy comes in as a :class:`Policy` (``bandits.plugins``, docs/extending.md). What a
policy does beyond its index (columns kept per child, its own loop over the children) are its
:class:`PolicyHooks` (``bandits.hooks``). Seed 001's three (Eqs. 1-3 and 6-8) also have
batched ``<policy>_index`` functions for plain arrays.
"""

from . import kernel_cache  # noqa: F401  (first: where the kernels below are cached)
from .hooks import PolicyHooks, cache_columns
from .klucb import (
    bernoulli_kl,
    klucb_arm_value,
    klucb_bound,
    klucb_index,
    klucb_level,
    klucb_may_reach,
    klucb_root,
    klucb_value,
)
from .plugins import Policy
from .policies import (
    KLUCB,
    MOSS,
    PUCT,
    UCB1,
    UCBV,
    Arm,
    BayesUCB,
    EpsilonGreedy,
    Thompson,
    UCB1Tuned,
    at_depth,
    begin_selection,
    has_trait,
    policy_value,
    reads_second_moment,
    wants_q_range,
    with_own_evaluation,
    with_q_range,
)
from .registry import POLICIES, SEARCH_POLICIES, PolicyInfo, get_policy, make_policy
from .tables import IndexTables, index_tables
from .thompson import thompson_challenger, thompson_index, thompson_value
from .ucb1 import ucb1_index, ucb1_value

__all__ = [
    "KLUCB",
    "MOSS",
    "POLICIES",
    "PUCT",
    "SEARCH_POLICIES",
    "UCB1",
    "UCBV",
    "Arm",
    "BayesUCB",
    "EpsilonGreedy",
    "IndexTables",
    "Policy",
    "PolicyHooks",
    "PolicyInfo",
    "Thompson",
    "UCB1Tuned",
    "at_depth",
    "begin_selection",
    "bernoulli_kl",
    "cache_columns",
    "get_policy",
    "has_trait",
    "index_tables",
    "klucb_arm_value",
    "klucb_bound",
    "klucb_index",
    "klucb_level",
    "klucb_may_reach",
    "klucb_root",
    "klucb_value",
    "make_policy",
    "policy_value",
    "reads_second_moment",
    "thompson_challenger",
    "thompson_index",
    "thompson_value",
    "ucb1_index",
    "ucb1_value",
    "wants_q_range",
    "with_own_evaluation",
    "with_q_range",
]
