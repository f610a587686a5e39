"""The search tree as a picture: its top plies as Graphviz DOT, drawn by Graphviz's
``dot`` when it is installed (as OpenSpiel's ``treeviz`` and mctx's demo draw theirs).

A node's area grows with its visits, its colour is its mover's mean reward (red 0, yellow 1/2,
green 1: max moves into odd plies, min into even ones), a proven node has a double outline
and says won, draw or lost (for its mover), and the edge of a move that keeps the exact
minimax outcome (at threshold 0, ``trees.solve_minimax``) is drawn bold. Below each node the
``width`` most visited children are drawn and the others folded into one "+k more" node.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import to_hex

from mcts.core.search_tree import FIRST_CHILD, REWARD_SUM, VISITS
from mcts.core.solver import NO_CHILD

from ..runtime.store import make_folder, write_atomically
from .traced import PROVEN, RunTrace

MAX_DRAWN = 400  # nodes a picture may have; more is refused with its size
WIDE_PLY = 12  # nodes of the last ply beyond which the tree is drawn left to right
_COLOURS = colormaps["RdYlGn"]
_FORMATS = (".svg", ".png", ".pdf")


def drawn_nodes(branching: int, plies: int, width: int) -> int:
    """The most nodes a picture of ``plies`` plies and ``width`` children per node has (the
    root, and per drawn node up to ``width`` children and one fold)."""
    shown = min(width, branching)
    fold = 1 if width < branching else 0
    count, level = 1, 1
    for _ in range(plies):
        count += level * (shown + fold)
        level *= shown
    return count


def tree_dot(traced: RunTrace, plies: int = 3, width: int = 4) -> str:
    """The DOT text of the top ``plies`` plies of ``traced``'s search tree (module docstring),
    top to bottom, or left to right when its last ply may hold more than ``WIDE_PLY`` nodes;
    a picture of more than ``MAX_DRAWN`` nodes is a one-line ValueError naming its size."""
    b, depth = traced.curve.branching, traced.curve.depth
    if not 1 <= plies <= depth:
        raise ValueError(f"--plies {plies} must lie in 1..{depth} (the tree's depth)")
    if width < 1:
        raise ValueError(f"--width {width} must be at least 1")
    size = drawn_nodes(b, plies, width)
    if size > MAX_DRAWN:
        raise ValueError(f"the picture would have up to {size} nodes ({plies} plies, {width} "
                         f"children each), more than {MAX_DRAWN}: lower --plies or --width")
    tree, outcome = traced.tree, traced.minimax.outcome(0.0)
    visits, first_child = tree.stats[:, VISITS], tree.stats[:, FIRST_CHILD]
    total = max(int(visits[0]), 1)
    # a wide bottom ply is drawn down the page (left to right), where it needs no scaling
    # to fit the page's width and its 8 pt labels stay readable
    across = (min(b, width) + (b > width)) ** plies
    direction = "LR" if across > WIDE_PLY else "TB"
    graph = (f'  graph [rankdir={direction}, nodesep=0.15, ranksep=0.5, '
             f'label="{_title(traced)}", labelloc=t, fontname=Helvetica, fontsize=11];')
    nodes = ("  node [shape=circle, fixedsize=shape, style=filled, fontname=Helvetica, "
             "fontsize=8, color=gray30];")
    lines = ["digraph search {", graph, nodes, "  edge [color=gray40, arrowsize=0.5];",
             f'  n0 [label="root\\nn={total}", width=1.2, fillcolor="#ffffff"];']
    stack = [(0, 0, 0, "n0")]  # (row, place in the game tree, ply, DOT name)
    while stack:
        row, place, ply, name = stack.pop()
        first = int(first_child[row])
        if ply == plies or first == NO_CHILD:
            continue
        rows = first + np.arange(b)
        order = np.argsort(-visits[rows], kind="stable")
        for k in order[:width]:
            child, child_place = int(rows[k]), place * b + 1 + int(k)
            n = int(visits[child])
            if n == 0:
                continue
            child_name = f"n{child}"
            mean = tree.rewards[child, REWARD_SUM] / n
            proven = PROVEN[int(tree.proven[child])]
            label = f"{int(k)}\\nn={n}\\n{mean:.2f}" + (f"\\n{proven}" if proven else "")
            lines.append(
                f'  {child_name} [label="{label}", width={0.35 + 1.1 * np.sqrt(n / total):.2f}, '
                f'fillcolor="{to_hex(_COLOURS(mean))}"'
                + (", peripheries=2" if proven else "") + "];")
            keeps = outcome[child_place] == outcome[place]
            lines.append(f"  {name} -> {child_name}" + (" [penwidth=3, color=black]"
                                                        if keeps else "") + ";")
            stack.append((child, child_place, ply + 1, child_name))
        rest = order[width:]
        if rest.size:
            n = int(visits[rows[rest]].sum())
            fold = f"{name}_more"
            lines.append(f'  {fold} [label="+{rest.size} more\\nn={n}", shape=box, '
                         'fixedsize=false, fillcolor="#eeeeee", style="filled,dashed"];')
            lines.append(f"  {name} -> {fold} [style=dashed];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _title(traced: RunTrace) -> str:
    curve = traced.curve
    return (f"{curve.label}  b={curve.branching} d={curve.depth}  tree {traced.tree_index}, "
            f"run {traced.run}, seed {traced.seed}: after {int(traced.tree.stats[0, VISITS])} "
            "playouts (bold: keeps the exact outcome; colour: mover's mean)")


def write_picture(dot: str, path: str | Path) -> tuple[Path, str]:
    """Write ``dot`` to ``path``: DOT text for ``.dot``; for ``.svg``, ``.png`` or ``.pdf``
    the picture drawn by Graphviz's ``dot`` when it is installed, else the DOT text beside it
    (``.dot``). Returns the path written and a one-line note ("" when drawn as asked)."""
    path = make_folder(Path(path).parent) / Path(path).name
    if path.suffix == ".dot":
        return write_atomically(path, dot.encode()), ""
    if path.suffix not in _FORMATS:
        raise ValueError(f"{path}: the picture is .dot, .svg, .png or .pdf")
    if shutil.which("dot") is None:
        written = write_atomically(path.with_suffix(".dot"), dot.encode())
        return written, (f"Graphviz's dot is not installed: wrote the tree as DOT to {written} "
                         f"(install Graphviz, e.g. apt-get install graphviz, to draw it)")
    drawn = subprocess.run(["dot", f"-T{path.suffix[1:]}"], input=dot.encode(), check=True,
                           capture_output=True, timeout=60)
    return write_atomically(path, drawn.stdout), ""
