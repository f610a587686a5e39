"""One failure-rate curve: its configuration (``Curve``; a policy or adjuster entry as the
commands spell it, ``entries``), its blocks of runs on synthetic trees
(``failure``), its compiled kernels, readied and checked (``kernels``, ``plugin_check``), and
the rates with their standard errors (``rates``). On ``runtime``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".curve": ("Curve", "curve_columns", "rate_columns"),
    ".entries": ("method_fields", "parse_entry", "swept"),
    ".failure": ("CHUNK_RUNS", "failure_block", "memory_per_curve_run", "simulate_block",
                 "tree_instance"),
    ".kernels": ("KernelProgress", "check_plugins", "kernel_name", "prepare_kernels"),
    ".plugin_check": ("plugin_errors",),
    ".rates": ("curve_frame", "failure_counts", "failure_rate", "rates"),
})
