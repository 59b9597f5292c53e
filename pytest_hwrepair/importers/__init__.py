"""Importer registry: built-ins plus the `hwrepair.importers` entry-point group."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from .base import Entry, Importer, ImporterError, ImportReport, Reason, Status
from .chrysalis import ChrysalisImporter
from .cirfix import CirFixImporter
from .cudabeaver import CudaBeaverImporter
from .rtlrepairbench import RtlRepairBenchImporter

ImporterFactory = Callable[[], Importer]

BUILTIN: dict[str, ImporterFactory] = {
    "chrysalis": ChrysalisImporter,
    "cirfix": CirFixImporter,
    "cudabeaver": CudaBeaverImporter,
    "rtlrepairbench": RtlRepairBenchImporter,
}


def registry() -> dict[str, ImporterFactory]:
    found = dict(BUILTIN)
    for ep in entry_points(group="hwrepair.importers"):
        if ep.name not in found:  # the built-ins are declared there too; never load a twin
            found[ep.name] = ep.load()
    return found


__all__ = ["BUILTIN", "Entry", "ImportReport", "Importer", "ImporterError", "ImporterFactory", "Reason", "Status",
           "registry"]
