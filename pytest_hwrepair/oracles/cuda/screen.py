"""CUDA anti-cheat on what the compiler sees: the candidate's tokens after preprocessing.

A regex over the raw file is easy to fool: raw strings hide a comment opener from a naive comment stripper,
token pasting and macro-built `#include`s assemble a blocked name the file never spells, `%:include` is an
`#include`, and a required `__global__` can sit in a string literal. So the screen runs the real preprocessor
(the build's own flags, host and device passes, in the sandbox), keeps the candidate's lines, empties every
string and character literal (raw strings too) and checks the task's rules and the harness's own on the rest.
Every include the candidate asks for is checked by the file it resolved to. Stdlib only.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

# Names candidate code has no business with, whatever the task allows: ways out of the process
# (exit, exec, signals, raw system calls), ways to print or write a file the verdict might read,
# the environment, the dynamic loader, inline assembly, and the harness's own helpers (hwr_*; the
# CUDA_CHECK macro's hwr_cuda_check only ever stops the test as a failure).
HARNESS_BLOCKED = re.compile(
    r"\b(?:_?exit|_Exit|quick_exit|abort|atexit|at_quick_exit|on_exit|system|popen|fork|vfork|clone|"
    r"exec[lv]p?e?|execvpe|posix_spawnp?|kill|raise|signal|sigaction|ptrace|syscall|"
    r"v?f?printf|v?dprintf|puts|fputs|putchar|fputc|putc|fwrite|write|pwrite|writev|fopen|freopen|fdopen|"
    r"open|openat|creat|fflush|stdout|stderr|cout|cerr|clog|ofstream|fstream|FILE|"
    r"getenv|secure_getenv|environ|dlopen|dlsym|mmap|mprotect|setjmp|longjmp|"
    r"asm|__asm|__asm__|hwr_(?!cuda_check\b)\w*|Hwr\w*|HWR_\w*)\b")
EXTERN_C = re.compile(r'\bextern\s*""')
_ATTRIBUTE = re.compile(r"__attribute__\s*\(\(\s*(global|device|host|shared|constant|managed|grid_constant)\s*\)\)")
_FORCEINLINE = re.compile(r"__inline__\s+__attribute__\s*\(\(\s*always_inline\s*\)\)")
_WITH_ARGS = re.compile(r"__attribute__\s*\(\(\s*(launch_bounds|aligned|cluster_dims|maxnreg)\s*\(")
_LITERAL_PREFIX = r"(?:u8|u|U|L)?"
_TOKEN = re.compile(
    r"(?P<comment>//[^\n]*|/\*.*?\*/)"
    rf"|(?P<raw>{_LITERAL_PREFIX}R\"(?P<delim>[^ ()\\\t\n]{{0,16}})\()"
    rf"|(?P<string>{_LITERAL_PREFIX}\"(?:\\.|[^\"\\\n])*\")"
    r"|(?P<number>\.?\d(?:[eEpP][+-]|'(?=\w)|[\w.])*)"
    rf"|(?P<char>{_LITERAL_PREFIX}'(?:\\.|[^'\\\n])*')"
    r"|(?P<word>[A-Za-z_$][\w$]*)"
    r"|(?P<open_comment>/\*)",
    re.DOTALL)
_MARKER = re.compile(r'^#\s*(\d+)\s+"((?:\\.|[^"\\])*)"((?:\s+\d)*)\s*$')
_EMPTIED: dict[str | None, str] = {"string": '""', "char": "''"}


def splice(source: str) -> str:
    """Join backslash-newline continuations (what translation phase 2 does), keeping line count."""
    out, pending = [], 0
    for line in source.split("\n"):
        if line.endswith("\\"):
            out.append(line[:-1])
            pending += 1
            continue
        out.append(line + "\n" * (pending + 1))
        pending = 0
    return "".join(out)[:-1]


def clean(source: str) -> str:
    """The text with comments blanked and every string or character literal emptied; lines kept."""
    parts: list[str] = []
    pos = 0
    while pos < len(source):
        m = _TOKEN.search(source, pos)
        if m is None:
            parts.append(source[pos:])
            break
        parts.append(source[pos:m.start()])
        if m.group("raw") is not None:
            end = source.find(f"){m.group('delim')}\"", m.end())
            stop = len(source) if end < 0 else end + len(m.group("delim")) + 2
            parts.append('""' + "\n" * source.count("\n", m.start(), stop))
            pos = stop
            continue
        text, kind = m.group(0), m.lastgroup
        if kind == "open_comment":  # an unterminated /* runs to the end of the file
            parts.append("\n" * source.count("\n", m.start()))
            break
        parts.append(" " + "\n" * text.count("\n") if kind == "comment" else _EMPTIED.get(kind, text))
        pos = m.end()
    # Digraphs as the tokens they spell.
    return "".join(parts).replace("%:%:", "##").replace("%:", "#").replace("<%", "{").replace("%>", "}")


def directive_violation(source: str) -> str | None:
    """Line directives would let the candidate pass its lines off as another file's."""
    for number, line in enumerate(clean(splice(source)).splitlines(), 1):
        m = re.match(r"\s*#\s*(line\b|\d)", line)
        if m is not None:
            return f"anti-cheat: line {number} is a line directive (`#{m.group(1)}`), which is not allowed"
    return None


@dataclass
class Preprocessed:
    text: str
    includes: list[str]


