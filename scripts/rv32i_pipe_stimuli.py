"""Directed stimuli of the rv32i_pipe hard case, and a check of its golden core against an RV32I model.

    python scripts/rv32i_pipe_stimuli.py write            # (re)write cases/rtl/hard/rv32i_pipe/stim/program_*.v
    python scripts/rv32i_pipe_stimuli.py check [--random N] [--cycles C]

`write` assembles the test programs below into stimulus files for the case's rtl-sim oracle: each
file serves instruction fetches from a ROM holding the program and loads and stores from a data
memory model, answering the golden core's requests (see pytest_hwrepair/oracles/rtl/sim.py).

`check` runs the golden core alone (Icarus Verilog) on every program and on N random programs, and
compares what it retires (pc, trap, register write) and every store it performs with an
instruction-set model of RV32I as the case's spec.md defines it. It is the evidence that the golden
design is a correct RV32I pipeline; the benchmark itself only ever compares candidates with it.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CASE = Path(__file__).resolve().parent.parent / "cases" / "rtl" / "hard" / "rv32i_pipe"
SOURCES = ["rv32i_pipe.v", "rv32i_decode.v", "rv32i_alu.v", "rv32i_regfile.v", "rv32i_lsu.v", "rv32i_hazard.v"]
MASK = 0xFFFF_FFFF
NOP = 0x0000_0013
ROM_WORDS = 1024          # the ROM answers fetches by address bits [11:2]; words past the program are NOPs
DMEM_WORDS = 256          # the data memory answers by address bits [9:2] (it repeats every 1 KiB)


def dmem_init(index: int) -> int:
    """The data memory's contents before the program runs (mirrored by the stimulus files)."""
    return ((index * 0x9E3779B9) ^ (index << 27) ^ 0x80FF7F01) & MASK


# ----------------------------------------------------------------------------------------- assembler

REG = {f"x{i}": i for i in range(32)}
REG.update(zero=0, ra=1, sp=2, gp=3, tp=4, t0=5, t1=6, t2=7, s0=8, s1=9, a0=10, a1=11, a2=12, a3=13, a4=14, a5=15)

R_OPS = {"add": (0, 0), "sub": (0x20, 0), "sll": (0, 1), "slt": (0, 2), "sltu": (0, 3), "xor": (0, 4),
         "srl": (0, 5), "sra": (0x20, 5), "or": (0, 6), "and": (0, 7)}
I_OPS = {"addi": 0, "slti": 2, "sltiu": 3, "xori": 4, "ori": 6, "andi": 7}
SHIFT_I = {"slli": (0, 1), "srli": (0, 5), "srai": (0x20, 5)}
LOADS = {"lb": 0, "lh": 1, "lw": 2, "lbu": 4, "lhu": 5}
STORES = {"sb": 0, "sh": 1, "sw": 2}
BRANCHES = {"beq": 0, "bne": 1, "blt": 4, "bge": 5, "bltu": 6, "bgeu": 7}


def enc_r(f7: int, rs2: int, rs1: int, f3: int, rd: int, op: int) -> int:
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def enc_i(imm: int, rs1: int, f3: int, rd: int, op: int) -> int:
    return ((imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def enc_s(imm: int, rs2: int, rs1: int, f3: int) -> int:
    imm &= 0xFFF
    return ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 0x1F) << 7) | 0x23


