"""Prompt templates (shipped as files in `pytest_hwrepair/prompts/`) and the messages of one request."""

from __future__ import annotations

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
            check(text, f"{override or 'built-in'} ({kind})")
        return cls(texts)

    @property
    def digest(self) -> str:
        """Changes when any template changes: part of the fixer config, so of every sample key."""
        blob = "\0".join(f"{k}\0{self.texts[k]}" for k in sorted(self.texts))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def first_turn(self, task: RepairTask) -> str:
        kind = "repo" if task.issue is not None else "spec" if task.prompt_kind == "spec" else task.domain
        return render(self.texts.get(kind, self.texts["hls"]), values_of(task))

    def feedback_turn(self, task: RepairTask, feedback: str, category: str, attempt: int) -> str:
        values = {**values_of(task), "feedback": feedback.strip(), "category": category, "attempt": str(attempt)}
        return render(self.texts["repo_feedback" if task.issue is not None else "feedback"], values)

    def messages(self, task: RepairTask) -> list[dict[str, str]]:
        """The conversation: the task, then one (candidate, feedback) exchange per kept history round."""
        out = [{"role": "user", "content": self.first_turn(task)}]
        lang = "diff" if task.issue is not None else language_of(task.target)
        for n, attempt in enumerate(task.history, 1):
            out.append({"role": "assistant", "content": f"```{lang}\n{attempt.candidate.rstrip()}\n```"})
            out.append({"role": "user", "content": self.feedback_turn(task, attempt.feedback, attempt.category, n)})
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


def check(text: str, where: str) -> None:
    unknown = sorted({m.group(1) for m in _TAG.finditer(text)} - VARIABLES)
    if unknown:
        raise TemplateError(f"--hwrepair-prompt {where}: unknown placeholder {{{{{unknown[0]}}}}} "
                            f"(known: {', '.join(sorted(VARIABLES))})")


def render(template: str, values: dict[str, str]) -> str:
    """`{{name}}` is replaced, `{{#name}}..{{/name}}` kept only when name is set, `{{^name}}` when not.

    Values are inserted in one pass and never scanned again (Verilog's `{{n{x}}}` is not a tag).
    """
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
    lang = language_of(task.target)
    context = "\n\n".join(f"{name}:\n```{language_of(name)}\n{text.rstrip()}\n```"
                          for name, text in sorted(task.files.items()) if name != task.target and text.strip())
    return {
        "source": task.files.get(task.target, "").rstrip("\n"), "target": task.target, "language": lang,
        "domain": task.domain, "spec": (task.spec or "").strip(), "interface": (task.interface or "").strip(),
        "error_log": (task.error_log or "").rstrip(), "context": context,
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


__all__ = ["TemplateError", "Templates", "language_of", "output_budget", "render", "transcript"]
