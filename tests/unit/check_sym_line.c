/* libsym's .debug_line decoder (libsym/line.c, spec/symbolication.md 5.1 rows and 5.2
 * step 8) on hand-built line tables: DWARF 5 with .debug_line_str, .debug_str and strx
 * paths, 64-bit DWARF, both byte orders, DWARF 2-4 headers, every opcode kind, the row
 * rules of the index, and truncated or corrupt units (errors, never a read outside the
 * section: the asan build runs this too). */
#include "unit.h"

#include "../../libsym/tsym_int.h"

/* ---- a little byte builder ---- */
typedef struct bb {
    unsigned char b[4096];
    size_t n;
    int be;
} bb;

static void put(bb *x, uint64_t v, unsigned size)
{
    ck_assert_uint_le(x->n + size, sizeof x->b);
    for (unsigned i = 0; i < size; i++)
        x->b[x->n + (x->be ? size - 1 - i : i)] = (unsigned char)(v >> (8 * i));
    x->n += size;
}

static void u8(bb *x, unsigned v) { put(x, v, 1); }

static void uleb(bb *x, uint64_t v)
{
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        u8(x, c | (v ? 0x80 : 0));
    } while (v);
}

static void sleb(bb *x, int64_t v)
{
    for (;;) {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7; /* arithmetic shift on the targets tracetool builds for */
        if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
            u8(x, c);
            return;
        }
        u8(x, c | 0x80);
    }
}

static size_t str(bb *x, const char *s)
{
    size_t at = x->n, n = strlen(s) + 1;
    ck_assert_uint_le(x->n + n, sizeof x->b);
    memcpy(x->b + x->n, s, n);
    x->n += n;
    return at;
}

/* patches a length field of size bytes at pos with the bytes from pos + size to the end */
static void patch_len(bb *x, size_t pos, unsigned size)
{
    size_t save = x->n;
    uint64_t len = x->n - pos - size;
    x->n = pos;
    put(x, len, size);
    x->n = save;
}

/* ---- the index the decoder fills ---- */
static void ix_init(tsym__index *ix)
{
    memset(ix, 0, sizeof *ix);
    tt_vec_init(&ix->rows, sizeof(tsym__row));
    tt_vec_init(&ix->loads, sizeof(tsym__load));
}

static const tsym__row *row(const tsym__index *ix, size_t i)
{
    ck_assert_uint_lt(i, ix->rows.len);
    return &TT_VEC_AT(&ix->rows, tsym__row, i);
}

static const char *fname(const tsym__index *ix, uint32_t id)
{
    return id == TSYM_NONE ? "(none)" : tsym__str(&ix->str, id);
}

/* Standard opcode operand counts of opcode_base 13 */
static const unsigned char std13[12] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};

/* Header fields after the lengths, up to and including standard_opcode_lengths */
static void common(bb *x, int version, int line_base, unsigned line_range, unsigned opbase,
                   const unsigned char *lens)
{
    u8(x, 1); /* minimum_instruction_length */
    if (version >= 4)
        u8(x, 1); /* maximum_operations_per_instruction */
    u8(x, 1);     /* default_is_stmt */
    u8(x, (unsigned)(line_base & 0xff));
    u8(x, line_range);
    u8(x, opbase);
    for (unsigned i = 0; i + 1 < opbase; i++)
        u8(x, lens[i]);
}

static void ext(bb *x, unsigned op, uint64_t operand, unsigned size)
{
    u8(x, 0);
    uleb(x, 1 + size);
    u8(x, op);
    put(x, operand, size);
}

/* The program of the DWARF 5 units: three sequences, the last unterminated.
 * line_base -5, line_range 14, opcode_base 13. */
