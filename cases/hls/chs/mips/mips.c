/*
 * mips.c -- an interpreter for a subset of the MIPS I integer instruction
 * set, with a tiny in-file assembler and six self-checking test programs.
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
 * Self-check: each test program is assembled, run to its BREAK, and its
 * result area in data memory is compared with the same computation done
 * natively in C; the final instruction count, cycle count and cache
 * statistics of every program are compared with embedded expected values.
 * main() prints the number of mismatches and returns it (capped at 255).
 */
#include <stdio.h>
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
#define IN_OFF       0x0000u          /* program inputs              */
#define OUT_OFF      0x0800u          /* program results             */
#define TAB_OFF      0x1000u          /* auxiliary tables            */

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
static const char *const fault_name[] = {
    "none", "misaligned access", "bus error", "fetch outside text",
    "reserved instruction", "integer overflow"
};

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

/* Host-side accessors used to place inputs and read results (they do
 * not touch the cache statistics). */
static void poke32(cpu_t *c, uint32_t off, uint32_t v)
{
    c->dmem[off] = (uint8_t)v;
    c->dmem[off + 1] = (uint8_t)(v >> 8);
    c->dmem[off + 2] = (uint8_t)(v >> 16);
    c->dmem[off + 3] = (uint8_t)(v >> 24);
}

static uint32_t peek32(const cpu_t *c, uint32_t off)
{
    return (uint32_t)c->dmem[off] | ((uint32_t)c->dmem[off + 1] << 8)
         | ((uint32_t)c->dmem[off + 2] << 16) | ((uint32_t)c->dmem[off + 3] << 24);
}

static void poke16(cpu_t *c, uint32_t off, uint16_t v)
{
    c->dmem[off] = (uint8_t)v;
    c->dmem[off + 1] = (uint8_t)(v >> 8);
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
/* A tiny assembler                                                    */
/* ------------------------------------------------------------------ */
#define MAX_LABELS  64
#define MAX_FIXUPS  128

enum { FIX_BRANCH, FIX_JUMP };

typedef struct {
    int at;        /* word index of the instruction to patch */
    int label;
    int kind;
} fixup_t;

typedef struct {
    uint32_t code[IMEM_WORDS];
    int n;
    int label_at[MAX_LABELS];
    int nlabels;
    fixup_t fix[MAX_FIXUPS];
    int nfix;
    int errors;
} asm_t;

static void asm_init(asm_t *as)
{
    as->n = 0;
    as->nlabels = 0;
    as->nfix = 0;
    as->errors = 0;
}

static int new_label(asm_t *as)
{
    if (as->nlabels >= MAX_LABELS) {
        as->errors++;
        return 0;
    }
    as->label_at[as->nlabels] = -1;
    return as->nlabels++;
}

static void bind(asm_t *as, int label)
{
    as->label_at[label] = as->n;
}

static void emit(asm_t *as, uint32_t w)
{
    if (as->n >= IMEM_WORDS) {
        as->errors++;
        return;
    }
    as->code[as->n++] = w;
}

static void add_fixup(asm_t *as, int label, int kind)
{
    if (as->nfix >= MAX_FIXUPS) {
        as->errors++;
        return;
    }
    as->fix[as->nfix].at = as->n;
    as->fix[as->nfix].label = label;
    as->fix[as->nfix].kind = kind;
    as->nfix++;
}

static uint32_t label_addr(const asm_t *as, int label)
{
    return TEXT_BASE + 4u * (uint32_t)as->label_at[label];
}

/* Resolve every branch and jump target. */
static void asm_finish(asm_t *as)
{
    int i;
    for (i = 0; i < as->nfix; i++) {
        const fixup_t *f = &as->fix[i];
        int target = as->label_at[f->label];
        if (target < 0) {
            as->errors++;
            continue;
        }
        if (f->kind == FIX_BRANCH) {
            int32_t off = target - (f->at + 1);
            as->code[f->at] |= (uint32_t)off & 0xFFFFu;
        } else {
            as->code[f->at] |= (label_addr(as, f->label) >> 2) & 0x03FFFFFFu;
        }
    }
}

static uint32_t enc_r(unsigned rs, unsigned rt, unsigned rd, unsigned sa, unsigned fn)
{
    return ((uint32_t)OP_SPECIAL << 26) | ((uint32_t)rs << 21) | ((uint32_t)rt << 16)
         | ((uint32_t)rd << 11) | ((uint32_t)sa << 6) | fn;
}

static uint32_t enc_i(unsigned op, unsigned rs, unsigned rt, uint32_t imm)
{
    return ((uint32_t)op << 26) | ((uint32_t)rs << 21) | ((uint32_t)rt << 16) | (imm & 0xFFFFu);
}

/* R-type mnemonics */
static void addu(asm_t *s, int rd, int rs, int rt) { emit(s, enc_r(rs, rt, rd, 0, FN_ADDU)); }
static void add(asm_t *s, int rd, int rs, int rt)  { emit(s, enc_r(rs, rt, rd, 0, FN_ADD)); }
static void subu(asm_t *s, int rd, int rs, int rt) { emit(s, enc_r(rs, rt, rd, 0, FN_SUBU)); }
static void and_(asm_t *s, int rd, int rs, int rt) { emit(s, enc_r(rs, rt, rd, 0, FN_AND)); }
static void or_(asm_t *s, int rd, int rs, int rt)  { emit(s, enc_r(rs, rt, rd, 0, FN_OR)); }
static void xor_(asm_t *s, int rd, int rs, int rt) { emit(s, enc_r(rs, rt, rd, 0, FN_XOR)); }
static void nor(asm_t *s, int rd, int rs, int rt)  { emit(s, enc_r(rs, rt, rd, 0, FN_NOR)); }
static void slt(asm_t *s, int rd, int rs, int rt)  { emit(s, enc_r(rs, rt, rd, 0, FN_SLT)); }
static void sltu(asm_t *s, int rd, int rs, int rt) { emit(s, enc_r(rs, rt, rd, 0, FN_SLTU)); }
static void sll(asm_t *s, int rd, int rt, int sa)  { emit(s, enc_r(0, rt, rd, sa, FN_SLL)); }
static void srl(asm_t *s, int rd, int rt, int sa)  { emit(s, enc_r(0, rt, rd, sa, FN_SRL)); }
static void sra(asm_t *s, int rd, int rt, int sa)  { emit(s, enc_r(0, rt, rd, sa, FN_SRA)); }
static void sllv(asm_t *s, int rd, int rt, int rs) { emit(s, enc_r(rs, rt, rd, 0, FN_SLLV)); }
static void srlv(asm_t *s, int rd, int rt, int rs) { emit(s, enc_r(rs, rt, rd, 0, FN_SRLV)); }
static void srav(asm_t *s, int rd, int rt, int rs) { emit(s, enc_r(rs, rt, rd, 0, FN_SRAV)); }
static void jr(asm_t *s, int rs)                   { emit(s, enc_r(rs, 0, 0, 0, FN_JR)); }
static void jalr(asm_t *s, int rd, int rs)         { emit(s, enc_r(rs, 0, rd, 0, FN_JALR)); }
static void brk(asm_t *s)                          { emit(s, enc_r(0, 0, 0, 0, FN_BREAK)); }
static void mfhi(asm_t *s, int rd)                 { emit(s, enc_r(0, 0, rd, 0, FN_MFHI)); }
static void mflo(asm_t *s, int rd)                 { emit(s, enc_r(0, 0, rd, 0, FN_MFLO)); }
static void mthi(asm_t *s, int rs)                 { emit(s, enc_r(rs, 0, 0, 0, FN_MTHI)); }
static void mtlo(asm_t *s, int rs)                 { emit(s, enc_r(rs, 0, 0, 0, FN_MTLO)); }
static void mult(asm_t *s, int rs, int rt)         { emit(s, enc_r(rs, rt, 0, 0, FN_MULT)); }
static void multu(asm_t *s, int rs, int rt)        { emit(s, enc_r(rs, rt, 0, 0, FN_MULTU)); }
static void div_(asm_t *s, int rs, int rt)         { emit(s, enc_r(rs, rt, 0, 0, FN_DIV)); }
static void divu(asm_t *s, int rs, int rt)         { emit(s, enc_r(rs, rt, 0, 0, FN_DIVU)); }

/* I-type mnemonics */
static void addiu(asm_t *s, int rt, int rs, int32_t v) { emit(s, enc_i(OP_ADDIU, rs, rt, (uint32_t)v)); }
static void addi(asm_t *s, int rt, int rs, int32_t v)  { emit(s, enc_i(OP_ADDI, rs, rt, (uint32_t)v)); }
static void slti(asm_t *s, int rt, int rs, int32_t v)  { emit(s, enc_i(OP_SLTI, rs, rt, (uint32_t)v)); }
static void sltiu(asm_t *s, int rt, int rs, int32_t v) { emit(s, enc_i(OP_SLTIU, rs, rt, (uint32_t)v)); }
static void andi(asm_t *s, int rt, int rs, uint32_t v) { emit(s, enc_i(OP_ANDI, rs, rt, v)); }
static void ori(asm_t *s, int rt, int rs, uint32_t v)  { emit(s, enc_i(OP_ORI, rs, rt, v)); }
static void xori(asm_t *s, int rt, int rs, uint32_t v) { emit(s, enc_i(OP_XORI, rs, rt, v)); }
static void lui(asm_t *s, int rt, uint32_t v)          { emit(s, enc_i(OP_LUI, 0, rt, v)); }
static void lw(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_LW, rs, rt, (uint32_t)off)); }
static void lh(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_LH, rs, rt, (uint32_t)off)); }
static void lhu(asm_t *s, int rt, int32_t off, int rs) { emit(s, enc_i(OP_LHU, rs, rt, (uint32_t)off)); }
static void lb(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_LB, rs, rt, (uint32_t)off)); }
static void lbu(asm_t *s, int rt, int32_t off, int rs) { emit(s, enc_i(OP_LBU, rs, rt, (uint32_t)off)); }
static void sw(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_SW, rs, rt, (uint32_t)off)); }
static void sh(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_SH, rs, rt, (uint32_t)off)); }
static void sb(asm_t *s, int rt, int32_t off, int rs)  { emit(s, enc_i(OP_SB, rs, rt, (uint32_t)off)); }

