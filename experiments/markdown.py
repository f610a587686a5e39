"""Markdown of the reports: a table of a data frame, its cells as they print, ``|`` escaped."""

from __future__ import annotations

import pandas as pd


def markdown_table(frame: pd.DataFrame) -> str:
    """``frame`` as a Markdown (GitHub) table, header first."""
    def row(cells):
        return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"

    lines = [row(frame.columns), "|" + "---|" * len(frame.columns)]
    return "\n".join(lines + [row(cells) for cells in frame.itertuples(index=False)])
