/*
 * mips.c -- an interpreter for a subset of the MIPS I integer instruction
 * set.
 *
 * Specification implemented:
 *   MIPS32 Architecture For Programmers, Volume II: The MIPS32 Instruction
 *   Set (MIPS Technologies), restricted to the MIPS I user-mode integer
 *   instructions listed below, with two documented simplifications:
 *     - branches and jumps take effect immediately (no branch delay slot),
 *       so a link register receives the address of the next instruction;
 *     - a BREAK instruction stops the processor.
 *   Instruction formats (R, I, J) and their bit fields, opcode and
 *   function-code assignments follow the MIPS encoding tables.
 *
 *   R-type: SLL SRL SRA SLLV SRLV SRAV JR JALR BREAK MFHI MTHI MFLO MTLO
 *           MULT MULTU DIV DIVU ADD ADDU SUB SUBU AND OR XOR NOR SLT SLTU
 *   I-type: BLTZ BGEZ (REGIMM) BEQ BNE BLEZ BGTZ ADDI ADDIU SLTI SLTIU
 *           ANDI ORI XORI LUI LB LH LW LBU LHU SB SH SW
 *   J-type: J JAL
 *
 * Memory is little-endian.  Code lives at 0x00400000, data (8 KiB,
 * including the stack) at 0x10000000.  Misaligned or out-of-range
 * accesses, unknown instructions and signed overflow of ADD/ADDI/SUB stop
 * the processor with a fault.  MULT/MULTU use an iterative shift-and-add
 * multiplier as a small hardware datapath would; a direct-mapped data
 * cache model counts hits and misses and a simple cycle count is kept.
 *
 * This file is the design.  Its interface (the mips_* functions at the
 * end) is exercised by the test driver mips_test.c, which assembles the
 * test programs, runs them and prints the final registers, data memory
 * and statistics; the harness compares that output with the output of
 * the known-good design.
 */
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Machine parameters                                                  */
/* ------------------------------------------------------------------ */
#define TEXT_BASE    0x00400000u
#define IMEM_WORDS   1024
#define DATA_BASE    0x10000000u
#define DMEM_BYTES   8192u
#define STACK_TOP    (DATA_BASE + DMEM_BYTES - 16)

/* Data cache model: direct mapped, write allocate. */
#define CACHE_BYTES  256u
#define LINE_BYTES   16u
#define NUM_SETS     (CACHE_BYTES / LINE_BYTES)
#define MISS_PENALTY 8u
#define MULT_CYCLES  4u
#define DIV_CYCLES   12u

/* Register numbers (software names). */
enum {
    ZERO = 0, AT, V0, V1, A0, A1, A2, A3,
    T0, T1, T2, T3, T4, T5, T6, T7,
    S0, S1, S2, S3, S4, S5, S6, S7,
    T8, T9, K0, K1, GP, SP, FP, RA
};

/* Primary opcodes. */
enum {
    OP_SPECIAL = 0x00, OP_REGIMM = 0x01, OP_J = 0x02, OP_JAL = 0x03,
    OP_BEQ = 0x04, OP_BNE = 0x05, OP_BLEZ = 0x06, OP_BGTZ = 0x07,
    OP_ADDI = 0x08, OP_ADDIU = 0x09, OP_SLTI = 0x0A, OP_SLTIU = 0x0B,
    OP_ANDI = 0x0C, OP_ORI = 0x0D, OP_XORI = 0x0E, OP_LUI = 0x0F,
    OP_LB = 0x20, OP_LH = 0x21, OP_LW = 0x23, OP_LBU = 0x24, OP_LHU = 0x25,
    OP_SB = 0x28, OP_SH = 0x29, OP_SW = 0x2B
};

/* SPECIAL function codes. */
enum {
    FN_SLL = 0x00, FN_SRL = 0x02, FN_SRA = 0x03, FN_SLLV = 0x04,
    FN_SRLV = 0x06, FN_SRAV = 0x07, FN_JR = 0x08, FN_JALR = 0x09,
    FN_BREAK = 0x0D, FN_MFHI = 0x10, FN_MTHI = 0x11, FN_MFLO = 0x12,
    FN_MTLO = 0x13, FN_MULT = 0x18, FN_MULTU = 0x19, FN_DIV = 0x1A,
    FN_DIVU = 0x1B, FN_ADD = 0x20, FN_ADDU = 0x21, FN_SUB = 0x22,
    FN_SUBU = 0x23, FN_AND = 0x24, FN_OR = 0x25, FN_XOR = 0x26,
    FN_NOR = 0x27, FN_SLT = 0x2A, FN_SLTU = 0x2B
};

/* REGIMM rt codes. */
enum { RI_BLTZ = 0x00, RI_BGEZ = 0x01 };

