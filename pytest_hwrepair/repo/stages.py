"""Where an unresolved repository sample failed: what summaries count, without the localisation code."""

from __future__ import annotations

import enum


class Stage(enum.StrEnum):
    """Where an unresolved sample failed."""

    NO_EDIT = "no_edit"
    LOCALISATION = "localisation"
    REPAIR = "repair"


__all__ = ["Stage"]
