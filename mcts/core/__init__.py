"""What every compiled engine shares (DESIGN.md §3-4): the one search loop (``search_loop``),
selection (``child_indices`` over the ``children`` views, PUCT's ``q_range``, the
``reward_scale`` a policy reads), solver (``solver``), backup (``backup``) and tie rule
(``ties``), the trees' layout (``search_tree``) and final move (``final_move``), the root
policies (``root_policies``; ``root_specs``, their registry; ``halving_root``, ``gumbel_root``),
seed 000's quality-based ``rewards``, the arrays that grow (``growth``) and the options that
exclude each other (``options``). It imports no engine.
"""
