/* DWARF 2-5 line-number programs (.debug_line) decoded from the section bytes, 32- and
 * 64-bit DWARF (spec/symbolication.md 5.1 rows, 5.2 step 8). Every read is bounds-checked
 * through a cursor with a sticky error flag: corrupt input gives TT_EFORMAT, never a read
 * outside the section. */
#include "tsym_int.h"

#include <stdlib.h>
#include <string.h>

/* DWARF constants (DWARF 5 section 7); libdwarf's dwarf.h is for dwarf_int.h only */
enum {
    LNS_copy = 1, LNS_advance_pc, LNS_advance_line, LNS_set_file, LNS_set_column,
    LNS_negate_stmt, LNS_set_basic_block, LNS_const_add_pc, LNS_fixed_advance_pc,
    LNE_end_sequence = 1, LNE_set_address = 2, LNE_set_discriminator = 4,
    LNCT_path = 1, LNCT_directory_index = 2,
    FORM_block2 = 0x03, FORM_block4 = 0x04, FORM_data2 = 0x05, FORM_data4 = 0x06,
    FORM_data8 = 0x07, FORM_string = 0x08, FORM_block = 0x09, FORM_block1 = 0x0a,
    FORM_data1 = 0x0b, FORM_flag = 0x0c, FORM_sdata = 0x0d, FORM_strp = 0x0e,
    FORM_udata = 0x0f, FORM_sec_offset = 0x17, FORM_flag_present = 0x19, FORM_strx = 0x1a,
    FORM_strp_sup = 0x1d, FORM_data16 = 0x1e, FORM_line_strp = 0x1f, FORM_strx1 = 0x25,
    FORM_strx2 = 0x26, FORM_strx3 = 0x27, FORM_strx4 = 0x28, FORM_GNU_strp_alt = 0x1f21,
};

typedef tsym__cur cur;

static uint64_t fixed(cur *c, unsigned n) { return tsym__cur_fixed(c, n); }
static void skip(cur *c, uint64_t n) { tsym__cur_skip(c, n); }
static uint64_t leb(cur *c, int sign) { return tsym__cur_leb(c, sign); }
/* one-byte values (most operands) without the loop */
static inline uint64_t uleb(cur *c)
{
    if (c->p < c->end && !(*c->p & 0x80))
        return *c->p++;
    return leb(c, 0);
}
static int64_t sleb(cur *c) { return (int64_t)leb(c, 1); }

static const char *cstr(cur *c)
{
    const unsigned char *z = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!z) {
        c->bad = 1;
        return NULL;
    }
    const char *s = (const char *)c->p;
    c->p = z + 1;
    return s;
}

static int fail(char *msg, size_t cap, uint64_t off, const char *what)
{
    snprintf(msg, cap, ".debug_line unit at 0x%llx: %s", (unsigned long long)off, what);
    return TT_EFORMAT;
}

/* NUL-terminated string at off of section k, NULL when off or the string is outside it */
static const char *sec_str(const tsym__dsecs *s, int k, uint64_t off)
{
    if (off >= s->size[k] || !memchr(s->data[k] + off, 0, s->size[k] - off))
        return NULL;
    return (const char *)s->data[k] + off;
}

typedef struct hdr_ctx {
    const tsym__dsecs *s;
    unsigned offset_size;
    uint64_t str_offsets_base;
} hdr_ctx;

/* Reads one attribute value of a DWARF 5 directory or file entry. A string form sets
 * *str (NULL when unresolvable), another form *num. Returns 0, or -1 on an unknown form
 * or a string offset outside its section. */