/* Branches and jumps to labels */
static void beq(asm_t *s, int rs, int rt, int l)  { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_BEQ, rs, rt, 0)); }
static void bne(asm_t *s, int rs, int rt, int l)  { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_BNE, rs, rt, 0)); }
static void blez(asm_t *s, int rs, int l)         { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_BLEZ, rs, 0, 0)); }
static void bgtz(asm_t *s, int rs, int l)         { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_BGTZ, rs, 0, 0)); }
static void bltz(asm_t *s, int rs, int l)         { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_REGIMM, rs, RI_BLTZ, 0)); }
static void bgez(asm_t *s, int rs, int l)         { add_fixup(s, l, FIX_BRANCH); emit(s, enc_i(OP_REGIMM, rs, RI_BGEZ, 0)); }
static void j(asm_t *s, int l)                    { add_fixup(s, l, FIX_JUMP); emit(s, (uint32_t)OP_J << 26); }
static void jal(asm_t *s, int l)                  { add_fixup(s, l, FIX_JUMP); emit(s, (uint32_t)OP_JAL << 26); }

/* Pseudo-instructions */
static void move(asm_t *s, int rd, int rs) { addu(s, rd, rs, ZERO); }
static void li(asm_t *s, int rt, uint32_t v)
{
    if (v < 0x8000u || v >= 0xFFFF8000u) {
        addiu(s, rt, ZERO, (int32_t)v);
    } else {
        lui(s, rt, v >> 16);
        if (v & 0xFFFFu)
            ori(s, rt, rt, v & 0xFFFFu);
    }
}
static void la_data(asm_t *s, int rt, uint32_t off) { li(s, rt, DATA_BASE + off); }

/* ------------------------------------------------------------------ */
/* Test bookkeeping                                                    */
/* ------------------------------------------------------------------ */
static unsigned mismatches;
static unsigned checks;

