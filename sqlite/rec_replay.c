/* Replay of recorded writes (analyze --jobs): the writer runs a recording's rows, in input
 * order, through the prepared statements and the writers' own functions, mapping the ids
 * handed out while recording to the real ones (rec.c records). */
#include "tdb.h"

#include <stdlib.h>
#include <string.h>

#include "rec_int.h"

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
