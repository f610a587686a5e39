"""Bandit selection indices of seed 001 (Eqs. 1-3 and 6-8) as batched pure functions.

Every policy has one scalar core ``<policy>_value(mean, count, parent_count, c, tables, rng)``
and a batched ``<policy>_index`` looping over that core. Compiled engines take a policy as a
typed parameter tuple (``make_policy("ucb1", c=...)``) and call ``policy_value(policy, ...)``.
"""

from . import kernel_cache  # noqa: F401  (first: where the kernels below are cached)
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
    begin_selection,
    caches_index,
    draws_index,
    klucb_constant,
    make_policy,
    policy_value,
    reads_second_moment,
)
from .registry import POLICIES, PolicyInfo, get_policy
from .tables import IndexTables, index_tables
from .thompson import thompson_challenger, thompson_index, thompson_value
from .ucb1 import ucb1_index, ucb1_value

__all__ = [
    "KLUCB",
    "MOSS",
    "POLICIES",
    "PUCT",
    "UCB1",
    "UCBV",
    "Arm",
    "BayesUCB",
    "EpsilonGreedy",
    "IndexTables",
    "Policy",
    "PolicyInfo",
    "Thompson",
    "UCB1Tuned",
    "begin_selection",
    "bernoulli_kl",
    "caches_index",
    "draws_index",
    "get_policy",
    "index_tables",
    "klucb_arm_value",
    "klucb_bound",
    "klucb_constant",
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
]