static void expect(const char *prog, const char *what, unsigned idx,
                   uint32_t got, uint32_t want)
{
    checks++;
    if (got != want) {
        if (mismatches < 10)
            printf("MISMATCH %s %s[%u]: got %08x want %08x\n",
                   prog, what, idx, (unsigned)got, (unsigned)want);
        mismatches++;
    }
}

static uint32_t lcg = 0x2545F491u;
static uint32_t rnd(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg;
}

/* Load an assembled program, run it and check the common post-conditions. */
static void load_and_run(cpu_t *c, asm_t *as, const char *name)
{
    int i;

    asm_finish(as);
    expect(name, "asm_errors", 0, (uint32_t)as->errors, 0);
    for (i = 0; i < as->n; i++)
        c->imem[i] = as->code[i];
    run(c);
    if (c->fault != FAULT_NONE)
        printf("%s: fault '%s' at pc %08x\n", name, fault_name[c->fault], (unsigned)c->fault_pc);
    expect(name, "fault", 0, (uint32_t)c->fault, FAULT_NONE);
}

typedef struct {
    const char *name;
    uint32_t icount, cycles, hits, misses;
} stats_t;

/* Expected statistics of every program (instruction count, cycles,
 * cache hits and misses). */
static const stats_t expected_stats[] = {
    { "alu", 646u, 1222u, 204u, 72u },
    { "sort", 4534u, 4622u, 934u, 11u },
    { "muldiv", 345u, 965u, 77u, 27u },
    { "bytes", 1610u, 1754u, 293u, 18u },
    { "calls", 54827u, 55091u, 15440u, 30u },
    { "crc", 6635u, 6699u, 99u, 8u },
    { "hist", 3809u, 4265u, 545u, 57u }
};

static void check_stats(const cpu_t *c, int prog)
{
    const stats_t *e = &expected_stats[prog];
    printf("%-6s icount=%u cycles=%u hits=%u misses=%u\n", e->name,
           (unsigned)c->icount, (unsigned)c->cycles, (unsigned)c->hits, (unsigned)c->misses);
    expect(e->name, "icount", 0, c->icount, e->icount);
    expect(e->name, "cycles", 0, c->cycles, e->cycles);
    expect(e->name, "hits", 0, c->hits, e->hits);
    expect(e->name, "misses", 0, c->misses, e->misses);
}

/* ------------------------------------------------------------------ */
/* Program 0: ALU operations on a table of operand pairs               */
/* ------------------------------------------------------------------ */
#define ALU_PAIRS 12
#define ALU_RESULTS 21

static const uint32_t alu_a[ALU_PAIRS] = {
    0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x12345678u,
    0xDEADBEEFu, 0x0000FFFFu, 0xFFFF0000u, 0x00000021u, 0xC0000003u, 0x55AA55AAu
};
static const uint32_t alu_b[ALU_PAIRS] = {
    0x00000000u, 0xFFFFFFFFu, 0x00000001u, 0x80000000u, 0x0000001Fu, 0x9ABCDEF0u,
    0x00000004u, 0xFFFF0000u, 0x00000010u, 0xFFFFFFE1u, 0x00000023u, 0xAA55AA55u
};

static void alu_reference(uint32_t a, uint32_t b, uint32_t *r)
{
    r[0] = a + b;
    r[1] = a - b;
    r[2] = a & b;
    r[3] = a | b;
    r[4] = a ^ b;
    r[5] = ~(a | b);
    r[6] = (int32_t)a < (int32_t)b;
    r[7] = a < b;
    r[8] = b << (a & 31);
    r[9] = b >> (a & 31);
    r[10] = (uint32_t)((int32_t)b >> (a & 31));
    r[11] = a << 7;
    r[12] = a >> 13;
    r[13] = (uint32_t)((int32_t)a >> 9);
    r[14] = a + 0xFFFF8001u;                 /* addiu -32767 */
    r[15] = (int32_t)a < -5;                 /* slti -5      */
    r[16] = a < 0xFFFFFFF0u;                 /* sltiu -16    */
    r[17] = (a & 0xF0F0u) | 0x8000u;         /* andi, ori    */
    r[18] = (a ^ 0xA5A5u) + 0x7ABC0000u;     /* xori, lui    */
    r[19] = (uint32_t)((int32_t)(a << 16) >> 16);  /* sll/sra sign-extension */
    r[20] = ((int32_t)a >= 0) ? a : 0u - a;         /* |a| with BGEZ */
}

static void prog_alu(cpu_t *c)
{
    asm_t as;
    int loop, pos, k;
    uint32_t want[ALU_RESULTS];

    cpu_reset(c);
    for (k = 0; k < ALU_PAIRS; k++) {
        poke32(c, IN_OFF + 8u * k, alu_a[k]);
        poke32(c, IN_OFF + 8u * k + 4, alu_b[k]);
    }
    asm_init(&as);
    loop = new_label(&as);
    pos = new_label(&as);
    la_data(&as, S0, IN_OFF);           /* s0: operand pointer */
    la_data(&as, S1, OUT_OFF);          /* s1: result pointer  */
    li(&as, S2, ALU_PAIRS);             /* s2: pairs left      */
    bind(&as, loop);
    lw(&as, T0, 0, S0);
    lw(&as, T1, 4, S0);
    addu(&as, T2, T0, T1);   sw(&as, T2, 0, S1);
    subu(&as, T2, T0, T1);   sw(&as, T2, 4, S1);
    and_(&as, T2, T0, T1);   sw(&as, T2, 8, S1);
    or_(&as, T2, T0, T1);    sw(&as, T2, 12, S1);
    xor_(&as, T2, T0, T1);   sw(&as, T2, 16, S1);
    nor(&as, T2, T0, T1);    sw(&as, T2, 20, S1);
    slt(&as, T2, T0, T1);    sw(&as, T2, 24, S1);
    sltu(&as, T2, T0, T1);   sw(&as, T2, 28, S1);
    sllv(&as, T2, T1, T0);   sw(&as, T2, 32, S1);
    srlv(&as, T2, T1, T0);   sw(&as, T2, 36, S1);
    srav(&as, T2, T1, T0);   sw(&as, T2, 40, S1);
    sll(&as, T2, T0, 7);     sw(&as, T2, 44, S1);
    srl(&as, T2, T0, 13);    sw(&as, T2, 48, S1);
    sra(&as, T2, T0, 9);     sw(&as, T2, 52, S1);
    addiu(&as, T2, T0, -32767); sw(&as, T2, 56, S1);
    slti(&as, T2, T0, -5);   sw(&as, T2, 60, S1);
    sltiu(&as, T2, T0, -16); sw(&as, T2, 64, S1);
    andi(&as, T2, T0, 0xF0F0u); ori(&as, T2, T2, 0x8000u); sw(&as, T2, 68, S1);
    xori(&as, T2, T0, 0xA5A5u); lui(&as, T3, 0x7ABCu); addu(&as, T2, T2, T3); sw(&as, T2, 72, S1);
    sll(&as, T2, T0, 16);    sra(&as, T2, T2, 16);    sw(&as, T2, 76, S1);
    move(&as, T2, T0);
    bgez(&as, T0, pos);
    subu(&as, T2, ZERO, T0);
    bind(&as, pos);
    sw(&as, T2, 80, S1);
    addiu(&as, S0, S0, 8);
    addiu(&as, S1, S1, 4 * ALU_RESULTS);
    addiu(&as, S2, S2, -1);
    bgtz(&as, S2, loop);
    brk(&as);
    load_and_run(c, &as, "alu");

    for (k = 0; k < ALU_PAIRS; k++) {
        int r;
        alu_reference(alu_a[k], alu_b[k], want);
        for (r = 0; r < ALU_RESULTS; r++)
            expect("alu", "result", (unsigned)(k * ALU_RESULTS + r),
                   peek32(c, OUT_OFF + 4u * (k * ALU_RESULTS + r)), want[r]);
    }
    check_stats(c, 0);
}