static int entry_value(cur *c, const hdr_ctx *x, uint64_t form, uint64_t *num, const char **str)
{
    unsigned os = x->offset_size;
    uint64_t v, idx;
    *num = 0;
    *str = NULL;
    switch (form) {
    case FORM_string: *str = cstr(c); return 0;
    case FORM_line_strp:
    case FORM_strp:
        v = fixed(c, os);
        if (c->bad)
            return 0;
        *str = sec_str(x->s, form == FORM_strp ? TSYM_DS_STR : TSYM_DS_LINE_STR, v);
        return *str ? 0 : -1;
    case FORM_strp_sup:
    case FORM_GNU_strp_alt: skip(c, os); return 0; /* supplementary file: not read */
    case FORM_strx: idx = uleb(c); goto strx;
    case FORM_strx1: idx = fixed(c, 1); goto strx;
    case FORM_strx2: idx = fixed(c, 2); goto strx;
    case FORM_strx3: idx = fixed(c, 3); goto strx;
    case FORM_strx4: idx = fixed(c, 4); goto strx;
    case FORM_data1: case FORM_flag: *num = fixed(c, 1); return 0;
    case FORM_data2: *num = fixed(c, 2); return 0;
    case FORM_data4: *num = fixed(c, 4); return 0;
    case FORM_data8: *num = fixed(c, 8); return 0;
    case FORM_sec_offset: *num = fixed(c, os); return 0;
    case FORM_udata: *num = uleb(c); return 0;
    case FORM_sdata: *num = (uint64_t)sleb(c); return 0;
    case FORM_flag_present: *num = 1; return 0;
    case FORM_data16: skip(c, 16); return 0;
    case FORM_block1: skip(c, fixed(c, 1)); return 0;
    case FORM_block2: skip(c, fixed(c, 2)); return 0;
    case FORM_block4: skip(c, fixed(c, 4)); return 0;
    case FORM_block: skip(c, uleb(c)); return 0;
    default: return -1;
    }
strx:
    /* resolvable only with the CU's base into .debug_str_offsets; skipped otherwise */
    if (!c->bad && x->str_offsets_base && idx < x->s->size[TSYM_DS_STR_OFFSETS] / os &&
        x->str_offsets_base <= x->s->size[TSYM_DS_STR_OFFSETS] - (idx + 1) * os) {
        cur o = {x->s->data[TSYM_DS_STR_OFFSETS] + x->str_offsets_base + idx * os,
                 x->s->data[TSYM_DS_STR_OFFSETS] + x->s->size[TSYM_DS_STR_OFFSETS], c->be, 0};
        *str = sec_str(x->s, TSYM_DS_STR, fixed(&o, os));
    }
    return 0;
}

/* DWARF 5 entry list: format count, (content type, form) pairs, entry count, entries.
 * Fills h->dirs (is_file 0) or h->files. */
static int v5_entries(cur *c, tsym__lhdr *h, const hdr_ctx *x, int is_file, char *msg,
                      size_t cap)
{
    unsigned nfmt = (unsigned)fixed(c, 1);
    uint64_t types[255], forms[255];
    for (unsigned i = 0; i < nfmt; i++) {
        types[i] = uleb(c);
        forms[i] = uleb(c);
    }
    uint64_t count = uleb(c);
    if (c->bad)
        return fail(msg, cap, h->off, "truncated header");
    /* every entry takes at least one byte unless all its forms are empty */
    if (nfmt && count > (uint64_t)(c->end - c->p))
        return fail(msg, cap, h->off, "entry count larger than the header");
    tt_vec *v = is_file ? &h->files : &h->dirs;
    if (nfmt == 0 && count)
        count = 0; /* entries without attributes carry nothing */
    if (tt_vec_reserve(v, (size_t)count))
        return TT_ENOMEM;
    for (uint64_t e = 0; e < count; e++) {
        tsym__lfile f = {NULL, 0};
        for (unsigned i = 0; i < nfmt; i++) {
            uint64_t num;
            const char *str;
            if (entry_value(c, x, forms[i], &num, &str)) {
                char what[80];
                snprintf(what, sizeof what, "bad form 0x%llx or string offset in %s entry %llu",
                         (unsigned long long)forms[i], is_file ? "file" : "directory",
                         (unsigned long long)e);
                return fail(msg, cap, h->off, what);
            }
            if (types[i] == LNCT_path)
                f.name = str;
            else if (types[i] == LNCT_directory_index)
                f.dir = num;
        }
        if (c->bad)
            return fail(msg, cap, h->off, "truncated header");
        if (!tt_vec_push(v, is_file ? (const void *)&f : (const void *)&f.name))
            return TT_ENOMEM;
    }
    return 0;
}

/* DWARF 2-4: include_directories and file_names, each list ended by an empty string */
static int v4_entries(cur *c, tsym__lhdr *h, char *msg, size_t cap)
{
    for (;;) {
        const char *d = cstr(c);
        if (!d)
            return fail(msg, cap, h->off, "truncated include_directories");
        if (!*d)
            break;
        if (!tt_vec_push(&h->dirs, &d))
            return TT_ENOMEM;
    }
    for (;;) {
        const char *name = cstr(c);
        if (!name)
            return fail(msg, cap, h->off, "truncated file_names");
        if (!*name)
            break;
        tsym__lfile f = {name, uleb(c)};
        uleb(c); /* modification time */
        uleb(c); /* length */
        if (c->bad)
            return fail(msg, cap, h->off, "truncated file_names");
        if (!tt_vec_push(&h->files, &f))
            return TT_ENOMEM;
    }
    return 0;
}

