"""Opening a page of the lab in headless chromium (Debian's, installed by .ci/run): the widths
its images load at, so a test sees that every figure of a report or an inspection renders, and
how the page lays out in a window of a given width."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed (.ci/run installs Debian's chromium)")

_WIDTHS = """<script>
window.addEventListener("load", () => {
  const widths = Array.from(document.images, image => image.naturalWidth);
  document.body.setAttribute("data-widths", widths.join(","));
});
</script>
</body>"""


def headless(arguments: list[str], scratch: Path) -> str:
    """Run headless chromium with ``arguments`` (its profile in ``scratch``) and return what it
    printed. Headless chromium hangs now and then at the end of a run (with
    ``--virtual-time-budget``, about one run in ten by html2image's issue #97; here once in the
    fresh-clone check of 2026-11-28, on a screenshot that passes in 10 s): ``--timeout`` bounds
    the page's load, and a run that hangs all the same is started once more."""
    command = ["chromium", "--headless", "--disable-gpu", "--no-sandbox",
               f"--user-data-dir={scratch / 'profile'}", "--virtual-time-budget=5000",
               "--timeout=20000", *arguments]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=60,
                              check=True).stdout
    except subprocess.TimeoutExpired:
        return subprocess.run(command, capture_output=True, text=True, timeout=60,
                              check=True).stdout


def image_widths(page: Path, scratch: Path) -> list[int]:
    """The natural width of each image of ``page`` once loaded in chromium (0: not rendered);
    ``scratch`` holds the probe page and the browser's profile."""
    probe = scratch / "probe.html"  # the page plus a script writing each image's width
    probe.write_text(page.read_text().replace("</body>", _WIDTHS))
    dom = headless(["--dump-dom", probe.as_uri()], scratch)
    [widths] = re.findall(r'data-widths="([^"]*)"', dom)
    return [int(width) for width in widths.split(",")] if widths else []


_LAYOUT = """<script>
window.addEventListener("load", () => {
  const sizes = Array.from(document.images, image => image.naturalWidth + "x" + image.width);
  document.body.setAttribute("data-layout", document.documentElement.scrollWidth + ";"
                             + window.innerWidth + ";" + sizes.join(","));
});
</script>
</body>"""


def page_layout(page: Path, scratch: Path, width: int = 1400) -> tuple[int, int, list]:
    """(the page's scroll width, the window's width, [(an image's natural width, its width as
    drawn)]) of ``page`` in a chromium window ``width`` pixels wide."""
    probe = scratch / "layout.html"
    probe.write_text(page.read_text().replace("</body>", _LAYOUT))
    dom = headless([f"--window-size={width},900", "--dump-dom", probe.as_uri()], scratch)
    [layout] = re.findall(r'data-layout="([^"]*)"', dom)
    scroll, window, images = layout.split(";")
    sizes = [tuple(int(v) for v in size.split("x")) for size in images.split(",") if size]
    return int(scroll), int(window), sizes