/* ------------------------------------------------------------------ */
/* Program 1: insertion sort of signed words, then a checksum          */
/* ------------------------------------------------------------------ */
#define SORT_N 40

static void prog_sort(cpu_t *c)
{
    asm_t as;
    int32_t ref[SORT_N];
    int L_outer, L_inner, L_place, L_sorted, L_csum;
    int i, k;
    uint32_t h;

    cpu_reset(c);
    for (i = 0; i < SORT_N; i++) {
        ref[i] = (int32_t)rnd() >> (rnd() % 20);
        poke32(c, IN_OFF + 4u * i, (uint32_t)ref[i]);
    }
    asm_init(&as);
    L_outer = new_label(&as);
    L_inner = new_label(&as);
    L_place = new_label(&as);
    L_sorted = new_label(&as);
    L_csum = new_label(&as);

    la_data(&as, S0, IN_OFF);
    li(&as, S1, SORT_N);
    li(&as, T0, 1);                      /* i = 1 */
    bind(&as, L_outer);
    slt(&as, T9, T0, S1);
    beq(&as, T9, ZERO, L_sorted);
    sll(&as, T1, T0, 2);
    addu(&as, T1, S0, T1);
    lw(&as, T2, 0, T1);                  /* key = a[i] */
    addiu(&as, T3, T0, -1);              /* j = i - 1  */
    bind(&as, L_inner);
    bltz(&as, T3, L_place);
    sll(&as, T4, T3, 2);
    addu(&as, T4, S0, T4);
    lw(&as, T5, 0, T4);                  /* a[j] */
    slt(&as, T9, T2, T5);
    beq(&as, T9, ZERO, L_place);
    sw(&as, T5, 4, T4);                  /* a[j+1] = a[j] */
    addiu(&as, T3, T3, -1);
    j(&as, L_inner);
    bind(&as, L_place);
    addiu(&as, T4, T3, 1);
    sll(&as, T4, T4, 2);
    addu(&as, T4, S0, T4);
    sw(&as, T2, 0, T4);
    addi(&as, T0, T0, 1);
    j(&as, L_outer);
    bind(&as, L_sorted);
    move(&as, V0, ZERO);                 /* h = 0 */
    move(&as, T0, ZERO);
    move(&as, T1, S0);
    bind(&as, L_csum);
    lw(&as, T2, 0, T1);
    sll(&as, T3, V0, 5);
    subu(&as, V0, T3, V0);               /* h = h * 31 */
    addu(&as, V0, V0, T2);
    addiu(&as, T1, T1, 4);
    addiu(&as, T0, T0, 1);
    bne(&as, T0, S1, L_csum);
    la_data(&as, T8, OUT_OFF);
    sw(&as, V0, 0, T8);
    brk(&as);
    load_and_run(c, &as, "sort");

    /* reference: insertion sort on the host */
    for (i = 1; i < SORT_N; i++) {
        int32_t key = ref[i];
        k = i - 1;
        while (k >= 0 && key < ref[k]) {
            ref[k + 1] = ref[k];
            k--;
        }
        ref[k + 1] = key;
    }
    h = 0;
    for (i = 0; i < SORT_N; i++) {
        expect("sort", "a", (unsigned)i, peek32(c, IN_OFF + 4u * i), (uint32_t)ref[i]);
        h = h * 31u + (uint32_t)ref[i];
    }
    expect("sort", "checksum", 0, peek32(c, OUT_OFF), h);
    check_stats(c, 1);
}

/* ------------------------------------------------------------------ */
/* Program 2: multiply / divide through HI and LO, and a GCD loop       */
/* ------------------------------------------------------------------ */
#define MD_PAIRS 10

static const uint32_t md_a[MD_PAIRS] = {
    7u, 0xFFFFFFF9u, 0x7FFFFFFFu, 0x80000000u, 123456789u,
    0xFFFFFFFFu, 0x00010001u, 1000000007u, 0xCAFEBABEu, 0x80000000u
};
static const uint32_t md_b[MD_PAIRS] = {
    3u, 3u, 0x7FFFFFFFu, 0x00000007u, 0xFFFFFF85u,
    0xFFFFFFFFu, 0x0000FFFFu, 998244353u, 0x00001234u, 0xFFFFFFFFu
};

