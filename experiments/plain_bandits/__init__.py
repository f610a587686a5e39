"""The policies on plain bandits, without a tree: regret and best-arm identification
(``study``) and their tables and figures (``report``). On ``comparisons`` (a policy's entry)
and ``curves``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".study": ("DEFAULT_POLICIES", "PRESETS", "BanditStudy", "bandit", "run_study",
               "study_dict"),
    ".report": ("TABLE_FILE", "write_report"),
})
