/*
 * mips_test.c -- test driver for mips.c.
 *
 * The driver belongs to the harness: it holds a tiny assembler (labels
 * with branch and jump fixups), assembles the test programs, places their
 * inputs in data memory, runs them and prints the final registers, HI/LO,
 * PC, halt and fault state, the statistics (instructions, cycles, cache
 * hits and misses) and the whole data memory.  It judges nothing itself;
 * the harness compares the printed output with that of the known-good
 * design.
 *
 *   ./prog            the fixed programs: ALU operations on a table of
 *                     operands, insertion sort plus checksum, multiply /
 *                     divide / GCD / factorial, byte and halfword handling,
 *                     recursive Fibonacci with a stack plus a JALR jump
 *                     table, bitwise CRC-32, a histogram over
 *                     zero-initialised memory
 *   ./prog --seed N   the same programs on inputs generated from N (N >= 1)
 *                     -- N % 8 chooses the pattern: random, zeros, extremes,
 *                     sorted, reverse sorted, all equal, many duplicates,
 *                     short inputs -- and random instruction sequences
 *                     (every ALU, shift, multiply/divide, load/store and
 *                     forward branch and jump form, faults included);
 *                     then, for every N, programs of no and of one word,
 *                     a program run one and two instructions at a time,
 *                     and host reads and writes of 0 and 1 bytes at the
 *                     first, second and last offsets of data memory
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the design's interface (mips.c) */
void mips_reset(void);
int mips_load(const uint32_t *code, int n);
void mips_write(uint32_t off, const uint8_t *p, uint32_t n);
void mips_read(uint32_t off, uint8_t *p, uint32_t n);
void mips_run(uint32_t max_steps);
void mips_state(uint32_t *s);

#define TEXT_BASE    0x00400000u
#define IMEM_WORDS   1024
#define DATA_BASE    0x10000000u
#define DMEM_BYTES   8192u
#define STACK_TOP    (DATA_BASE + DMEM_BYTES - 16)
#define IN_OFF       0x0000u          /* program inputs              */
#define OUT_OFF      0x0800u          /* program results             */
#define TAB_OFF      0x1000u          /* auxiliary tables            */
#define STATE_WORDS  42
#define SEEDED_STEPS 2000000u         /* instruction limit of the seeded runs */

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
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_bytes(const char *label, const uint8_t *p, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("\n ");
        printf("%02x", p[i]);
    }
    printf("\n");
}

static void put_words(const char *label, const uint32_t *w, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 8 == 0)
            printf("\n");
        printf(" %08lx", (unsigned long)w[i]);
    }
    printf("\n");
}

/* instruction limit of a run: none for the fixed programs */
static uint32_t run_limit;

static void show_state(const char *name);

/* resolves the fixups, loads and runs the program, prints the final state */
static void show_run(const char *name, asm_t *as)
{
    asm_finish(as);
    printf("%s.assembled %d words, %d errors\n", name, as->n, as->errors);
    printf("%s.load %d\n", name, mips_load(as->code, as->n));
    mips_run(run_limit);
    show_state(name);
}

/* the processor state and the whole data memory */
static void show_state(const char *name)
{
    static uint8_t mem[DMEM_BYTES];
    uint32_t s[STATE_WORDS];
    char label[64];

    mips_state(s);
    sprintf(label, "%s.regs", name);
    put_words(label, s, 32);
    printf("%s.hi %08lx lo %08lx pc %08lx\n", name, (unsigned long)s[32], (unsigned long)s[33],
           (unsigned long)s[34]);
    printf("%s.halted %lu fault %lu at %08lx\n", name, (unsigned long)s[35], (unsigned long)s[36],
           (unsigned long)s[37]);
    printf("%s.icount %lu cycles %lu hits %lu misses %lu\n", name, (unsigned long)s[38],
           (unsigned long)s[39], (unsigned long)s[40], (unsigned long)s[41]);
    memset(mem, 0, sizeof mem);
    mips_read(0, mem, DMEM_BYTES);
    sprintf(label, "%s.dmem", name);
    put_bytes(label, mem, DMEM_BYTES);
}

