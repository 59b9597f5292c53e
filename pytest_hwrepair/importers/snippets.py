"""Finding C functions and code snippets in source files, exactly or after whitespace normalisation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

_TOKEN = re.compile(r"\w+|\S")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_NOT_CALLS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "do", "case", "else"})
_IDENT_LIST = re.compile(r"^\s*(?:\w+\s*(?:,\s*\w+\s*)*)?$")


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


@lru_cache(maxsize=256)
def mask(text: str) -> str:
    """The text with comments, string and character literals and preprocessor lines blanked (offsets kept)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            _blank(out, i, j)
            i = j
            continue
        if c in " \t":
            i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        _blank(out, i, j)
        i = j
    return "".join(out)


def _blank(out: list[str], start: int, end: int) -> None:
    out[start:end] = [c if c == "\n" else " " for c in out[start:end]]


@lru_cache(maxsize=8192)
def find_definitions(text: str, name: str) -> tuple[Span, ...]:
    """Every top-level definition of function `name`: from its line start to the closing brace."""
    masked = mask(text)
    depth_at = _depths(masked)
    found: list[Span] = []
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", masked):
        if depth_at[m.start()] != 0:
            continue
        if (close := _matching(masked, m.end() - 1, "(", ")")) is None:
            continue
        if (body := _body_start(masked, close + 1, masked[m.end():close])) is None:
            continue
        if (end := _matching(masked, body, "{", "}")) is not None:
            found.append(Span(masked.rfind("\n", 0, m.start()) + 1, end + 1))
    return tuple(found)


@lru_cache(maxsize=256)
def _depths(masked: str) -> list[int]:
    """The brace depth at each offset."""
    return list(accumulate((1 if c == "{" else -1 if c == "}" else 0 for c in masked), initial=0))[:-1]


def _matching(masked: str, open_at: int, opener: str, closer: str) -> int | None:
    depth = 0
    for k in range(open_at, len(masked)):
        if masked[k] == opener:
            depth += 1
        elif masked[k] == closer:
            depth -= 1
            if depth == 0:
                return k
    return None


def _body_start(masked: str, after: int, params: str) -> int | None:
    """Where the body brace is, for an ANSI or a K&R definition; None for a call or a prototype."""
    rest = masked[after:]
    stripped = rest.lstrip()
    if stripped.startswith("{"):
        return after + len(rest) - len(stripped)
    # K&R: `f (a, b) int a; char *b; {` - an identifier list, then declarations ending in `;`.
    brace = rest.find("{")
    if brace < 0 or not _IDENT_LIST.match(params):
        return None
    decls = rest[:brace]
    if not decls.strip().endswith(";") or any(c in decls for c in "(){}=") or "\n\n\n" in decls:
        return None
    return after + brace


def calls(text: str, body: Span) -> list[str]:
    """The names called inside `body` (comments, strings and preprocessor lines aside), each once, in order."""
    masked = mask(text)
    names = [m.group(1) for m in _CALL.finditer(masked, body.start, body.end)]
    return [n for n in dict.fromkeys(names) if n not in _NOT_CALLS]


def find_snippet(text: str, snippet: str, within: Span | None = None) -> list[Span]:
    """Where `snippet` occurs (inside `within` when given), up to the whitespace between its tokens."""
    lo, hi = (within.start, within.end) if within else (0, len(text))
    pattern = normalised_pattern(snippet)
    return [Span(m.start(), m.end()) for m in pattern.finditer(text, lo, hi)] if pattern else []


@lru_cache(maxsize=4096)
def normalised_pattern(snippet: str) -> re.Pattern[str] | None:
    """A regex for the snippet's tokens with any whitespace between them; whole words at both ends."""
    if not (tokens := _TOKEN.findall(snippet)):
        return None
    parts = [r"(?<!\w)" if _wordy(tokens[0][0]) else "", re.escape(tokens[0])]
    for prev, tok in zip(tokens, tokens[1:]):
        parts.append(r"\s+" if _wordy(prev[-1]) and _wordy(tok[0]) else r"\s*")
        parts.append(re.escape(tok))
    parts.append(r"(?!\w)" if _wordy(tokens[-1][-1]) else "")
    return re.compile("".join(parts))


def _wordy(c: str) -> bool:
    return c.isalnum() or c == "_"


def same_code(a: str, b: str) -> bool:
    """Equal up to whitespace between tokens."""
    return _TOKEN.findall(a) == _TOKEN.findall(b)


def tokens(text: str) -> str:
    """The text's tokens, one space apart: equal for texts that differ only in whitespace."""
    return " ".join(_TOKEN.findall(text))


def occurrence(text: str, find: str, start: int) -> tuple[int, int]:
    """(1-based index of the occurrence of `find` that starts at `start`, how many there are in all)."""
    index, at = 0, -1
    while True:
        at = text.find(find, at + 1)
        if at < 0:
            raise ValueError("the span is not an occurrence of its own text")
        index += 1
        if at == start:
            return index, text.count(find)
