/* Recorded writes (analyze --jobs; one writer, storage.md 5.1): a handle without a
 * connection whose row writers append their statements to memory; replayed later, in input
 * order, through the same prepared statements, so the database is the one the writers would
 * have built. */
#include "tdb.h"

#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

/* A row id handed out while recording: bit 62, the statement slot that made it (its table),
 * and a 1-based number within that slot. Real row ids never come near 2^40. */
#define VTAG ((int64_t)1 << 62)
#define VSHIFT 40
#define VLOCAL (((int64_t)1 << VSHIFT) - 1)

enum { OP_END = 0, OP_ROW, OP_NEXT, OP_MODULE, OP_SYMPC };
enum { V_END = 0, V_NULL, V_INT, V_REF, V_TEXT, V_REAL };

typedef struct seg {
    int64_t local, real; /* tdb_next_id: explicit ids from local map to real + (id - local) */
} seg;

struct tdb_rec {
    tt_buf log;
    int oom;
    int64_t count[ST__COUNT]; /* row ids handed out, or the highest explicit id referenced */
    /* after tdb_rec_replay: the real id of every handed-out id */
    tt_vec real[ST__COUNT]; /* int64_t by number - 1 */
    tt_vec segs[ST__COUNT]; /* seg, for the explicit-id tables */
};

int tdb_rec_new(tdb_db **out, tt_error *err)
{
    tdb_db *db = calloc(1, sizeof *db);
    tdb_rec *r = calloc(1, sizeof *r);
    char *path = strdup("<recording>");
    if (!db || !r || !path) {
        free(db);
        free(r);
        free(path);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int i = 0; i < ST__COUNT; i++) {
        tt_vec_init(&r->real[i], sizeof(int64_t));
        tt_vec_init(&r->segs[i], sizeof(seg));
    }
    db->path = path;
    db->rec = r;
    *out = db;
    return 0;
}

void tdb__rec_free(tdb_rec *r)
{
    if (!r)
        return;
    tt_buf_free(&r->log);
    for (int i = 0; i < ST__COUNT; i++) {
        tt_vec_free(&r->real[i]);
        tt_vec_free(&r->segs[i]);
    }
    free(r);
}

/* ---- recording ---- */
/* A value starts with one byte: its V_* type in the low 3 bits and its parameter number in
 * the high 5; number 0 (or 32 and above) means the number follows as a varint. V_END is 0.
 * Each value goes into the log with one copy. */
static void put(tdb_rec *r, const void *p, size_t n)
{
    tt_buf *b = &r->log;
    if (b->len + n < b->cap) { /* the common case, without a call */
        memcpy(b->data + b->len, p, n);
        b->len += n;
    } else if (!r->oom && tt_buf_put(b, p, n)) {
        r->oom = 1;
    }
}
static void put_u8(tdb_rec *r, int v)
{
    unsigned char c = (unsigned char)v;
    put(r, &c, 1);
}
static size_t enc_uv(unsigned char *b, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (unsigned char)v;
    return n;
}
static void put_uv(tdb_rec *r, uint64_t v)
{
    unsigned char b[10];
    put(r, b, enc_uv(b, v));
}
/* The first byte(s) of a value; b has room for 11. */
static size_t enc_head(unsigned char *b, int type, int i)
{
    if (i > 0 && i < 32) {
        b[0] = (unsigned char)(type | i << 3);
        return 1;
    }
    b[0] = (unsigned char)type;
    return 1 + enc_uv(b + 1, (uint64_t)i);
}

void tdb__rec_row(tdb_rec *r, int slot, const char *sql)
{
    unsigned char b[2 + sizeof sql] = {OP_ROW, (unsigned char)slot};
    memcpy(b + 2, &sql, sizeof sql); /* a string literal of store.c: valid for the process */
    put(r, b, sizeof b);
}