static void program5(bb *x)
{
    ext(x, 2, 0x1000, 8);         /* DW_LNE_set_address */
    u8(x, 3), sleb(x, 9);         /* advance_line -> 10 */
    u8(x, 1);                     /* copy: 0x1000 line 10 file 1 */
    u8(x, 5), uleb(x, 5);         /* set_column 5 */
    u8(x, 13 + (1 + 5) + 14 * 2); /* special: addr +2, line +1 -> 0x1002 line 11 */
    u8(x, 0), uleb(x, 2), u8(x, 4), uleb(x, 3); /* DW_LNE_set_discriminator 3 */
    u8(x, 4), uleb(x, 2);         /* set_file 2 */
    u8(x, 9), put(x, 0x10, 2);    /* fixed_advance_pc 0x10 -> 0x1012 */
    u8(x, 1);                     /* copy: discriminator 3 */
    u8(x, 10), u8(x, 11), u8(x, 6), u8(x, 7); /* prologue_end, epilogue_begin, stmt, bb */
    u8(x, 12), uleb(x, 1);        /* set_isa 1 */
    u8(x, 0), uleb(x, 3), u8(x, 0x80), u8(x, 0xaa), u8(x, 0xbb); /* vendor: skipped */
    u8(x, 8);                     /* const_add_pc: (255 - 13) / 14 = 17 -> 0x1023 */
    u8(x, 3), sleb(x, -4);        /* advance_line -> 7 */
    u8(x, 1);                     /* copy: 0x1023 line 7, discriminator 0 again */
    u8(x, 2), uleb(x, 4);         /* advance_pc 4 -> 0x1027 */
    ext(x, 1, 0, 0);              /* end_sequence at 0x1027 */
    ext(x, 2, 0x3000, 8);
    u8(x, 1);                     /* 0x3000 line 1: at the end address, dropped */
    ext(x, 1, 0, 0);              /* end_sequence at 0x3000 */
    ext(x, 2, 0x4000, 8);
    u8(x, 1);                     /* unterminated: dropped */
}

typedef struct secs5 {
    bb line, line_str;
    tsym__dsecs s;
} secs5;

/* A DWARF 5 unit with .debug_line_str directories and file names, MD5 and a vendor
 * content type; os = 4 or 8 (64-bit DWARF), be = byte order. */
static void build5(secs5 *t, unsigned os, int be)
{
    memset(t, 0, sizeof *t);
    t->line.be = t->line_str.be = be;
    str(&t->line_str, "");
    size_t d0 = str(&t->line_str, "/comp"), d1 = str(&t->line_str, "src");
    /* file 0: "a.c" dir 0; file 1: "a.c" dir 1; file 2: "/abs/c.h" dir 1; file 3: "d.h"
     * dir 7 (no such directory) */
    size_t fa = str(&t->line_str, "a.c"), fc = str(&t->line_str, "/abs/c.h"),
           fd = str(&t->line_str, "d.h");
    const size_t names[4] = {fa, fa, fc, fd};
    const unsigned dirs[4] = {0, 1, 1, 7};
    bb *x = &t->line;
    if (os == 8)
        put(x, 0xffffffffu, 4);
    size_t len_at = x->n;
    put(x, 0, os);
    put(x, 5, 2); /* version */
    u8(x, 8), u8(x, 0);
    size_t hlen_at = x->n;
    put(x, 0, os);
    common(x, 5, -5, 14, 13, std13);
    u8(x, 1), uleb(x, 1), uleb(x, 0x1f); /* directories: DW_LNCT_path line_strp */
    uleb(x, 2), put(x, d0, os), put(x, d1, os);
    u8(x, 4);                             /* files: path, directory_index, MD5, vendor */
    uleb(x, 1), uleb(x, 0x1f);            /* line_strp */
    uleb(x, 2), uleb(x, 0x0b);            /* data1 */
    uleb(x, 5), uleb(x, 0x1e);            /* data16 */
    uleb(x, 0x2001), uleb(x, 0x09);       /* block */
    uleb(x, 4);
    for (int i = 0; i < 4; i++) {
        put(x, names[i], os);
        u8(x, dirs[i]);
        for (int k = 0; k < 16; k++)
            u8(x, (unsigned)k);
        uleb(x, 2), u8(x, 0xee), u8(x, 0xff);
    }
    patch_len(x, hlen_at, os);
    program5(x);
    patch_len(x, len_at, os);
    t->s.big_endian = be;
    t->s.data[TSYM_DS_LINE] = t->line.b;
    t->s.size[TSYM_DS_LINE] = t->line.n;
    t->s.data[TSYM_DS_LINE_STR] = t->line_str.b;
    t->s.size[TSYM_DS_LINE_STR] = t->line_str.n;
}

