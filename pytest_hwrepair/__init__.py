"""pytest-hwrepair: an executable benchmark for automated repair of hardware code."""

from __future__ import annotations

__version__ = "0.1.0"
