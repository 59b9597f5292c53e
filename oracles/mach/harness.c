/*
 * harness.c - data-driven test harness shared by the mach kernel suite.
 * See harness.h for the data format and the buffer poisoning rules.
 *
 * Exit status: 0 success, 1 usage / I/O error, 2 malformed or missing input,
 * 3 a kernel wrote outside one of its buffers, other = returned by h_kernel.
 * With --seed N (N >= 1) the inputs come from h_generate() instead of input.data.
 */
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer (the hls-diff sanitizer build) the guard zones are poisoned too, so a
 * kernel that reads past its buffer into a guard is reported, not only one that writes there. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define GUARD_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define GUARD_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define GUARD_POISON(p, n) ((void)(p), (void)(n))
#define GUARD_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MAX_SECTIONS 64
#define MAX_BUFFERS 64
#define MAX_OUTPUTS 64
#define NAME_LEN 64
#define GUARD_BYTES 256

struct section {              /* one parsed input section */
    char name[NAME_LEN];
    htype_t type;
    size_t count;
    unsigned char *data;      /* count elements of the section's type */
};

struct buffer {               /* one guarded buffer handed to a kernel */
    char name[NAME_LEN];
    unsigned char *base;      /* start of the front guard */
    size_t bytes;             /* payload size */
    unsigned char poison;     /* fill byte of the payload */
    unsigned char guard;      /* fill byte of the two guard zones */
};

struct output {
    char name[NAME_LEN];
    htype_t type;
    const void *p;
    size_t count;
};

static struct section sections[MAX_SECTIONS];
static int n_sections;
static struct buffer buffers[MAX_BUFFERS];
static int n_buffers;
static struct output outputs[MAX_OUTPUTS];
static int n_outputs;

static const char *type_names[] = {
    "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64"
};
static const size_t type_sizes[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8 };

static void die(int status, const char *what, const char *name)
{
    fprintf(stderr, "harness: %s%s%s\n", what, name ? ": " : "", name ? name : "");
    exit(status);
}

static void copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n >= NAME_LEN)
        die(2, "name too long", src);
    memcpy(dst, src, n + 1);
}

static int is_float(htype_t t)
{
    return t == HT_F32 || t == HT_F64;
}

static int parse_type(const char *s, htype_t *t)
{
    int i;
    for (i = 0; i <= HT_F64; i++) {
        if (strcmp(s, type_names[i]) == 0) {
            *t = (htype_t)i;
            return 1;
        }
    }
    return 0;
}

/* Store the textual value <tok> as element <i> of an array of type <t>. */
static void store_value(unsigned char *data, htype_t t, size_t i, const char *tok)
{
    char *end;
    long long s = 0;
    unsigned long long u = 0;
    double d = 0.0;

    if (is_float(t))
        d = strtod(tok, &end);
    else if (t == HT_U64 || t == HT_U32 || t == HT_U16 || t == HT_U8)
        u = strtoull(tok, &end, 10);
    else
        s = strtoll(tok, &end, 10);
    if (*end != '\0')
        die(2, "bad number", tok);

    switch (t) {
    case HT_U8:  ((uint8_t *)data)[i] = (uint8_t)u; break;
    case HT_I8:  ((int8_t *)data)[i] = (int8_t)s; break;
    case HT_U16: ((uint16_t *)data)[i] = (uint16_t)u; break;
    case HT_I16: ((int16_t *)data)[i] = (int16_t)s; break;
    case HT_U32: ((uint32_t *)data)[i] = (uint32_t)u; break;
    case HT_I32: ((int32_t *)data)[i] = (int32_t)s; break;
    case HT_U64: ((uint64_t *)data)[i] = (uint64_t)u; break;
    case HT_I64: ((int64_t *)data)[i] = (int64_t)s; break;
    case HT_F32: ((float *)data)[i] = (float)d; break;
    case HT_F64: ((double *)data)[i] = d; break;
    }
}