void tsym__lhdr_init(tsym__lhdr *h)
{
    memset(h, 0, sizeof *h);
    tt_vec_init(&h->dirs, sizeof(const char *));
    tt_vec_init(&h->files, sizeof(tsym__lfile));
}

void tsym__lhdr_free(tsym__lhdr *h)
{
    tt_vec_free(&h->dirs);
    tt_vec_free(&h->files);
}

int tsym__line_header(tsym__lhdr *h, const tsym__dsecs *s, uint64_t off,
                      uint64_t str_offsets_base, char *msg, size_t cap)
{
    h->dirs.len = h->files.len = 0;
    h->off = off;
    h->prog = h->end = NULL;
    h->big_endian = s->big_endian;
    size_t size = s->size[TSYM_DS_LINE];
    if (off >= size)
        return fail(msg, cap, off, "offset outside .debug_line");
    cur c = {s->data[TSYM_DS_LINE] + off, s->data[TSYM_DS_LINE] + size, s->big_endian, 0};
    uint64_t len = fixed(&c, 4);
    h->offset_size = 4;
    if (len == 0xffffffffu) {
        len = fixed(&c, 8);
        h->offset_size = 8;
    } else if (len >= 0xfffffff0u) {
        return fail(msg, cap, off, "reserved unit length");
    }
    if (c.bad || len > (uint64_t)(c.end - c.p))
        return fail(msg, cap, off, "unit length larger than the section");
    c.end = c.p + len;
    h->version = (unsigned)fixed(&c, 2);
    if (!c.bad && (h->version < 2 || h->version > 5)) {
        char what[64];
        snprintf(what, sizeof what, "unsupported line table version %u", h->version);
        return fail(msg, cap, off, what);
    }
    if (h->version >= 5) {
        fixed(&c, 1); /* address_size: DW_LNE_set_address carries its own length */
        fixed(&c, 1); /* segment_selector_size */
    }
    uint64_t hlen = fixed(&c, h->offset_size);
    if (c.bad || hlen > (uint64_t)(c.end - c.p))
        return fail(msg, cap, off, "header length larger than the unit");
    h->prog = c.p + hlen;
    h->end = c.end;
    c.end = h->prog;
    h->min_inst = (uint8_t)fixed(&c, 1);
    h->max_ops = h->version >= 4 ? (uint8_t)fixed(&c, 1) : 1;
    fixed(&c, 1); /* default_is_stmt: rows are kept whatever is_stmt says */
    h->line_base = (int8_t)(uint8_t)fixed(&c, 1);
    h->line_range = (uint8_t)fixed(&c, 1);
    h->opcode_base = (uint8_t)fixed(&c, 1);
    if (c.bad)
        return fail(msg, cap, off, "truncated header");
    if (h->line_range == 0)
        return fail(msg, cap, off, "line_range is 0");
    if (h->opcode_base == 0)
        return fail(msg, cap, off, "opcode_base is 0");
    h->std_lens = c.p;
    skip(&c, h->opcode_base - 1u);
    if (c.bad)
        return fail(msg, cap, off, "truncated header");
    if (h->version < 5)
        return v4_entries(&c, h, msg, cap);
    hdr_ctx x = {s, h->offset_size, str_offsets_base};
    int rc = v5_entries(&c, h, &x, 0, msg, cap);
    return rc ? rc : v5_entries(&c, h, &x, 1, msg, cap);
}

/* dir + "/" + name unless name is absolute; dir made absolute with comp_dir (the paths
 * dwarf_srcfiles builds) */
static int intern_path(tsym__index *ix, tt_buf *b, uint32_t *id, const char *comp,
                       const char *dir, const char *name)
{
    int rc = 0;
    b->len = 0;
    if (name[0] != '/') {
        if (dir && dir[0] != '/' && comp && comp[0])
            rc |= tt_buf_puts(b, comp) | tt_buf_puts(b, "/");
        if (dir && dir[0])
            rc |= tt_buf_puts(b, dir) | tt_buf_puts(b, "/");
    }
    rc |= tt_buf_puts(b, name);
    if (!rc)
        rc = tsym__str_intern(id, &ix->str, b->data, b->len);
    return rc ? TT_ENOMEM : 0;
}