/* Decodes the unit at 0 of s into ix; returns the decoder's result. */
static int decode(tsym__index *ix, const tsym__dsecs *s, uint64_t sob, const char *comp,
                  char *msg, size_t cap)
{
    tsym__lhdr h;
    tsym__lhdr_init(&h);
    uint32_t *files = NULL;
    size_t nf = 0;
    int rc = tsym__line_header(&h, s, 0, sob, msg, cap);
    if (!rc)
        rc = tsym__line_files(&files, &nf, ix, &h, comp);
    if (!rc)
        rc = tsym__line_rows(ix, &h, files, nf, msg, cap);
    free(files);
    tsym__lhdr_free(&h);
    return rc;
}

typedef struct want_row {
    uint64_t addr;
    uint32_t line, col, discr;
    const char *file; /* NULL: any */
    uint8_t flags;
} want_row;

static void expect_rows(const tsym__index *ix, const want_row *w, size_t n)
{
    ck_assert_uint_eq(ix->rows.len, n);
    for (size_t i = 0; i < n; i++) {
        const tsym__row *r = row(ix, i);
        ck_assert_msg(r->addr == w[i].addr && r->line == w[i].line && r->col == w[i].col &&
                          r->discr == w[i].discr && r->flags == w[i].flags &&
                          (!w[i].file || !strcmp(fname(ix, r->file), w[i].file)),
                      "row %zu: 0x%llx line %u col %u discr %u file %s flags %u", i,
                      (unsigned long long)r->addr, r->line, r->col, r->discr,
                      fname(ix, r->file), r->flags);
    }
}

/* the rows of program5: the initial file register is 1; the 0x3000 sequence keeps only
 * its end row; the unterminated one is gone */
static const want_row rows5[] = {
    {0x1000, 10, 0, 0, "/comp/src/a.c", 0}, {0x1002, 11, 5, 0, "/comp/src/a.c", 0},
    {0x1012, 11, 5, 3, "/abs/c.h", 0},      {0x1023, 7, 5, 0, "/abs/c.h", 0},
    {0x1027, 7, 5, 0, NULL, TSYM_ROW_END},  {0x3000, 1, 0, 0, NULL, TSYM_ROW_END},
};

START_TEST(dwarf5_line_strp)
{
    /* _i: 0 = 32-bit little-endian, 1 = 64-bit LE, 2 = 32-bit big-endian, 3 = 64-bit BE */
    static secs5 t;
    build5(&t, _i & 1 ? 8 : 4, _i >= 2);
    tsym__index ix;
    ix_init(&ix);
    char msg[200] = "";
    ck_assert_msg(decode(&ix, &t.s, 0, "/comp", msg, sizeof msg) == 0, "%s", msg);
    expect_rows(&ix, rows5, 6);
    /* the file table: dir 0 is the compilation directory itself, dir 1 is relative */
    tsym__lhdr h;
    tsym__lhdr_init(&h);
    uint32_t *files = NULL;
    size_t nf = 0;
    ck_assert_int_eq(tsym__line_header(&h, &t.s, 0, 0, msg, sizeof msg), 0);
    ck_assert_uint_eq(h.version, 5);
    ck_assert_uint_eq(h.offset_size, _i & 1 ? 8 : 4);
    ck_assert_int_eq(tsym__line_files(&files, &nf, &ix, &h, "/cu"), 0);
    ck_assert_uint_eq(nf, 4);
    ck_assert_str_eq(fname(&ix, files[0]), "/comp/a.c");
    ck_assert_str_eq(fname(&ix, files[1]), "/cu/src/a.c");
    ck_assert_str_eq(fname(&ix, files[2]), "/abs/c.h");
    ck_assert_str_eq(fname(&ix, files[3]), "d.h");
    free(files);
    tsym__lhdr_free(&h);
    tsym__index_free(&ix);
}
END_TEST

