"""Rasterise the report's SVG plots to PNG with a headless Chromium (the only renderer used: no new library)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# Flags for a Chromium that touches nothing outside its own fresh profile and asks the network nothing.
CHROMIUM_FLAGS = ("--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
_SIZE = re.compile(r'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"')


class RenderError(Exception):
    """Chromium is missing or failed to write the picture."""


def find_chromium() -> str | None:
    """$HWREPAIR_CHROMIUM, else the first Chromium on PATH."""
    named = os.environ.get("HWREPAIR_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def chromium_argv(binary: str, profile: Path) -> list[str]:
    """The command line prefix: the fixed flags, a fresh profile, and no sandbox only where root requires it."""
    root = ["--no-sandbox"] if os.geteuid() == 0 else []
    return [binary, *CHROMIUM_FLAGS, *root, f"--user-data-dir={profile}"]


def svg_size(svg: str) -> tuple[int, int]:
    m = _SIZE.search(svg)
    if not m:
        raise RenderError("the SVG has no width and height")
    return int(m.group(1)), int(m.group(2))


def svg_to_png(svg_file: Path, png_file: Path, *, scale: int = 2, timeout: float = 60.0) -> None:
    """Screenshot one SVG file at its own size (times `scale`) into `png_file`."""
    binary = find_chromium()
    if binary is None:
        raise RenderError("needs Chromium: install it (apt-get install chromium) or set HWREPAIR_CHROMIUM")
    width, height = svg_size(svg_file.read_text(encoding="utf-8"))
    png_file.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="hwrepair-chromium-") as profile:
        argv = [*chromium_argv(binary, Path(profile)), f"--force-device-scale-factor={scale}",
                f"--window-size={width},{height}", f"--screenshot={png_file.resolve()}",
                svg_file.resolve().as_uri()]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise RenderError(f"chromium did not finish {svg_file.name} within {timeout:g}s") from None
    if not png_file.is_file() or png_file.stat().st_size == 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RenderError(f"chromium wrote no {png_file.name} (exit {done.returncode}): {tail[0]}")


__all__ = ["CHROMIUM_FLAGS", "RenderError", "chromium_argv", "find_chromium", "svg_size", "svg_to_png"]