int tsym__line_files(uint32_t **files, size_t *n_files, tsym__index *ix, const tsym__lhdr *h,
                     const char *comp_dir)
{
    size_t n = h->files.len, ndirs = h->dirs.len;
    *n_files = 0;
    if (n == 0)
        return 0;
    uint32_t *nf = realloc(*files, n * sizeof *nf);
    if (!nf)
        return TT_ENOMEM;
    *files = nf;
    const tsym__lfile *f = h->files.data;
    const char *const *dirs = h->dirs.data;
    tt_buf b = {0};
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        nf[i] = TSYM_NONE;
        if (!f[i].name)
            continue;
        /* DWARF 5 numbers directories from 0 (entry 0 = the compilation directory),
         * DWARF 2-4 from 1 with 0 meaning the compilation directory */
        uint64_t d = f[i].dir;
        const char *dir = NULL;
        if (h->version >= 5 ? d < ndirs : (d >= 1 && d <= ndirs))
            dir = dirs[h->version >= 5 ? d : d - 1];
        else if (h->version < 5 && d == 0)
            dir = comp_dir;
        rc = intern_path(ix, &b, &nf[i], comp_dir, dir, f[i].name);
    }
    tt_buf_free(&b);
    if (!rc)
        *n_files = n;
    return rc;
}

/* ---- the line-number state machine (DWARF 5 section 6.2) ---- */

typedef struct machine {
    tsym__index *ix;
    const uint32_t *files;
    size_t n_files, seq_start;
    unsigned version;
    uint64_t addr, file, line, col;
    uint32_t discr, op_index;
} machine;

static void reset(machine *m)
{
    m->addr = 0;
    m->file = 1;
    m->line = 1;
    m->col = 0;
    m->discr = 0;
    m->op_index = 0;
}

static void drop_sequence(tsym__index *ix, size_t seq_start)
{
    const tsym__row *r = ix->rows.data;
    size_t n = ix->rows.len;
    if (n > seq_start && !tsym__index_live(ix, r[seq_start].addr, r[n - 1].addr + 1))
        ix->rows.len = seq_start;
}

/* The row of the machine's registers */
static inline tsym__row make_row(const machine *m, int endseq)
{
    uint64_t f = m->file;
    uint32_t fid = TSYM_NONE;
    if (m->version < 5)
        f--; /* 0 wraps around: no file */
    if (f < m->n_files)
        fid = m->files[f];
    return (tsym__row){.addr = m->addr, .line = m->line > UINT32_MAX ? 0 : (uint32_t)m->line,
                       .file = fid, .discr = m->discr,
                       .col = m->col > 0xFFFF ? 0xFFFF : (uint16_t)m->col,
                       .flags = endseq ? TSYM_ROW_END : 0};
}

static int emit(machine *m, int endseq)
{
    tsym__index *ix = m->ix;
    if (endseq) {
        /* rows at the end address of their own sequence cover no bytes; dropped so the
         * end-sequence row is the last one at that address */
        while (ix->rows.len > m->seq_start &&
               TT_VEC_AT(&ix->rows, tsym__row, ix->rows.len - 1).addr == m->addr)
            ix->rows.len--;
    }
    if (ix->rows.len >= TSYM_NONE - 1 ||
        (ix->rows.len == ix->rows.cap && tt_vec_reserve(&ix->rows, ix->rows.len + 1)))
        return TT_ENOMEM;
    ((tsym__row *)ix->rows.data)[ix->rows.len++] = make_row(m, endseq);
    m->discr = 0;
    if (endseq) {
        drop_sequence(ix, m->seq_start);
        m->seq_start = ix->rows.len;
        reset(m);
    }
    return 0;
}

/* operation advance; VLIW op_index only when max_ops > 1 */
static void advance(machine *m, const tsym__lhdr *h, uint64_t adv)
{
    if (h->max_ops <= 1) {
        m->addr += h->min_inst * adv;
        return;
    }
    uint64_t t = m->op_index + adv;
    m->addr += h->min_inst * (t / h->max_ops);
    m->op_index = (uint32_t)(t % h->max_ops);
}

static int extended(machine *m, cur *c, char *msg, size_t cap, uint64_t off)
{
    uint64_t len = uleb(c);
    if (c->bad || len > (uint64_t)(c->end - c->p))
        return fail(msg, cap, off, "truncated extended opcode");
    if (len == 0)
        return 0;
    const unsigned char *next = c->p + len;
    unsigned op = (unsigned)fixed(c, 1);
    if (op == LNE_end_sequence) {
        c->p = next;
        return emit(m, 1);
    }
    if (op == LNE_set_address) {
        if (len < 2 || len > 9)
            return fail(msg, cap, off, "bad DW_LNE_set_address length");
        m->addr = fixed(c, (unsigned)len - 1);
        m->op_index = 0;
    } else if (op == LNE_set_discriminator) {
        uint64_t d = uleb(c);
        m->discr = d > UINT32_MAX ? 0 : (uint32_t)d;
        if (c->p > next)
            return fail(msg, cap, off, "truncated extended opcode");
    }
    /* DW_LNE_define_file (DWARF 2-4, never emitted by gcc or clang) and vendor opcodes
     * are skipped by their length */
    c->p = next;
    return 0;
}

