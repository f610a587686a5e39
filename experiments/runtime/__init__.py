"""What every run of the lab stands on, whatever it computes: the worker pool (local processes
or a Dask cluster), the writer's lock of a results folder, and the results store (keyed
Parquet files written atomically). It imports no other package of ``experiments``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".pool": ("LOCAL_CLUSTER", "Pool", "check_options", "completed", "default_workers"),
    ".lock": ("LOCK_FILE", "FolderBusy", "writing"),
    ".store": ("CELLS_FILE", "STUDY_FILE", "TOURNAMENT_FILE", "KeyedStore", "check_writable",
               "check_writable_file", "claim", "write_atomically", "write_figure",
               "write_figures", "write_table"),
})