/* A one-directory DWARF 5 unit whose file 0 is given by path form pform (value bytes
 * written by the caller through *x after this returns) */
static void begin5(bb *x, size_t *len_at, size_t *hlen_at, size_t dir, unsigned pform)
{
    *len_at = x->n;
    put(x, 0, 4);
    put(x, 5, 2), u8(x, 8), u8(x, 0);
    *hlen_at = x->n;
    put(x, 0, 4);
    common(x, 5, -5, 14, 13, std13);
    u8(x, 1), uleb(x, 1), uleb(x, 0x1f), uleb(x, 1), put(x, dir, 4);
    u8(x, 2), uleb(x, 1), uleb(x, pform), uleb(x, 2), uleb(x, 0x05); /* dir index data2 */
    uleb(x, 1);
}

static void end5(bb *x, size_t len_at, size_t hlen_at)
{
    put(x, 0, 2); /* file 0's directory */
    patch_len(x, hlen_at, 4);
    ext(x, 2, 0x10, 8), u8(x, 1), u8(x, 4), uleb(x, 0), u8(x, 1), u8(x, 2), uleb(x, 1);
    ext(x, 1, 0, 0);
    patch_len(x, len_at, 4);
}

/* File names from .debug_str (strp), .debug_str_offsets (strx1: resolvable only with the
 * CU's DW_AT_str_offsets_base, else skipped) and inline (string); three units in one
 * section. */
START_TEST(dwarf5_str_forms)
{
    bb line = {.be = 0}, lstr = {.be = 0}, dstr = {.be = 0}, off = {.be = 0};
    str(&lstr, "");
    size_t dir = str(&lstr, "/c");
    str(&dstr, "");
    size_t s_a = str(&dstr, "a.c"), s_b = str(&dstr, "b.c");
    put(&off, 0, 4), put(&off, 5, 2), put(&off, 0, 2); /* header; the CU's base is 8 */
    put(&off, s_b, 4);
    size_t unit[5], len_at, hlen_at;
    unit[0] = line.n;
    begin5(&line, &len_at, &hlen_at, dir, 0x0e), put(&line, s_a, 4);
    end5(&line, len_at, hlen_at);
    unit[1] = unit[2] = line.n;
    begin5(&line, &len_at, &hlen_at, dir, 0x25), u8(&line, 0);
    end5(&line, len_at, hlen_at);
    unit[3] = line.n;
    begin5(&line, &len_at, &hlen_at, dir, 0x25), u8(&line, 7); /* index out of range */
    end5(&line, len_at, hlen_at);
    unit[4] = line.n;
    begin5(&line, &len_at, &hlen_at, dir, 0x08), str(&line, "e.c");
    end5(&line, len_at, hlen_at);
    tsym__dsecs s = {.data = {line.b, lstr.b, dstr.b, off.b},
                     .size = {line.n, lstr.n, dstr.n, off.n}};
    static const char *const want[5] = {"/c/a.c", NULL, "/c/b.c", NULL, "/c/e.c"};
    for (int i = 0; i < 5; i++) {
        tsym__index ix;
        ix_init(&ix);
        tsym__lhdr h;
        tsym__lhdr_init(&h);
        char msg[200] = "";
        uint32_t *files = NULL;
        size_t nf = 0;
        ck_assert_msg(tsym__line_header(&h, &s, unit[i], i == 2 || i == 3 ? 8 : 0, msg,
                                        sizeof msg) == 0, "%d: %s", i, msg);
        ck_assert_int_eq(tsym__line_files(&files, &nf, &ix, &h, "/ignored"), 0);
        ck_assert_uint_eq(nf, 1);
        if (want[i])
            ck_assert_str_eq(fname(&ix, files[0]), want[i]);
        else
            ck_assert_uint_eq(files[0], TSYM_NONE);
        ck_assert_int_eq(tsym__line_rows(&ix, &h, files, nf, msg, sizeof msg), 0);
        /* file register 1 names no entry of a one-file DWARF 5 table; set_file 0 does */
        ck_assert_uint_eq(ix.rows.len, 3);
        ck_assert_uint_eq(row(&ix, 0)->file, TSYM_NONE);
        ck_assert_uint_eq(row(&ix, 1)->file, files[0]);
        free(files);
        tsym__lhdr_free(&h);
        tsym__index_free(&ix);
    }
}
END_TEST