enum { FAULT_NONE, FAULT_ALIGN, FAULT_BUS, FAULT_FETCH, FAULT_RESERVED, FAULT_OVERFLOW };

/* ------------------------------------------------------------------ */
/* Processor state                                                     */
/* ------------------------------------------------------------------ */
typedef struct {
    uint32_t regs[32];
    uint32_t hi, lo;
    uint32_t pc;
    int      halted;
    int      fault;
    uint32_t fault_pc;
    uint32_t imem[IMEM_WORDS];
    uint8_t  dmem[DMEM_BYTES];
    /* statistics */
    uint32_t icount;
    uint32_t cycles;
    uint32_t hits, misses;
    uint32_t tag[NUM_SETS];
    uint8_t  valid[NUM_SETS];
} cpu_t;

static void cpu_reset(cpu_t *c)
{
    memset(c->regs, 0, sizeof c->regs);
    memset(c->imem, 0, sizeof c->imem);
    memset(c->dmem, 0, sizeof c->dmem);
    memset(c->valid, 0, sizeof c->valid);
    c->hi = 0;
    c->lo = 0;
    c->pc = TEXT_BASE;
    c->regs[SP] = STACK_TOP;
    c->halted = 0;
    c->fault = FAULT_NONE;
    c->fault_pc = 0;
    c->icount = 0;
    c->cycles = 0;
    c->hits = 0;
    c->misses = 0;
}

static void raise_fault(cpu_t *c, int f)
{
    if (c->fault == FAULT_NONE) {
        c->fault = f;
        c->fault_pc = c->pc;
    }
    c->halted = 1;
}

/* ------------------------------------------------------------------ */
/* Data memory and cache model                                         */
/* ------------------------------------------------------------------ */

static void cache_access(cpu_t *c, uint32_t addr)
{
    uint32_t line = addr / LINE_BYTES;
    uint32_t set = line % NUM_SETS;
    uint32_t tag = line / NUM_SETS;

    if (c->valid[set] && c->tag[set] == tag) {
        c->hits++;
    } else {
        c->misses++;
        c->cycles += MISS_PENALTY;
        c->valid[set] = 1;
        c->tag[set] = tag;
    }
}

/* Validate an access and return its offset into dmem, or -1. */
static int32_t mem_offset(cpu_t *c, uint32_t addr, uint32_t size)
{
    if (addr & (size - 1)) {
        raise_fault(c, FAULT_ALIGN);
        return -1;
    }
    if (addr < DATA_BASE || addr - DATA_BASE > DMEM_BYTES - size) {
        raise_fault(c, FAULT_BUS);
        return -1;
    }
    cache_access(c, addr);
    return (int32_t)(addr - DATA_BASE);
}

static uint32_t load(cpu_t *c, uint32_t addr, uint32_t size)
{
    int32_t off = mem_offset(c, addr, size);
    uint32_t v = 0, i;

    if (off < 0)
        return 0;
    for (i = 0; i < size; i++)
        v |= (uint32_t)c->dmem[off + i] << (8 * i);
    return v;
}

static void store(cpu_t *c, uint32_t addr, uint32_t size, uint32_t v)
{
    int32_t off = mem_offset(c, addr, size);
    uint32_t i;

    if (off < 0)
        return;
    for (i = 0; i < size; i++)
        c->dmem[off + i] = (uint8_t)(v >> (8 * i));
}

/* ------------------------------------------------------------------ */
/* Multiply and divide unit                                            */
/* ------------------------------------------------------------------ */

/* 32 x 32 -> 64 unsigned multiply, one multiplier bit per step. */
static uint64_t multiply_u32(uint32_t a, uint32_t b)
{
    uint64_t acc = 0;
    uint64_t addend = a;
    int step;

    for (step = 0; step < 32; step++) {
        if (b & 1)
            acc += addend;
        addend <<= 1;
        b >>= 1;
    }
    return acc;
}

static void exec_mult(cpu_t *c, uint32_t a, uint32_t b, int is_signed)
{
    uint64_t p;

    if (is_signed) {
        int neg = ((a ^ b) >> 31) & 1;
        uint32_t ma = (a >> 31) ? 0u - a : a;
        uint32_t mb = (b >> 31) ? 0u - b : b;
        p = multiply_u32(ma, mb);
        if (neg)
            p = 0 - p;
    } else {
        p = multiply_u32(a, b);
    }
    c->lo = (uint32_t)p;
    c->hi = (uint32_t)(p >> 32);
    c->cycles += MULT_CYCLES;
}

/* Division by zero leaves HI and LO unchanged (the architecture leaves
 * the result unpredictable; this model chooses "no change"). */