static void prog_muldiv(cpu_t *c)
{
    asm_t as;
    int L_loop, L_gcd, L_gcd_done;
    int k;

    cpu_reset(c);
    for (k = 0; k < MD_PAIRS; k++) {
        poke32(c, IN_OFF + 8u * k, md_a[k]);
        poke32(c, IN_OFF + 8u * k + 4, md_b[k]);
    }
    asm_init(&as);
    L_loop = new_label(&as);
    L_gcd = new_label(&as);
    L_gcd_done = new_label(&as);

    la_data(&as, S0, IN_OFF);
    la_data(&as, S1, OUT_OFF);
    li(&as, S2, MD_PAIRS);
    bind(&as, L_loop);
    lw(&as, T0, 0, S0);
    lw(&as, T1, 4, S0);
    mult(&as, T0, T1);   mfhi(&as, T2); mflo(&as, T3); sw(&as, T2, 0, S1);  sw(&as, T3, 4, S1);
    multu(&as, T0, T1);  mfhi(&as, T2); mflo(&as, T3); sw(&as, T2, 8, S1);  sw(&as, T3, 12, S1);
    div_(&as, T0, T1);   mflo(&as, T2); mfhi(&as, T3); sw(&as, T2, 16, S1); sw(&as, T3, 20, S1);
    divu(&as, T0, T1);   mflo(&as, T2); mfhi(&as, T3); sw(&as, T2, 24, S1); sw(&as, T3, 28, S1);
    addiu(&as, S0, S0, 8);
    addiu(&as, S1, S1, 32);
    addiu(&as, S2, S2, -1);
    bne(&as, S2, ZERO, L_loop);
    /* gcd(1071 * 977, 462 * 977) by Euclid with DIVU/MFHI */
    li(&as, A0, 1071u * 977u);
    li(&as, A1, 462u * 977u);
    bind(&as, L_gcd);
    beq(&as, A1, ZERO, L_gcd_done);
    divu(&as, A0, A1);
    move(&as, A0, A1);
    mfhi(&as, A1);
    j(&as, L_gcd);
    bind(&as, L_gcd_done);
    sw(&as, A0, 0, S1);
    /* MTHI/MTLO round trip and a factorial 12! with MULTU */
    li(&as, T0, 0x13579BDFu);
    mthi(&as, T0);
    mtlo(&as, ZERO);
    mfhi(&as, T1);
    mflo(&as, T2);
    sw(&as, T1, 4, S1);
    sw(&as, T2, 8, S1);
    li(&as, V0, 1);
    li(&as, T0, 12);
    {
        int L_fact = new_label(&as);
        bind(&as, L_fact);
        multu(&as, V0, T0);
        mflo(&as, V0);
        addiu(&as, T0, T0, -1);
        bgtz(&as, T0, L_fact);
    }
    sw(&as, V0, 12, S1);
    brk(&as);
    load_and_run(c, &as, "muldiv");

    for (k = 0; k < MD_PAIRS; k++) {
        uint32_t a = md_a[k], b = md_b[k], base = OUT_OFF + 32u * k;
        int64_t sp = (int64_t)(int32_t)a * (int64_t)(int32_t)b;
        uint64_t up = (uint64_t)a * (uint64_t)b;
        int32_t q, r;
        if ((int32_t)a == INT32_MIN && (int32_t)b == -1) {
            q = INT32_MIN;
            r = 0;
        } else {
            q = (int32_t)a / (int32_t)b;
            r = (int32_t)a % (int32_t)b;
        }
        expect("muldiv", "mult.hi", (unsigned)k, peek32(c, base + 0), (uint32_t)((uint64_t)sp >> 32));
        expect("muldiv", "mult.lo", (unsigned)k, peek32(c, base + 4), (uint32_t)sp);
        expect("muldiv", "multu.hi", (unsigned)k, peek32(c, base + 8), (uint32_t)(up >> 32));
        expect("muldiv", "multu.lo", (unsigned)k, peek32(c, base + 12), (uint32_t)up);
        expect("muldiv", "div.q", (unsigned)k, peek32(c, base + 16), (uint32_t)q);
        expect("muldiv", "div.r", (unsigned)k, peek32(c, base + 20), (uint32_t)r);
        expect("muldiv", "divu.q", (unsigned)k, peek32(c, base + 24), a / b);
        expect("muldiv", "divu.r", (unsigned)k, peek32(c, base + 28), a % b);
    }
    expect("muldiv", "gcd", 0, peek32(c, OUT_OFF + 32u * MD_PAIRS), 21u * 977u);
    expect("muldiv", "mthi", 0, peek32(c, OUT_OFF + 32u * MD_PAIRS + 4), 0x13579BDFu);
    expect("muldiv", "mtlo", 0, peek32(c, OUT_OFF + 32u * MD_PAIRS + 8), 0);
    expect("muldiv", "fact12", 0, peek32(c, OUT_OFF + 32u * MD_PAIRS + 12), 479001600u);
    check_stats(c, 2);
}

/* ------------------------------------------------------------------ */
/* Program 3: byte and halfword handling                               */
/* ------------------------------------------------------------------ */
static const char bytes_text[] = "Hello, MIPS world! 0123456789 The Quick Brown Fox.";
#define HALF_N 12
static const int16_t half_vals[HALF_N] = {
    1, -1, 32767, -32768, 1234, -4321, 255, -256, 0, 77, -30000, 30000
};

