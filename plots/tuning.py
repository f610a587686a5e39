"""The figure of a tuning on synthetic trees (``experiments.tuning.synthetic``): the loss of
every candidate value with its 95% interval, the values dropped by the race hollow and grey
(labelled with the runs they had), those kept filled, the chosen one starred and the interval
of kept values shaded; for two parameters, a map of the loss over the grid with the kept
values outlined. Beside it, the failure curves of the chosen value and of the default over
every budget (``plot_tuning_curves``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FormatStrFormatter

from .style import COLOURS, new_figure

_KEPT, _DROPPED, _CHOSEN = COLOURS[0], "0.6", COLOURS[3]


def plot_tuning(table: pd.DataFrame, params: list[dict], loss_name: str, title: str = ""):
    """The figure of ``table`` (one row per candidate: the parameters, runs, loss, ci_low,
    ci_high, kept, chosen); ``params`` as ``ParamRange.to_dict`` gives them. Returns the
    Figure."""
    if len(params) == 1:
        return _one(table, params[0], loss_name, title)
    return _two(table, params, loss_name, title)


def _one(table: pd.DataFrame, param: dict, loss_name: str, title: str):
    fig, ax = new_figure(figsize=(5.6, 3.6))
    name = param["name"]
    kept = table[table["kept"]]
    ax.axvspan(kept[name].min(), kept[name].max(), color=_KEPT, alpha=0.08, lw=0,
               label="not shown worse")
    for is_kept, rows in table.groupby("kept"):
        colour = _KEPT if is_kept else _DROPPED
        ax.errorbar(rows[name], rows["loss"],
                    yerr=[rows["loss"] - rows["ci_low"], rows["ci_high"] - rows["loss"]],
                    fmt="o", color=colour, mfc=colour if is_kept else "white", ms=5, capsize=2,
                    lw=1, label="kept" if is_kept else "dropped (runs it had)")
        if not is_kept:
            for _, row in rows.iterrows():
                ax.annotate(f"{row['runs']}", (row[name], row["ci_high"]), fontsize=6,
                            color="0.4", ha="center", va="bottom", xytext=(0, 2),
                            textcoords="offset points")
    chosen = table[table["chosen"]].iloc[0]
    ax.plot(chosen[name], chosen["loss"], "*", color=_CHOSEN, ms=12,
            label=f"chosen {name} = {chosen[name]:g}")
    if param["log"]:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set_xlabel(name + (" (log scale)" if param["log"] else ""))
    ax.set_ylabel(loss_name)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title, fontsize=9)
    return fig


def _two(table: pd.DataFrame, params: list[dict], loss_name: str, title: str):
    fig, ax = new_figure(figsize=(5.6, 4.4))
    (x, y) = (params[0]["name"], params[1]["name"])
    xs, ys = np.sort(table[x].unique()), np.sort(table[y].unique())
    loss = table.pivot(index=y, columns=x, values="loss").reindex(index=ys, columns=xs)
    image = ax.imshow(loss.to_numpy(), origin="lower", cmap="viridis_r", aspect="auto")
    fig.colorbar(image, ax=ax, label=loss_name, shrink=0.9)
    position = {name: {value: k for k, value in enumerate(values)}
                for name, values in ((x, xs), (y, ys))}
    for _, row in table.iterrows():
        at = (position[x][row[x]], position[y][row[y]])
        if row["kept"]:
            ax.add_patch(_square(at, "white"))
        if row["chosen"]:
            ax.plot(*at, "*", color=_CHOSEN, ms=12)
    ax.set_xticks(range(len(xs)), [f"{value:g}" for value in xs], rotation=45, fontsize=7)
    ax.set_yticks(range(len(ys)), [f"{value:g}" for value in ys], fontsize=7)
    ax.set_xlabel(x + (" (log scale)" if params[0]["log"] else ""))
    ax.set_ylabel(y + (" (log scale)" if params[1]["log"] else ""))
    ax.set_title(title + ("\n" if title else "") + "outlined: not shown worse; star: chosen",
                 fontsize=9)
    ax.grid(False)
    return fig


def _square(at, colour):
    from matplotlib.patches import Rectangle

    return Rectangle((at[0] - 0.5, at[1] - 0.5), 1, 1, fill=False, ec=colour, lw=1.5)


def plot_tuning_curves(curves: pd.DataFrame, names: list[str], title: str = ""):
    """Failure rate against playouts (log2) of the chosen value and of the default, each with
    its Wilson 95% band: ``curves`` has columns which ("chosen", "default"), the parameters
    ``names``, budget, failure_rate, ci_low, ci_high. Returns the Figure."""
    fig, ax = new_figure(figsize=(5.6, 3.6))
    for which, colour, style in (("chosen", _CHOSEN, "-"), ("default", _KEPT, "--")):
        rows = curves[curves["which"] == which]
        values = ", ".join(f"{name} = {rows[name].iloc[0]:g}" for name in names)
        ax.fill_between(rows["budget"], rows["ci_low"], rows["ci_high"], color=colour,
                        alpha=0.15, lw=0)
        ax.plot(rows["budget"], rows["failure_rate"], style, marker="o", ms=3, color=colour,
                label=f"{which}: {values}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("playouts")
    ax.set_ylabel("failure rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title, fontsize=9)
    return fig