/* host-side stores into data memory */
static void poke32(uint32_t off, uint32_t v)
{
    uint8_t b[4];
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
    mips_write(off, b, 4);
}

static void poke16(uint32_t off, uint16_t v)
{
    uint8_t b[2];
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    mips_write(off, b, 2);
}

static void poke8(uint32_t off, uint8_t v)
{
    mips_write(off, &v, 1);
}

/* ------------------------------------------------------------------ */
/* Program 0: ALU operations on a table of operand pairs               */
/* ------------------------------------------------------------------ */
#define ALU_PAIRS 12
#define ALU_RESULTS 21

static void prog_alu(const uint32_t *opa, const uint32_t *opb, int pairs)
{
    asm_t as;
    int loop, pos, k;

    mips_reset();
    for (k = 0; k < pairs; k++) {
        poke32(IN_OFF + 8u * k, opa[k]);
        poke32(IN_OFF + 8u * k + 4, opb[k]);
    }
    asm_init(&as);
    loop = new_label(&as);
    pos = new_label(&as);
    la_data(&as, S0, IN_OFF);           /* s0: operand pointer */
    la_data(&as, S1, OUT_OFF);          /* s1: result pointer  */
    li(&as, S2, (uint32_t)pairs);       /* s2: pairs left      */
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
    show_run("alu", &as);
}

/* ------------------------------------------------------------------ */
/* Program 1: insertion sort of signed words, then a checksum          */
/* ------------------------------------------------------------------ */
#define SORT_N 40

static void prog_sort(const int32_t *vals, int n)
{
    asm_t as;
    int L_outer, L_inner, L_place, L_sorted, L_csum;
    int i;

    mips_reset();
    for (i = 0; i < n; i++)
        poke32(IN_OFF + 4u * i, (uint32_t)vals[i]);
    asm_init(&as);
    L_outer = new_label(&as);
    L_inner = new_label(&as);
    L_place = new_label(&as);
    L_sorted = new_label(&as);
    L_csum = new_label(&as);

    la_data(&as, S0, IN_OFF);
    li(&as, S1, (uint32_t)n);
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
    show_run("sort", &as);
}

/* ------------------------------------------------------------------ */
/* Program 2: multiply / divide through HI and LO, a GCD loop and a    */
/* factorial                                                           */
/* ------------------------------------------------------------------ */
#define MD_PAIRS 10

static void prog_muldiv(const uint32_t *opa, const uint32_t *opb, int pairs, uint32_t gcd_a,
                        uint32_t gcd_b, uint32_t hi_value, uint32_t fact_n)
{
    asm_t as;
    int L_loop, L_gcd, L_gcd_done, L_fact;
    int k;

    mips_reset();
    for (k = 0; k < pairs; k++) {
        poke32(IN_OFF + 8u * k, opa[k]);
        poke32(IN_OFF + 8u * k + 4, opb[k]);
    }
    asm_init(&as);
    L_loop = new_label(&as);
    L_gcd = new_label(&as);
    L_gcd_done = new_label(&as);
    L_fact = new_label(&as);

    la_data(&as, S0, IN_OFF);
    la_data(&as, S1, OUT_OFF);
    li(&as, S2, (uint32_t)pairs);
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
    /* gcd by Euclid with DIVU/MFHI */
    li(&as, A0, gcd_a);
    li(&as, A1, gcd_b);
    bind(&as, L_gcd);
    beq(&as, A1, ZERO, L_gcd_done);
    divu(&as, A0, A1);
    move(&as, A0, A1);
    mfhi(&as, A1);
    j(&as, L_gcd);
    bind(&as, L_gcd_done);
    sw(&as, A0, 0, S1);
    /* MTHI/MTLO round trip and a factorial with MULTU */
    li(&as, T0, hi_value);
    mthi(&as, T0);
    mtlo(&as, ZERO);
    mfhi(&as, T1);
    mflo(&as, T2);
    sw(&as, T1, 4, S1);
    sw(&as, T2, 8, S1);
    li(&as, V0, 1);
    li(&as, T0, fact_n);
    bind(&as, L_fact);
    multu(&as, V0, T0);
    mflo(&as, V0);
    addiu(&as, T0, T0, -1);
    bgtz(&as, T0, L_fact);
    sw(&as, V0, 12, S1);
    brk(&as);
    show_run("muldiv", &as);
}

