"""Games between players: one game (``match``), a tournament of two players in stored blocks
(``tournament``, ``store``), ratings (``ratings``), a sequential test (``sprt``), a round robin
of many players (``round_robin``) and its report (``report``). On ``runtime``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".match": ("load_game", "play_game"),
    ".tournament": ("Tournament", "run_tournament", "summarize", "wilson_interval"),
    ".ratings": ("crosstable", "pairwise"),
    ".sprt": ("Sprt",),
    ".round_robin": ("RoundRobin", "run_round_robin"),
    ".report": ("report_lines", "write_report"),
})