void tdb__rec_int(tdb_rec *r, int i, int have, int64_t v)
{
    unsigned char b[24];
    size_t n = enc_head(b, have ? V_INT : V_NULL, i);
    if (have) /* zigzag */
        n += enc_uv(b + n, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
    put(r, b, n);
}

void tdb__rec_ref(tdb_rec *r, int i, int have, int64_t v)
{
    if (!have || !(v & VTAG)) {
        tdb__rec_int(r, i, have, v);
        return;
    }
    int slot = (int)((v >> VSHIFT) & 0xff);
    int64_t local = v & VLOCAL;
    if (slot < ST__COUNT && local > r->count[slot] && (slot == ST_SLICE_ADD || slot == ST_NODE_ADD || slot == ST_ARG_INT))
        r->count[slot] = local; /* explicit ids: the next tdb_next_id starts after it */
    unsigned char b[24];
    size_t n = enc_head(b, V_REF, i);
    b[n++] = (unsigned char)slot;
    n += enc_uv(b + n, (uint64_t)local);
    put(r, b, n);
}

void tdb__rec_text(tdb_rec *r, int i, const char *s)
{
    if (!s) {
        tdb__rec_int(r, i, 0, 0);
        return;
    }
    size_t len = strlen(s);
    unsigned char b[24];
    size_t n = enc_head(b, V_TEXT, i);
    n += enc_uv(b + n, len);
    put(r, b, n);
    put(r, s, len);
}

void tdb__rec_real(tdb_rec *r, int i, int have, double v)
{
    if (!have) {
        tdb__rec_int(r, i, 0, 0);
        return;
    }
    unsigned char b[24];
    size_t n = enc_head(b, V_REAL, i);
    memcpy(b + n, &v, sizeof v);
    put(r, b, n + sizeof v);
}

static int rec_oom(tdb_rec *r, tt_error *err)
{
    return r->oom ? tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory") : 0;
}

/* A new row id of slot's table. */
static int64_t rec_id(tdb_rec *r, int slot)
{
    return VTAG | ((int64_t)slot << VSHIFT) | ++r->count[slot];
}

int tdb__rec_end(tdb_rec *r, int slot, int64_t *rowid, tt_error *err)
{
    unsigned char b[2] = {V_END, rowid != NULL};
    put(r, b, 2);
    if (rowid)
        *rowid = rec_id(r, slot);
    return rec_oom(r, err);
}

int tdb__rec_next_id(tdb_rec *r, int slot, int64_t *id, tt_error *err)
{
    int64_t local = r->count[slot] + 1;
    put_u8(r, OP_NEXT);
    put_u8(r, slot);
    put_uv(r, (uint64_t)local);
    *id = VTAG | ((int64_t)slot << VSHIFT) | local;
    return rec_oom(r, err);
}

int tdb__rec_module(tdb_rec *r, const tdb_module *m, int64_t *id, tt_error *err)
{
    put_u8(r, OP_MODULE);
    tdb__rec_text(r, 1, m->build_id);
    tdb__rec_text(r, 2, m->name);
    tdb__rec_text(r, 3, m->path);
    tdb__rec_text(r, 4, m->kind);
    tdb__rec_int(r, 5, m->have_debug_info, m->has_debug_info);
    put_u8(r, V_END);
    *id = rec_id(r, ST_MODULE_ADD);
    return rec_oom(r, err);
}

int tdb__rec_sympc(tdb_rec *r, int64_t module_id, int64_t rel_pc, const tdb_symbol *f,
                   size_t n, int64_t *set_id, tt_error *err)
{
    put_u8(r, OP_SYMPC);
    tdb__rec_ref(r, 1, 1, module_id);
    tdb__rec_int(r, 2, 1, rel_pc);
    tdb__rec_int(r, 3, 1, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        tdb__rec_text(r, 1, f[i].name);
        tdb__rec_text(r, 2, f[i].file);
        tdb__rec_int(r, 3, 1, f[i].line);
        tdb__rec_int(r, 4, 1, f[i].column);
        tdb__rec_int(r, 5, 1, f[i].is_inlined);
        tdb__rec_text(r, 6, f[i].symbol_name);
        tdb__rec_int(r, 7, 1, f[i].is_approximate);
    }
    put_u8(r, V_END);
    *set_id = rec_id(r, ST_SYMPC_ADD);
    return rec_oom(r, err);
}

/* ---- replay ---- */
typedef struct cur {
    const unsigned char *p, *end;
} cur;

typedef struct rval {
    int type, idx;
    int64_t i;
    double r;
    const char *s;
    size_t n;
} rval;

static int get_u8(cur *c)
{
    return c->p < c->end ? *c->p++ : -1;
}
static inline uint64_t get_uv(cur *c)
{
    if (c->p < c->end && *c->p < 0x80) /* most values: one byte */
        return *c->p++;
    uint64_t v = 0;
    for (int sh = 0; c->p < c->end && sh < 64; sh += 7) {
        unsigned char b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            break;
    }
    return v;
}

/* A varint at p (not past end) into *v; returns the byte after it. */
static inline const unsigned char *uvar(const unsigned char *p, const unsigned char *end,
                                        uint64_t *v)
{
    if (p < end && *p < 0x80) { /* most values: one byte */
        *v = *p;
        return p + 1;
    }
    uint64_t x = 0;
    for (int sh = 0; p < end && sh < 64; sh += 7) {
        unsigned char b = *p++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            break;
    }
    *v = x;
    return p;
}

static int64_t resolve(const tdb_rec *r, int slot, int64_t local, int *ok)
{
    *ok = 1;
    if (slot >= 0 && slot < ST__COUNT && r->segs[slot].len) {
        for (size_t k = r->segs[slot].len; k-- > 0;) {
            const seg *s = &TT_VEC_AT(&r->segs[slot], seg, k);
            if (s->local <= local)
                return s->real + (local - s->local);
        }
    } else if (slot >= 0 && slot < ST__COUNT && local >= 1 &&
               (size_t)local <= r->real[slot].len) {
        return TT_VEC_AT(&r->real[slot], int64_t, (size_t)local - 1);
    }
    *ok = 0;
    return 0;
}

int64_t tdb_rec_resolve(const tdb_db *rec, int64_t id)
{
    if (!rec || !rec->rec || !(id & VTAG))
        return id;
    int ok;
    int64_t v = resolve(rec->rec, (int)((id >> VSHIFT) & 0xff), id & VLOCAL, &ok);
    return ok ? v : 0;
}

/* Reads one value (h: its first byte, not V_END); refs become V_INT with the real id. */
static int get_val(tdb_rec *r, cur *c, int h, rval *v)
{
    int t = h & 7;
    *v = (rval){.type = t, .idx = h >> 3 ? h >> 3 : (int)get_uv(c)};
    int ok = 1;
    switch (t) {
    case V_NULL: break;
    case V_INT: {
        uint64_t z = get_uv(c);
        v->i = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        break;
    }
    case V_REF: {
        int slot = get_u8(c);
        v->type = V_INT;
        v->i = resolve(r, slot, (int64_t)get_uv(c), &ok);
        break;
    }
    case V_TEXT:
        v->n = (size_t)get_uv(c);
        v->s = (const char *)c->p;
        ok = v->n <= (size_t)(c->end - c->p);
        c->p += ok ? v->n : 0;
        break;
    case V_REAL:
        ok = c->end - c->p >= (ptrdiff_t)sizeof v->r;
        if (ok)
            memcpy(&v->r, c->p, sizeof v->r);
        c->p += ok ? sizeof v->r : 0;
        break;
    default: ok = 0;
    }
    return ok;
}

static int broken(tt_error *err)
{
    return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "recorded rows: broken log");
}