/* ------------------------------------------------------------------ */
/* Program 3: byte and halfword handling                               */
/* ------------------------------------------------------------------ */
#define HALF_N 12
#define SBYTE_N 32

/* text: at most 62 characters; halves and sbytes: the halfword and byte
 * inputs (count each at least 1) */
static void prog_bytes(const char *text, const int16_t *halves, int nhalves,
                       const uint8_t *sbytes, int nsbytes)
{
    asm_t as;
    int L_len, L_len_done, L_rev, L_rev_done, L_cls, L_cls_next, L_not_up, L_not_lo,
        L_half, L_sbyte;
    uint32_t len, k;

    mips_reset();
    len = (uint32_t)strlen(text);
    for (k = 0; k <= len; k++)
        poke8(IN_OFF + k, (uint8_t)text[k]);
    for (k = 0; k < (uint32_t)nhalves; k++)
        poke16(IN_OFF + 0x100 + 2 * k, (uint16_t)halves[k]);
    for (k = 0; k < (uint32_t)nsbytes; k++)
        poke8(IN_OFF + 0x140 + k, sbytes[k]);

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
    li(&as, T1, (uint32_t)nhalves);
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
    li(&as, T1, (uint32_t)nsbytes);
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
    show_run("bytes", &as);
}

/* ------------------------------------------------------------------ */
/* Program 4: calls -- recursion with a stack, and a jump table        */
/* ------------------------------------------------------------------ */
#define FIB_MAX 16
#define JT_FUNCS 4
#define JT_ARGS 6

/* fib(0 .. nfib-1) recursively, then every jump-table function on every
 * argument (nfib and nargs at least 1) */
static void prog_calls(int nfib, const uint32_t *args, int nargs)
{
    asm_t as;
    int L_main, L_fib, L_fib_rec, L_fibloop, L_outer, L_inner;
    int L_f[JT_FUNCS], L_pop, L_pop_done;
    int k, f;

    mips_reset();
    for (k = 0; k < nargs; k++)
        poke32(IN_OFF + 4u * k, args[k]);

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
    /* fib(0 .. nfib-1) */
    move(&as, S2, ZERO);
    bind(&as, L_fibloop);
    move(&as, A0, S2);
    jal(&as, L_fib);
    sll(&as, T1, S2, 2);
    addu(&as, T1, S1, T1);
    sw(&as, V0, 0, T1);
    addiu(&as, S2, S2, 1);
    slti(&as, T1, S2, nfib);
    bne(&as, T1, ZERO, L_fibloop);
    /* every function of the jump table on every argument */
    la_data(&as, S3, TAB_OFF);           /* table of entry addresses */
    addiu(&as, S4, S1, 4 * nfib);        /* output pointer           */
    move(&as, S5, ZERO);                 /* function index           */
    bind(&as, L_outer);
    sll(&as, T1, S5, 2);
    addu(&as, T1, S3, T1);
    lw(&as, S6, 0, T1);                  /* s6 = entry address */
    la_data(&as, S7, IN_OFF);
    li(&as, S2, (uint32_t)nargs);
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
        poke32(TAB_OFF + 4u * f, label_addr(&as, L_f[f]));
    show_run("calls", &as);
}

/* ------------------------------------------------------------------ */
/* Program 5: bitwise CRC-32 (ISO-HDLC polynomial, reflected)          */
/* ------------------------------------------------------------------ */
#define CRC_BUF 96

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

static void prog_crc(const uint8_t *buf, int n)
{
    static const char check_string[] = "123456789";
    asm_t as;
    uint32_t k;

    mips_reset();
    for (k = 0; k < 9; k++)
        poke8(IN_OFF + k, (uint8_t)check_string[k]);
    for (k = 0; k < (uint32_t)n; k++)
        poke8(IN_OFF + 0x40 + k, buf[k]);
    asm_init(&as);
    la_data(&as, S1, OUT_OFF);
    la_data(&as, A0, IN_OFF);
    li(&as, A1, 9);
    emit_crc(&as, 0);
    sw(&as, V0, 0, S1);
    la_data(&as, A0, IN_OFF + 0x40);
    li(&as, A1, (uint32_t)n);
    emit_crc(&as, 1);
    sw(&as, V0, 4, S1);
    brk(&as);
    show_run("crc", &as);
}

