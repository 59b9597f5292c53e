"""The shared single-edit operators: each family on small C and Verilog inputs, tokens, order."""

from __future__ import annotations

import pytest

from pytest_hwrepair.strength.mutate import (
    MUTANT_OPERATORS,
    Edit,
    Language,
    Op,
    apply_all,
    candidate_edits,
    mutants,
    operators_for,
    parse_operators,
    seeded_order,
    tokenize,
)

C, V = Language.C, Language.VERILOG


def results(text: str, language: Language, op: Op) -> set[str]:
    return {e.apply(text) for e in candidate_edits(text, language, [op])}


def fixes(buggy: str, golden: str, language: Language, op: Op) -> bool:
    return golden in results(buggy, language, op)


SAMPLE_C = ("void f(double t[4], double A[4][4]) {\n  for (int i = 0; i < 4; i++) {\n"
            "    for (int j = 0; j < 4; j++)\n      t[i] = t[i] + A[i][j];\n  }\n}\n")
C_CASES = [
    (Op.RELATIONAL, "void f(int *a) { for (int i = 0; i <= 8; i++) a[i] = 0; }",
     "void f(int *a) { for (int i = 0; i < 8; i++) a[i] = 0; }"),
    (Op.ARITHMETIC, "int f(int a, int b) { return a - b; }", "int f(int a, int b) { return a + b; }"),
    (Op.ARITHMETIC, "int f(int v) { int t = -v; return t; }", "int f(int v) { int t = v; return t; }"),
    (Op.LOGICAL, "int f(int i, int j) { while (i > 0 && j > 0) i--; return i; }",
     "int f(int i, int j) { while (i > 0 || j > 0) i--; return i; }"),
    (Op.LOGICAL, "unsigned f(unsigned a) { return a | 7u; }", "unsigned f(unsigned a) { return a & 7u; }"),
    (Op.SHIFT, "unsigned f(unsigned x) { return x << 10; }", "unsigned f(unsigned x) { return x >> 10; }"),
    (Op.CONSTANT, "unsigned f(unsigned x) { return x >> 4; }", "unsigned f(unsigned x) { return x >> 5; }"),
    (Op.CONSTANT, "int f(int x) { int y = x & 0x0F; return y + 8; }",
     "int f(int x) { int y = x & 0x0F; return y + 15; }"),
    (Op.CONSTANT, "double f(int n) { return 1 / n; }", "double f(int n) { return 1.0 / n; }"),
    (Op.CONSTANT, "void f(int *r) { r[1] = TOP - 4; r[2] = 0; }", "void f(int *r) { r[1] = TOP - 4; r[2] = TOP; }"),
    (Op.BOUND, "void f(int *a) { for (int q = 0; q < 9 - 1; q++) a[q] = 1; }",
     "void f(int *a) { for (int q = 0; q < 9; q++) a[q] = 1; }"),
    (Op.BOUND, "void f(int *a, int n) { for (int q = 0; q < n; q++) a[q] = 1; }",
     "void f(int *a, int n) { for (int q = 0; q < n - 1; q++) a[q] = 1; }"),
    (Op.INDEX, "int f(int *next, int k) { return next[k]; }", "int f(int *next, int k) { return next[k - 1]; }"),
    (Op.INDEX, "int f(int *w, int t) { return w[t - 1]; }", "int f(int *w, int t) { return w[t]; }"),
    (Op.BOUND, "int f(int x, int k) { return x >> k; }", "int f(int x, int k) { return x >> (k - 1); }"),
    (Op.BOUND, "int f(int x, int k) { return x << (k - 1); }", "int f(int x, int k) { return x << k; }"),
    (Op.BOUND, "int f(int x, int k) { return (x - 1) * k; }", "int f(int x, int k) { return x * k; }"),
    (Op.SHIFT, "int f(int e) { for (; e > 0; e >> 1) ; return e; }",
     "int f(int e) { for (; e > 0; e >>= 1) ; return e; }"),
    (Op.ARITHMETIC, "int f(int s, int b) { s =+ b; return s; }", "int f(int s, int b) { s += b; return s; }"),
    (Op.IDENTIFIER, "int f(struct b *p) { p->sp = 1; return p->sz + 1; }",
     "int f(struct b *p) { p->sp = 1; return p->sp + 1; }"),
    (Op.SWAP, "double f(double A[4][4], int j, int k) { return A[k][j]; }",
     "double f(double A[4][4], int j, int k) { return A[j][k]; }"),
    (Op.SWAP, "int f(int x, int y) { return x - y; }", "int f(int x, int y) { return y - x; }"),
    (Op.SWAP, "int f(int *g, int fr, int fc) { return g[fr * 5 + fc]; }",
     "int f(int *g, int fr, int fc) { return g[fc * 5 + fr]; }"),
    (Op.TERNARY, "int f(int v) { return v < 0 ? v : -v; }", "int f(int v) { return v < 0 ? -v : v; }"),
    (Op.NEGATE, "int f(int v) { if (v) return 1; return 0; }", "int f(int v) { if (!(v)) return 1; return 0; }"),
    (Op.NEGATE, "int f(int v) { if (!v) return 1; return 0; }", "int f(int v) { if (v) return 1; return 0; }"),
    (Op.IDENTIFIER, "int f(int *pz, int i, int n) { int d = pz[i]; return d + n; }",
     "int f(int *pz, int i, int n) { int d = pz[n]; return d + n; }"),
    (Op.TYPE, "double f(double *x) { float s = 0; s += x[0]; return s; }",
     "double f(double *x) { double s = 0; s += x[0]; return s; }"),
    (Op.TYPE, "int f(void) { uint8_t n = 0; return n; }", "int f(void) { uint32_t n = 0; return n; }"),
    (Op.INIT, "int f(int *a) { int s; for (int i = 0; i < 4; i++) s += a[i]; return s; }",
     "int f(int *a) { int s = 0; for (int i = 0; i < 4; i++) s += a[i]; return s; }"),
    (Op.INIT, "void f(double t[4], double A[4][4]) {\n  for (int i = 0; i < 4; i++) {\n"
              "    for (int j = 0; j < 4; j++)\n      t[i] = t[i] + A[i][j];\n  }\n}\n",
     "void f(double t[4], double A[4][4]) {\n  for (int i = 0; i < 4; i++) {\n    t[i] = 0;\n"
     "    for (int j = 0; j < 4; j++)\n      t[i] = t[i] + A[i][j];\n  }\n}\n"),
    (Op.GUARD, "void f(int *a, int s, int n) { if (s < n) a[s] = 1; a[s] = 2; }",
     "void f(int *a, int s, int n) { if (s < n) a[s] = 1; if (s < n) a[s] = 2; }"),
    (Op.DELETE, "int f(int x) {\n  x = x + 1;\n  x = x * 2;\n  return x;\n}\n",
     "int f(int x) {\n  x = x + 1;\n  return x;\n}\n"),
]