/* Read the next white-space separated token, skipping # comments. */
static int next_token(FILE *f, char *tok, size_t cap)
{
    int c;
    size_t n = 0;

    for (;;) {
        c = fgetc(f);
        if (c == EOF)
            return 0;
        if (c == '#') {
            while (c != '\n' && c != EOF)
                c = fgetc(f);
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
    }
    while (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        if (n + 1 >= cap)
            die(2, "token too long", NULL);
        tok[n++] = (char)c;
        c = fgetc(f);
    }
    tok[n] = '\0';
    return 1;
}

static void load_input(const char *path)
{
    FILE *f = fopen(path, "r");
    char tok[128];
    struct section *s;
    size_t i;

    if (!f)
        die(1, "cannot open input", path);
    while (next_token(f, tok, sizeof tok)) {
        if (tok[0] != '@')
            die(2, "expected @section, got", tok);
        if (n_sections == MAX_SECTIONS)
            die(2, "too many sections", NULL);
        s = &sections[n_sections++];
        copy_name(s->name, tok + 1);
        if (!next_token(f, tok, sizeof tok) || !parse_type(tok, &s->type))
            die(2, "bad type in section", s->name);
        if (!next_token(f, tok, sizeof tok))
            die(2, "missing count in section", s->name);
        s->count = (size_t)strtoull(tok, NULL, 10);
        s->data = malloc(s->count * type_sizes[s->type] + 1);
        if (!s->data)
            die(1, "out of memory", NULL);
        for (i = 0; i < s->count; i++) {
            if (!next_token(f, tok, sizeof tok))
                die(2, "section ends early", s->name);
            store_value(s->data, s->type, i, tok);
        }
    }
    fclose(f);
}

void *h_define(const char *name, htype_t type, size_t count)
{
    struct section *s;

    if (n_sections == MAX_SECTIONS)
        die(2, "too many sections", NULL);
    s = &sections[n_sections++];
    copy_name(s->name, name);
    s->type = type;
    s->count = count;
    s->data = calloc(count * type_sizes[type] + 1, 1);
    if (!s->data)
        die(1, "out of memory", NULL);
    return s->data;
}

void h_define_param(const char *name, long long value)
{
    int32_t *p = h_define(name, HT_I32, 1);
    p[0] = (int32_t)value;
}

/* splitmix64 (Steele, Lea & Flood, OOPSLA 2014): a 64-bit counter passed
 * through a bijective mixer; its state is the --seed value. */
static uint64_t rng_state;

uint64_t h_rand(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t h_below(uint64_t n)
{
    return n ? h_rand() % n : 0;
}

double h_uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(h_rand() >> 11) * (1.0 / 9007199254740992.0));
}

static int64_t key_in(int64_t lo, int64_t hi)
{
    return lo + (int64_t)h_below((uint64_t)(hi - lo) + 1);
}

