"""The text the operators work on: tokens, just enough structure over them, and the edit each operator yields."""

from __future__ import annotations

import bisect
import enum
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


class Language(enum.StrEnum):
    C = "c"
    CUDA = "cuda"
    VERILOG = "verilog"

    @classmethod
    def of(cls, filename: str) -> Language:
        suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
        if suffix not in _SUFFIXES:
            raise ValueError(f"{filename}: no mutation operators for this file type "
                             f"(allowed: {', '.join('.' + s for s in sorted(_SUFFIXES))})")
        return _SUFFIXES[suffix]


_SUFFIXES = {"c": Language.C, "h": Language.C, "cu": Language.CUDA, "cuh": Language.CUDA,
             "v": Language.VERILOG, "sv": Language.VERILOG, "vh": Language.VERILOG}


class Kind(enum.StrEnum):
    """What a token is; only IDENT, NUMBER and PUNCT are ever edited."""

    IDENT = "ident"
    KEYWORD = "keyword"
    NUMBER = "number"
    PUNCT = "punct"
    STRING = "string"


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, its text, where it starts in the source and on which line (1-based)."""

    kind: Kind
    text: str
    start: int
    line: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def is_(self, *texts: str) -> bool:
        return self.text in texts and self.kind in (Kind.PUNCT, Kind.KEYWORD)


C_KEYWORDS = words("""
auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
_Bool bool true false NULL __global__ __device__ __host__ __shared__ __constant__ __restrict__
__forceinline__ __syncthreads constexpr template typename namespace using class public private new delete
static_cast reinterpret_cast const_cast dynamic_cast nullptr
""")

C_TYPES = words("""
char short int long float double void unsigned signed bool _Bool size_t int8_t int16_t int32_t int64_t
uint8_t uint16_t uint32_t uint64_t float2 float4 int2 int4 half
""")

VERILOG_KEYWORDS = words("""
module endmodule input output inout wire reg logic integer genvar parameter localparam assign always
always_ff always_comb always_latch initial begin end if else case casez casex endcase default for while
repeat forever function endfunction task endtask posedge negedge or and not signed unsigned generate
endgenerate supply0 supply1 tri real time
""")

_C_PUNCT = sorted(words("""
<<< >>> <<= >>= ... -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ::
"""), key=len, reverse=True)
_V_PUNCT = sorted(words("""
<<< >>> === !== <= >= == != && || << >> ~& ~| ~^ ^~ ** +: -: -> ++ --
"""), key=len, reverse=True)

_C_NUMBER = re.compile(r"(0[xX][0-9a-fA-F']+|(\d[\d']*\.?\d*|\.\d+)([eE][-+]?\d+)?)[uUlLfF]*")
_V_NUMBER = re.compile(r"(\d[\d_]*)?\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+|'[01xXzZ]|\d[\d_]*(\.\d+)?")
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_SPACE = re.compile(r"\s+")


def tokenize(text: str, language: Language) -> list[Token]:
    """The tokens of a source text; strings and character literals come back as STRING tokens (never edited)."""
    verilog = language is Language.VERILOG
    keywords = VERILOG_KEYWORDS if verilog else C_KEYWORDS
    punct = _V_PUNCT if verilog else _C_PUNCT
    number = _V_NUMBER if verilog else _C_NUMBER
    out: list[Token] = []
    i, n, line = 0, len(text), 1
    while i < n:
        j, token = _next(text, i, line, verilog, keywords, punct, number)
        if token is not None:
            out.append(token)
        line += text.count("\n", i, j)
        i = j
    return out


def _next(text: str, i: int, line: int, verilog: bool, keywords: frozenset[str], punct: list[str],
          number: re.Pattern[str]) -> tuple[int, Token | None]:
    """Where the next token starts after position i, and the token at i (None for space and comments)."""
    ch = text[i]
    if ch.isspace():
        return _SPACE.match(text, i).end(), None  # type: ignore[union-attr]
    if (skip := _skip(text, i, verilog)) is not None:
        return skip, None
    if ch in "\"'" and not (verilog and ch == "'"):
        end = _string_end(text, i)
        return end, Token(Kind.STRING, text[i:end], i, line)
    if ch.isdigit() or ch == "'" or (ch == "." and text[i + 1:i + 2].isdigit()):
        m = number.match(text, i)
        if m and m.end() > i:
            return m.end(), Token(Kind.NUMBER, m.group(0), i, line)
    if m := _IDENT.match(text, i):
        word = m.group(0)
        return m.end(), Token(Kind.KEYWORD if word in keywords else Kind.IDENT, word, i, line)
    op = next((p for p in punct if text.startswith(p, i)), ch)
    return i + len(op), Token(Kind.PUNCT, op, i, line)


def _skip(text: str, i: int, verilog: bool) -> int | None:
    """The end of a comment or whole-line directive starting at i, else None."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    if verilog and text[i] == "`":
        return _line_end(text, i)
    if not verilog and text[i] == "#" and text[text.rfind("\n", 0, i) + 1:i].strip() == "":
        directive = re.match(r"#\s*(\w+)", text[i:])
        if directive is None or directive.group(1) in ("include", "pragma", "error", "warning", "line"):
            return _line_end(text, i)
        return i + directive.end()  # `#define N 10`: the name and value stay editable
    return None