static void prog_bytes(cpu_t *c)
{
    asm_t as;
    int L_len, L_len_done, L_rev, L_rev_done, L_cls, L_cls_next, L_not_up, L_not_lo,
        L_half, L_sbyte;
    uint32_t len, k, upper = 0, lower = 0, digit = 0;
    int32_t ssum = 0;
    uint32_t usum = 0;
    int32_t bsum = 0;
    uint32_t busum = 0;

    cpu_reset(c);
    len = (uint32_t)strlen(bytes_text);
    for (k = 0; k <= len; k++)
        c->dmem[IN_OFF + k] = (uint8_t)bytes_text[k];
    for (k = 0; k < HALF_N; k++)
        poke16(c, IN_OFF + 0x100 + 2 * k, (uint16_t)half_vals[k]);
    for (k = 0; k < 32; k++)
        c->dmem[IN_OFF + 0x140 + k] = (uint8_t)(k * 37u + 0x75u);

    asm_init(&as);
    L_len = new_label(&as);      L_len_done = new_label(&as);
    L_rev = new_label(&as);      L_rev_done = new_label(&as);
    L_cls = new_label(&as);      L_cls_next = new_label(&as);
    L_not_up = new_label(&as);   L_not_lo = new_label(&as);
    L_half = new_label(&as);     L_sbyte = new_label(&as);

    la_data(&as, S0, IN_OFF);
    la_data(&as, S1, OUT_OFF);
    /* strlen */
    move(&as, T0, S0);
    bind(&as, L_len);
    lbu(&as, T1, 0, T0);
    beq(&as, T1, ZERO, L_len_done);
    addiu(&as, T0, T0, 1);
    j(&as, L_len);
    bind(&as, L_len_done);
    subu(&as, S2, T0, S0);               /* s2 = length */
    sw(&as, S2, 0, S1);
    /* reversed copy to OUT+0x40 */
    addiu(&as, T0, T0, -1);              /* last character */
    addiu(&as, T1, S1, 0x40);
    bind(&as, L_rev);
    sltu(&as, T9, T0, S0);
    bne(&as, T9, ZERO, L_rev_done);
    lb(&as, T2, 0, T0);
    sb(&as, T2, 0, T1);
    addiu(&as, T0, T0, -1);
    addiu(&as, T1, T1, 1);
    j(&as, L_rev);
    bind(&as, L_rev_done);
    sb(&as, ZERO, 0, T1);
    /* character classes: t4 upper, t5 lower, t6 digit */
    move(&as, T0, S0);
    move(&as, T4, ZERO);
    move(&as, T5, ZERO);
    move(&as, T6, ZERO);
    bind(&as, L_cls);
    lbu(&as, T1, 0, T0);
    beq(&as, T1, ZERO, L_cls_next);
    addiu(&as, T2, T1, -'A');
    sltiu(&as, T3, T2, 26);
    beq(&as, T3, ZERO, L_not_up);
    addiu(&as, T4, T4, 1);
    bind(&as, L_not_up);
    addiu(&as, T2, T1, -'a');
    sltiu(&as, T3, T2, 26);
    beq(&as, T3, ZERO, L_not_lo);
    addiu(&as, T5, T5, 1);
    bind(&as, L_not_lo);
    addiu(&as, T2, T1, -'0');
    sltiu(&as, T3, T2, 10);
    addu(&as, T6, T6, T3);
    addiu(&as, T0, T0, 1);
    j(&as, L_cls);
    bind(&as, L_cls_next);
    sw(&as, T4, 4, S1);
    sw(&as, T5, 8, S1);
    sw(&as, T6, 12, S1);
    /* halfwords: signed and unsigned sums, and doubled values stored back */
    addiu(&as, T0, S0, 0x100);
    li(&as, T1, HALF_N);
    move(&as, T2, ZERO);
    move(&as, T3, ZERO);
    addiu(&as, T7, S1, 0x80);
    bind(&as, L_half);
    lh(&as, T4, 0, T0);
    lhu(&as, T5, 0, T0);
    addu(&as, T2, T2, T4);
    addu(&as, T3, T3, T5);
    sll(&as, T4, T4, 1);
    sh(&as, T4, 0, T7);
    addiu(&as, T0, T0, 2);
    addiu(&as, T7, T7, 2);
    addiu(&as, T1, T1, -1);
    bne(&as, T1, ZERO, L_half);
    sw(&as, T2, 16, S1);
    sw(&as, T3, 20, S1);
    /* signed and unsigned byte sums */
    addiu(&as, T0, S0, 0x140);
    li(&as, T1, 32);
    move(&as, T2, ZERO);
    move(&as, T3, ZERO);
    bind(&as, L_sbyte);
    lb(&as, T4, 0, T0);
    lbu(&as, T5, 0, T0);
    addu(&as, T2, T2, T4);
    addu(&as, T3, T3, T5);
    addiu(&as, T0, T0, 1);
    addiu(&as, T1, T1, -1);
    bgtz(&as, T1, L_sbyte);
    sw(&as, T2, 24, S1);
    sw(&as, T3, 28, S1);
    brk(&as);
    load_and_run(c, &as, "bytes");

    for (k = 0; k < len; k++) {
        char ch = bytes_text[k];
        if (ch >= 'A' && ch <= 'Z') upper++;
        if (ch >= 'a' && ch <= 'z') lower++;
        if (ch >= '0' && ch <= '9') digit++;
        expect("bytes", "rev", k, c->dmem[OUT_OFF + 0x40 + k], (uint8_t)bytes_text[len - 1 - k]);
    }
    expect("bytes", "rev_nul", 0, c->dmem[OUT_OFF + 0x40 + len], 0);
    expect("bytes", "len", 0, peek32(c, OUT_OFF), len);
    expect("bytes", "upper", 0, peek32(c, OUT_OFF + 4), upper);
    expect("bytes", "lower", 0, peek32(c, OUT_OFF + 8), lower);
    expect("bytes", "digit", 0, peek32(c, OUT_OFF + 12), digit);
    for (k = 0; k < HALF_N; k++) {
        uint32_t got = (uint32_t)c->dmem[OUT_OFF + 0x80 + 2 * k]
                     | ((uint32_t)c->dmem[OUT_OFF + 0x81 + 2 * k] << 8);
        ssum += half_vals[k];
        usum += (uint16_t)half_vals[k];
        expect("bytes", "half2", k, got, (uint16_t)(half_vals[k] * 2));
    }
    expect("bytes", "hsum", 0, peek32(c, OUT_OFF + 16), (uint32_t)ssum);
    expect("bytes", "husum", 0, peek32(c, OUT_OFF + 20), usum);
    for (k = 0; k < 32; k++) {
        uint8_t v = (uint8_t)(k * 37u + 0x75u);
        bsum += (int8_t)v;
        busum += v;
    }
    expect("bytes", "bsum", 0, peek32(c, OUT_OFF + 24), (uint32_t)bsum);
    expect("bytes", "busum", 0, peek32(c, OUT_OFF + 28), busum);
    check_stats(c, 3);
}

/* ------------------------------------------------------------------ */
/* Program 4: calls -- recursion with a stack, and a jump table        */
/* ------------------------------------------------------------------ */
#define FIB_MAX 16
#define JT_FUNCS 4
#define JT_ARGS 6