/* Ends the unit started at len_at in line with an end_sequence and decodes it into ix */
static void finish_decode(tsym__index *ix, bb *line, size_t len_at, const char *comp)
{
    ext(line, 1, 0, 0);
    patch_len(line, len_at, 4);
    tsym__dsecs s = {.data = {line->b}, .size = {line->n}};
    ix_init(ix);
    char msg[200] = "";
    ck_assert_msg(decode(ix, &s, 0, comp, msg, sizeof msg) == 0, "%s", msg);
}

/* DWARF 2-4: include_directories / file_names lists, 1-based file numbers, dir 0 = comp
 * dir; DWARF 2 has opcode_base 10, so opcodes 10-12 are special opcodes there. */
START_TEST(dwarf2_to_4)
{
    int version = 2 + _i;
    bb line = {.be = 0};
    bb *x = &line;
    size_t len_at = x->n;
    put(x, 0, 4);
    put(x, (uint64_t)version, 2);
    size_t hlen_at = x->n;
    put(x, 0, 4);
    /* DWARF 4 declares an extra standard opcode 13 with two operands */
    static const unsigned char std14[13] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 2};
    unsigned opbase = version == 2 ? 10 : version == 3 ? 13 : 14;
    common(x, version, -1, 4, opbase, std14);
    str(x, "src"), str(x, "/inc"), u8(x, 0);
    str(x, "a.c"), uleb(x, 1), uleb(x, 0), uleb(x, 0);
    str(x, "b.c"), uleb(x, 0), uleb(x, 0x1234), uleb(x, 99);
    str(x, "c.h"), uleb(x, 2), uleb(x, 0), uleb(x, 0);
    str(x, "d.h"), uleb(x, 3), uleb(x, 0), uleb(x, 0);
    u8(x, 0);
    patch_len(x, hlen_at, 4);
    ext(x, 2, 0x500, 8);
    u8(x, 1);                  /* 0x500 line 1 file 1 */
    if (version == 4)
        u8(x, 13), uleb(x, 300), uleb(x, 5); /* unknown standard opcode: operands skipped */
    u8(x, 4), uleb(x, 2);
    u8(x, 10);                 /* v2: special adj 0: addr +0, line -1; v3+: prologue_end */
    u8(x, 4), uleb(x, 3);
    u8(x, opbase + 1 + 4 * 3); /* special: line +0 (base -1 + 1), addr +3 */
    u8(x, 4), uleb(x, 0);      /* file 0: no such entry before DWARF 5 */
    u8(x, 1);
    u8(x, 4), uleb(x, 4);
    u8(x, 2), uleb(x, 1), u8(x, 1);
    u8(x, 2), uleb(x, 1);
    tsym__index ix;
    finish_decode(&ix, &line, len_at, "/cu");
    /* DWARF 2 reads opcode 10 as a special opcode (line - 1), later versions as
     * prologue_end; file 0 names nothing before DWARF 5; directory 3 does not exist */
    const want_row v2[] = {
        {0x500, 1, 0, 0, "/cu/src/a.c", 0}, {0x500, 0, 0, 0, "/cu/b.c", 0},
        {0x503, 0, 0, 0, "/inc/c.h", 0},    {0x503, 0, 0, 0, "(none)", 0},
        {0x504, 0, 0, 0, "d.h", 0},         {0x505, 0, 0, 0, NULL, TSYM_ROW_END}};
    const want_row v34[] = {
        {0x500, 1, 0, 0, "/cu/src/a.c", 0}, {0x503, 1, 0, 0, "/inc/c.h", 0},
        {0x503, 1, 0, 0, "(none)", 0},      {0x504, 1, 0, 0, "d.h", 0},
        {0x505, 1, 0, 0, NULL, TSYM_ROW_END}};
    if (version == 2)
        expect_rows(&ix, v2, 6);
    else
        expect_rows(&ix, v34, 5);
    tsym__index_free(&ix);
}
END_TEST

