"""The instrumented build a candidate can neither escape nor detect.

hls-diff trusts what its sanitizer build sees only if every function of the candidate is instrumented and
the candidate's code is the same code the plain build compiles. Both are checked on the candidate as the
compiler sees it after preprocessing (so token pasting and macros hide nothing): no sanitizer-disabling
attribute, no sanitizer feature macro, interface function or option hook, and the same preprocessed lines of
the candidate's own files with and without the sanitizer flags.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import replace
from pathlib import Path

from ...sandbox.base import Limits, Sandbox
from .golden import SANITIZE_FLAGS
from .objects import parse_build

# Ways out of instrumentation, and ways to tell the instrumented build apart (GCC and Clang spellings).
FORBIDDEN = re.compile(
    r"\b(no_sanitize\w*|__no_sanitize\w*|no_address_safety_analysis|__no_address_safety_analysis__"
    r"|disable_sanitizer_instrumentation|__disable_sanitizer_instrumentation__|no_stack_protector"
    r"|__SANITIZE_\w+|__has_feature|__has_extension|__sanitizer_\w+|__asan_\w+|__ubsan_\w+|__lsan_\w+"
    r"|__hwasan_\w+|__msan_\w+|__tsan_\w+)\b")
# Preprocessor flags of the build that the screen keeps (what decides what the preprocessor emits).
KEPT = ("-I", "-D", "-U", "-std=", "-include", "-iquote", "-isystem", "-ansi", "-f", "-m", "-O")
OUTPUT_CAP = 16 << 20
_MARKER = re.compile(r'^# \d+ "([^"]*)"')


def _preprocess_flags(words: tuple[str, ...]) -> list[str]:
    return [w for w in words[1:] if w.startswith(KEPT) and not w.startswith("-fsanitize")]


def _own_lines(text: str, source: str) -> list[str]:
    """The preprocessed lines the compiler attributes to `source` itself (not to headers it includes)."""
    lines, mine = [], False
    for line in text.splitlines():
        marker = _MARKER.match(line)
        if marker:
            mine = marker.group(1) == source
            continue
        if mine and line.strip():
            lines.append(line)
    return lines


def escape_problem(workspace: Path, sandbox: Sandbox, build: str, sources: list[str], *, timeout: float,
                   limits: Limits) -> str | None:
    """Why the candidate could escape or detect the sanitizer build (one line), or None.

    `sources`: the C files whose text the candidate supplied. A build that is not one plain compiler command
    is screened on nothing but the sanitizer's own run."""
    parsed = parse_build(build)
    if parsed is None or not sources:
        return None
    flags = " ".join(_preprocess_flags(parsed.words))
    nonce = secrets.token_hex(8)
    script = "".join(f"echo '@@{nonce} {i} plain'; {parsed.compiler} -E {flags} {src}; "
                     f"echo '@@{nonce} {i} sanitized'; {parsed.compiler} -E {flags} {SANITIZE_FLAGS} {src}; "
                     for i, src in enumerate(sources))
    ex = sandbox.run(workspace, script + f"echo '@@{nonce} end'", timeout=timeout,
                     limits=replace(limits, output=OUTPUT_CAP))
    if ex.truncated:
        return "its preprocessed text is too large to screen for the sanitizer build"
    parts = re.split(rf"^@@{nonce} (\d+|end) ?(plain|sanitized)?$", ex.stdout, flags=re.MULTILINE)
    if not ex.ok or f"@@{nonce} end" not in ex.stdout:
        return None  # it does not preprocess: the builds themselves say why
    texts: dict[tuple[int, str], str] = {}
    for index in range(1, len(parts) - 2, 3):
        if parts[index] != "end" and parts[index + 1]:
            texts[(int(parts[index]), parts[index + 1])] = parts[index + 2]
    for i, src in enumerate(sources):
        plain, sanitized = (_own_lines(texts.get((i, kind), ""), src) for kind in ("plain", "sanitized"))
        for line in plain + sanitized:
            found = FORBIDDEN.search(line)
            if found:
                return f"{src} uses {found.group(1)!r}, which would escape or detect the sanitizer build"
        if plain != sanitized:
            return f"{src} compiles to other code under the sanitizer flags: the sanitizer build must see the same code"
    return None


__all__ = ["FORBIDDEN", "escape_problem"]