static const uint32_t jt_args[JT_ARGS] = { 0u, 5u, 0xFFu, 0x80000001u, 0x0F0F0F0Fu, 46341u };

static uint32_t popcount32(uint32_t x)
{
    uint32_t n = 0;
    while (x) { n += x & 1u; x >>= 1; }
    return n;
}

static uint32_t jt_reference(int f, uint32_t x)
{
    switch (f) {
    case 0: return x * x;
    case 1: return (x << 3) - x + 11u;
    case 2: return popcount32(x);
    default: return (x >> 16) | (x << 16);
    }
}

static void prog_calls(cpu_t *c)
{
    asm_t as;
    int L_main, L_fib, L_fib_rec, L_fibloop, L_outer, L_inner;
    int L_f[JT_FUNCS], L_pop, L_pop_done;
    uint32_t fib[FIB_MAX];
    int k, f;

    cpu_reset(c);
    for (k = 0; k < JT_ARGS; k++)
        poke32(c, IN_OFF + 4u * k, jt_args[k]);

    asm_init(&as);
    L_main = new_label(&as);
    L_fib = new_label(&as);
    L_fib_rec = new_label(&as);
    L_fibloop = new_label(&as);
    L_outer = new_label(&as);
    L_inner = new_label(&as);
    L_pop = new_label(&as);
    L_pop_done = new_label(&as);
    for (f = 0; f < JT_FUNCS; f++)
        L_f[f] = new_label(&as);

    j(&as, L_main);

    /* int fib(int n) -- a0 = n, result in v0 */
    bind(&as, L_fib);
    slti(&as, T0, A0, 2);
    beq(&as, T0, ZERO, L_fib_rec);
    move(&as, V0, A0);
    jr(&as, RA);
    bind(&as, L_fib_rec);
    addiu(&as, SP, SP, -12);
    sw(&as, RA, 8, SP);
    sw(&as, S0, 4, SP);
    sw(&as, A0, 0, SP);
    addiu(&as, A0, A0, -1);
    jal(&as, L_fib);
    move(&as, S0, V0);
    lw(&as, A0, 0, SP);
    addiu(&as, A0, A0, -2);
    jal(&as, L_fib);
    add(&as, V0, V0, S0);
    lw(&as, S0, 4, SP);
    lw(&as, RA, 8, SP);
    addiu(&as, SP, SP, 12);
    jr(&as, RA);

    /* f0(x) = x * x */
    bind(&as, L_f[0]);
    multu(&as, A0, A0);
    mflo(&as, V0);
    jr(&as, RA);
    /* f1(x) = 7x + 11 */
    bind(&as, L_f[1]);
    sll(&as, V0, A0, 3);
    subu(&as, V0, V0, A0);
    addiu(&as, V0, V0, 11);
    jr(&as, RA);
    /* f2(x) = number of set bits */
    bind(&as, L_f[2]);
    move(&as, V0, ZERO);
    bind(&as, L_pop);
    beq(&as, A0, ZERO, L_pop_done);
    andi(&as, T0, A0, 1);
    addu(&as, V0, V0, T0);
    srl(&as, A0, A0, 1);
    j(&as, L_pop);
    bind(&as, L_pop_done);
    jr(&as, RA);
    /* f3(x) = rotate by 16 */
    bind(&as, L_f[3]);
    srl(&as, T0, A0, 16);
    sll(&as, V0, A0, 16);
    or_(&as, V0, V0, T0);
    jr(&as, RA);

    bind(&as, L_main);
    la_data(&as, S1, OUT_OFF);
    /* fib(0 .. FIB_MAX-1) */
    move(&as, S2, ZERO);
    bind(&as, L_fibloop);
    move(&as, A0, S2);
    jal(&as, L_fib);
    sll(&as, T1, S2, 2);
    addu(&as, T1, S1, T1);
    sw(&as, V0, 0, T1);
    addiu(&as, S2, S2, 1);
    slti(&as, T1, S2, FIB_MAX);
    bne(&as, T1, ZERO, L_fibloop);
    /* every function of the jump table on every argument */
    la_data(&as, S3, TAB_OFF);           /* table of entry addresses */
    addiu(&as, S4, S1, 4 * FIB_MAX);     /* output pointer           */
    move(&as, S5, ZERO);                 /* function index           */
    bind(&as, L_outer);
    sll(&as, T1, S5, 2);
    addu(&as, T1, S3, T1);
    lw(&as, S6, 0, T1);                  /* s6 = entry address */
    la_data(&as, S7, IN_OFF);
    li(&as, S2, JT_ARGS);
    bind(&as, L_inner);
    lw(&as, A0, 0, S7);
    jalr(&as, RA, S6);
    sw(&as, V0, 0, S4);
    addiu(&as, S4, S4, 4);
    addiu(&as, S7, S7, 4);
    addiu(&as, S2, S2, -1);
    bgtz(&as, S2, L_inner);
    addiu(&as, S5, S5, 1);
    slti(&as, T1, S5, JT_FUNCS);
    bne(&as, T1, ZERO, L_outer);
    brk(&as);

    /* place the jump table (needs resolved label addresses) */
    for (f = 0; f < JT_FUNCS; f++)
        poke32(c, TAB_OFF + 4u * f, label_addr(&as, L_f[f]));
    load_and_run(c, &as, "calls");

    fib[0] = 0;
    fib[1] = 1;
    for (k = 2; k < FIB_MAX; k++)
        fib[k] = fib[k - 1] + fib[k - 2];
    for (k = 0; k < FIB_MAX; k++)
        expect("calls", "fib", (unsigned)k, peek32(c, OUT_OFF + 4u * k), fib[k]);
    for (f = 0; f < JT_FUNCS; f++)
        for (k = 0; k < JT_ARGS; k++)
            expect("calls", "jt", (unsigned)(f * JT_ARGS + k),
                   peek32(c, OUT_OFF + 4u * (FIB_MAX + f * JT_ARGS + k)),
                   jt_reference(f, jt_args[k]));
    expect("calls", "sp", 0, c->regs[SP], STACK_TOP);
    check_stats(c, 4);
}