def candidate_part(output: str, target: str) -> Preprocessed:
    """The candidate's lines of `output` (by its line markers) and the files it included directly."""
    stack: list[str] = []
    lines: list[str] = []
    includes: list[str] = []
    for line in output.splitlines():
        m = _MARKER.match(line)
        if m is None:
            if stack and _is(stack[-1], target):
                lines.append(line)
            continue
        name, flags = m.group(2), m.group(3).split()
        if "1" in flags:
            if stack and _is(stack[-1], target):
                includes.append(name)
            stack.append(name)
        elif "2" in flags:
            while stack and stack[-1] != name:
                stack.pop()
            if not stack:
                stack.append(name)
        else:
            stack[-1:] = [name]  # the current file renamed, or the first one
    return Preprocessed("\n".join(lines), includes)


def _is(name: str, target: str) -> bool:
    norm = os.path.normpath(name)
    return norm == os.path.normpath(target) or norm.endswith("/" + os.path.normpath(target))


def normalise(code: str) -> str:
    """CUDA's keywords as the candidate wrote them: the headers expand them into attributes."""
    code = _FORCEINLINE.sub("__forceinline__", code)
    code = _ATTRIBUTE.sub(lambda m: f"__{m.group(1)}__", code)
    while (m := _WITH_ARGS.search(code)) is not None:
        close = _matching(code, m.end() - 1)
        if close < 0 or not code.startswith("))", close + 1):
            break
        name = "__align__" if m.group(1) == "aligned" else f"__{m.group(1)}__"
        code = code[:m.start()] + name + code[m.end() - 1:close + 1] + code[close + 3:]
    return code


def _matching(text: str, open_at: int) -> int:
    depth = 0
    for index in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index
    return -1


def screen_preprocessed(part: Preprocessed, blocked: list[str], workspace_files: list[str], stage: str) -> str | None:
    """Why the candidate's preprocessed code breaks the task's or the harness's rules, or None."""
    code = normalise(clean(part.text))
    for name in part.includes:
        base = os.path.basename(name)
        if base in workspace_files or name.startswith("/sandbox/"):
            return f"anti-cheat ({stage}): includes the workspace file {base}"
        if any(re.search(pattern, f"#include <{base}>") for pattern in blocked):
            return f"anti-cheat ({stage}): includes {base}, which the task does not allow"
    for pattern in blocked:
        m = re.search(pattern, code, re.MULTILINE)
        if m is not None:
            return f"anti-cheat ({stage}): blocked pattern {pattern!r} matches {_context(code, m)}"
    m = EXTERN_C.search(code) or HARNESS_BLOCKED.search(code)
    if m is not None:
        return f"anti-cheat ({stage}): {_context(code, m)} is not allowed in a candidate"
    return None


def required_violation(parts: list[Preprocessed], required: list[str]) -> str | None:
    """A required pattern that none of these passes' candidate lines holds (judged on their union: a build of
    several translation units compiles the candidate in one of them, the harness's in the others)."""
    code = "\n".join(normalise(clean(part.text)) for part in parts)
    for pattern in required:
        if re.search(pattern, code, re.MULTILINE) is None:
            return f"anti-cheat (every pass): required pattern {pattern!r} does not occur in the code"
    return None


def _context(code: str, m: re.Match[str]) -> str:
    start = code.rfind("\n", 0, m.start()) + 1
    end = code.find("\n", m.end())
    line = " ".join(code[start:end if end >= 0 else len(code)].split())
    return f"`{m.group(0).strip()}` (in: {line[:100]})"


_DROP_WITH_VALUE = {"-o", "--output-file", "-l", "-L", "--library", "--library-path", "-MF", "-MT", "-MQ"}
_SOURCES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".C")


def preprocess_commands(build: str, target: str) -> list[tuple[str, str]]:
    """(stage, command) pairs that preprocess each source of `build`: host pass, then device pass."""
    try:
        words = shlex.split(build)
    except ValueError:
        words = []
    if not words or any(w in ("&&", "||", ";", "|") for w in words):
        words = ["nvcc", target]
    compiler, flags, sources, skip = words[0], [], [], False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in _DROP_WITH_VALUE:
            skip = True
        elif word.startswith(("-o", "-l", "-L")) or word in ("-c", "-E", "-M", "-MM", "-MD", "-MMD"):
            continue
        elif word.endswith(_SOURCES) and not word.startswith("-"):
            sources.append(word)
        else:
            flags.append(word)
    device = f" -D__CUDA_ARCH__={_arch(flags)} -DCUDA_DOUBLE_MATH_FUNCTIONS"
    passes = [("host pass", ""), *([("device pass", device)] if os.path.basename(compiler).startswith("nvcc") else [])]
    base = " ".join(shlex.quote(w) for w in [compiler, *flags, "-E"])
    commands = []
    for source in sources or [target]:
        each = any(c in source for c in "*?[")  # the case's own glob (`test/*.cu`): one pass per file it names
        commands += [(stage, f'for f in {source}; do {base} "$f"{extra} || exit 1; done' if each
                      else f"{base} {shlex.quote(source)}{extra}") for stage, extra in passes]
    return commands


def _arch(flags: list[str]) -> str:
    found = re.search(r"(?:sm|compute)_(\d+)", " ".join(flags))
    return f"{found.group(1)}0" if found else "800"
