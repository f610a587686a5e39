"""The report of a plain-bandit study (``experiments.plain_bandits.study``): the tidy table as
CSV, a regret figure and a best-arm identification figure per problem, and ``report.md`` with the
numbers at every power of ten up to the horizon, beside the bounds."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from plots.bandit import identification_figure, plot_regret

from ..markdown import markdown_table
from ..runtime.store import write_atomically, write_figures, write_table

TABLE_FILE = "bandit.csv"
METHOD_TEXT = [
    ("Regret: the pseudo-regret R(t) = sum_i Delta_i T_i(t), Delta_i = mu* - mu_i and T_i(t) the "
     "pulls of arm i in the first t; its mean over the runs with a Student-t 95% interval. "
     "Lower is better."),
    ("Lai-Robbins: sum over suboptimal arms of Delta_i / K_i times ln t, K_i = kl(mu_i, mu*) for "
     "Bernoulli arms and K_inf over the laws on [0, 1] for Beta arms (Lai & Robbins 1985, Thm. "
     "2; Burnetas & Katehakis 1996; Honda & Takemura 2010): the asymptotic rate no consistent "
     "policy beats, lim inf E[R_t] / ln t >= its constant; a finite-t regret may lie below it."),
    ("UCB1 bound: 8 sum_{Delta_i > 0} ln t / Delta_i + (1 + pi^2 / 3) sum_i Delta_i (Auer, "
     "Cesa-Bianchi & Fischer 2002, Thm. 1), a finite-time bound on UCB1's (ucb1 at c = sqrt 2) "
     "expected regret for rewards in [0, 1]."),
    ("Wrong recommendation: the share of runs whose recommended arm after t pulls has a mean "
     "below mu*, with its Wilson 95% interval. A policy recommends the most pulled arm or the "
     "arm of best empirical mean (ties at random); uniform allocation, successive rejects "
     "(Audibert & Bubeck 2010) and sequential halving (Karnin, Koren & Somekh 2013) are run "
     "afresh at each budget t. Lower is better."),
]


def report_points(horizon: int) -> list[int]:
    """The powers of ten below the horizon, and the horizon."""
    return sorted({10**k for k in range(1, int(math.log10(horizon)) + 1) if 10**k < horizon}
                  | {horizon})


def _show(value) -> str:
    """A setting as the report states it: lists joined by commas, an empty one as "default"."""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) or "default"
    return str(value)


def _number(value: float) -> str:
    """Three significant digits; a rounding residue (|value| < 1e-12, as an interval of a regret
    that is exactly 0 in every run) is 0."""
    return "0" if abs(value) < 1e-12 else f"{value:.3g}"


def _interval(row) -> str:
    return f"{_number(row.estimate)} [{_number(row.ci_low)}, {_number(row.ci_high)}]"


def parameters_line(policies) -> str:
    """Every policy entry with all its parameters, defaults included: ``klucb(c=0)``."""
    from experiments.curves.entries import parse_entry
    from mcts.baselines import player_info

    shown = []
    for entry in policies:
        name, given = parse_entry(entry, "policy")
        info = player_info(name)
        values = {**info.defaults, **info.check(given)}
        shown.append(f"{name}({','.join(f'{k}={v:g}' for k, v in values.items())})"
                     if values else name)
    return ", ".join(shown)


def difference_table(frame: pd.DataFrame, problem: str, horizon: int) -> pd.DataFrame:
    """Each policy's regret at the horizon minus the first policy's, with a Welch 95% interval
    from the two means' standard errors over their runs (the runs taken as independent)."""
    from scipy import stats

    rows = frame[(frame["problem"] == problem) & (frame["measure"] == "regret")
                 & (frame["kind"] == "policy") & (frame["t"] == horizon)]
    table = []
    for row in rows.iloc[1:].itertuples():
        first = rows.iloc[0]
        variances = np.array([row.stderr, first.stderr]) ** 2
        runs = np.array([row.runs, first.runs], dtype=float)
        se = math.sqrt(variances.sum())
        df = (variances.sum() ** 2 / np.sum(variances**2 / (runs - 1))
              if se > 0 else float(runs.sum() - 2))
        half = stats.t.ppf(0.975, df) * se
        difference = row.estimate - first.estimate
        table.append({"method": row.method, "minus": first.method, "t": horizon,
                      "regret difference [95% interval]":
                      f"{_number(difference)} [{_number(difference - half)}, "
                      f"{_number(difference + half)}]"})
    return pd.DataFrame(table, columns=["method", "minus", "t",
                                        "regret difference [95% interval]"])


