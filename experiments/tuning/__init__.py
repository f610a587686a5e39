"""Parameters tuned for the least failure or the most wins: the parameter space a user writes
(``space``), racing on shared instances and runs (``race``, ``synthetic`` and its
``synthetic_store``, ``report``), the tuned cells of a comparison (``compared``) and the matches
of a real game (``games``, with the parameter it tunes, its storage and its report:
``game_parameter``, ``game_store``, ``game_report``). On ``curves``, ``comparisons`` and
``tournaments``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".space": ("ParamRange", "parse_range"),
    ".synthetic": ("Tuning", "run_tuning", "tune"),
    ".compared": ("TUNED", "tune_grid", "tuning_seed"),
    ".games": ("GameTuning", "projected_seconds", "tune_game"),
})
