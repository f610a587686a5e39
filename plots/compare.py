"""Figures of a comparison of policies and adjusters across tree configurations.

Every function reads one tidy table of the comparison's statistics; a method is
``f"{policy}+{adjuster}"``, drawn in its policy's colour and its adjuster's line style on every
figure (``plots.style``: the registries' order, then the grid's when ``look`` is given). The
tables (all intervals are 95%):

- ``curves``: config, policy, adjuster, budget, runs, failures, failure_rate, ci_low, ci_high
  (bands: Wilson intervals of failures / runs);
- ``to_epsilon``: config, policy, adjuster, epsilon, playouts, low, high, reached (playouts NaN
  when failure <= epsilon is not reached within the largest budget; ``high`` inf when the
  interval reaches past it);

The aggregates across configurations (``improvement``, ``profile``, ``aggregates``) are drawn
by ``plots.aggregates``.
"""

from __future__ import annotations

import math
import re
import textwrap

import numpy as np
import pandas as pd
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from .style import BAND, band, look_of, new_figure, power_of_two

NOT_REACHED = ">T"  # past the largest budget T
# a tree configuration as the tables name it: "constant(1,5) b=4 d=8"
_SHAPE = re.compile(r"\s+b=\d+\s+d=\d+$")
_CONFIG = re.compile(r"^(?P<model>[A-Za-z_']+)\((?P<args>[^()]*)\)(?P<shape>\s+b=\d+\s+d=\d+)?$")


def _methods(frame: pd.DataFrame) -> pd.Series:
    return frame["policy"] + "+" + frame["adjuster"]


def text_colour(cmap, fraction: float) -> str:
    red, green, blue, _ = cmap(fraction)
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def _one_epsilon(to_epsilon: pd.DataFrame, epsilon: float | None) -> tuple[pd.DataFrame, float]:
    epsilons = sorted(to_epsilon["epsilon"].unique())
    if epsilon is None:
        if len(epsilons) != 1:
            raise ValueError(f"the table holds epsilons {epsilons}: choose one with epsilon=")
        epsilon = epsilons[0]
    return to_epsilon[to_epsilon["epsilon"] == epsilon], epsilon


def _largest_budget(to_epsilon: pd.DataFrame, budget: float | None) -> float:
    """T: ``budget`` when given, else the smallest power of two at or above every finite
    playout count of the table."""
    if budget is not None:
        return float(budget)
    values = to_epsilon[["playouts", "low", "high"]].to_numpy(float)
    finite = values[np.isfinite(values)]
    return float(2 ** math.ceil(math.log2(finite.max()))) if finite.size else 1.0


def _shared_shape(configs: list[str]) -> tuple[list[str], str]:
    """Configuration names without the shape (" b=4 d=8") they all share, and that shape."""
    shapes = {match.group(0) if (match := _SHAPE.search(c)) else None for c in configs}
    if len(shapes) == 1 and (shape := shapes.pop()):
        return [c.removesuffix(shape) for c in configs], shape.strip()
    return configs, ""


def _log2_colours(low: int, high: int):
    """A colour per power of two 2^low .. 2^high (viridis) and its norm on log2 playouts."""
    from matplotlib import colormaps

    count = high - low + 1
    cmap = ListedColormap(colormaps["viridis"](np.linspace(0, 1, max(count, 2)))[:count])
    return cmap, BoundaryNorm(np.arange(low - 0.5, high + 1.5), count)


def _colour_bar(fig, image, axes, low: int, high: int, epsilon: float,
                location: str = "right"):
    """The colour bar of a power of two per colour, right of ``axes`` or below them (its label
    beneath it then, where no title can run into it)."""
    ticks = list(range(low, high + 1))
    across = location == "bottom"
    bar = fig.colorbar(image, ax=axes, ticks=ticks, location=location,
                       shrink=0.6 if across else 0.9, pad=0.02, aspect=30 if across else 20)
    labels = [power_of_two(2**k) for k in ticks]
    if across:
        bar.ax.set_xticklabels(labels, fontsize=7)
    else:
        bar.ax.set_yticklabels(labels, fontsize=7)
    bar.set_label(f"playouts to reach failure <= {epsilon:g}", fontsize=8)
    bar.ax.minorticks_off()
    return bar