@pytest.mark.parametrize(("op", "buggy", "golden"), C_CASES, ids=[f"{c[0].value}-{i}" for i, c in enumerate(C_CASES)])
def test_c_operator_family_proposes_the_repair(op: Op, buggy: str, golden: str) -> None:
    assert fixes(buggy, golden, C, op)


MOD = "module m(input clk, input rst_n, input [7:0] a, input [7:0] b, output reg [7:0] q);\n{body}\nendmodule\n"
V_CASES = [
    (Op.RELATIONAL, "always @(posedge clk) if (a > b) q <= a;", "always @(posedge clk) if (a < b) q <= a;"),
    (Op.LOGICAL, "always @(posedge clk) q <= a | b;", "always @(posedge clk) q <= a & b;"),
    (Op.ARITHMETIC, "always @(posedge clk) q <= q + 1'b1;", "always @(posedge clk) q <= q - 1'b1;"),
    (Op.CONSTANT, "always @(posedge clk) if (q == 8'd10) q <= 8'd0;",
     "always @(posedge clk) if (q == 8'd9) q <= 8'd0;"),
    (Op.CONSTANT, "wire [6:0] lit = 7'b1111100;", "wire [6:0] lit = 7'b1111101;"),
    (Op.BLOCKING, "always @(posedge clk) q = a;", "always @(posedge clk) q <= a;"),
    (Op.BLOCKING, "always @(posedge clk) q <= a;", "always @(posedge clk) q = a;"),
    (Op.SENSITIVITY, "always @(a) q = a & b;", "always @* q = a & b;"),
    (Op.RESET, "always @(posedge clk or posedge rst_n) begin\n  if (rst_n) q <= 0; else q <= a;\nend",
     "always @(posedge clk or negedge rst_n) begin\n  if (!rst_n) q <= 0; else q <= a;\nend"),
    (Op.BIT_INDEX, "always @(posedge clk) q <= {7'd0, a[6]};", "always @(posedge clk) q <= {7'd0, a[7]};"),
    (Op.BIT_INDEX, "always @(posedge clk) q <= {a[6:3], 4'd0};", "always @(posedge clk) q <= {a[7:4], 4'd0};"),
    (Op.BIT_INDEX, "always @(posedge clk) q <= {7'd0, a[0]};", "always @(posedge clk) q <= {7'd0, a[7]};"),
    (Op.WIDTH, "reg [10:0] pp;", "reg [11:0] pp;"),
    (Op.WIDTH, "always @(posedge clk) q <= {a[3:0], 5'b00000};", "always @(posedge clk) q <= {a[3:0], 4'b0000};"),
    (Op.TERNARY, "always @(posedge clk) q <= a[0] ? b : a;", "always @(posedge clk) q <= a[0] ? a : b;"),
    (Op.NEGATE, "always @(posedge clk) if (a[0]) q <= b;", "always @(posedge clk) if (!(a[0])) q <= b;"),
    (Op.IDENTIFIER, "always @(posedge clk) q <= a;", "always @(posedge clk) q <= b;"),
    (Op.SWAP, "always @(posedge clk) q <= {a[3:0], b[3:0]};", "always @(posedge clk) q <= {b[3:0], a[3:0]};"),
    (Op.TYPE, "wire [7:0] nxt;", "reg [7:0] nxt;"),
    (Op.DELETE, "always @(posedge clk) begin\n  q <= a;\n  q <= b;\nend",
     "always @(posedge clk) begin\n  q <= a;\nend"),
    (Op.SHIFT, "always @(posedge clk) q <= a >> 1;", "always @(posedge clk) q <= a << 1;"),
]


