"""Many curves run into a folder: the study file and its tables (``study``, ``tables``), its
shards of runs and their files (``shards``, ``store``), its execution, resumable
(``execution``), and its repair from the shards (``repair``). On ``curves`` and ``runtime``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".study": ("Study", "load_results", "open_study", "read_curves", "study_kind",
               "study_status"),
    ".shards": ("Shard", "plan_shards"),
    ".store": ("read_shard",),
    ".execution": ("RunSummary", "run_study"),
    ".repair": ("repair_study",),
})