_CHAR = 0.0625  # inches: a character of a 7.5 pt tick label, about


def epsilon_heatmap(to_epsilon: pd.DataFrame, ax=None, *, epsilon: float | None = None,
                    budget: float | None = None, colours=None):
    """Tree configurations (rows) x policies (columns) of one adjuster, coloured by the
    playouts needed to reach failure <= epsilon (a colour per power of two), each cell
    annotated with them; returns the Axes.

    A configuration a policy does not reach epsilon on within the largest budget T
    (``budget``; by default read off the table) is a grey hatched cell labelled ">T"; a pair
    absent from the table stays blank. ``epsilon`` picks one when the table holds several; the
    table must hold one adjuster (``epsilon_heatmaps`` draws a panel per adjuster).
    ``colours`` = (low, high) fixes the colour scale's powers of two (panels that share it).
    """
    rows, epsilon = _one_epsilon(to_epsilon, epsilon)
    adjusters = list(dict.fromkeys(rows["adjuster"]))
    if len(adjusters) > 1:
        raise ValueError(f"the table holds adjusters {adjusters}: draw one at a time, or all "
                         "with epsilon_heatmaps")
    configs = list(dict.fromkeys(rows["config"]))
    policies = list(dict.fromkeys(rows["policy"]))
    alone = ax is None
    if alone:
        _, ax = new_figure(figsize=(0.55 * len(policies) + 2.8, 0.28 * len(configs) + 1.4))
    grid = np.full((len(configs), len(policies)), np.nan)  # [configs, policies] log2 playouts
    reached = rows[rows["reached"].astype(bool)]
    grid[[configs.index(c) for c in reached["config"]],
         [policies.index(p) for p in reached["policy"]]] = np.log2(reached["playouts"])
    finite = grid[np.isfinite(grid)]
    if colours is None:
        colours = (int(finite.min()), int(finite.max())) if finite.size else (0, 0)
    cmap, norm = _log2_colours(*colours)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto")
    if alone:
        _colour_bar(ax.figure, image, ax, *colours, epsilon)
    for row in rows.itertuples():
        y, x = configs.index(row.config), policies.index(row.policy)
        if row.reached:
            text = power_of_two(row.playouts)
            colour = text_colour(cmap, norm(grid[y, x]) / max(cmap.N - 1, 1))
        else:
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.88",
                                   edgecolor="0.65", hatch="////", lw=0))
            text, colour = NOT_REACHED, "0.3"
        ax.text(x, y, text, ha="center", va="center", fontsize=6.5, color=colour)
    names, shape = _shared_shape(configs)
    ax.set_xticks(range(len(policies)), policies, rotation=45, ha="right", fontsize=7.5)
    ax.set_yticks(range(len(configs)), names, fontsize=7.5)
    ax.tick_params(length=0)
    ax.grid(False)
    ax.set_title(f"{adjusters[0]}" + (f"  ({shape})" if shape else ""), fontsize=9)
    return ax