/* Rows of sequences outside every executable segment are dead code (spec 5.2 step 5) */
START_TEST(dead_sequences)
{
    static secs5 t;
    build5(&t, 4, 0);
    tsym__index ix;
    ix_init(&ix);
    tsym__load l = {.vaddr = 0x3000, .memsz = 0x100, .exec = 1};
    ck_assert_ptr_nonnull(tt_vec_push(&ix.loads, &l));
    char msg[200];
    ck_assert_int_eq(decode(&ix, &t.s, 0, NULL, msg, sizeof msg), 0);
    expect_rows(&ix, rows5 + 5, 1);
    tsym__index_free(&ix);
}
END_TEST

/* Every truncation of the unit, with its lengths left as they are and with them cut to
 * fit: an error or fewer rows, never a crash (each copy is exactly as long as it says). */
START_TEST(truncated)
{
    static secs5 t;
    build5(&t, _i & 1 ? 8 : 4, 0);
    unsigned os = _i & 1 ? 8 : 4;
    for (size_t n = 0; n < t.line.n; n++) {
        for (int fix = 0; fix < 2; fix++) {
            unsigned char *p = malloc(n ? n : 1);
            ck_assert_ptr_nonnull(p);
            memcpy(p, t.line.b, n);
            size_t len_off = os == 8 ? 4 : 0;
            if (fix && n >= len_off + os) {
                bb w = {.be = 0};
                put(&w, n - len_off - os, os);
                memcpy(p + len_off, w.b, os);
            }
            tsym__dsecs s = t.s;
            s.data[TSYM_DS_LINE] = p;
            s.size[TSYM_DS_LINE] = n;
            tsym__index ix;
            ix_init(&ix);
            tsym__row keep = {.addr = 42};
            ck_assert_ptr_nonnull(tt_vec_push(&ix.rows, &keep));
            char msg[200] = "";
            int rc = decode(&ix, &s, 0, NULL, msg, sizeof msg);
            if (rc) {
                ck_assert_int_eq(rc, TT_EFORMAT);
                ck_assert_uint_eq(ix.rows.len, 1); /* nothing of the unit kept */
                ck_assert_msg(strstr(msg, ".debug_line unit at 0x0: "), "%s", msg);
            }
            ck_assert_uint_eq(row(&ix, 0)->addr, 42);
            tsym__index_free(&ix);
            free(p);
        }
    }
}
END_TEST