static void exec_div(cpu_t *c, uint32_t a, uint32_t b, int is_signed)
{
    c->cycles += DIV_CYCLES;
    if (b == 0)
        return;
    if (is_signed) {
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        if (sa == INT32_MIN && sb == -1) {
            c->lo = a;                  /* quotient overflows: wraps */
            c->hi = 0;
            return;
        }
        c->lo = (uint32_t)(sa / sb);
        c->hi = (uint32_t)(sa % sb);
    } else {
        c->lo = a / b;
        c->hi = a % b;
    }
}

/* ------------------------------------------------------------------ */
/* Instruction execution                                               */
/* ------------------------------------------------------------------ */

static uint32_t sign_extend16(uint32_t v)
{
    return (uint32_t)(int32_t)(int16_t)(uint16_t)v;
}

static uint32_t sign_extend8(uint32_t v)
{
    return (uint32_t)(int32_t)(int8_t)(uint8_t)v;
}

static void exec_special(cpu_t *c, uint32_t ins, uint32_t *next_pc)
{
    uint32_t rs = (ins >> 21) & 0x1F;
    uint32_t rt = (ins >> 16) & 0x1F;
    uint32_t rd = (ins >> 11) & 0x1F;
    uint32_t sa = (ins >> 6) & 0x1F;
    uint32_t fn = ins & 0x3F;
    uint32_t a = c->regs[rs], b = c->regs[rt];
    uint32_t r;

    switch (fn) {
    case FN_SLL:  c->regs[rd] = b << sa; break;
    case FN_SRL:  c->regs[rd] = b >> sa; break;
    case FN_SRA:  c->regs[rd] = (uint32_t)((int32_t)b >> sa); break;
    case FN_SLLV: c->regs[rd] = b << (a & 0x1F); break;
    case FN_SRLV: c->regs[rd] = b >> (a & 0x1F); break;
    case FN_SRAV: c->regs[rd] = (uint32_t)((int32_t)b >> (a & 0x1F)); break;
    case FN_JR:   *next_pc = a; break;
    case FN_JALR:
        c->regs[rd] = *next_pc;
        *next_pc = a;
        break;
    case FN_BREAK: c->halted = 1; break;
    case FN_MFHI: c->regs[rd] = c->hi; break;
    case FN_MTHI: c->hi = a; break;
    case FN_MFLO: c->regs[rd] = c->lo; break;
    case FN_MTLO: c->lo = a; break;
    case FN_MULT:  exec_mult(c, a, b, 1); break;
    case FN_MULTU: exec_mult(c, a, b, 0); break;
    case FN_DIV:   exec_div(c, a, b, 1); break;
    case FN_DIVU:  exec_div(c, a, b, 0); break;
    case FN_ADD:
        r = a + b;
        if (((a ^ r) & (b ^ r)) >> 31)   /* operands agree, result differs */
            raise_fault(c, FAULT_OVERFLOW);
        else
            c->regs[rd] = r;
        break;
    case FN_ADDU: c->regs[rd] = a + b; break;
    case FN_SUB:
        r = a - b;
        if (((a ^ b) & (a ^ r)) >> 31)
            raise_fault(c, FAULT_OVERFLOW);
        else
            c->regs[rd] = r;
        break;
    case FN_SUBU: c->regs[rd] = a - b; break;
    case FN_AND:  c->regs[rd] = a & b; break;
    case FN_OR:   c->regs[rd] = a | b; break;
    case FN_XOR:  c->regs[rd] = a ^ b; break;
    case FN_NOR:  c->regs[rd] = ~(a | b); break;
    case FN_SLT:  c->regs[rd] = (int32_t)a < (int32_t)b; break;
    case FN_SLTU: c->regs[rd] = a < b; break;
    default:      raise_fault(c, FAULT_RESERVED); break;
    }
}

