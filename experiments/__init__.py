"""Studies and runners: failure-rate curves, the policies on plain bandits, comparisons,
tournaments, the results store, the ``mctslab`` command; the seed papers' studies are in
``experiments.papers``. The packages, each on those below it only:

- ``runtime``: the worker pool, the writer's lock of a folder, the results store;
- ``curves``: one failure-rate curve, its runs and its compiled kernels;
- ``studies``: many curves run into a folder, in shards, resumed and repaired;
- ``comparisons``: a grid of curves (trees x policies x adjusters) -> cells -> run -> report;
- ``inspect``: one run of a curve watched, its tree drawn, the anatomy of its failures;
- ``plain_bandits``: the policies on plain bandits, without a tree;
- ``tournaments``: games between players: matches, tournaments, ratings, SPRT, round robins;
- ``tuning``: a policy's constants at their best, raced on a tree model or fitted from matches;
- ``papers``: the seed papers' studies, on studies and tournaments;
- ``cli``: the ``mctslab`` command and its sub-commands, on all of the above.

The names below are imported on first use (``experiments.exports``)."""

from .exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".curves.curve": ("Curve",),
    ".curves.failure": ("failure_block",),
    ".curves.rates": ("failure_counts", "failure_rate"),
    ".curves.search_runs": ("search_runs",),
    ".inspect.anatomy": ("failure_anatomy",),
    ".inspect.traced": ("trace",),
    ".plain_bandits.study": ("bandit",),
    ".tuning.synthetic": ("tune",),
})
