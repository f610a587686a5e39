"""Bandit selection indices of seed 001 (Eqs. 1-3 and 6-8) as batched pure functions.

Every policy has one scalar core ``<policy>_value(mean, count, parent_count, c, tables, rng)``
that the compiled engines call per arm, and a batched ``<policy>_index`` looping over that core.
``POLICY_VALUES`` maps policy names to the cores.
"""

from .klucb import bernoulli_kl, klucb_arm_value, klucb_bound, klucb_index, klucb_value
from .tables import IndexTables, index_tables
from .thompson import thompson_index, thompson_value
from .ucb1 import ucb1_index, ucb1_value

POLICY_VALUES = {"ucb1": ucb1_value, "klucb": klucb_arm_value, "thompson": thompson_value}
POLICY_INDICES = {"ucb1": ucb1_index, "klucb": klucb_index, "thompson": thompson_index}

__all__ = [
    "IndexTables",
    "POLICY_INDICES",
    "POLICY_VALUES",
    "bernoulli_kl",
    "index_tables",
    "klucb_arm_value",
    "klucb_bound",
    "klucb_index",
    "klucb_value",
    "thompson_index",
    "thompson_value",
    "ucb1_index",
    "ucb1_value",
]