/* Execute one instruction at c->pc. */
static void step(cpu_t *c)
{
    uint32_t index = (c->pc - TEXT_BASE) >> 2;
    uint32_t ins, op, rs, rt, imm, simm, a, b, addr;
    uint32_t next_pc = c->pc + 4;
    uint32_t half;

    if ((c->pc & 3) || c->pc < TEXT_BASE || index >= IMEM_WORDS) {
        raise_fault(c, FAULT_FETCH);
        return;
    }
    ins = c->imem[index];
    op = ins >> 26;
    rs = (ins >> 21) & 0x1F;
    rt = (ins >> 16) & 0x1F;
    imm = ins & 0xFFFF;
    simm = sign_extend16(imm);
    a = c->regs[rs];
    b = c->regs[rt];
    c->icount++;
    c->cycles++;

    switch (op) {
    case OP_SPECIAL:
        exec_special(c, ins, &next_pc);
        break;
    case OP_REGIMM:
        if (rt == RI_BLTZ) {
            if ((int32_t)a < 0)
                next_pc = c->pc + 4 + (simm << 2);
        } else if (rt == RI_BGEZ) {
            if ((int32_t)a >= 0)
                next_pc = c->pc + 4 + (simm << 2);
        } else {
            raise_fault(c, FAULT_RESERVED);
        }
        break;
    case OP_J:
        next_pc = (next_pc & 0xF0000000u) | ((ins & 0x03FFFFFFu) << 2);
        break;
    case OP_JAL:
        c->regs[RA] = next_pc;
        next_pc = (next_pc & 0xF0000000u) | ((ins & 0x03FFFFFFu) << 2);
        break;
    case OP_BEQ:  if (a == b) next_pc = c->pc + 4 + (simm << 2); break;
    case OP_BNE:  if (a != b) next_pc = c->pc + 4 + (simm << 2); break;
    case OP_BLEZ: if ((int32_t)a <= 0) next_pc = c->pc + 4 + (simm << 2); break;
    case OP_BGTZ: if ((int32_t)a > 0) next_pc = c->pc + 4 + (simm << 2); break;
    case OP_ADDI:
        if (((a ^ (a + simm)) & (simm ^ (a + simm))) >> 31)
            raise_fault(c, FAULT_OVERFLOW);
        else
            c->regs[rt] = a + simm;
        break;
    case OP_ADDIU: c->regs[rt] = a + simm; break;
    case OP_SLTI:  c->regs[rt] = (int32_t)a < (int32_t)simm; break;
    case OP_SLTIU: c->regs[rt] = a < simm; break;     /* compares the sign-extended immediate unsigned */
    case OP_ANDI:  c->regs[rt] = a & imm; break;
    case OP_ORI:   c->regs[rt] = a | imm; break;
    case OP_XORI:  c->regs[rt] = a ^ imm; break;
    case OP_LUI:   c->regs[rt] = imm << 16; break;
    case OP_LB:
        addr = a + simm;
        c->regs[rt] = sign_extend8(load(c, addr, 1));
        break;
    case OP_LBU:
        addr = a + simm;
        c->regs[rt] = load(c, addr, 1);
        break;
    case OP_LH:
        addr = a + simm;
        half = load(c, addr, 2);
        c->regs[rt] = sign_extend16(half);
        break;
    case OP_LHU:
        addr = a + simm;
        half = load(c, addr, 2);
        c->regs[rt] = half;
        break;
    case OP_LW:
        addr = a + simm;
        c->regs[rt] = load(c, addr, 4);
        break;
    case OP_SB: store(c, a + simm, 1, b); break;
    case OP_SH: store(c, a + simm, 2, b); break;
    case OP_SW: store(c, a + simm, 4, b); break;
    default:
        raise_fault(c, FAULT_RESERVED);
        break;
    }
    c->regs[ZERO] = 0;                   /* $zero is hard-wired */
    if (c->fault == FAULT_NONE)
        c->pc = next_pc;
}

static void run(cpu_t *c)
{
    while (!c->halted)
        step(c);
}

/* ------------------------------------------------------------------ */
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

static cpu_t cpu;                        /* the processor the interface drives */

void mips_reset(void)
{
    cpu_reset(&cpu);
}

/* places n instruction words at TEXT_BASE; -1 when they do not fit */
int mips_load(const uint32_t *code, int n)
{
    int i;
    if (n < 0 || n > IMEM_WORDS)
        return -1;
    for (i = 0; i < n; i++)
        cpu.imem[i] = code[i];
    return 0;
}

/* host-side access to data memory (offsets from DATA_BASE); it does not
 * touch the cache statistics.  Accesses outside the memory are ignored. */
void mips_write(uint32_t off, const uint8_t *p, uint32_t n)
{
    if (off <= DMEM_BYTES && n <= DMEM_BYTES - off)
        memcpy(cpu.dmem + off, p, n);
}

void mips_read(uint32_t off, uint8_t *p, uint32_t n)
{
    if (off <= DMEM_BYTES && n <= DMEM_BYTES - off)
        memcpy(p, cpu.dmem + off, n);
}

/* runs until the processor halts, or for at most max_steps instructions
 * (max_steps = 0: no limit) */
void mips_run(uint32_t max_steps)
{
    uint32_t n;
    if (max_steps == 0) {
        run(&cpu);
        return;
    }
    for (n = 0; n < max_steps && !cpu.halted; n++)
        step(&cpu);
}

/* the processor state: regs[0..31], hi, lo, pc, halted, fault, fault_pc,
 * icount, cycles, hits, misses (42 words) */
void mips_state(uint32_t *s)
{
    memcpy(s, cpu.regs, sizeof cpu.regs);
    s[32] = cpu.hi;
    s[33] = cpu.lo;
    s[34] = cpu.pc;
    s[35] = (uint32_t)cpu.halted;
    s[36] = (uint32_t)cpu.fault;
    s[37] = cpu.fault_pc;
    s[38] = cpu.icount;
    s[39] = cpu.cycles;
    s[40] = cpu.hits;
    s[41] = cpu.misses;
}