def _line_end(text: str, i: int) -> int:
    while True:
        end = text.find("\n", i)
        if end < 0:
            return len(text)
        if not text[:end].endswith("\\"):
            return end
        i = end + 1


def _string_end(text: str, i: int) -> int:
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


class Op(enum.StrEnum):
    """Operator names (the families of the bug taxonomies the benchmark uses)."""

    RELATIONAL = "relational"
    ARITHMETIC = "arithmetic"
    LOGICAL = "logical"
    SHIFT = "shift"
    CONSTANT = "constant"
    BOUND = "bound"
    INDEX = "index"
    SWAP = "swap"
    TERNARY = "ternary"
    NEGATE = "negate"
    IDENTIFIER = "identifier"
    DELETE = "delete"
    TYPE = "type"
    INIT = "init"
    GUARD = "guard"
    BLOCKING = "blocking"
    SENSITIVITY = "sensitivity"
    RESET = "reset"
    BIT_INDEX = "bit_index"
    WIDTH = "width"
    SPECIAL = "special"  # an early return for one parameter value (mutation analysis only)
    SYNTAX = "syntax"  # repairs guided by a compiler or lint log (the search fixer's, not a mutant)


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Replace `old` at `offset` by `new`; `operator` names the family that proposed it."""

    offset: int
    old: str
    new: str
    operator: Op

    @property
    def end(self) -> int:
        return self.offset + len(self.old)

    def applies_to(self, text: str) -> bool:
        return text[self.offset:self.end] == self.old

    def apply(self, text: str) -> str:
        """The text with this edit made; ValueError when `old` is not at `offset`."""
        if not self.applies_to(text):
            raise ValueError(f"edit at offset {self.offset}: expected {self.old!r}, found "
                             f"{text[self.offset:self.end]!r}")
        return text[:self.offset] + self.new + text[self.end:]

    def line(self, text: str) -> int:
        """The 1-based line the edit starts on."""
        return text.count("\n", 0, self.offset) + 1

    def describe(self, text: str) -> str:
        return f"line {self.line(text)}: {self.operator.value}: {self.old.strip()!r} -> {self.new.strip()!r}"

    def to_json(self) -> dict[str, object]:
        return {"offset": self.offset, "old": self.old, "new": self.new, "operator": self.operator.value}


def apply_all(text: str, edits: Iterable[Edit]) -> str:
    """Make several non-overlapping edits at once; ValueError when two overlap."""
    ordered = sorted(edits, key=lambda e: (e.offset, e.end))
    for a, b in zip(ordered, ordered[1:]):
        if a.offset == b.offset or b.offset < a.end:  # two insertions at one offset overlap too
            raise ValueError(f"edits at offsets {a.offset} and {b.offset} overlap")
    for edit in reversed(ordered):
        text = edit.apply(text)
    return text


def seeded_order(edits: Sequence[Edit], seed: int) -> list[Edit]:
    """The edits in an order that depends only on the edits and the seed."""
    out = sorted(set(edits))
    random.Random(seed).shuffle(out)
    return out


OPEN = {"(": ")", "[": "]", "{": "}"}
_QUALIFIERS = words("const static volatile register extern unsigned signed struct enum union inline")
_BOUNDARY_KW = words("begin end else endcase do fork join generate endgenerate")
_HEADER_KW = words("if while for switch case casez casex repeat")
_JUMP_KW = words("return break continue goto")


class StmtKind(enum.StrEnum):
    EXPR = "expr"
    DECL = "decl"
    JUMP = "jump"
    ASSIGN = "assign"


@dataclass(frozen=True, slots=True)
class Statement:
    """Tokens first..last (the `;`) of one simple statement."""

    first: int
    last: int
    kind: StmtKind


class Source:
    """A tokenized text with the lookups the operators share."""

    def __init__(self, text: str, language: Language) -> None:
        self.text, self.language = text, language
        self.tokens: list[Token] = tokenize(text, language)
        self.match: dict[int, int] = _match(self.tokens)
        self.memo: dict[str, object] = {}  # per-source caches of the operators

    @property
    def verilog(self) -> bool:
        return self.language is Language.VERILOG

    def tok(self, i: int) -> Token | None:
        return self.tokens[i] if 0 <= i < len(self.tokens) else None

    def group_after(self, i: int) -> int | None:
        """The closing token of the `(...)` group right after token i, or None (`if (`, `for (`, `@(`)."""
        nxt = self.tok(i + 1)
        return self.match.get(i + 1) if nxt is not None and nxt.text == "(" else None

    def span(self, first: int, last: int) -> tuple[int, str]:
        """Source offset and text of tokens first..last inclusive."""
        start, end = self.tokens[first].start, self.tokens[last].end
        return start, self.text[start:end]

    def is_binary(self, i: int) -> bool:
        """Whether the operator token at i has a left operand (so it is not unary)."""
        if (prev := self.tok(i - 1)) is None:
            return False
        if prev.kind in (Kind.NUMBER, Kind.STRING):
            return True
        if prev.kind is Kind.IDENT:
            return self.verilog or prev.text not in C_TYPES
        return prev.text in (")", "]") or (prev.kind is Kind.PUNCT and prev.text == "}" and self.verilog)

    def operand_left(self, i: int) -> int | None:
        """First token of the simple operand ending just before token i (a postfix chain or a group)."""
        j = i - 1
        while j >= 0:
            t = self.tokens[j]
            if t.text in (")", "]", "}") and t.kind is Kind.PUNCT and j in self.match:
                j = self.match[j]
                prev = self.tok(j - 1)
                if prev is not None and (prev.kind is Kind.IDENT or prev.text in (")", "]")) and t.text != "}":
                    j -= 1
                    continue
                return j
            if t.kind in (Kind.IDENT, Kind.NUMBER):
                if (prev := self.tok(j - 1)) is not None and prev.text in (".", "->") and j >= 2:
                    j -= 2
                    continue
                return j
            return None
        return None

    def operand_right(self, i: int) -> int | None:
        """Last token of the simple operand starting just after token i."""
        j = i + 1
        if (t := self.tok(j)) is None:
            return None
        if t.text in OPEN and t.kind is Kind.PUNCT and j in self.match:
            j = self.match[j]
        elif t.kind not in (Kind.IDENT, Kind.NUMBER):
            return None
        while True:
            if (nxt := self.tok(j + 1)) is None:
                return j
            if nxt.text in ("[", "(") and nxt.kind is Kind.PUNCT and j + 1 in self.match \
                    and not (nxt.text == "(" and self.tokens[j].kind is Kind.NUMBER):
                j = self.match[j + 1]
            elif nxt.text in (".", "->") and (after := self.tok(j + 2)) is not None and after.kind is Kind.IDENT:
                j += 2
            else:
                return j

    def expr_end(self, i: int, stops: frozenset[str]) -> int:
        """Last token of the expression starting at token i: up to a depth-0 stop token."""
        j, pending = i, 0
        while j < len(self.tokens):
            t = self.tokens[j]
            if t.kind is Kind.PUNCT and t.text in OPEN and j in self.match:
                j = self.match[j] + 1
                continue
            if t.kind is Kind.PUNCT and t.text in (")", "]", "}", ";", ","):
                return j - 1
            if t.text == "?":
                pending += 1
            elif t.text == ":" and pending:
                pending -= 1
            elif t.text in stops and t.kind in (Kind.PUNCT, Kind.KEYWORD):
                return j - 1
            j += 1
        return j - 1

    @cached_property
    def statements(self) -> list[Statement]:
        out: list[Statement] = []
        tokens, start, pending, i = self.tokens, None, 0, 0
        while i < len(tokens):
            t = tokens[i]
            group = t.kind is Kind.PUNCT and t.text in OPEN and i in self.match
            if t.is_(*_HEADER_KW) and (close := self.group_after(i)) is not None:
                i, start = close + 1, None
                continue
            if group and (t.text != "{" or _expression_brace(self, i)):
                start = i if start is None else start
                i = self.match[i] + 1
                continue
            if t.text == ";" and t.kind is Kind.PUNCT:
                if start is not None:
                    out.append(Statement(start, i, _kind(self, start)))
                start, pending = None, 0
            elif t.text in ("{", "}") or t.is_(*_BOUNDARY_KW) or (t.text in ("@", "#") and self.verilog):
                start, pending = None, 0
                if t.text in ("@", "#") and (nxt := self.tok(i + 1)) is not None:
                    i = self.match.get(i + 1, i + 1) + 1 if nxt.text == "(" else i + 2
                    continue
            elif t.text == "?":
                pending += 1
            elif t.text == ":" and t.kind is Kind.PUNCT:
                if pending:
                    pending -= 1
                else:
                    start = None
            elif start is None:
                start = i
            i += 1
        return out

    @cached_property
    def _statement_index(self) -> list[Statement | None]:
        index: list[Statement | None] = [None] * len(self.tokens)
        for s in self.statements:
            index[s.first:s.last + 1] = [s] * (s.last + 1 - s.first)
        return index

    def statement_at(self, i: int) -> Statement | None:
        return self._statement_index[i] if 0 <= i < len(self.tokens) else None

    @cached_property
    def blocks(self) -> list[tuple[int, int]]:
        """Top-level scopes: C function bodies `{...}`, Verilog `module ... endmodule`."""
        out: list[tuple[int, int]] = []
        if self.verilog:
            start = None
            for i, t in enumerate(self.tokens):
                if t.is_("module"):
                    start = i
                elif t.is_("endmodule") and start is not None:
                    out.append((start, i))
                    start = None
            return out
        depth = 0
        for i, t in enumerate(self.tokens):
            if t.kind is not Kind.PUNCT or t.text not in "{}":
                continue
            if t.text == "{" and depth == 0 and i in self.match:
                if (prev := self.tok(i - 1)) is not None and prev.text == ")":
                    out.append((i, self.match[i]))
            depth += 1 if t.text == "{" else -1
        return out

    @cached_property
    def headers(self) -> list[tuple[int, int]]:
        """The `(...)` groups of `if`, `while`, `for`, `switch` and `case` headers."""
        return [(i + 1, close) for i, t in enumerate(self.tokens)
                if t.is_(*_HEADER_KW) and (close := self.group_after(i)) is not None]

    @cached_property
    def _header_tokens(self) -> frozenset[int]:
        return frozenset(k for a, b in self.headers for k in range(a + 1, b))

    def in_header(self, i: int) -> bool:
        return i in self._header_tokens

    def block_of(self, i: int) -> tuple[int, int] | None:
        blocks = self.blocks
        at = bisect.bisect_right(blocks, i, key=lambda b: b[0]) - 1
        return blocks[at] if at >= 0 and blocks[at][0] <= i <= blocks[at][1] else None

    def loops_around(self, i: int) -> list[int]:
        """Indices of the `for`/`while` keywords whose body holds token i, innermost first."""
        return sorted((k for k, t in enumerate(self.tokens[:i]) if t.is_("for", "while")
                       and (close := self.group_after(k)) is not None and close < i <= self.body_end(close + 1)),
                      reverse=True)

    def body_end(self, j: int) -> int:
        """Last token of the statement or block starting at token j."""
        if (t := self.tok(j)) is None:
            return len(self.tokens) - 1
        if t.text == "{" and j in self.match:
            return self.match[j]
        if t.is_("begin"):
            depth = 0
            for k in range(j, len(self.tokens)):
                depth += self.tokens[k].is_("begin") - self.tokens[k].is_("end")
                if depth == 0:
                    return k
        if t.is_("for", "while", "if") and self.tok(j + 1) is not None and j + 1 in self.match:
            return self.body_end(self.match[j + 1] + 1)
        k = j
        while k < len(self.tokens) and self.tokens[k].text != ";":
            k = self.match.get(k, k) + 1 if self.tokens[k].text in OPEN else k + 1
        return k


def _match(tokens: list[Token]) -> dict[int, int]:
    found: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(tokens):
        if t.kind is not Kind.PUNCT:
            continue
        if t.text in OPEN:
            stack.append(i)
        elif t.text in (")", "]", "}") and stack and OPEN[tokens[stack[-1]].text] == t.text:
            j = stack.pop()
            found[j], found[i] = i, j
    return found


def _expression_brace(src: Source, i: int) -> bool:
    """A `{` that opens an initializer or a Verilog concatenation rather than a block."""
    if src.verilog:
        return True
    prev = src.tok(i - 1)
    return prev is not None and prev.text in ("=", ",", "(", "{", "return")


def _kind(src: Source, first: int) -> StmtKind:
    t = src.tokens[first]
    nxt = src.tok(first + 1)
    if src.verilog:
        if t.is_("assign"):
            return StmtKind.ASSIGN
        if t.kind is Kind.KEYWORD or (nxt is not None and (nxt.kind is Kind.IDENT or nxt.text == "#")):
            return StmtKind.DECL
        return StmtKind.EXPR
    if t.is_(*_JUMP_KW):
        return StmtKind.JUMP
    if t.text in C_TYPES or t.text in _QUALIFIERS or t.is_("typedef"):
        return StmtKind.DECL
    if t.kind is Kind.IDENT and nxt is not None:
        if nxt.kind is Kind.IDENT:
            return StmtKind.DECL
        k = first + 1
        while (tk := src.tok(k)) is not None and tk.text == "*":
            k += 1
        after = src.tok(k + 1)
        if k > first + 1 and (tk := src.tok(k)) is not None and tk.kind is Kind.IDENT and after is not None \
                and after.text in ("=", ";", ",", "["):
            return StmtKind.DECL
    return StmtKind.EXPR