def epsilon_heatmaps(to_epsilon: pd.DataFrame, fig=None, *, epsilon: float | None = None,
                     budget: float | None = None) -> np.ndarray:
    """``epsilon_heatmap`` once per adjuster (two panels a row), on one colour scale with a
    tick per power of two; returns the panels' Axes, in the table's order of adjusters."""
    rows, epsilon = _one_epsilon(to_epsilon, epsilon)
    adjusters = list(dict.fromkeys(rows["adjuster"]))
    configs, policies = rows["config"].nunique(), rows["policy"].nunique()
    cols = min(2, len(adjusters))
    lines = math.ceil(len(adjusters) / cols)
    top = power_of_two(_largest_budget(rows, budget))
    title = (f"Playouts to reach failure <= {epsilon:g}, a panel per adjuster (hatched "
             f"{NOT_REACHED}: not reached within T = {top})")
    if fig is None:
        # room for the labels as long as they are: the policies' turned 45 degrees below each
        # panel, the configurations' left of the first column; 0.2 inch a configuration's row;
        # at most 8 inches wide, the README's 800 px
        below = 0.71 * _CHAR * max(len(p) for p in rows["policy"]) + 0.2
        left = _CHAR * max(len(c) for c in _shared_shape(list(rows["config"].unique()))[0])
        width = min(8.0, max(4.5, cols * (0.42 * policies + 0.4) + left + 0.6))
        title = textwrap.fill(title, int(width * 13))  # 9 pt: about 13 characters an inch
        height = lines * (0.2 * configs + 0.5 + below) + 0.2 * title.count("\n") + 1.2
        fig, axes = new_figure(lines, cols, figsize=(width, height), squeeze=False,
                               layout="constrained")
    else:
        axes = fig.subplots(lines, cols, squeeze=False)
    for ax in axes.flat[len(adjusters):]:
        ax.remove()
    panels = axes.flat[:len(adjusters)]
    reached = rows.loc[rows["reached"].astype(bool), "playouts"]
    colours = ((int(np.log2(reached.min())), int(np.log2(reached.max()))) if len(reached)
               else (0, 0))
    for ax, adjuster in zip(panels, adjusters):
        epsilon_heatmap(rows[rows["adjuster"] == adjuster], ax, epsilon=epsilon, budget=budget,
                        colours=colours)
    for ax in panels[1::cols] if cols > 1 else []:
        ax.set_yticklabels([])
    _colour_bar(fig, panels[0].get_images()[0], list(panels), *colours, epsilon, "bottom")
    fig.suptitle(title, fontsize=9)
    return np.asarray(panels)


def families(configs) -> dict[str, list[tuple[float, str]]]:
    """Tree configurations that differ in their model's last argument only (the bias:
    Constant(1,b) over b, Random(4,q) over q), at least two each: family name (``constant(1,
    b)``, with the shape) -> [(bias, config)] by growing bias. Other configurations (a
    P-game, a trap tree, Constant'(1,13) alone) belong to none."""
    found: dict[str, list[tuple[float, str]]] = {}
    letters = {"constant": "b", "random": "q"}
    for config in dict.fromkeys(configs):
        match = _CONFIG.match(config)
        if match is None:
            continue
        *fixed, last = [part.strip() for part in match.group("args").split(",")]
        try:
            bias = float(last)
        except ValueError:
            continue
        model = match.group("model")
        letter = letters.get(model, "x")
        name = f"{model}({','.join([*fixed, letter])})" + (match.group("shape") or "")
        found.setdefault(name, []).append((bias, config))
    return {name: sorted(members) for name, members in found.items() if len(members) > 1}