def enc_b(off: int, rs2: int, rs1: int, f3: int) -> int:
    o = off & 0x1FFF
    return ((((o >> 12) & 1) << 31) | (((o >> 5) & 0x3F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12)
            | (((o >> 1) & 0xF) << 8) | (((o >> 11) & 1) << 7) | 0x63)


def enc_u(imm20: int, rd: int, op: int) -> int:
    return ((imm20 & 0xFFFFF) << 12) | (rd << 7) | op


def enc_j(off: int, rd: int) -> int:
    o = off & 0x1FFFFF
    return ((((o >> 20) & 1) << 31) | (((o >> 1) & 0x3FF) << 21) | (((o >> 11) & 1) << 20)
            | (((o >> 12) & 0xFF) << 12) | (rd << 7) | 0x6F)


def _num(text: str, labels: dict[str, int], pc: int, *, relative: bool = False) -> int:
    text = text.strip()
    if text == ".":
        return 0 if relative else pc
    if text in labels:
        return labels[text] - pc if relative else labels[text]
    return int(text, 0)


def assemble(source: str) -> list[int]:
    """Two passes over one instruction (or `.word`) per line; `label:` lines; `#` comments."""
    lines: list[tuple[int, str]] = []
    labels: dict[str, int] = {}
    for raw in source.splitlines():
        line = raw.split("#", 1)[0].strip()
        while ":" in line:
            label, line = line.split(":", 1)
            labels[label.strip()] = 4 * len(lines)
            line = line.strip()
        if line:
            lines.append((4 * len(lines), line))
    return [_encode(line, pc, labels) for pc, line in lines]


def _encode(line: str, pc: int, labels: dict[str, int]) -> int:
    mnemonic, _, rest = line.partition(" ")
    args = [a.strip() for a in rest.split(",")] if rest.strip() else []
    r = lambda a: REG[a]  # noqa: E731
    m = mnemonic.lower()
    if m == ".word":
        return _num(args[0], labels, pc) & MASK
    if m == "nop":
        return NOP
    if m in R_OPS:
        f7, f3 = R_OPS[m]
        return enc_r(f7, r(args[2]), r(args[1]), f3, r(args[0]), 0x33)
    if m in I_OPS:
        return enc_i(_num(args[2], labels, pc), r(args[1]), I_OPS[m], r(args[0]), 0x13)
    if m in SHIFT_I:
        f7, f3 = SHIFT_I[m]
        return enc_r(f7, _num(args[2], labels, pc) & 0x1F, r(args[1]), f3, r(args[0]), 0x13)
    mem = re.fullmatch(r"(.+)\((\w+)\)", args[-1]) if args else None
    if m in LOADS and mem:
        return enc_i(_num(mem.group(1), labels, pc), r(mem.group(2)), LOADS[m], r(args[0]), 0x03)
    if m in STORES and mem:
        return enc_s(_num(mem.group(1), labels, pc), r(args[0]), r(mem.group(2)), STORES[m])
    if m in BRANCHES:
        return enc_b(_num(args[2], labels, pc, relative=True), r(args[1]), r(args[0]), BRANCHES[m])
    if m == "jal":
        return enc_j(_num(args[1], labels, pc, relative=True), r(args[0]))
    if m == "j":
        return enc_j(_num(args[0], labels, pc, relative=True), 0)
    if m == "jalr" and mem:
        return enc_i(_num(mem.group(1), labels, pc), r(mem.group(2)), 0, r(args[0]), 0x67)
    if m == "lui":
        return enc_u(_num(args[1], labels, pc), r(args[0]), 0x37)
    if m == "auipc":
        return enc_u(_num(args[1], labels, pc), r(args[0]), 0x17)
    if m == "ecall":
        return 0x0000_0073
    if m == "ebreak":
        return 0x0010_0073
    if m == "fence":
        return 0x0FF0_000F
    raise ValueError(f"cannot assemble {line!r}")


# ----------------------------------------------------------------------------------------- model

def sext(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def signed(value: int) -> int:
    return sext(value, 32)


@dataclass
class Retired:
    pc: int
    trap: bool
    rd: int       # 0 when no register is written
    data: int

    def text(self) -> str:
        return f"pc={self.pc:08x} trap={int(self.trap)} rd={self.rd} data={self.data:08x}"


@dataclass
class Iss:
    """RV32I as spec.md defines it: traps are flags only; no misaligned-fetch exception."""

    rom: list[int]
    regs: list[int] = field(default_factory=lambda: [0] * 32)
    dmem: list[int] = field(default_factory=lambda: [dmem_init(i) for i in range(DMEM_WORDS)])
    pc: int = 0
    stores: list[str] = field(default_factory=list)

    def fetch(self, pc: int) -> int:
        index = (pc >> 2) % ROM_WORDS
        return self.rom[index] if index < len(self.rom) else NOP

    def step(self) -> Retired:
        pc, insn = self.pc, self.fetch(self.pc)
        rd, rs1, rs2 = (insn >> 7) & 31, (insn >> 15) & 31, (insn >> 20) & 31
        f3, f7, op = (insn >> 12) & 7, insn >> 25, insn & 0x7F
        a, b = self.regs[rs1], self.regs[rs2]
        imm_i = sext(insn >> 20, 12)
        nxt, value, writes, trap = (pc + 4) & MASK, 0, False, False
        if op == 0x37:
            value, writes = insn & 0xFFFFF000, True
        elif op == 0x17:
            value, writes = (pc + (insn & 0xFFFFF000)) & MASK, True
        elif op == 0x6F:
            off = sext((((insn >> 31) & 1) << 20) | (((insn >> 12) & 0xFF) << 12) | (((insn >> 20) & 1) << 11)
                       | (((insn >> 21) & 0x3FF) << 1), 21)
            value, writes, nxt = (pc + 4) & MASK, True, (pc + off) & MASK
        elif op == 0x67 and f3 == 0:
            value, writes, nxt = (pc + 4) & MASK, True, (a + imm_i) & MASK & ~1
        elif op == 0x63 and f3 not in (2, 3):
            off = sext((((insn >> 31) & 1) << 12) | (((insn >> 7) & 1) << 11) | (((insn >> 25) & 0x3F) << 5)
                       | (((insn >> 8) & 0xF) << 1), 13)
            taken = {0: a == b, 1: a != b, 4: signed(a) < signed(b), 5: signed(a) >= signed(b),
                     6: a < b, 7: a >= b}[f3]
            if taken:
                nxt = (pc + off) & MASK
        elif op == 0x03 and f3 in (0, 1, 2, 4, 5):
            addr = (a + imm_i) & MASK
            size = f3 & 3
            if addr % (1 << size):
                trap = True
            else:
                word = self.dmem[(addr >> 2) % DMEM_WORDS] >> (8 * (addr & 3))
                bits = 8 << size
                value = word & ((1 << bits) - 1) if f3 & 4 or size == 2 else sext(word, bits) & MASK
                writes = True
        elif op == 0x23 and f3 in (0, 1, 2):
            addr = (a + sext(((insn >> 25) << 5) | ((insn >> 7) & 31), 12)) & MASK
            size = f3
            if addr % (1 << size):
                trap = True
            else:
                off = addr & 3
                be = ((1 << (1 << size)) - 1) << off
                data = (b << (8 * off)) & MASK
                if size < 2:
                    data &= (((1 << (8 << size)) - 1) << (8 * off))
                index = (addr >> 2) % DMEM_WORDS
                mask = sum(0xFF << (8 * k) for k in range(4) if be >> k & 1)
                self.dmem[index] = (self.dmem[index] & ~mask) | (data & mask)
                self.stores.append(f"addr={addr:08x} be={be:x} data={data:08x}")
        elif op == 0x13 and (f3 not in (1, 5) or f7 == 0 or (f3 == 5 and f7 == 0x20)):
            value, writes = self.alu((f7 >> 5 if f3 == 5 else 0) << 3 | f3, a, imm_i & MASK), True
        elif op == 0x33 and (f7 == 0 or (f7 == 0x20 and f3 in (0, 5))):
            value, writes = self.alu((f7 >> 5) << 3 | f3, a, b), True
        elif op == 0x0F and f3 == 0:
            pass
        else:
            trap = True
        if writes and rd:
            self.regs[rd] = value
        self.pc = nxt
        return Retired(pc, trap, rd if writes and rd else 0, value if writes and rd else 0)

    @staticmethod
    def alu(code: int, a: int, b: int) -> int:
        sh = b & 31
        return {0: a + b, 8: a - b, 1: a << sh, 2: int(signed(a) < signed(b)), 3: int(a < b), 4: a ^ b,
                5: a >> sh, 13: signed(a) >> sh, 6: a | b, 7: a & b}[code] & MASK


# ----------------------------------------------------------------------------------------- programs

PROGRAMS: dict[str, str] = {}

# Forwarding at distances 1, 2 and 3 on both operands, the youngest of two writers, x0 as a
# destination, load-use on rs1 and on rs2, a load feeding a store's data and a branch, and
# squashed instructions behind taken branches and jumps that would write registers if they ran.
PROGRAMS["hazards"] = """
    addi x1, x0, 5
    addi x2, x1, 7          # distance 1 on rs1
    add  x3, x1, x2         # distance 2 on rs1, 1 on rs2
    sub  x4, x3, x1         # 1 / 3
    xor  x5, x2, x4         # 3 / 1
    addi x6, x0, -1
    addi x6, x6, -2         # x6 written twice in a row
    add  x7, x6, x6         # must see -3, not -1
    addi x8, x0, 100
    addi x8, x0, 200
    nop
    add  x9, x8, x0         # two ahead and one further: the younger (200) wins
    addi x0, x0, 55         # a write to x0 is dropped
    add  x10, x0, x0        # and never forwarded
    addi x0, x1, 1
    nop
    add  x11, x0, x1        # x0 from two ahead, never forwarded
    addi x12, x0, 64
    sw   x5, 0(x12)
    lw   x13, 0(x12)
    addi x14, x13, 1        # load-use on rs1
    lw   x15, 0(x12)
    add  x16, x1, x15       # load-use on rs2
    lw   x17, 0(x12)
    sw   x17, 4(x12)        # load feeding a store's data
    lw   x18, 4(x12)
    beq  x18, x5, same      # load feeding a branch
    addi x19, x0, 111       # squashed
same:
    lw   x0, 0(x12)         # a load to x0: no stall, nothing written
    add  x20, x0, x1
    lw   x21, 0(x12)
    nop
    add  x22, x21, x21      # load two ahead: forwarded from MEM/WB, no stall
    lw   x23, 4(x12)
    nop
    nop
    add  x24, x23, x0       # three ahead: through the register file
    addi x25, x0, 1
    bne  x25, x0, over      # taken with a forwarded operand
    addi x26, x0, 1         # squashed
    addi x27, x0, 2         # squashed
over:
    jal  x28, sub1          # link register written, two squashed behind
    addi x26, x26, 3
    addi x27, x27, 4
    auipc x29, 0
    addi x30, x29, 20
    jalr x31, 0(x30)        # jump to a computed target, forwarded base
    addi x26, x0, 9         # squashed
    addi x27, x0, 9         # squashed
    addi x1, x31, 0
    add  x2, x28, x31
    blt  x6, x0, neg        # signed: -3 < 0
    addi x3, x0, 1          # squashed
neg:
    bltu x6, x0, never      # unsigned: 0xfffffffd < 0 is false
    addi x4, x0, 2
    bge  x0, x6, ge         # 0 >= -3
    addi x4, x0, 3          # squashed
ge:
    bgeu x0, x6, never      # 0 >= 0xfffffffd unsigned is false
    addi x5, x0, 4
    lw   x7, 0(x12)
    beq  x7, x7, after      # load-use on both branch operands
never:
    addi x8, x0, 13
after:
    sw   x8, 8(x12)
    lw   x9, 8(x12)
    sw   x9, 12(x12)
    lw   x10, 12(x12)
    jal  x0, finish
sub1:
    addi x24, x28, 0        # uses the link one ahead
    jalr x0, 0(x28)         # return, forwarded from two ahead
finish:
    addi x11, x0, 7
loop:
    addi x11, x11, -1
    bne  x11, x0, loop      # a loop whose counter is forwarded every trip
    ecall
    ebreak
    fence
    .word 0x0000707f        # an undefined opcode
    .word 0x02000033        # mul: not in RV32I
    lw   x1, 2(x12)         # misaligned word: traps, writes nothing
    add  x2, x1, x1         # sees the old x1
    j    .
"""

# Every store size at every offset, every load size and sign at every offset, misaligned accesses,
# and stores whose data comes from the instruction just ahead.
PROGRAMS["memory"] = """
    lui  x1, 0x80ff8
    addi x1, x1, -127       # 0x80ff7f81
    addi x2, x0, 256
    sw   x1, 0(x2)
    sb   x1, 4(x2)
    sb   x1, 9(x2)
    sb   x1, 14(x2)
    sb   x1, 19(x2)
    sh   x1, 20(x2)
    sh   x1, 26(x2)
    lw   x3, 0(x2)
    lw   x4, 4(x2)
    lw   x5, 8(x2)
    lw   x6, 12(x2)
    lw   x7, 16(x2)
    lw   x8, 20(x2)
    lw   x9, 24(x2)
    lb   x10, 0(x2)
    lb   x11, 1(x2)
    lb   x12, 2(x2)
    lb   x13, 3(x2)
    lbu  x14, 0(x2)
    lbu  x15, 1(x2)
    lbu  x16, 2(x2)
    lbu  x17, 3(x2)
    lh   x18, 0(x2)
    lh   x19, 2(x2)
    lhu  x20, 0(x2)
    lhu  x21, 2(x2)
    lh   x22, 1(x2)         # misaligned half: trap
    lw   x23, 3(x2)         # misaligned word: trap
    sh   x1, 1(x2)          # misaligned half store: trap, memory unchanged
    sw   x1, 2(x2)          # misaligned word store: trap
    lw   x24, 0(x2)
    addi x25, x0, -2
    sb   x25, 33(x2)        # store data forwarded from one ahead
    addi x26, x0, 1
    nop
    sh   x26, 34(x2)        # from two ahead
    lw   x27, 32(x2)
    lb   x28, 33(x2)
    lhu  x29, 34(x2)
    addi x3, x2, 40
    sw   x27, 0(x3)         # base forwarded from one ahead
    lw   x4, 0(x3)
    sh   x4, 2(x3)          # store data from a load: stall then forward
    lh   x5, 2(x3)
    lhu  x6, 2(x3)
    lw   x7, -4(x3)         # negative offset
    lw   x8, 1020(x0)       # top of the 1 KiB window
    lb   x9, 1023(x0)
    lbu  x10, 1022(x0)
    lh   x11, 1022(x0)
    lhu  x12, 1020(x0)
    sb   x8, 1023(x0)
    lw   x13, 1020(x0)
    lw   x14, -4(x0)        # address 0xfffffffc
    sw   x1, 0(x0)
    lw   x15, 0(x0)
    j    .
"""

# Every ALU operation on extreme operands, shifts whose register amount has bits above the low five,
# immediates of every format with the sign bit set, and a loop that multiplies by shift-and-add.
PROGRAMS["alu"] = """
    lui  x1, 0x80000        # 0x80000000
    addi x2, x0, -1         # 0xffffffff
    addi x3, x0, 1
    addi x4, x0, 33         # shift amount 1 with bit 5 set
    addi x5, x0, 63
    lui  x6, 0x7ffff
    addi x6, x6, 2047       # 0x7ffff7ff
    add  x7, x1, x2
    sub  x8, x1, x3
    sub  x9, x3, x1
    sll  x10, x3, x4
    sll  x11, x2, x5
    srl  x12, x1, x4
    srl  x13, x2, x5
    sra  x14, x1, x4
    sra  x15, x1, x5
    sra  x16, x6, x4
    slt  x17, x1, x3
    slt  x18, x3, x1
    sltu x19, x1, x3
    sltu x20, x3, x1
    slt  x21, x2, x2
    xor  x22, x1, x6
    or   x23, x1, x6
    and  x24, x2, x6
    slli x25, x3, 31
    srli x26, x1, 31
    srai x27, x1, 31
    srai x28, x6, 11
    slti x29, x2, 0
    sltiu x30, x3, -1       # 1 < 0xffffffff unsigned
    sltiu x31, x2, -1
    addi x7, x0, -2048
    addi x8, x0, 2047
    xori x9, x1, -1
    ori  x10, x3, -2048
    andi x11, x2, 1365
    slti x12, x3, -2048
    sltiu x13, x0, 1        # seqz
    lui  x14, 0xfffff
    auipc x15, 0x80000
    auipc x16, 0
    addi x17, x0, 13        # multiplicand
    addi x18, x0, 11        # multiplier
    addi x19, x0, 0         # product
mul:
    andi x20, x18, 1
    beq  x20, x0, skip
    add  x19, x19, x17
skip:
    slli x17, x17, 1
    srli x18, x18, 1
    bne  x18, x0, mul
    addi x21, x0, -5
    addi x22, x0, 3
    blt  x22, x21, bad      # 3 < -5 signed: not taken
    bltu x22, x21, good     # 3 < 0xfffffffb unsigned: taken
bad:
    addi x23, x0, -1
good:
    bge  x21, x22, bad2     # -5 >= 3: not taken
    bgeu x21, x22, good2    # taken
bad2:
    addi x24, x0, -1
good2:
    beq  x21, x22, bad3
    bne  x21, x21, bad3
    jal  x25, far
bad3:
    addi x26, x0, -1
far:
    addi x27, x25, -4
    jalr x28, 1(x27)        # bit 0 of the target is cleared: back to the jal; the two loop to the end
"""


def stimulus_file(name: str, words: list[int]) -> str:
    """A directed-run file: the program as a ROM by fetch address, a data memory answering the MEM stage."""
    rom = "\n".join(f"    10'd{i}: in_imem_rdata = 32'h{w:08x};" for i, w in enumerate(words))
    return f"""// Directed run: the `{name}` program of scripts/rv32i_pipe_stimuli.py (generated; do not edit).
// Instruction fetches are answered from the program by fetch address (words past its end are
// NOPs); loads and stores go to a 1 KiB data memory (address bits [9:2]) whose contents start as
// a fixed pattern. Both answer the golden core's requests, which the candidate must make alike.
reg [31:0] dmem [0:{DMEM_WORDS - 1}];
integer i;
if (cycle == 0)
  for (i = 0; i < {DMEM_WORDS}; i = i + 1)
    dmem[i] = (i * 32'h9e3779b9) ^ (i << 27) ^ 32'h80ff7f01;
case (gold_imem_addr[11:2])
{rom}
  default: in_imem_rdata = 32'h{NOP:08x};
endcase
in_dmem_rdata = dmem[gold_dmem_addr[9:2]];
if (gold_dmem_we) begin
  if (gold_dmem_be[0]) dmem[gold_dmem_addr[9:2]][7:0] = gold_dmem_wdata[7:0];
  if (gold_dmem_be[1]) dmem[gold_dmem_addr[9:2]][15:8] = gold_dmem_wdata[15:8];
  if (gold_dmem_be[2]) dmem[gold_dmem_addr[9:2]][23:16] = gold_dmem_wdata[23:16];
  if (gold_dmem_be[3]) dmem[gold_dmem_addr[9:2]][31:24] = gold_dmem_wdata[31:24];
end
"""


def write(folder: Path) -> list[Path]:
    (folder / "stim").mkdir(exist_ok=True)
    written = []
    for name, source in PROGRAMS.items():
        path = folder / "stim" / f"program_{name}.v"
        path.write_text(stimulus_file(name, assemble(source)), encoding="utf-8")
        written.append(path)
    return written


# ----------------------------------------------------------------------------------------- golden check

RANDOM_REGS = [0, 1, 2, 3, 4, 5]


def random_program(rng: random.Random, length: int = 200) -> list[int]:
    """Legal and illegal instructions over few registers, loads and stores near a base, short branches."""
    words: list[int] = []
    for pc in range(0, 4 * length, 4):
        reg = lambda: rng.choice(RANDOM_REGS)  # noqa: E731
        imm = rng.choice([0, 1, 2, 3, 4, -1, -4, 2047, -2048, rng.randrange(-2048, 2048)])
        kind = rng.randrange(16)
        if kind < 4:
            name = rng.choice(list(R_OPS))
            f7, f3 = R_OPS[name]
            words.append(enc_r(f7, reg(), reg(), f3, reg(), 0x33))
        elif kind < 7:
            if rng.random() < 0.3:
                f7, f3 = SHIFT_I[rng.choice(list(SHIFT_I))]
                words.append(enc_r(f7, rng.randrange(32), reg(), f3, reg(), 0x13))
            else:
                words.append(enc_i(imm, reg(), I_OPS[rng.choice(list(I_OPS))], reg(), 0x13))
        elif kind < 9:
            base = rng.choice([0, reg()])
            words.append(enc_i(rng.choice([imm, 4 * rng.randrange(64), rng.randrange(256)]), base,
                               rng.choice(list(LOADS.values())), reg(), 0x03))
        elif kind < 11:
            base = rng.choice([0, reg()])
            words.append(enc_s(rng.choice([imm, 4 * rng.randrange(64), rng.randrange(256)]), reg(), base,
                               rng.choice(list(STORES.values()))))
        elif kind < 13:
            words.append(enc_b(_hop(rng), reg(), reg(), rng.choice(list(BRANCHES.values()))))
        elif kind == 13:
            if rng.random() < 0.5:
                words.append(enc_j(_hop(rng), reg()))
            else:
                # Mostly an absolute forward target off x0 (bit 0 set now and then), else any register.
                if rng.random() < 0.7:
                    words.append(enc_i(pc + abs(_hop(rng)) + rng.choice([0, 0, 1]), 0, 0, reg(), 0x67))
                else:
                    words.append(enc_i(rng.choice([0, 4, 8, 5, -4]), reg(), 0, reg(), 0x67))
        elif kind == 14:
            words.append(enc_u(rng.randrange(1 << 20), reg(), rng.choice([0x37, 0x17])))
        else:
            words.append(rng.choice([0x73, 0x100073, 0x0FF0000F, 0x0000100F, rng.randrange(1 << 32),
                                     enc_r(1, reg(), reg(), 0, reg(), 0x33)]))
    return [*words, enc_j(-4 * length, 0)]  # round again, with the registers where the last round left them


def _hop(rng: random.Random) -> int:
    """A branch or jump offset: mostly a short hop forward, sometimes back (a loop that may not end)."""
    return 4 * (rng.randrange(-3, 0) if rng.random() < 0.03 else rng.randrange(1, 8))


CHECK_TB = """
module check_tb;
  reg clk, rst_n;
  wire [31:0] imem_addr, dmem_addr, dmem_wdata, retire_pc, retire_data;
  wire dmem_re, dmem_we, retire_valid, retire_trap, retire_we;
  wire [3:0] dmem_be;
  wire [4:0] retire_rd;
  reg [31:0] imem_rdata, dmem_rdata;
  reg [31:0] rom [0:1023];
  reg [31:0] dmem [0:255];
  integer i, cycle;
  rv32i_pipe dut (.clk(clk), .rst_n(rst_n), .imem_addr(imem_addr), .imem_rdata(imem_rdata),
    .dmem_addr(dmem_addr), .dmem_re(dmem_re), .dmem_we(dmem_we), .dmem_be(dmem_be), .dmem_wdata(dmem_wdata),
    .dmem_rdata(dmem_rdata), .retire_valid(retire_valid), .retire_pc(retire_pc), .retire_trap(retire_trap),
    .retire_we(retire_we), .retire_rd(retire_rd), .retire_data(retire_data));
  initial begin
    for (i = 0; i < 1024; i = i + 1) rom[i] = 32'h00000013;
    $readmemh("prog.hex", rom);
    for (i = 0; i < 256; i = i + 1) dmem[i] = (i * 32'h9e3779b9) ^ (i << 27) ^ 32'h80ff7f01;
    clk = 0; rst_n = 0;
    for (cycle = 0; cycle < CYCLES; cycle = cycle + 1) begin
      if (cycle == 2) rst_n = 1;
      imem_rdata = rom[imem_addr[11:2]];
      dmem_rdata = dmem[dmem_addr[9:2]];
      #4;
      if (rst_n && retire_valid)
        $display("R pc=%h trap=%0d rd=%0d data=%h", retire_pc, retire_trap, retire_rd, retire_data);
      if (rst_n && dmem_we) begin
        $display("S addr=%h be=%h data=%h", dmem_addr, dmem_be, dmem_wdata);
        if (dmem_be[0]) dmem[dmem_addr[9:2]][7:0] = dmem_wdata[7:0];
        if (dmem_be[1]) dmem[dmem_addr[9:2]][15:8] = dmem_wdata[15:8];
        if (dmem_be[2]) dmem[dmem_addr[9:2]][23:16] = dmem_wdata[23:16];
        if (dmem_be[3]) dmem[dmem_addr[9:2]][31:24] = dmem_wdata[31:24];
      end
      #1 clk = 1; #5 clk = 0;
    end
    $finish;
  end
endmodule
"""


def run_golden(words: list[int], cycles: int, work: Path) -> tuple[list[str], list[str]]:
    (work / "prog.hex").write_text("".join(f"{w:08x}\n" for w in words), encoding="utf-8")
    (work / "tb.v").write_text(CHECK_TB.replace("CYCLES", str(cycles)), encoding="utf-8")
    files = [str(CASE / s) for s in SOURCES]
    subprocess.run(["iverilog", "-g2012", "-o", "sim.vvp", "-s", "check_tb", "tb.v", *files], cwd=work,
                   check=True)
    out = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=work, check=True, capture_output=True, text=True).stdout
    retired = [line[2:] for line in out.splitlines() if line.startswith("R ")]
    stores = [line[2:] for line in out.splitlines() if line.startswith("S ")]
    return retired, stores


def compare(name: str, words: list[int], cycles: int, work: Path) -> bool:
    retired, stores = run_golden(words, cycles, work)
    iss = Iss(words)
    expected = [iss.step().text() for _ in retired]
    bad = next((i for i, (got, want) in enumerate(zip(retired, expected)) if got != want), None)
    common = min(len(stores), len(iss.stores))  # a store in MEM has not retired yet
    if bad is None and (stores[:common] != iss.stores[:common] or len(stores) - common > 1):
        bad = -1
    if bad is not None or len(retired) < cycles // 4:
        print(f"{name}: MISMATCH at retirement {bad}: got {retired[bad] if bad is not None and bad >= 0 else ''}"
              f" want {expected[bad] if bad is not None and bad >= 0 else ''}; {len(retired)} retired")
        return False
    print(f"{name}: {len(retired)} retirements and {len(stores)} stores match the model")
    return True


def check(random_programs: int, cycles: int) -> int:
    if shutil.which("iverilog") is None:
        print("needs iverilog", file=sys.stderr)
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="rv32i-check-") as tmp:
        work = Path(tmp)
        for name, source in PROGRAMS.items():
            ok &= compare(name, assemble(source), cycles, work)
        for seed in range(random_programs):
            ok &= compare(f"random-{seed}", random_program(random.Random(seed)), cycles, work)
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("write")
    c = sub.add_parser("check")
    c.add_argument("--random", type=int, default=20)
    c.add_argument("--cycles", type=int, default=1500)
    ns = parser.parse_args()
    if ns.command == "write":
        for path in write(CASE):
            print(path.relative_to(CASE))
        return 0
    return check(ns.random, ns.cycles)


if __name__ == "__main__":
    sys.exit(main())