/* ------------------------------------------------------------------ */
/* Program 5: bitwise CRC-32 (ISO-HDLC polynomial, reflected)          */
/* ------------------------------------------------------------------ */
#define CRC_BUF 96

static uint32_t crc32_reference(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xFFFFFFFFu, i;
    int k;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* Emit a CRC-32 routine over (a0 = pointer, a1 = length) into v0.
 * variant 0 derives the mask with ANDI/SUBU, variant 1 with SLL/SRA. */
static void emit_crc(asm_t *as, int variant)
{
    int L_byte = new_label(as), L_bit = new_label(as), L_done = new_label(as);

    li(as, V0, 0xFFFFFFFFu);
    li(as, T7, 0xEDB88320u);
    bind(as, L_byte);
    blez(as, A1, L_done);
    lbu(as, T0, 0, A0);
    xor_(as, V0, V0, T0);
    li(as, T1, 8);
    bind(as, L_bit);
    if (variant == 0) {
        andi(as, T2, V0, 1);
        subu(as, T2, ZERO, T2);
    } else {
        sll(as, T2, V0, 31);
        sra(as, T2, T2, 31);
    }
    and_(as, T2, T2, T7);
    srl(as, V0, V0, 1);
    xor_(as, V0, V0, T2);
    addiu(as, T1, T1, -1);
    bne(as, T1, ZERO, L_bit);
    addiu(as, A0, A0, 1);
    addiu(as, A1, A1, -1);
    j(as, L_byte);
    bind(as, L_done);
    nor(as, V0, V0, ZERO);
}

static void prog_crc(cpu_t *c)
{
    static const char check_string[] = "123456789";
    asm_t as;
    uint8_t buf[CRC_BUF];
    uint32_t k;

    cpu_reset(c);
    for (k = 0; k < 9; k++)
        c->dmem[IN_OFF + k] = (uint8_t)check_string[k];
    for (k = 0; k < CRC_BUF; k++) {
        buf[k] = (uint8_t)(rnd() >> 24);
        c->dmem[IN_OFF + 0x40 + k] = buf[k];
    }
    asm_init(&as);
    la_data(&as, S1, OUT_OFF);
    la_data(&as, A0, IN_OFF);
    li(&as, A1, 9);
    emit_crc(&as, 0);
    sw(&as, V0, 0, S1);
    la_data(&as, A0, IN_OFF + 0x40);
    li(&as, A1, CRC_BUF);
    emit_crc(&as, 1);
    sw(&as, V0, 4, S1);
    brk(&as);
    load_and_run(c, &as, "crc");

    expect("crc", "check", 0, peek32(c, OUT_OFF), 0xCBF43926u);   /* standard check value */
    expect("crc", "buffer", 0, peek32(c, OUT_OFF + 4), crc32_reference(buf, CRC_BUF));
    check_stats(c, 5);
}

/* ------------------------------------------------------------------ */
/* Program 6: histogram into zero-initialised memory, and a bitmap     */
/* ------------------------------------------------------------------ */
#define HIST_N 200
#define HIST_BINS 16

static void prog_hist(cpu_t *c)
{
    asm_t as;
    int L_loop;
    uint8_t data[HIST_N];
    uint32_t bins[HIST_BINS], bitmap = 0, k;
    int32_t sacc = 0;

    cpu_reset(c);
    for (k = 0; k < HIST_N; k++) {
        data[k] = (uint8_t)(rnd() >> 20);
        c->dmem[IN_OFF + k] = data[k];
    }
    asm_init(&as);
    L_loop = new_label(&as);
    la_data(&as, S0, IN_OFF);
    la_data(&as, S1, OUT_OFF);           /* 16 bins, expected zero at start */
    li(&as, S2, HIST_N);
    move(&as, S3, ZERO);                 /* bitmap */
    move(&as, S4, ZERO);                 /* signed accumulator */
    bind(&as, L_loop);
    lbu(&as, T0, 0, S0);
    srl(&as, T1, T0, 4);
    andi(&as, T2, T0, 15);
    xor_(&as, T1, T1, T2);               /* bin = high nibble ^ low nibble */
    sll(&as, T1, T1, 2);
    addu(&as, T1, S1, T1);
    lw(&as, T3, 0, T1);
    addiu(&as, T3, T3, 1);
    sw(&as, T3, 0, T1);
    li(&as, T4, 1);
    sllv(&as, T4, T4, T0);               /* 1 << (byte & 31) */
    or_(&as, S3, S3, T4);
    sll(&as, T5, T0, 24);
    srav(&as, T5, T5, T2);               /* sign-carrying shift */
    sra(&as, T5, T5, 20);
    addu(&as, S4, S4, T5);
    addiu(&as, S0, S0, 1);
    addiu(&as, S2, S2, -1);
    bne(&as, S2, ZERO, L_loop);
    sw(&as, S3, 4 * HIST_BINS, S1);
    sw(&as, S4, 4 * HIST_BINS + 4, S1);
    brk(&as);
    load_and_run(c, &as, "hist");

    for (k = 0; k < HIST_BINS; k++)
        bins[k] = 0;
    for (k = 0; k < HIST_N; k++) {
        uint32_t b = data[k];
        bins[(b >> 4) ^ (b & 15)]++;
        bitmap |= 1u << (b & 31);
        sacc += ((int32_t)(b << 24) >> (b & 15)) >> 20;
    }
    for (k = 0; k < HIST_BINS; k++)
        expect("hist", "bin", k, peek32(c, OUT_OFF + 4 * k), bins[k]);
    expect("hist", "bitmap", 0, peek32(c, OUT_OFF + 4 * HIST_BINS), bitmap);
    expect("hist", "sacc", 0, peek32(c, OUT_OFF + 4 * HIST_BINS + 4), (uint32_t)sacc);
    check_stats(c, 6);
}

int main(void)
{
    cpu_t cpu;

    prog_alu(&cpu);
    prog_sort(&cpu);
    prog_muldiv(&cpu);
    prog_bytes(&cpu);
    prog_calls(&cpu);
    prog_crc(&cpu);
    prog_hist(&cpu);
    printf("checks = %u\n", checks);
    printf("mismatches = %u\n", mismatches);
    return mismatches > 255 ? 255 : (int)mismatches;
}
