"""What every compiled engine shares (DESIGN.md §3-4): the one search loop (``search_loop``),
selection (``child_indices`` over the ``children`` views, the ``reward_scale`` a policy reads;
PUCT's Q range and the tie rule are ``bandits.q_range`` and ``bandits.ties``, shared with the
plain bandits), solver (``solver``), backup (``backup``), the trees' layout (``search_tree``)
and final move (``final_move``), the root policies (``root_policies``; ``root_specs``, their
registry; ``halving_root``, ``gumbel_root``), seed 000's quality-based ``rewards``, the arrays
that grow (``growth``) and the options that exclude each other (``options``). It imports no
engine.
"""