static int cmp_key(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void h_keys(int64_t *keys, size_t n, unsigned pattern, int64_t lo, int64_t hi)
{
    int64_t pool[4], high, special[5];
    size_t i;

    for (i = 0; i < n; i++)
        keys[i] = key_in(lo, hi);
    switch (pattern % 8) {
    case 1:
        for (i = 0; i < 4; i++)
            pool[i] = key_in(lo, hi);
        for (i = 0; i < n; i++)
            keys[i] = pool[h_below(4)];
        break;
    case 2:
        high = lo + ((key_in(lo, hi - 15) - lo) & ~(int64_t)15);
        for (i = 0; i < n; i++)
            keys[i] = high + (int64_t)h_below(16);
        break;
    case 3:
    case 4:
        qsort(keys, n, sizeof *keys, cmp_key);
        if (pattern % 8 == 4)
            for (i = 0; i < n / 2; i++) {
                high = keys[i];
                keys[i] = keys[n - 1 - i];
                keys[n - 1 - i] = high;
            }
        break;
    case 5:
        for (i = 1; i < n; i++)
            keys[i] = keys[0];
        break;
    case 6:
        special[0] = lo; special[1] = hi; special[2] = lo + 1; special[3] = hi - 1;
        special[4] = lo + (hi - lo) / 2;
        for (i = 0; i < n; i += 3)
            keys[h_below(n)] = special[h_below(5)];
        break;
    case 7:
        for (i = 0; i < n; i++)
            keys[i] = lo + (int64_t)h_below(16);
        break;
    default:
        break;
    }
}

void h_matrix(double *m, int n, unsigned pattern, int second)
{
    int i, j;
    double scale;

    for (i = 0; i < n * n; i++)
        m[i] = h_uniform(-1.0, 1.0);
    switch (pattern % 8) {
    case 1:
    case 2:
        if ((pattern % 8 == 1) == (second != 0))
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    m[i * n + j] = i == j ? 1.0 : 0.0;
        break;
    case 3:
        if (!second)
            for (i = 0; i < n * n; i++)
                m[i] = 0.0;
        break;
    case 4:
        for (i = 0; i < n * n; i++)
            m[i] = (double)((int)h_below(17) - 8);
        break;
    case 5:
        for (i = 0; i < n * n; i++)
            m[i] = 1.0;
        break;
    case 6:
        for (i = 0; i < n; i++) {
            scale = ldexp(1.0, (int)h_below(21) - 10);
            for (j = 0; j < n; j++)
                m[i * n + j] *= scale;
        }
        break;
    case 7:
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (second ? j > i : j < i)
                    m[i * n + j] = 0.0;
        break;
    default:
        break;
    }
}

void h_permutation(int32_t *p, int n)
{
    int i, j;
    int32_t t;

    for (i = 0; i < n; i++)
        p[i] = i;
    for (i = n - 1; i > 0; i--) {
        j = (int)h_below((uint64_t)i + 1);
        t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

static struct section *find_section(const char *name)
{
    int i;
    for (i = 0; i < n_sections; i++)
        if (strcmp(sections[i].name, name) == 0)
            return &sections[i];
    die(2, "missing input section", name);
    return NULL;
}

/* Payload poison bytes: with --seed N the i-th buffer (from 0) gets entry (N + i) % 8, so every
 * buffer meets every byte over eight seeds; without a seed entry 0. None is a guard byte. */
static const unsigned char int_poison[8] = { 0xA5, 0x00, 0x01, 0x02, 0xFF, 0x7F, 0x80, 0x03 };
static const unsigned char float_poison[8] = { 0xFE, 0x00, 0x7F, 0x3F, 0xFF, 0x80, 0x40, 0xC0 };
static int poison_pick = -1;

void *h_buffer(const char *name, htype_t type, size_t count)
{
    struct buffer *b;
    int k;
    size_t bytes = count * type_sizes[type];

    if (n_buffers == MAX_BUFFERS)
        die(1, "too many buffers", name);
    b = &buffers[n_buffers++];
    copy_name(b->name, name);
    b->bytes = bytes;
    /* Each buffer gets its own guard byte, different from every payload
     * poison, so that copying an out-of-bounds read of one buffer into the
     * guard of another is still caught.  Reading a guard gives a large
     * negative integer or a huge negative floating value. */
    k = poison_pick < 0 ? 0 : (poison_pick + n_buffers - 1) % 8;
    b->poison = is_float(type) ? float_poison[k] : int_poison[k];
    b->guard = (unsigned char)((is_float(type) ? 0xE0 : 0xB0) + (n_buffers - 1) % 16);
    b->base = malloc(bytes + 2 * GUARD_BYTES);
    if (!b->base)
        die(1, "out of memory", name);
    memset(b->base, b->guard, GUARD_BYTES);
    memset(b->base + GUARD_BYTES, b->poison, bytes);
    memset(b->base + GUARD_BYTES + bytes, b->guard, GUARD_BYTES);
    GUARD_POISON(b->base, GUARD_BYTES);
    GUARD_POISON(b->base + GUARD_BYTES + bytes, GUARD_BYTES);
    return b->base + GUARD_BYTES;
}

void *h_input(const char *name, htype_t type, size_t count)
{
    struct section *s = find_section(name);
    void *p;

    if (s->type != type)
        die(2, "section has the wrong type", name);
    if (s->count != count)
        die(2, "section has the wrong length", name);
    p = h_buffer(name, type, count);
    memcpy(p, s->data, count * type_sizes[type]);
    return p;
}

long long h_param(const char *name)
{
    struct section *s = find_section(name);
    long long v = 0;

    if (s->count != 1 || is_float(s->type))
        die(2, "parameter must be one integer", name);
    switch (s->type) {
    case HT_U8:  v = ((uint8_t *)s->data)[0]; break;
    case HT_I8:  v = ((int8_t *)s->data)[0]; break;
    case HT_U16: v = ((uint16_t *)s->data)[0]; break;
    case HT_I16: v = ((int16_t *)s->data)[0]; break;
    case HT_U32: v = ((uint32_t *)s->data)[0]; break;
    case HT_I32: v = ((int32_t *)s->data)[0]; break;
    case HT_U64: v = (long long)((uint64_t *)s->data)[0]; break;
    case HT_I64: v = ((int64_t *)s->data)[0]; break;
    default: break;
    }
    return v;
}

void h_output(const char *name, htype_t type, const void *p, size_t count)
{
    struct output *o;

    if (n_outputs == MAX_OUTPUTS)
        die(1, "too many outputs", name);
    o = &outputs[n_outputs++];
    copy_name(o->name, name);
    o->type = type;
    o->p = p;
    o->count = count;
}

static void check_guards(void)
{
    int i;
    size_t k;
    const unsigned char *front, *back;

    for (i = 0; i < n_buffers; i++) {
        front = buffers[i].base;
        back = buffers[i].base + GUARD_BYTES + buffers[i].bytes;
        GUARD_UNPOISON(front, GUARD_BYTES);
        GUARD_UNPOISON(back, GUARD_BYTES);
        for (k = 0; k < GUARD_BYTES; k++) {
            if (front[k] != buffers[i].guard || back[k] != buffers[i].guard)
                die(3, "write outside buffer", buffers[i].name);
        }
    }
}

static void print_float(FILE *f, double d)
{
    if (isnan(d))
        fputs("!nan\n", f);
    else if (isinf(d))
        fputs(d > 0 ? "!inf\n" : "!-inf\n", f);
    else
        fprintf(f, "%.17g\n", d);
}

static void write_output(const char *path)
{
    FILE *f = fopen(path, "w");
    int i;
    size_t k;
    const struct output *o;

    if (!f)
        die(1, "cannot open output", path);
    for (i = 0; i < n_outputs; i++) {
        o = &outputs[i];
        fprintf(f, "@%s %s %lu\n", o->name, type_names[o->type], (unsigned long)o->count);
        for (k = 0; k < o->count; k++) {
            switch (o->type) {
            case HT_U8:  fprintf(f, "%u\n", (unsigned)((const uint8_t *)o->p)[k]); break;
            case HT_I8:  fprintf(f, "%d\n", (int)((const int8_t *)o->p)[k]); break;
            case HT_U16: fprintf(f, "%u\n", (unsigned)((const uint16_t *)o->p)[k]); break;
            case HT_I16: fprintf(f, "%d\n", (int)((const int16_t *)o->p)[k]); break;
            case HT_U32: fprintf(f, "%lu\n", (unsigned long)((const uint32_t *)o->p)[k]); break;
            case HT_I32: fprintf(f, "%ld\n", (long)((const int32_t *)o->p)[k]); break;
            case HT_U64: fprintf(f, "%llu\n", (unsigned long long)((const uint64_t *)o->p)[k]); break;
            case HT_I64: fprintf(f, "%lld\n", (long long)((const int64_t *)o->p)[k]); break;
            case HT_F32: print_float(f, (double)((const float *)o->p)[k]); break;
            case HT_F64: print_float(f, ((const double *)o->p)[k]); break;
            }
        }
    }
    if (fclose(f) != 0)
        die(1, "cannot write output", path);
}

/* The --seed value: decimal digits only, at most 18 of them. */
static int parse_seed(const char *s, uint64_t *seed)
{
    size_t n = strlen(s), i;

    if (n == 0 || n > 18)
        return 0;
    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    *seed = strtoull(s, NULL, 10);
    return 1;
}

int main(int argc, char **argv)
{
    int rc;
    uint64_t seed = 0;

    if (argc != 3 && !(argc == 5 && strcmp(argv[3], "--seed") == 0 && parse_seed(argv[4], &seed))) {
        fprintf(stderr, "usage: %s input.data output.data [--seed N]\n", argv[0]);
        return 1;
    }
    if (seed == 0) {
        load_input(argv[1]);
    } else {
        rng_state = seed;
        poison_pick = (int)(seed % 8);
        if (h_generate(seed) != 0)
            die(2, "no inputs for this seed", argv[4]);
    }
    rc = h_kernel();
    check_guards();
    if (rc != 0)
        return rc;
    write_output(argv[2]);
    return 0;
}
