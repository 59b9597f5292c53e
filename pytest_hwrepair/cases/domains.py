"""Domains: what each kind of hardware code asks of its bugs, its tasks and its two-sided validation.

A new domain is one `Domain` subclass and one registry line; nothing else branches on a domain name.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ..verdict import RepairProtocol
from .case import Bug

HLS_BUG_TYPES = ("OOB", "SHFT", "INF", "MLU", "ZERO", "USE", "BUF", "INIT")
CUDA_BUCKETS = ("compile_error", "logic_error", "memory_crash", "timeout", "perf_broken")


class Domain:
    """The rules of one domain; subclasses override what differs."""

    name: ClassVar[str] = ""
    language: ClassVar[str] = "c"
    requires_spec: ClassVar[bool] = False
    # The spec is the task's prompt (interface, tolerance, speed requirement): always shown.
    always_show_spec: ClassVar[bool] = False
    default_protocol: ClassVar[RepairProtocol] = RepairProtocol.REPEATED
    # Summary tables of its own: bug classes and the Tier S x Tier F table; the build stage of broken starts.
    tier_tables: ClassVar[bool] = False
    build_stage: ClassVar[bool] = False

    def bug_problem(self, bug: Bug) -> str | None:
        """Why a bug entry is not valid in this domain (one line, `[ID] field: problem`), or None."""
        return None

    def label(self, bug: Bug) -> str:
        """The column the corpus tables group bugs by."""
        return bug.bug_type

    def validation_problem(self, bug: Bug, category: str, strong: dict[str, Any] | None) -> str:
        """Why the buggy version fails the wrong way for a two-sided benchmark instance, or ''."""
        return ""

    def interface(self, text: str) -> str:
        """What the spec-only arm shows instead of code: the declarations, bodies removed."""
        heads = re.findall(r"^[A-Za-z_][\w \t\*]*\([^;{]*\)\s*(?=\{)", text, re.MULTILINE)
        return "\n".join(h.strip() + ";" for h in heads)


class HlsDomain(Domain):
    name = "hls"

    def bug_problem(self, bug: Bug) -> str | None:
        if bug.bug_type not in HLS_BUG_TYPES:
            return f"[{bug.id}] type: {bug.bug_type!r} is not one of {', '.join(HLS_BUG_TYPES)}"
        return None

    def validation_problem(self, bug: Bug, category: str, strong: dict[str, Any] | None) -> str:
        if category == "compile_fail":
            return "injected program does not compile (an hls bug must build and fail when run)"
        if bug.bug_type == "INF" and category != "timeout":
            return f"INF bug does not fail by timeout (fails with {category})"
        return ""


class RtlDomain(Domain):
    name = "rtl"
    language = "verilog"
    requires_spec = True
    tier_tables = True

    def bug_problem(self, bug: Bug) -> str | None:
        if bug.class_ is None:
            return f"[{bug.id}] class: required for rtl bugs (syntactic | behavioural)"
        return None

    def label(self, bug: Bug) -> str:
        return f"{bug.class_}"

    def validation_problem(self, bug: Bug, category: str, strong: dict[str, Any] | None) -> str:
        if bug.class_ == "syntactic" and category != "lint_fail":
            return f"syntactic bug does not fail lint (fails with {category})"
        if bug.class_ == "behavioural":
            if category in ("lint_fail", "compile_fail"):
                return f"behavioural bug does not lint clean (fails with {category})"
            if isinstance(strong, dict) and (strong.get("metrics") or {}).get("equiv") == "PROVED":
                return "behavioural bug is proved equivalent to the golden design by Tier F"
        return ""

    def interface(self, text: str) -> str:
        m = re.search(r"module\b.*?\);", text, re.DOTALL)
        return (m.group(0) + "\n  // ...\nendmodule\n") if m else ""


class CudaDomain(Domain):
    name = "cuda"
    language = "cuda"
    always_show_spec = True
    build_stage = True
    default_protocol = RepairProtocol.ITERATIVE

    def bug_problem(self, bug: Bug) -> str | None:
        if bug.bucket is None:
            return f"[{bug.id}] bucket: required for cuda bugs ({', '.join(CUDA_BUCKETS)})"
        if bug.bucket not in CUDA_BUCKETS:
            return f"[{bug.id}] bucket: {bug.bucket!r} is not one of {', '.join(CUDA_BUCKETS)}"
        return None

    def label(self, bug: Bug) -> str:
        return bug.bucket or bug.bug_type

    def validation_problem(self, bug: Bug, category: str, strong: dict[str, Any] | None) -> str:
        if bug.bucket == "compile_error" and category != "compile_fail":
            return f"compile_error start does not fail to build (fails with {category})"
        if bug.bucket and bug.bucket != "compile_error":
            from ..oracles.cuda.classify import BUCKET_HARNESS_CATEGORY  # the classifier's rules: only cuda needs them

            expected = BUCKET_HARNESS_CATEGORY[bug.bucket].value
            if category == "compile_fail":
                return f"{bug.bucket} start fails to build (a {bug.bucket} start must build and fail with {expected})"
            if category != expected:
                return f"{bug.bucket} start fails with {category}, not {expected}"
        return ""


DOMAINS: dict[str, Domain] = {d.name: d for d in (HlsDomain(), RtlDomain(), CudaDomain())}


def domain_of(name: str) -> Domain:
    return DOMAINS[name]


def has(name: object, feature: str) -> bool:
    """Whether the domain of this name (None or unknown: no) has a feature such as `tier_tables`."""
    return isinstance(name, str) and name in DOMAINS and bool(getattr(DOMAINS[name], feature))
