"""The text side of the model fixers: the prompt (templates shipped as files in `pytest_hwrepair/prompts/`) and
the messages of one request; then the complete target file found in the answer (fenced blocks, file tags, or
bare code)."""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path, PurePosixPath

from ...repo.llm import repository_values
from ..base import FixerError, RepairTask

KINDS = ("hls", "rtl", "cuda", "spec", "feedback", "repo", "repo_feedback")
VARIABLES = frozenset({"source", "target", "language", "domain", "spec", "interface", "error_log", "context",
                       "feedback", "category", "attempt", "issue", "tree"})
# A single-file --hwrepair-prompt replaces the first turn of the single-file domains only.
NOT_BY_FILE = ("spec", "feedback", "repo", "repo_feedback")
LANGUAGES = {".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".v": "verilog",
             ".vh": "verilog", ".sv": "systemverilog", ".cu": "cuda", ".cuh": "cuda"}
MIN_OUTPUT, MAX_OUTPUT, SPEC_OUTPUT = 1024, 16384, 8192

# A section tag alone on its line takes the line break with it, so an omitted section leaves no gap.
_STANDALONE = re.compile(r"^[ \t]*(\{\{[#^/][a-z_]+\}\})[ \t]*\n", re.MULTILINE)
_SECTION = re.compile(r"\{\{([#^])([a-z_]+)\}\}(.*?)\{\{/\2\}\}", re.DOTALL)
_VARIABLE = re.compile(r"\{\{([a-z_]+)\}\}")
_TAG = re.compile(r"\{\{[#^/]?([a-z_]+)\}\}")
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


class TemplateError(FixerError):
    """A prompt template names an unknown placeholder."""


@dataclass(frozen=True)
class Templates:
    """One template per kind: the first turn of each domain, the spec-only arm, and iterative feedback."""

    texts: dict[str, str]

    @classmethod
    def load(cls, override: str | None = None) -> Templates:
        """The shipped templates, with a user file (every domain) or directory (per kind) over them."""
        folder = resources.files("pytest_hwrepair").joinpath("prompts")
        texts = {kind: folder.joinpath(f"{kind}.md").read_text(encoding="utf-8") for kind in KINDS}
        if override:
            texts.update(_read_override(Path(override)))
        for kind, text in texts.items():
            unknown = sorted({m.group(1) for m in _TAG.finditer(text)} - VARIABLES)
            if unknown:
                raise TemplateError(f"--hwrepair-prompt {override or 'built-in'} ({kind}): unknown placeholder "
                                    f"{{{{{unknown[0]}}}}} (known: {', '.join(sorted(VARIABLES))})")
        return cls(texts)

    @property
    def digest(self) -> str:
        """Changes when any template changes: part of the fixer config, so of every sample key."""
        blob = "\0".join(f"{k}\0{self.texts[k]}" for k in sorted(self.texts))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def first_turn(self, task: RepairTask) -> str:
        kind = "repo" if task.issue is not None else "spec" if task.prompt_kind == "spec" else task.domain
        return render(self.texts.get(kind, self.texts["hls"]), values_of(task))

    def messages(self, task: RepairTask) -> list[dict[str, str]]:
        """The conversation: the task, then one (candidate, feedback) exchange per kept history round."""
        out = [{"role": "user", "content": self.first_turn(task)}]
        lang = "diff" if task.issue is not None else language_of(task.target)
        for n, attempt in enumerate(task.history, 1):
            out.append({"role": "assistant", "content": f"```{lang}\n{attempt.candidate.rstrip()}\n```"})
            values = {**values_of(task), "feedback": attempt.feedback.strip(), "category": attempt.category,
                      "attempt": str(n)}
            feedback = self.texts["repo_feedback" if task.issue is not None else "feedback"]
            out.append({"role": "user", "content": render(feedback, values)})
        return out


def _read_override(path: Path) -> dict[str, str]:
    where = f"--hwrepair-prompt {path}"
    try:
        if path.is_dir():
            found = {k: (path / f"{k}.md").read_text(encoding="utf-8") for k in KINDS if (path / f"{k}.md").exists()}
            if not found:
                raise TemplateError(f"{where}: the directory holds none of {', '.join(k + '.md' for k in KINDS)}")
            return found
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TemplateError(f"{where}: cannot read: {exc.strerror}") from None
    return {k: text for k in KINDS if k not in NOT_BY_FILE}


def render(template: str, values: dict[str, str]) -> str:
    """`{{name}}` is replaced, `{{#name}}..{{/name}}` kept only when name is set, `{{^name}}` when not. Values
    are inserted in one pass and never scanned again (Verilog's `{{n{x}}}` is not a tag)."""
    text = _STANDALONE.sub(r"\1", template)
    previous = None
    while previous != text:
        previous = text
        text = _SECTION.sub(lambda m: m.group(3) if bool(values.get(m.group(2))) == (m.group(1) == "#") else "",
                            text)
    return _VARIABLE.sub(lambda m: values.get(m.group(1), ""), text)


