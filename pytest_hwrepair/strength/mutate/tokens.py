"""A small lexer for C, CUDA and Verilog: tokens with offsets, comments and strings kept apart."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of a table written as text."""
    return frozenset(text.split())


class Language(enum.StrEnum):
    """The source languages the operators understand."""

    C = "c"
    CUDA = "cuda"
    VERILOG = "verilog"

    @classmethod
    def of(cls, filename: str) -> Language:
        """The language of a file by its suffix; ValueError for anything else."""
        suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
        found = _SUFFIXES.get(suffix)
        if found is None:
            raise ValueError(f"{filename}: no mutation operators for this file type "
                             f"(allowed: {', '.join('.' + s for s in sorted(_SUFFIXES))})")
        return found


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
    """The editable tokens of a source text, skipping comments, whole-line directives and whitespace.

    Strings and character literals come back as STRING tokens (never edited); a C `#include` line
    and every Verilog compiler directive (`` `timescale ``, `` `define ``) are skipped whole.
    """
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
    skip = _skip(text, i, verilog)
    if skip is not None:
        return skip, None
    if ch in "\"'" and not (verilog and ch == "'"):
        end = _string_end(text, i)
        return end, Token(Kind.STRING, text[i:end], i, line)
    if ch.isdigit() or ch == "'" or (ch == "." and text[i + 1:i + 2].isdigit()):
        m = number.match(text, i)
        if m and m.end() > i:
            return m.end(), Token(Kind.NUMBER, m.group(0), i, line)
    m = _IDENT.match(text, i)
    if m:
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