@pytest.mark.parametrize(("op", "buggy", "golden"), V_CASES, ids=[f"{c[0].value}-{i}" for i, c in enumerate(V_CASES)])
def test_verilog_operator_family_proposes_the_repair(op: Op, buggy: str, golden: str) -> None:
    assert fixes(MOD.format(body=buggy), MOD.format(body=golden), V, op)


SAMPLE_V = MOD.format(body="always @(posedge clk or posedge rst_n) begin\n  if (rst_n) q <= 0; else q <= a;\nend")


def test_comments_strings_and_directives_are_never_edited() -> None:
    text = ('#include <stdio.h>\n/* i < n && x << 2 */\nint f(int i, int n) {\n'
            '  const char *s = "i < n";  // i <= n\n  char c = \'<\';\n  return i < n;\n}\n')
    protected = [(text.index("/*"), text.index("*/") + 2), (text.index('"i'), text.index('n";') + 2),
                 (text.index("//"), text.index("n\n  char")), (0, text.index("\n")),
                 (text.index("'<'"), text.index("'<'") + 3)]
    edits = candidate_edits(text, C)
    assert edits
    for e in edits:
        for a, b in protected:
            assert not (a <= e.offset < b) and not (e.offset < a < e.end), e


def test_verilog_directives_and_comments_are_not_tokens() -> None:
    text = "`timescale 1ns/1ps\n// a <= b\nmodule m; /* 4'd3 */ endmodule\n"
    assert [t.text for t in tokenize(text, V)] == ["module", "m", ";", "endmodule"]


def test_nonblocking_assignment_is_not_a_relational_operator() -> None:
    text = MOD.format(body="always @(posedge clk) q <= a;")
    assert not [e for e in candidate_edits(text, V, [Op.RELATIONAL]) if e.old == "<="]


def test_every_edit_applies_and_changes_the_text() -> None:
    for text, language in ((SAMPLE_C, C), (SAMPLE_V, V)):
        for e in candidate_edits(text, language):
            assert e.applies_to(text)
            assert e.apply(text) != text


def test_edit_refuses_a_text_it_was_not_made_for() -> None:
    with pytest.raises(ValueError, match="expected '<'"):
        Edit(0, "<", "<=", Op.RELATIONAL).apply("x")


def test_apply_all_rejects_overlapping_edits() -> None:
    a, b = Edit(0, "ab", "x", Op.DELETE), Edit(1, "b", "y", Op.DELETE)
    with pytest.raises(ValueError, match="overlap"):
        apply_all("abc", [a, b])
    assert apply_all("abc", [Edit(0, "a", "x", Op.DELETE), Edit(2, "c", "z", Op.DELETE)]) == "xbz"