/* ------------------------------------------------------------------ */
/* Program 6: histogram into zero-initialised memory, and a bitmap     */
/* ------------------------------------------------------------------ */
#define HIST_N 200
#define HIST_BINS 16

static void prog_hist(const uint8_t *data, int n)
{
    asm_t as;
    int L_loop;
    uint32_t k;

    mips_reset();
    for (k = 0; k < (uint32_t)n; k++)
        poke8(IN_OFF + k, data[k]);
    asm_init(&as);
    L_loop = new_label(&as);
    la_data(&as, S0, IN_OFF);
    la_data(&as, S1, OUT_OFF);           /* 16 bins, zero at the start */
    li(&as, S2, (uint32_t)n);
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
    show_run("hist", &as);
}

/* ------------------------------------------------------------------ */
/* The fixed programs                                                  */
/* ------------------------------------------------------------------ */

static const uint32_t alu_a[ALU_PAIRS] = {
    0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x12345678u,
    0xDEADBEEFu, 0x0000FFFFu, 0xFFFF0000u, 0x00000021u, 0xC0000003u, 0x55AA55AAu
};
static const uint32_t alu_b[ALU_PAIRS] = {
    0x00000000u, 0xFFFFFFFFu, 0x00000001u, 0x80000000u, 0x0000001Fu, 0x9ABCDEF0u,
    0x00000004u, 0xFFFF0000u, 0x00000010u, 0xFFFFFFE1u, 0x00000023u, 0xAA55AA55u
};
static const uint32_t md_a[MD_PAIRS] = {
    7u, 0xFFFFFFF9u, 0x7FFFFFFFu, 0x80000000u, 123456789u,
    0xFFFFFFFFu, 0x00010001u, 1000000007u, 0xCAFEBABEu, 0x80000000u
};
static const uint32_t md_b[MD_PAIRS] = {
    3u, 3u, 0x7FFFFFFFu, 0x00000007u, 0xFFFFFF85u,
    0xFFFFFFFFu, 0x0000FFFFu, 998244353u, 0x00001234u, 0xFFFFFFFFu
};
static const char bytes_text[] = "Hello, MIPS world! 0123456789 The Quick Brown Fox.";
static const int16_t half_vals[HALF_N] = {
    1, -1, 32767, -32768, 1234, -4321, 255, -256, 0, 77, -30000, 30000
};
static const uint32_t jt_args[JT_ARGS] = { 0u, 5u, 0xFFu, 0x80000001u, 0x0F0F0F0Fu, 46341u };

static uint32_t lcg = 0x2545F491u;

static uint32_t rnd(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg;
}

static void run_fixed(void)
{
    int32_t sort_vals[SORT_N];
    uint8_t sbytes[SBYTE_N], crc_buf[CRC_BUF], hist_data[HIST_N];
    int i;

    run_limit = 0;
    prog_alu(alu_a, alu_b, ALU_PAIRS);
    for (i = 0; i < SORT_N; i++) {
        uint32_t value = rnd();
        sort_vals[i] = (int32_t)value >> (rnd() % 20);
    }
    prog_sort(sort_vals, SORT_N);
    prog_muldiv(md_a, md_b, MD_PAIRS, 1071u * 977u, 462u * 977u, 0x13579BDFu, 12);
    for (i = 0; i < SBYTE_N; i++)
        sbytes[i] = (uint8_t)(i * 37u + 0x75u);
    prog_bytes(bytes_text, half_vals, HALF_N, sbytes, SBYTE_N);
    prog_calls(FIB_MAX, jt_args, JT_ARGS);
    for (i = 0; i < CRC_BUF; i++)
        crc_buf[i] = (uint8_t)(rnd() >> 24);
    prog_crc(crc_buf, CRC_BUF);
    for (i = 0; i < HIST_N; i++)
        hist_data[i] = (uint8_t)(rnd() >> 20);
    prog_hist(hist_data, HIST_N);
}

