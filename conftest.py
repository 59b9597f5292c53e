"""Root conftest: only what running from a checkout needs."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, distribution

try:
    distribution("pytest-hwrepair")
except PackageNotFoundError:  # a plain checkout on sys.path, not installed: load the plugin by hand
    pytest_plugins = ["pytest_hwrepair.plugin"]