def _nearest(rows: pd.DataFrame, t: int) -> pd.Series:
    return rows.iloc[int(np.argmin(np.abs(np.log(rows["t"].to_numpy()) - math.log(t))))]


def regret_table(frame: pd.DataFrame, problem: str, points: list[int]) -> pd.DataFrame:
    """Per policy and point t: the mean regret with its interval and its ratio to the
    Lai-Robbins rate; then the bounds' values."""
    rows = frame[(frame["problem"] == problem) & (frame["measure"] == "regret")]
    lai = rows[rows["method"] == "Lai-Robbins"].set_index("t")["estimate"]
    table = []
    for method, group in rows.groupby("method", sort=False):
        group = group.set_index("t")
        for t in points:
            row = group.loc[t]
            bound = lai.loc[t]
            interval = _interval(row) if row.kind == "policy" else _number(row.estimate)
            ratio = (f"{_number(row.estimate / bound)} [{_number(row.ci_low / bound)}, "
                     f"{_number(row.ci_high / bound)}]"
                     if row.kind == "policy" and bound > 0 else "")
            table.append({"method": method, "t": t, "regret [95% interval]": interval,
                          "regret / Lai-Robbins": ratio})
    return pd.DataFrame(table)


def identification_table(frame: pd.DataFrame, problem: str, points: list[int]) -> pd.DataFrame:
    """Per method, rule and point t (for a baseline: the budget nearest t on a log scale): the
    share of wrong recommendations with its interval."""
    rows = frame[(frame["problem"] == problem) & frame["measure"].str.startswith("wrong")]
    table = []
    for (method, measure), group in rows.groupby(["method", "measure"], sort=False):
        rule = measure.removeprefix("wrong").strip("_").replace("_", " ") or "its own"
        for t in points:
            row = _nearest(group, t)
            table.append({"method": method, "rule": rule, "t": int(row.t),
                          "P(wrong) [95% interval]": _interval(row)})
    return pd.DataFrame(table)


def _shown(table: pd.DataFrame) -> list[str]:
    """The report's lines of ``table``: none when it is empty (one policy: no difference)."""
    return [] if table.empty else [markdown_table(table), ""]


def _file_name(index: int, problem: str) -> str:
    family = re.match(r"[a-z]+", problem).group()
    return f"problem{index + 1}_{family}"


def write_report(folder: str | Path, frame: pd.DataFrame, settings: dict,
                 formats=("png", "pdf")) -> Path:
    """Write the table, the figures and ``report.md`` into ``folder``; returns the report's
    path. The figures are written as PNG (which the report shows) and in ``formats``."""
    folder, formats = Path(folder), tuple(dict.fromkeys(("png", *formats)))
    write_table(frame, folder / TABLE_FILE)
    points = report_points(int(settings["horizon"]))
    lines = ["# Policies on plain stochastic bandits", "",
             *(f"- {key}: {_show(value)}" for key, value in settings.items()),
             f"- policy parameters: {parameters_line(settings['policies'])}", "",
             "## What is measured", "", *(f"- {text}" for text in METHOD_TEXT)]
    for index, problem in enumerate(dict.fromkeys(frame["problem"])):
        stem = _file_name(index, problem)
        write_figures(plot_regret(frame, problem).figure, folder / f"regret_{stem}", formats)
        write_figures(identification_figure(frame, problem), folder / f"identification_{stem}",
                      formats)
        lines += ["", f"## {problem}", "", f"![regret](regret_{stem}.png)", "",
                  markdown_table(regret_table(frame, problem, points)), "",
                  *_shown(difference_table(frame, problem, points[-1])),
                  f"![identification](identification_{stem}.png)", "",
                  markdown_table(identification_table(frame, problem, points))]
    path = folder / "report.md"
    return write_atomically(path, ("\n".join(lines) + "\n").encode())