/* Corrupt fields: each gives TT_EFORMAT and a message naming the problem */
START_TEST(corrupt)
{
    static const struct {
        size_t at;          /* byte offset in the 32-bit LE unit of build5 */
        unsigned char val;
        const char *msg;
    } c[] = {
        {4, 6, "unsupported line table version 6"},
        {4, 1, "unsupported line table version 1"},
        {1, 0x10, "unit length larger than the section"},
        {11, 0xff, "header length larger than the unit"},
        {16, 0, "line_range is 0"},
        {17, 0, "opcode_base is 0"},
        {32, 0x7f, "bad form 0x7f"},  /* the directory path form */
        {37, 0xff, "bad form 0x1f or string offset in directory entry 0"},
        {44, 0x7f, "bad form 0x7f or string offset in file entry 0"}, /* file path form */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0] + 1; i++) {
        static secs5 t;
        build5(&t, 4, 0);
        if (i < sizeof c / sizeof c[0])
            t.line.b[c[i].at] = c[i].val;
        else
            memcpy(t.line.b, "\xf0\xff\xff\xff", 4);
        tsym__index ix;
        ix_init(&ix);
        char msg[200] = "";
        ck_assert_msg(decode(&ix, &t.s, 0, NULL, msg, sizeof msg) == TT_EFORMAT, "case %zu", i);
        ck_assert_msg(strstr(msg, i < sizeof c / sizeof c[0] ? c[i].msg : "reserved unit length"),
                      "case %zu: %s", i, msg);
        ck_assert_uint_eq(ix.rows.len, 0);
        tsym__index_free(&ix);
    }
    /* an offset beyond the section, an extended opcode longer than the program */
    static secs5 t;
    build5(&t, 4, 0);
    tsym__lhdr h;
    tsym__lhdr_init(&h);
    char msg[200];
    ck_assert_int_eq(tsym__line_header(&h, &t.s, t.line.n, 0, msg, sizeof msg), TT_EFORMAT);
    ck_assert_msg(strstr(msg, "offset outside .debug_line"), "%s", msg);
    ck_assert_int_eq(tsym__line_header(&h, &t.s, 0, 0, msg, sizeof msg), 0);
    size_t prog = (size_t)(h.prog - t.line.b);
    t.line.b[prog + 1] = 0x7f; /* set_address length 127 */
    tsym__index ix;
    ix_init(&ix);
    ck_assert_int_eq(tsym__line_rows(&ix, &h, NULL, 0, msg, sizeof msg), TT_EFORMAT);
    ck_assert_msg(strstr(msg, "truncated extended opcode"), "%s", msg);
    t.line.b[prog + 1] = 0x0b; /* set_address length 11: 10 address bytes */
    ck_assert_int_eq(tsym__line_rows(&ix, &h, NULL, 0, msg, sizeof msg), TT_EFORMAT);
    ck_assert_msg(strstr(msg, "bad DW_LNE_set_address length"), "%s", msg);
    ck_assert_uint_eq(ix.rows.len, 0);
    tsym__index_free(&ix);
    tsym__lhdr_free(&h);
}
END_TEST

/* LEB128 values longer than 64 bits and line registers that wrap do not misbehave */
START_TEST(odd_values)
{
    bb line = {.be = 0};
    bb *x = &line;
    size_t len_at = x->n;
    put(x, 0, 4);
    put(x, 4, 2);
    size_t hlen_at = x->n;
    put(x, 0, 4);
    common(x, 4, -5, 14, 13, std13);
    u8(x, 0);
    str(x, "a.c"), uleb(x, 0), uleb(x, 0), uleb(x, 0), u8(x, 0);
    patch_len(x, hlen_at, 4);
    ext(x, 2, 0x100, 8);
    u8(x, 5);                                 /* set_column with an 11-byte LEB128 */
    for (int i = 0; i < 10; i++)
        u8(x, 0xff);
    u8(x, 0x01);
    u8(x, 3), sleb(x, -5);                    /* line 1 - 5 wraps: not a valid line */
    u8(x, 1);
    u8(x, 3), sleb(x, 5 + 70000);             /* back to 70001 */
    u8(x, 5), uleb(x, 70000);                 /* column saturates at 0xffff */
    u8(x, 0), uleb(x, 6), u8(x, 4), uleb(x, 0x1ffffffffull); /* discriminator > u32 */
    u8(x, 1);
    u8(x, 2), uleb(x, 1);
    tsym__index ix;
    finish_decode(&ix, &line, len_at, NULL);
    const want_row w[] = {{0x100, 0, 0xffff, 0, "a.c", 0},
                          {0x100, 70001, 0xffff, 0, "a.c", 0},
                          {0x101, 70001, 0xffff, 0, NULL, TSYM_ROW_END}};
    expect_rows(&ix, w, 3);
    tsym__index_free(&ix);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sym_line");
    TCase *tc = tcase_create("line");
    tcase_add_loop_test(tc, dwarf5_line_strp, 0, 4);
    tcase_add_test(tc, dwarf5_str_forms);
    tcase_add_loop_test(tc, dwarf2_to_4, 0, 3);
    tcase_add_test(tc, dead_sequences);
    tcase_add_loop_test(tc, truncated, 0, 2);
    tcase_add_test(tc, corrupt);
    tcase_add_test(tc, odd_values);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
