"""One self-contained HTML page per inspection: the trace figure, the tree picture
and the failure anatomy, each embedded (figures as base64 images, no external asset), with
the tables beside them; the comparison report's look (``comparisons.report.STYLE``)."""

from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

from ..comparisons.report import STYLE
from ..runtime.store import write_atomically

_TYPES = {".png": "image/png", ".svg": "image/svg+xml"}


def figure_html(path: Path, caption: str) -> str:
    """``<figure>`` with the PNG or SVG file ``path`` embedded as a data URI."""
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    esc = html.escape(caption)
    return (f'<figure><img src="data:{_TYPES[path.suffix]};base64,{data}" alt="{esc}">'
            f"<figcaption>{esc}</figcaption></figure>")


def write_page(path: str | Path, title: str, blocks: list[tuple[str, object]]) -> Path:
    """Write the page: ``blocks`` of ("h2" | "p" | "pre", text), ("figure", (file, caption)) or
    ("table", DataFrame), in order."""
    parts = [f"<h1>{html.escape(title)}</h1>"]
    for kind, content in blocks:
        if kind == "figure":
            parts.append(figure_html(Path(content[0]), content[1]))
        elif kind == "table":
            parts.append(content.to_html(index=False, border=0, float_format=lambda x: f"{x:.4g}")
                         if isinstance(content, pd.DataFrame) else "")
        else:
            parts.append(f"<{kind}>{html.escape(str(content))}</{kind}>")
    body = "\n".join(parts)
    return write_atomically(path, (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{STYLE}\n</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n").encode())
