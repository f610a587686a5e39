"""Inside one search: a curve's run watched on a grid of playouts (``traced``), its
search tree as a picture (``picture``), the anatomy of a curve's failures (``anatomy``), one
position of a real game searched on a grid of playouts (``position``) and the page that shows
them (``page``). On ``curves``."""

from ..exports import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {
    ".anatomy": ("failure_anatomy",),
    ".page": ("write_page",),
    ".picture": ("MAX_DRAWN", "tree_dot", "write_picture"),
    ".position": ("game_position", "search_position"),
    ".traced": ("RunTrace", "log_frame", "playout_grid", "trace", "trace_frame", "trace_run"),
})
