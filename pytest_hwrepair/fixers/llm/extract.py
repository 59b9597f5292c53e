"""Find the complete target file in a model's answer: fenced blocks, file tags, or bare code."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_OPEN_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)\n", re.MULTILINE)
_FILE_TAG = re.compile(r"<(?P<tag>file|code)\b(?P<attrs>[^>]*)>\n?(?P<body>.*?)</(?P=tag)>", re.DOTALL)
_DIFF = re.compile(r"^(--- |\+\+\+ |@@ )", re.MULTILINE)
_CODE_START = re.compile(r"^\s*(#\s*(include|define|if|pragma)|/[/*]|`(timescale|define|include)|module\b|"
                         r"typedef\b|struct\b|static\b|extern\b|const\b|void\b|int\b|unsigned\b|float\b|"
                         r"double\b|char\b|__global__|template\b|package\b|interface\b)")
FRAGMENT_RATIO = 0.5
FRAGMENT_MIN_LINES = 20


@dataclass(frozen=True, slots=True)
class Extraction:
    """The extracted file (or a unified diff), else why nothing usable was found."""

    text: str | None = None
    diff: str | None = None
    error: str = ""
    how: str = ""

    @property
    def ok(self) -> bool:
        return self.text is not None or self.diff is not None


@dataclass(frozen=True, slots=True)
class _Block:
    body: str
    label: str  # the info string, file-tag attributes and the line before: where a file name may appear


def extract(raw: str, target: str, original: str = "", others: tuple[str, ...] = (),
            truncated: bool = False) -> Extraction:
    """The complete `target` file from `raw`; `original` (the buggy file) picks among several blocks."""
    if not raw.strip():
        return Extraction(error="the response is empty")
    blocks = _fenced(raw) + _tagged(raw)
    how = "fenced block" if blocks else ""
    if not blocks:
        blocks, how = _unclosed(raw, truncated)
        if truncated and not blocks:
            return Extraction(error="the response was cut off at the output limit before the file was complete")
    if blocks:
        return _choose(blocks, target, original, others, how)
    bare = _bare(raw, original)
    if bare is not None:
        return _complete(bare, original, "bare code")
    return Extraction(error="no code block or file could be found in the response")


def code_blocks(raw: str) -> list[tuple[str, str, bool]]:
    """Every fenced or tagged block as (body, label, is a diff); the label is where a file name may appear."""
    return [(b.body, b.label + "\n" + _first_line(b.body), _is_diff(b)) for b in _fenced(raw) + _tagged(raw)]


def _fenced(raw: str) -> list[_Block]:
    out = []
    for m in _FENCE.finditer(raw):
        before = raw[:m.start()].rstrip("\n").rsplit("\n", 2)[-2:]
        out.append(_Block(m.group("body").removesuffix("\n"), m.group("info") + "\n" + "\n".join(before)))
    return out


def _tagged(raw: str) -> list[_Block]:
    out = []
    for m in _FILE_TAG.finditer(raw):
        body = m.group("body")
        inner = list(_FENCE.finditer(body))
        if len(inner) == 1 and not body[:inner[0].start()].strip() and not body[inner[0].end():].strip():
            continue  # a fenced block inside the tag: already found, with the tag's name in front of it
        out.append(_Block(body.removesuffix("\n"), m.group("attrs")))
    return out


def _unclosed(raw: str, truncated: bool) -> tuple[list[_Block], str]:
    """A last fence that never closes: a model that forgot the closing fence, or an answer cut off."""
    opens = list(_OPEN_FENCE.finditer(raw))
    if not opens or truncated:
        return [], ""
    last = opens[-1]
    return [_Block(raw[last.end():].removesuffix("\n"), last.group(2))], "unclosed fenced block"


def _choose(blocks: list[_Block], target: str, original: str, others: tuple[str, ...], how: str) -> Extraction:
    named = [b for b in blocks if not _is_diff(b) and _names(b.label + "\n" + _first_line(b.body), target)]
    if named:
        return _complete(max(named, key=lambda b: len(b.body)).body, original, f"{how} named {target}")
    foreign = {id(b) for b in blocks for o in others if o != target and _names(b.label, o)}
    pool = [b for b in blocks if id(b) not in foreign] or blocks
    code = [b for b in pool if not _is_diff(b)]
    if not code:
        diffs = [b for b in pool if _is_diff(b)]
        return Extraction(diff=diffs[-1].body + "\n", how="unified diff")
    if len(code) == 1 or not original.strip():
        best = max(code, key=lambda b: len(b.body))
    else:
        best = max(code, key=lambda b: (_similarity(b.body, original), len(b.body)))
    return _complete(best.body, original, how if len(code) == 1 else f"{how} most like {target}")


def _complete(text: str, original: str, how: str) -> Extraction:
    if not text.strip():
        return Extraction(error="the code block is empty")
    lines = _code_lines(original)
    if lines >= FRAGMENT_MIN_LINES and _code_lines(text) < FRAGMENT_RATIO * lines:
        return Extraction(error=f"the response holds a fragment ({_code_lines(text)} of {lines} lines), "
                                "not the complete file")
    return Extraction(text=text if text.endswith("\n") else text + "\n", how=how)


def _bare(raw: str, original: str) -> str | None:
    """An answer that is only code, possibly after a line or two of prose."""
    lines = raw.strip("\n").splitlines()
    start = next((i for i, line in enumerate(lines) if _CODE_START.match(line)), None)
    if start is None or start > 3:
        return None
    text = "\n".join(lines[start:])
    if original.strip():
        return text if _similarity(text, original) >= 0.5 else None
    return text if re.search(r"[;{}]|\bendmodule\b", text) else None


def _names(label: str, name: str) -> bool:
    if not name:
        return False
    base = PurePosixPath(name).name
    pattern = r"(?<![\w.-])" + re.escape(name if "/" in name else base) + r"(?![\w-])"
    return re.search(pattern, label) is not None


def _is_diff(block: _Block) -> bool:
    return block.label.strip().startswith(("diff", "patch")) or len(_DIFF.findall(block.body)) >= 3


def _first_line(text: str) -> str:
    line = text.lstrip("\n").split("\n", 1)[0]
    return line if re.match(r"\s*(//|/\*|#|--)", line) else ""


def _similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.splitlines(), b.splitlines(), autojunk=False).ratio()


def _code_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


__all__ = ["Extraction", "code_blocks", "extract"]
