/* Recorded writes (analyze --jobs; one writer, storage.md 5.1): a handle without a
 * connection whose row writers append their statements to memory; replayed later, in input
 * order, through the same prepared statements, so the database is the one the writers would
 * have built. */
#include "tdb.h"

#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

#include "rec_int.h"

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