def values_of(task: RepairTask) -> dict[str, str]:
    if task.issue is not None:  # a repository task: the issue, the tree and a bounded view of the files
        return {"target": task.target, "domain": task.domain, **repository_values(task.files, task.issue,
                                                                                  language_of)}
    context = "\n\n".join(f"{name}:\n```{language_of(name)}\n{text.rstrip()}\n```"
                          for name, text in sorted(task.files.items()) if name != task.target and text.strip())
    return {
        "source": task.files.get(task.target, "").rstrip("\n"), "target": task.target,
        "language": language_of(task.target), "domain": task.domain, "spec": (task.spec or "").strip(),
        "interface": (task.interface or "").strip(), "error_log": (task.error_log or "").rstrip(), "context": context,
    }


def language_of(name: str) -> str:
    return LANGUAGES.get(PurePosixPath(name).suffix.lower(), "")


def output_budget(task: RepairTask) -> int:
    """Room for the whole target file twice over (about 3 characters a token), within 1024..16384."""
    source = task.files.get(task.target, "")
    if task.issue is not None:  # a repository answer may hold several whole files
        return MAX_OUTPUT
    if not source.strip():
        return SPEC_OUTPUT
    return max(MIN_OUTPUT, min(MAX_OUTPUT, 2 * len(source) // 3 + 256))


def transcript(messages: list[dict[str, str]]) -> str:
    """The conversation as one text, saved as the sample's prompt artifact."""
    if len(messages) == 1:
        return messages[0]["content"]
    return "\n\n".join(f"=== {m['role']} ===\n{m['content']}" for m in messages)


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
    blocks, how = _fenced(raw) + _tagged(raw), "fenced block"
    if not blocks and truncated:
        return Extraction(error="the response was cut off at the output limit before the file was complete")
    if not blocks and (opens := list(_OPEN_FENCE.finditer(raw))):  # a last fence that never closes (forgotten)
        blocks, how = [_Block(raw[opens[-1].end():].removesuffix("\n"), opens[-1].group(2))], "unclosed fenced block"
    if blocks:
        return _choose(blocks, target, original, others, how)
    bare = _bare(raw, original)
    if bare is not None:
        return _complete(bare, original, "bare code")
    return Extraction(error="no code block or file could be found in the response")


def code_blocks(raw: str) -> list[tuple[str, str, bool]]:
    """Every fenced or tagged block as (body, label, is a diff); the label is where a file name may appear."""
    return [(b.body, b.label + "\n" + _first_line(b.body), _is_diff(b)) for b in _fenced(raw) + _tagged(raw)]


def _fenced(raw: str) -> list[_Block]:  # labelled with the info string and the two lines before
    return [_Block(m.group("body").removesuffix("\n"),
                   m.group("info") + "\n" + "\n".join(raw[:m.start()].rstrip("\n").rsplit("\n", 2)[-2:]))
            for m in _FENCE.finditer(raw)]


def _tagged(raw: str) -> list[_Block]:
    out = []
    for m in _FILE_TAG.finditer(raw):
        body = m.group("body")
        inner = list(_FENCE.finditer(body))
        if len(inner) == 1 and not body[:inner[0].start()].strip() and not body[inner[0].end():].strip():
            continue  # a fenced block inside the tag: already found, with the tag's name in front of it
        out.append(_Block(body.removesuffix("\n"), m.group("attrs")))
    return out


def _choose(blocks: list[_Block], target: str, original: str, others: tuple[str, ...], how: str) -> Extraction:
    named = [b for b in blocks if not _is_diff(b) and _names(b.label + "\n" + _first_line(b.body), target)]
    if named:
        return _complete(max(named, key=lambda b: len(b.body)).body, original, f"{how} named {target}")
    foreign = {id(b) for b in blocks for o in others if o != target and _names(b.label, o)}
    pool = [b for b in blocks if id(b) not in foreign] or blocks
    code = [b for b in pool if not _is_diff(b)]
    if not code:  # only diffs
        return Extraction(diff=pool[-1].body + "\n", how="unified diff")
    weigh = len(code) > 1 and bool(original.strip())  # several blocks: the one most like the buggy file
    best = max(code, key=lambda b: (_similarity(b.body, original) if weigh else 0.0, len(b.body)))
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
    pattern = r"(?<![\w.-])" + re.escape(name if "/" in name else PurePosixPath(name).name) + r"(?![\w-])"
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