/* ------------------------------------------------------------------ */
/* Seeded programs                                                     */
/* ------------------------------------------------------------------ */

/* the seeded inputs' generator (splitmix64) */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rng_range(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

static const uint32_t extremes[8] = {
    0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0x7FFFFFFFu,
    0x80000000u, 0x0000001Fu, 0x00008000u, 0xFFFF8000u
};

/* n words following the pattern: 0 random (with random magnitudes),
 * 1 zeros, 2 extremes, 3 sorted, 4 reverse sorted, 5 all equal, 6 a few
 * distinct values with many duplicates, 7 random (the caller keeps n short) */
static void pattern_words(int pattern, uint32_t *w, int n)
{
    uint32_t base = (uint32_t)rng_next(), step = (uint32_t)rng_range(0, 1 << 20);
    uint32_t few[3];
    int i;
    few[0] = (uint32_t)rng_next();
    few[1] = extremes[rng_range(0, 7)];
    few[2] = (uint32_t)rng_range(-4, 4);
    for (i = 0; i < n; i++) {
        uint32_t r = (uint32_t)rng_next();
        switch (pattern) {
        case 1: w[i] = 0; break;
        case 2:
            w[i] = extremes[rng_range(0, 7)];
            w[i] ^= rng_range(0, 3) == 0 ? r & 0xFu : 0u;
            break;
        case 3: w[i] = (uint32_t)((int32_t)0x80000000u / 2 + (int32_t)(step * (uint32_t)i) / 2); break;
        case 4: w[i] = (uint32_t)(0x3FFFFFFF - (int32_t)(step * (uint32_t)i) / 2); break;
        case 5: w[i] = base; break;
        case 6: w[i] = few[rng_range(0, 2)]; break;
        default: w[i] = r >> rng_range(0, 31); if (r & 1) w[i] = 0u - w[i]; break;
        }
    }
}

static int pattern_count(int pattern, int lo, int hi)
{
    return pattern == 7 ? rng_range(lo, lo + 2 < hi ? lo + 2 : hi) : rng_range(lo, hi);
}

static void seeded_programs(int pattern)
{
    uint32_t a[64], b[64];
    int16_t halves[32];
    uint8_t bytes[256];
    char text[64];
    uint32_t gcd_a, gcd_b, hi_value;
    int n, i;

    n = pattern_count(pattern, 1, 24);
    pattern_words(pattern, a, n);
    pattern_words(pattern == 3 || pattern == 4 ? 0 : pattern, b, n);
    prog_alu(a, b, n);

    n = pattern_count(pattern, 1, 64);
    pattern_words(pattern, a, n);
    prog_sort((const int32_t *)a, n);

    n = pattern_count(pattern, 1, 60);
    pattern_words(pattern, a, n);
    pattern_words(pattern == 1 ? 1 : 0, b, n);
    for (i = 0; i < n; i += 3)                   /* divisors of 0 and -1 */
        b[i] = (i & 4) ? 0xFFFFFFFFu : (pattern == 2 ? 0u : b[i]);
    gcd_a = (uint32_t)rng_next();
    gcd_b = (uint32_t)rng_next();
    gcd_b >>= rng_range(0, 31);
    hi_value = (uint32_t)rng_next();
    prog_muldiv(a, b, n, gcd_a, gcd_b, hi_value, (uint32_t)rng_range(0, 14));

    n = pattern_count(pattern, 0, 62);
    for (i = 0; i < n; i++)
        text[i] = (char)(pattern == 5 ? 'a' : rng_range(1, 255));
    text[n] = '\0';
    pattern_words(pattern, a, 32);
    for (i = 0; i < 32; i++)
        halves[i] = (int16_t)(uint16_t)a[i];
    pattern_words(pattern, b, 64);
    for (i = 0; i < 64; i++)
        bytes[i] = (uint8_t)b[i];
    prog_bytes(text, halves, pattern_count(pattern, 1, 32), bytes, pattern_count(pattern, 1, 64));

    pattern_words(pattern, a, 8);
    prog_calls(pattern_count(pattern, 1, FIB_MAX), a, pattern_count(pattern, 1, 8));

    n = pattern_count(pattern, 0, 255);
    pattern_words(pattern, b, 64);
    for (i = 0; i < n; i++)
        bytes[i] = (uint8_t)(b[i % 64] >> (8 * (i / 64)));
    prog_crc(bytes, n);

    n = pattern_count(pattern, 1, 255);
    for (i = 0; i < n; i++)
        bytes[i] = (uint8_t)(pattern == 1 ? 0 : (pattern == 5 ? 0xA7 : rng_range(0, 255)));
    prog_hist(bytes, n);
}

/* A random straight-line program with forward branches and jumps: every
 * ALU, shift, multiply/divide and load/store form on random registers.
 * $s0 holds the base of the accessed data and is never written; with
 * pattern 2 some accesses are misaligned or out of range (faults). */
#define RANDOM_LEN 300

static void random_program(int pattern, int index)
{
    static const unsigned r_ops[13] = {
        FN_ADDU, FN_SUBU, FN_AND, FN_OR, FN_XOR, FN_NOR, FN_SLT, FN_SLTU,
        FN_SLLV, FN_SRLV, FN_SRAV, FN_ADD, FN_SUB
    };
    static const unsigned i_ops[8] = {
        OP_ADDIU, OP_SLTI, OP_SLTIU, OP_ANDI, OP_ORI, OP_XORI, OP_LUI, OP_ADDI
    };
    static const unsigned loads[5] = { OP_LB, OP_LBU, OP_LH, OP_LHU, OP_LW };
    static const unsigned stores[3] = { OP_SB, OP_SH, OP_SW };
    static const unsigned sizes[8] = { 1, 1, 2, 2, 4, 1, 2, 4 };
    uint32_t vals[32];
    int pending_label[MAX_LABELS], pending_at[MAX_LABELS], npending = 0;
    asm_t as;
    char name[32];
    int k, r, p;

    mips_reset();
    pattern_words(pattern, vals, 32);
    for (k = 0; k < 64; k++)
        poke32(IN_OFF + 0x400 + 4u * k, (uint32_t)rng_next());
    asm_init(&as);
    for (r = 1; r < 26; r++)
        if (r != S0)
            li(&as, r, vals[r]);
    la_data(&as, S0, IN_OFF + 0x400 + 4u * (uint32_t)rng_range(0, 64));
    for (k = 0; k < RANDOM_LEN; k++) {
        int kind = rng_range(0, 19), rd, rs, rt;
        for (p = 0; p < npending; p++)
            if (pending_at[p] == k)
                bind(&as, pending_label[p]);
        do
            rd = rng_range(0, 31);
        while (rd == S0 || rd == SP);
        rs = rng_range(0, 31);
        rt = rng_range(0, 31);
        if (kind < 6) {
            int op = rng_range(0, kind == 0 ? 12 : 10);
            emit(&as, enc_r((unsigned)rs, (unsigned)rt, (unsigned)rd, 0, r_ops[op]));
        } else if (kind < 8) {
            static const unsigned shifts[3] = { FN_SLL, FN_SRL, FN_SRA };
            emit(&as, enc_r(0, (unsigned)rt, (unsigned)rd, (unsigned)rng_range(0, 31),
                            shifts[rng_range(0, 2)]));
        } else if (kind < 11) {
            int op = rng_range(0, kind == 8 ? 7 : 6);
            emit(&as, enc_i(i_ops[op], (unsigned)rs, (unsigned)rd, (uint32_t)rng_next()));
        } else if (kind < 13) {
            static const unsigned md[4] = { FN_MULT, FN_MULTU, FN_DIV, FN_DIVU };
            static const unsigned moves[4] = { FN_MFHI, FN_MFLO, FN_MTHI, FN_MTLO };
            int m = rng_range(0, 3);
            emit(&as, enc_r((unsigned)rs, (unsigned)rt, 0, 0, md[rng_range(0, 3)]));
            emit(&as, enc_r(m >= 2 ? (unsigned)rs : 0, 0, m < 2 ? (unsigned)rd : 0, 0, moves[m]));
        } else if (kind < 17) {
            int which = rng_range(0, 7), size = (int)sizes[which];
            int32_t off = size * rng_range(-64, 255);
            if (pattern == 2 && rng_range(0, 9) == 0)
                off += rng_range(0, 1) ? 1 : 0x2000;
            if (which < 5)
                emit(&as, enc_i(loads[which], S0, (unsigned)rd, (uint32_t)off));
            else
                emit(&as, enc_i(stores[which - 5], S0, (unsigned)rt, (uint32_t)off));
        } else if (npending < MAX_LABELS - 8) {
            static const unsigned br[4] = { OP_BEQ, OP_BNE, OP_BLEZ, OP_BGTZ };
            int l = new_label(&as), what = rng_range(0, 7);
            pending_label[npending] = l;
            pending_at[npending++] = k + 1 + rng_range(1, 4);
            if (what < 4) {
                add_fixup(&as, l, FIX_BRANCH);
                emit(&as, enc_i(br[what], (unsigned)rs, what < 2 ? (unsigned)rt : 0, 0));
            } else if (what < 6) {
                add_fixup(&as, l, FIX_BRANCH);
                emit(&as, enc_i(OP_REGIMM, (unsigned)rs, what == 4 ? RI_BLTZ : RI_BGEZ, 0));
            } else {
                add_fixup(&as, l, FIX_JUMP);
                emit(&as, (uint32_t)(what == 6 ? OP_J : OP_JAL) << 26);
            }
        }
    }
    for (p = 0; p < npending; p++)
        if (pending_at[p] >= RANDOM_LEN)
            bind(&as, pending_label[p]);
    brk(&as);
    sprintf(name, "random%d", index);
    show_run(name, &as);
}

/* the smallest arguments of the interface calls */
static void seeded_edges(int pattern)
{
    static const uint32_t offsets[5] = { 0u, 1u, 2u, DMEM_BYTES - 1u, DMEM_BYTES };
    uint32_t vals[32];
    uint8_t buf[4];
    asm_t as;
    char name[32];
    int k, i, r = rng_range(1, 25);

    /* no instruction at all, then one: an immediate, a lui or a break */
    for (k = 0; k < 2; k++) {
        mips_reset();
        asm_init(&as);
        if (k == 1) {
            int kind = rng_range(0, 2);
            if (kind == 0)
                addiu(&as, r, ZERO, (int32_t)(int16_t)rng_next());
            else if (kind == 1)
                lui(&as, r, (uint32_t)rng_next() & 0xFFFFu);
            else
                brk(&as);
        }
        sprintf(name, "edges.words%d", k);
        show_run(name, &as);
    }

    /* the same short program stepped 1, 1, 2 instructions, then to the end */
    mips_reset();
    pattern_words(pattern, vals, 4);
    asm_init(&as);
    for (k = 0; k < 4; k++)
        li(&as, 8 + k, vals[k]);
    addu(&as, 12, 8, 9);
    subu(&as, 13, 10, 11);
    brk(&as);
    asm_finish(&as);
    printf("edges.steps.load %d\n", mips_load(as.code, as.n));
    for (k = 0; k < 4; k++) {
        mips_run(k == 3 ? 0u : (k == 2 ? 2u : 1u));
        sprintf(name, "edges.steps%d", k);
        show_state(name);
    }

    /* host access of 0 and 1 bytes at the first, second and last offsets */
    for (i = 0; i < 5; i++) {
        buf[0] = (uint8_t)rng_next();
        mips_write(offsets[i], buf, 1);
    }
    for (i = 0; i < 5; i++)
        for (k = 0; k < 3; k++) {
            memset(buf, 0xa5, sizeof buf);
            mips_read(offsets[i], buf, (uint32_t)k);
            printf("edges.read off %lu n %d: %02x %02x %02x\n", (unsigned long)offsets[i], k, buf[0],
                   buf[1], buf[2]);
        }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    run_limit = SEEDED_STEPS;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_programs(pattern);
    random_program(pattern, 0);
    random_program(0, 1);
    seeded_edges(pattern);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "usage: %s [--seed N]: N must be a decimal number\n", argv[0]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    if (seed == 0)
        run_fixed();
    else
        run_seeded((uint64_t)seed);
    return 0;
}