static int standard(machine *m, const tsym__lhdr *h, cur *c, unsigned op)
{
    switch (op) {
    case LNS_copy: return emit(m, 0);
    case LNS_advance_pc: advance(m, h, uleb(c)); return 0;
    case LNS_advance_line: m->line += (uint64_t)sleb(c); return 0;
    case LNS_set_file: m->file = uleb(c); return 0;
    case LNS_set_column: m->col = uleb(c); return 0;
    case LNS_negate_stmt: case LNS_set_basic_block: return 0;
    case LNS_const_add_pc: advance(m, h, (255u - h->opcode_base) / h->line_range); return 0;
    case LNS_fixed_advance_pc:
        m->addr += fixed(c, 2);
        m->op_index = 0;
        return 0;
    default: /* prologue_end, epilogue_begin, set_isa and unknown ones: skip operands */
        for (unsigned i = 0; i < h->std_lens[op - 1]; i++)
            uleb(c);
        return 0;
    }
}

int tsym__line_rows(tsym__index *ix, const tsym__lhdr *h, const uint32_t *files,
                    size_t n_files, char *msg, size_t cap)
{
    size_t first = ix->rows.len;
    machine m = {.ix = ix, .files = files, .n_files = n_files, .seq_start = first,
                 .version = h->version};
    reset(&m);
    cur c = {h->prog, h->end, h->big_endian, 0};
    int rc = 0;
    /* special opcodes: operation advance and line increment looked up, not divided out */
    uint8_t sadv[256];
    int16_t sline[256];
    for (unsigned op = h->opcode_base; op < 256; op++) {
        unsigned adj = op - h->opcode_base;
        sadv[op] = (uint8_t)(adj / h->line_range);
        sline[op] = (int16_t)(h->line_base + (int)(adj % h->line_range));
    }
    while (c.p < c.end && !rc) {
        unsigned op = *c.p++;
        /* runs of special opcodes (most of a program) in a loop of their own, the row
         * array's length and capacity in locals (a row's stores could alias them) */
        if (op >= h->opcode_base && h->max_ops <= 1) {
            tsym__row *rows = ix->rows.data;
            size_t len = ix->rows.len;
            size_t room = ix->rows.cap < TSYM_NONE - 1 ? ix->rows.cap : TSYM_NONE - 1;
            uint64_t min_inst = h->min_inst;
            unsigned base = h->opcode_base;
            for (;;) {
                m.addr += min_inst * sadv[op];
                m.line += (uint64_t)(int64_t)sline[op];
                if (len < room) {
                    rows[len++] = make_row(&m, 0);
                    m.discr = 0;
                } else {
                    ix->rows.len = len;
                    rc = emit(&m, 0);
                    rows = ix->rows.data;
                    len = ix->rows.len;
                    room = ix->rows.cap < TSYM_NONE - 1 ? ix->rows.cap : TSYM_NONE - 1;
                    if (rc)
                        break;
                }
                if (c.p == c.end || *c.p < base)
                    break;
                op = *c.p++;
            }
            ix->rows.len = len;
            continue;
        }
        if (op >= h->opcode_base) {
            if (h->max_ops <= 1)
                m.addr += (uint64_t)h->min_inst * sadv[op];
            else
                advance(&m, h, sadv[op]);
            m.line += (uint64_t)(int64_t)sline[op];
            /* most rows: room left, not the end of a sequence */
            if (ix->rows.len < ix->rows.cap && ix->rows.len < TSYM_NONE - 1) {
                ((tsym__row *)ix->rows.data)[ix->rows.len++] = make_row(&m, 0);
                m.discr = 0;
            } else {
                rc = emit(&m, 0);
            }
        } else if (op == 0) {
            rc = extended(&m, &c, msg, cap, h->off);
        } else {
            rc = standard(&m, h, &c, op);
        }
        if (!rc && c.bad)
            rc = fail(msg, cap, h->off, "truncated line-number program");
    }
    if (rc == TT_ENOMEM)
        snprintf(msg, cap, "out of memory");
    /* an unterminated last sequence is dropped; nothing of a corrupt unit is kept */
    ix->rows.len = rc ? first : m.seq_start;
    return rc;
}
