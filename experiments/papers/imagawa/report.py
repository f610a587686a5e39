"""The report of the seed 001 reproduction: the claims and their verdicts, the figures, the
ablations and the Welch tables, as Markdown."""

from __future__ import annotations

import pandas as pd

from .study import ADJUSTERS, ALL_ADJUSTER_TREES, is_default
from .verdicts import SIGNIFICANCE, claims, welch


def welch_markdown(tests: pd.DataFrame) -> str:
    """One table per (tree, policy): a row per budget, a column per enhancement with its
    failure rate and the difference to Plain, starred where Welch's test rejects at 0.05."""
    blocks = []
    for (tree, policy), group in tests.groupby(["tree", "policy"], sort=False):
        adjusters = [a for a in ADJUSTERS if a in set(group.adjuster)]
        lines = [f"#### {tree}, {policy}", "",
                 "| budget | plain | " + " | ".join(adjusters) + " |",
                 "|---:|---:|" + "---:|" * len(adjusters)]
        for budget, at in group.groupby("budget"):
            cells = []
            for adjuster in adjusters:
                row = at[at.adjuster == adjuster]
                if row.empty:
                    cells.append("")
                    continue
                row = row.iloc[0]
                star = "*" if row["significant"] else ""
                cells.append(f"{row['enhanced']:.3f} ({row['difference']:+.3f}{star})")
            lines.append(f"| {budget} | {at['plain'].iloc[0]:.3f} | " + " | ".join(cells) + " |")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def ablation_markdown(frame: pd.DataFrame) -> str:
    """MaxFrequency variants against the default (offset 0, restart on), UCT."""
    lines = [("| tree | variant | mean failure | default maxfreq | budgets significantly "
              "better / worse |"), "|---|---|---:|---:|---:|"]
    for tree in ALL_ADJUSTER_TREES:
        rows = frame[(frame.tree == tree) & (frame.policy == "ucb1")
                     & (frame.adjuster == "maxfreq")]
        default = rows[is_default(rows)]
        for name, variant in (("offset -0.5", rows[rows.adjuster_params == '{"offset": -0.5}']),
                              ("restart off", rows[~rows.restart.astype(bool)])):
            if default.empty or variant.empty:
                continue
            d, v = default.set_index("budget"), variant.set_index("budget")
            p = pd.Series(welch(v, d)[1], index=v.index)
            keep = v.index >= 2**6
            better = int(((p < SIGNIFICANCE) & (v.failure_rate < d.failure_rate))[keep].sum())
            worse = int(((p < SIGNIFICANCE) & (v.failure_rate > d.failure_rate))[keep].sum())
            lines.append(f"| {tree} | {name} | {v.failure_rate[keep].mean():.3f} | "
                         f"{d.failure_rate[keep].mean():.3f} | {better} / {worse} |")
    return "\n".join(lines)


def report_markdown(frame: pd.DataFrame, tests: pd.DataFrame, title: str, figures: list[str],
                    preamble: str) -> str:
    found = claims(frame, tests)
    agree = sum(c.agrees for c in found)
    rows = "\n".join(f"| {c.figure} | {c.paper} | {c.ours} | "
                     f"{'agrees' if c.agrees else '**differs**'} |" for c in found)
    images = "\n".join(f"![{name}]({name}.png)" for name in figures)
    return f"""# {title}

{preamble}

## The paper's claims beside our numbers

{agree} of {len(found)} claims hold on our results. Mean failure = average failure rate over
budgets 2^6..2^14; "significantly better" counts budgets >= 256 where a two-tailed Welch t-test
against Plain rejects at {SIGNIFICANCE}.

| fig. | the paper says | we measured | verdict |
|---|---|---|---|
{rows}

## Figures

{images}

## Ablations the paper leaves open (UCT, MaxFrequency)

Offset -0.5 is the variant the paper's derivation "t = s - 0.5" suggests; "restart off" drops
the exploration restart of Eqs. 6-8. Compared with the default MaxFrequency per budget >= 64.

{ablation_markdown(frame)}

## Welch t-tests against Plain

Each cell: failure rate (difference to Plain; * where p < {SIGNIFICANCE}). Full table:
`welch_tests.csv`.

{welch_markdown(tests)}
"""