def playouts_by_bias(to_epsilon: pd.DataFrame, fig=None, *, epsilon: float | None = None,
                     budget: float | None = None, look=None) -> np.ndarray:
    """The atlas's headline: for each family of trees (``families``: Constant(1,b),
    Random(4,q)), the playouts each policy needs to reach failure <= epsilon as the bias
    grows; a panel per adjuster (two a row), a line per policy in its colour and the
    adjuster's line style, y on log2. A policy that does not reach epsilon within the largest
    budget T is an open triangle in the grey band above T. Returns the panels' Axes, or an
    empty array when the table holds no family."""
    rows, epsilon = _one_epsilon(to_epsilon, epsilon)
    groups = families(rows["config"])
    if not groups:
        return np.asarray([])
    look = look or look_of(rows)
    top = _largest_budget(rows, budget)
    adjusters = list(dict.fromkeys(rows["adjuster"]))
    policies = list(dict.fromkeys(rows["policy"]))
    positions, ticks, labels, spans = {}, [], [], []  # config -> x; tick marks; family spans
    x = 0
    for name, members in groups.items():
        start = x
        for bias, config in members:
            positions[config] = x
            ticks.append(x)
            labels.append(f"{bias:g}")
            x += 1
        spans.append((start, x - 1, name))
        x += 1  # a gap between families
    cols = min(2, len(adjusters))
    lines = math.ceil(len(adjusters) / cols)
    if fig is None:
        fig, axes = new_figure(lines, cols, figsize=(8.0, 2.9 * lines + 0.8), sharey=True,
                               squeeze=False, layout="constrained")
    else:
        axes = fig.subplots(lines, cols, sharey=True, squeeze=False)
    for ax in axes.flat[len(adjusters):]:
        ax.remove()
    panels = axes.flat[:len(adjusters)]
    dodge = {p: (i - (len(policies) - 1) / 2) * 0.5 / max(len(policies), 1)
             for i, p in enumerate(policies)}
    for ax, adjuster in zip(panels, adjusters):
        ax.axhspan(top * 2, top * 8, color="0.92", lw=0, zorder=0)
        for policy in policies:
            style = look.method(policy, adjuster)
            at = rows[(rows["adjuster"] == adjuster) & (rows["policy"] == policy)]
            for name, members in groups.items():
                part = at[at["config"].isin([c for _, c in members])]
                part = part.assign(x=part["config"].map(positions) + dodge[policy])
                part = part.sort_values("x")
                shown = part["playouts"].where(part["reached"].astype(bool))
                ax.plot(part["x"], shown, lw=1.2, ms=3.5, color=style["color"],
                        ls=style["ls"], marker=style["marker"], label=policy)
                missed = part[~part["reached"].astype(bool)]
                ax.plot(missed["x"], np.full(len(missed), top * 4), ls="none", marker="^",
                        ms=5, mfc="none", mec=style["color"], mew=1.1)
        ax.set_yscale("log", base=2)
        ax.set_ylim(0.7, top * 8)
        powers = [2**k for k in range(0, int(math.log2(top)) + 1, 2 if top > 2**8 else 1)]
        ax.set_yticks([*powers, top * 4], [*map(power_of_two, powers), "not\nreached"])
        ax.minorticks_off()
        ax.set_xticks(ticks, labels)
        ax.set_xlim(-0.6, x - 1.4)
        for start, end, name in spans:
            ax.annotate(name, ((start + end) / 2, 0), xycoords=("data", "axes fraction"),
                        xytext=(0, -20), textcoords="offset points", ha="center", va="top",
                        fontsize=7.5)
            if start:
                ax.axvline(start - 1, color="0.6", lw=0.8)
        ax.set_title(adjuster, fontsize=9)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"playouts to failure <= {epsilon:g}")
    handles = [Line2D([], [], color=look.colour(p), lw=1.6, label=p) for p in policies]
    handles.append(Line2D([], [], ls="none", marker="^", mfc="none", mec="0.3",
                          label=f"not reached within {power_of_two(top)}"))
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 5),
               fontsize=7.5, frameon=False)
    fig.suptitle(f"Playouts each policy needs to reach failure <= {epsilon:g} as the bias "
                 "grows (a panel per adjuster)", fontsize=9.5)
    return np.asarray(panels)


def failure_panels(curves: pd.DataFrame, fig=None, *, look=None) -> np.ndarray:
    """A panel per tree configuration (up to 3 a row), a line per method: failure rate against
    log2 playouts with its Wilson 95% band. Returns the panels' Axes, in the table's order."""
    look = look or look_of(curves)
    curves = curves.assign(method=_methods)
    configs = list(dict.fromkeys(curves["config"]))
    cols = min(3, len(configs))
    rows = math.ceil(len(configs) / cols)
    if fig is None:
        fig, axes = new_figure(rows, cols, figsize=(3.6 * cols, 2.9 * rows + 0.6),
                               sharey=True, squeeze=False, layout="constrained")
    else:
        axes = fig.subplots(rows, cols, sharey=True, squeeze=False)
    for ax in axes.flat[len(configs):]:
        ax.remove()
    panels = axes.flat[:len(configs)]
    for ax, config in zip(panels, configs):
        for method, curve in curves[curves["config"] == config].groupby("method", sort=False):
            curve = curve.sort_values("budget")
            style = look.method(*method.split("+", 1))
            ax.plot(curve["budget"], curve["failure_rate"], lw=1.2, ms=3, label=method,
                    **style)
            band(ax, curve, color=style["color"])
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(config, fontsize=9)
        ax.set_xlabel("playouts")
    for ax in axes[:, 0]:
        ax.set_ylabel("failure rate")
    handles, labels = panels[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6),
               fontsize=7, title=BAND, title_fontsize=7)
    return np.asarray(panels)