def test_seeded_order_repeats_for_a_seed_and_differs_between_seeds() -> None:
    edits = candidate_edits(SAMPLE_C, C)
    assert seeded_order(edits, 3) == seeded_order(list(reversed(edits)), 3)
    assert seeded_order(edits, 3) != seeded_order(edits, 4)
    assert sorted(seeded_order(edits, 3)) == sorted(edits)


def test_mutants_draw_only_the_mutation_operators() -> None:
    drawn = mutants(SAMPLE_C, C, 10, seed=1)
    assert len(drawn) == 10 and {e.operator for e in drawn} <= set(MUTANT_OPERATORS)
    assert drawn == mutants(SAMPLE_C, C, 10, seed=1)


def test_unknown_operator_name_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="unknown mutation operator 'swop' \\(allowed: relational"):
        parse_operators(["relational", "swop"])


def test_language_comes_from_the_file_name() -> None:
    assert Language.of("a.cu") is Language.CUDA and Language.of("top.sv") is Language.VERILOG
    with pytest.raises(ValueError, match="no mutation operators for this file type"):
        Language.of("notes.txt")


def test_language_specific_operators_stay_in_their_language() -> None:
    c_ops = {e.operator for e in candidate_edits(SAMPLE_C, C)}
    v_ops = {e.operator for e in candidate_edits(SAMPLE_V, V)}
    assert not c_ops & {Op.BLOCKING, Op.RESET, Op.BIT_INDEX, Op.WIDTH, Op.SENSITIVITY}
    assert not v_ops & {Op.INDEX, Op.INIT, Op.GUARD}


SPECIAL_C = ("static int f(int n, const int *a, unsigned k) { return n + k; }\n"
             "void g(int x[], long m) { x[0] = m; }\n"
             "struct s h(int q) { struct s r; return r; }\n"
             "__global__ void kern(float *o, int n) { if (n) o[0] = 1; }\n"
             "int p(int (*cb)(int, int), uint8_t b) { return cb(b, 1); }\n")


def test_special_casing_mutants_return_early_for_one_value_of_an_integer_parameter() -> None:
    found = {e.apply(SPECIAL_C).splitlines()[SPECIAL_C[:e.offset].count("\n")] for e in
             candidate_edits(SPECIAL_C, C, [Op.SPECIAL])}
    assert found == {
        "static int f(int n, const int *a, unsigned k) { if (n == 0) return 0; return n + k; }",
        "static int f(int n, const int *a, unsigned k) { if (n == 1) return 0; return n + k; }",
        "static int f(int n, const int *a, unsigned k) { if (k == 0) return 0; return n + k; }",
        "static int f(int n, const int *a, unsigned k) { if (k == 1) return 0; return n + k; }",
        "void g(int x[], long m) { if (m == 0) return; x[0] = m; }",
        "void g(int x[], long m) { if (m == 1) return; x[0] = m; }",
        "__global__ void kern(float *o, int n) { if (n == 0) return; if (n) o[0] = 1; }",
        "__global__ void kern(float *o, int n) { if (n == 1) return; if (n) o[0] = 1; }",
        "int p(int (*cb)(int, int), uint8_t b) { if (b == 0) return 0; return cb(b, 1); }",
        "int p(int (*cb)(int, int), uint8_t b) { if (b == 1) return 0; return cb(b, 1); }",
    }  # no pointer, array or function-pointer parameter; nothing for a function returning a struct
    assert candidate_edits("module m(input a, output b); assign b = a; endmodule\n", V, [Op.SPECIAL]) == []


def test_special_casing_is_a_mutant_never_a_repair_candidate() -> None:
    assert Op.SPECIAL not in operators_for(C)
    assert all(e.operator is not Op.SPECIAL for e in candidate_edits(SPECIAL_C, C))  # the search's default


def test_special_casing_mutants_follow_the_seeded_sample_and_leave_it_unchanged() -> None:
    base = seeded_order(candidate_edits(SAMPLE_C + SPECIAL_C, C, MUTANT_OPERATORS), 3)[:5]
    got = mutants(SAMPLE_C + SPECIAL_C, C, 5, 3)
    assert got[:5] == base and len(got) == 15 and {e.operator for e in got[5:]} == {Op.SPECIAL}


def test_special_casing_targets_the_interface_not_the_helpers_it_calls() -> None:
    text = "static int helper(int v) { return v * 2; }\nint top(int n) { return helper(n) + 1; }\n"
    assert {e.new for e in candidate_edits(text, C, [Op.SPECIAL])} == {" if (n == 0) return 0;",
                                                                      " if (n == 1) return 0;"}