/* Reads values up to V_END into vals (grown); refs are resolved to real ids. */
static int get_vals(tdb_rec *r, cur *c, tt_vec *vals, tt_error *err)
{
    vals->len = 0;
    for (int t; (t = get_u8(c)) != V_END;) {
        rval v;
        if (!get_val(r, c, t, &v))
            return broken(err);
        if (!tt_vec_push(vals, &v))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return 0;
}

/* What a replay bound last to the first NBOUND parameters of each statement: sqlite3_reset
 * keeps bindings, so an integer or NULL equal to the last one is not bound again (a third of
 * a slice row's columns are NULL). type 0: unknown. Valid for one tdb_rec_replay, whose other
 * statements (module and symbol lookups) never share a slot with a recorded row. */
#define NBOUND 32
typedef struct bound {
    int type;
    int64_t i;
} bound;

/* A row: its values are bound as they are read (a recorded row binds every parameter). */
static int replay_row(tdb_db *db, tdb_rec *r, cur *c, bound (*last)[NBOUND], tt_error *err)
{
    int slot = get_u8(c);
    const char *sql;
    if (slot < 0 || slot >= ST__COUNT || c->end - c->p < (ptrdiff_t)sizeof sql)
        return broken(err);
    memcpy(&sql, c->p, sizeof sql);
    c->p += sizeof sql;
    sqlite3_stmt *st = tdb__prep(db, slot, sql, err);
    if (!st)
        return TT_EIO;
    /* get_val inlined, the cursor in locals: this loop runs for every value of every row */
    const unsigned char *p = c->p, *end = c->end;
    for (;;) {
        if (p >= end)
            return broken(err);
        int h = *p++;
        if (h == V_END)
            break;
        int t = h & 7, idx = h >> 3, ok = 1;
        uint64_t x;
        if (!idx) {
            p = uvar(p, end, &x);
            idx = x <= INT32_MAX ? (int)x : 0;
        }
        int64_t i = 0;
        if (t == V_INT) {
            p = uvar(p, end, &x);
            i = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
        } else if (t == V_REF && p < end) {
            int ref_slot = *p++;
            p = uvar(p, end, &x);
            t = V_INT;
            i = resolve(r, ref_slot, (int64_t)x, &ok);
        } else if (t == V_TEXT || t == V_REAL) {
            if (t == V_TEXT)
                p = uvar(p, end, &x);
            size_t n = t == V_TEXT ? (size_t)x : sizeof(double);
            if (idx < 1 || n > (size_t)(end - p))
                return broken(err);
            if (idx <= NBOUND)
                last[slot][idx - 1].type = 0;
            if (t == V_TEXT) {
                sqlite3_bind_text(st, idx, (const char *)p, (int)n, SQLITE_STATIC);
            } else {
                double d;
                memcpy(&d, p, sizeof d);
                sqlite3_bind_double(st, idx, d);
            }
            p += n;
            continue;
        } else if (t != V_NULL) {
            return broken(err);
        }
        if (!ok || idx < 1)
            return broken(err);
        if (idx <= NBOUND) {
            bound *b = &last[slot][idx - 1];
            if (b->type == t && (t == V_NULL || b->i == i))
                continue;
            b->type = t;
            b->i = i;
        }
        if (t == V_INT)
            sqlite3_bind_int64(st, idx, i);
        else
            sqlite3_bind_null(st, idx);
    }
    c->p = p;
    int want = get_u8(c) == 1;
    int64_t id;
    int rc = tdb__step_done(db, st, want ? &id : NULL, err);
    if (rc)
        return rc;
    if (want && !tt_vec_push(&r->real[slot], &id))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}

/* The i-th value as text (NUL-terminated copy in buf) or NULL. */
static const char *vtext(const tt_vec *vals, size_t i, tt_buf *buf)
{
    const rval *v = &TT_VEC_AT(vals, rval, i);
    if (v->type != V_TEXT)
        return NULL;
    buf->len = 0;
    if (tt_buf_put(buf, v->s, v->n) || tt_buf_put(buf, "", 1))
        return NULL;
    return buf->data;
}

static int replay_module(tdb_db *db, tdb_rec *r, cur *c, tt_vec *vals, tt_error *err)
{
    int rc = get_vals(r, c, vals, err);
    if (rc)
        return rc;
    if (vals->len != 5)
        return broken(err);
    tt_buf b[4] = {{0}};
    const rval *dbg = &TT_VEC_AT(vals, rval, 4);
    tdb_module m = {.build_id = vtext(vals, 0, &b[0]), .name = vtext(vals, 1, &b[1]),
                    .path = vtext(vals, 2, &b[2]), .kind = vtext(vals, 3, &b[3]),
                    .have_debug_info = dbg->type == V_INT, .has_debug_info = (int)dbg->i};
    int64_t id;
    rc = tdb_module_get(db, &m, &id, err);
    for (int i = 0; i < 4; i++)
        tt_buf_free(&b[i]);
    if (!rc && !tt_vec_push(&r->real[ST_MODULE_ADD], &id))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return rc;
}

static int replay_sympc(tdb_db *db, tdb_rec *r, cur *c, tt_vec *vals, tt_error *err)
{
    int rc = get_vals(r, c, vals, err);
    if (rc)
        return rc;
    size_t n = vals->len >= 3 ? (size_t)TT_VEC_AT(vals, rval, 2).i : 0;
    if (vals->len < 3 || (vals->len - 3) / 7 != n || (vals->len - 3) % 7)
        return broken(err);
    tdb_symbol *f = calloc(n ? n : 1, sizeof *f);
    tt_buf *b = calloc(n ? 3 * n : 1, sizeof *b);
    if (!f || !b) {
        free(f);
        free(b);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        size_t o = 3 + 7 * i;
        f[i].name = vtext(vals, o, &b[3 * i]);
        f[i].file = vtext(vals, o + 1, &b[3 * i + 1]);
        f[i].line = TT_VEC_AT(vals, rval, o + 2).i;
        f[i].column = TT_VEC_AT(vals, rval, o + 3).i;
        f[i].is_inlined = (int)TT_VEC_AT(vals, rval, o + 4).i;
        f[i].symbol_name = vtext(vals, o + 5, &b[3 * i + 2]);
        f[i].is_approximate = (int)TT_VEC_AT(vals, rval, o + 6).i;
    }
    int64_t id;
    rc = tdb_symbolized_pc_add(db, TT_VEC_AT(vals, rval, 0).i, TT_VEC_AT(vals, rval, 1).i, f, n,
                               &id, err);
    for (size_t i = 0; i < 3 * n; i++)
        tt_buf_free(&b[i]);
    free(b);
    free(f);
    if (!rc && !tt_vec_push(&r->real[ST_SYMPC_ADD], &id))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return rc;
}

static int replay_next(tdb_db *db, tdb_rec *r, cur *c, tt_error *err)
{
    int slot = get_u8(c);
    seg s = {.local = (int64_t)get_uv(c)};
    if (slot != ST_SLICE_ADD && slot != ST_NODE_ADD && slot != ST_ARG_INT)
        return broken(err);
    int rc = tdb_next_id(db, slot == ST_SLICE_ADD ? "slice" : slot == ST_NODE_ADD ? "call_node" : "args",
                         &s.real, err);
    if (!rc && !tt_vec_push(&r->segs[slot], &s))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return rc;
}

int tdb_rec_replay(tdb_db *db, tdb_db *rec, tt_error *err)
{
    tdb_rec *r = rec->rec;
    if (!r || db->rec)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "replay: expected a recording");
    cur c = {(const unsigned char *)r->log.data, (const unsigned char *)r->log.data + r->log.len};
    bound(*last)[NBOUND] = calloc(ST__COUNT, sizeof *last);
    if (!last)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_vec vals;
    tt_vec_init(&vals, sizeof(rval));
    int rc = 0;
    while (!rc && c.p < c.end) {
        switch (get_u8(&c)) {
        case OP_ROW: rc = replay_row(db, r, &c, last, err); break;
        case OP_NEXT: rc = replay_next(db, r, &c, err); break;
        case OP_MODULE: rc = replay_module(db, r, &c, &vals, err); break;
        case OP_SYMPC: rc = replay_sympc(db, r, &c, &vals, err); break;
        default: rc = broken(err);
        }
    }
    tt_vec_free(&vals);
    free(last);
    tt_buf_free(&r->log); /* replayed once; the id map stays for tdb_rec_resolve */
    return rc;
}

void tdb_rec_trim(tdb_db *rec)
{
    tt_buf *b = rec && rec->rec ? &rec->rec->log : NULL;
    if (!b || !b->data || b->len + 1 >= b->cap)
        return;
    char *p = realloc(b->data, b->len + 1); /* tt_buf keeps a NUL after len */
    if (p) {
        b->data = p;
        b->cap = b->len + 1;
    }
}

size_t tdb_rec_bytes(const tdb_db *rec)
{
    return rec && rec->rec ? rec->rec->log.len : 0;
}
