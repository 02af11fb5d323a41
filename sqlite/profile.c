/* Sampled and sliced traces read back into profiles for export (tracetool-export(1)): the
 * stack_frame, callsite, thread, sample and slice rows analyze wrote (storage.md 3.7) become
 * frames, callsites, threads, one sample per stored run and fixed slices. Read-only. */
#include "tdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

#define SQL_TRACES                                                                             \
    "SELECT t.id, t.source_format, "                                                           \
    "EXISTS (SELECT 1 FROM sample s WHERE s.trace_id = t.id), "                                \
    "EXISTS (SELECT 1 FROM slice l WHERE l.trace_id = t.id) FROM trace t ORDER BY t.id"
#define SQL_TRACE "SELECT source_format, clock, package FROM trace WHERE id = ?1"
#define SQL_PROCESS "SELECT pid FROM process WHERE trace_id = ?1 ORDER BY upid LIMIT 1"
#define SQL_INTERVAL                                                                           \
    "SELECT int_value FROM metadata WHERE trace_id = ?1 AND name = 'sample_interval_ns'"
/* schema 1 has no stack_frame.file and .line */
#define SQL_HAS_FILE "SELECT 1 FROM pragma_table_info('stack_frame') WHERE name = 'line'"
#define SQL_FRAMES(file_line)                                                                  \
    "SELECT f.id, f.name, f.raw_name, f.kind, f.rel_pc, m.name, " file_line " FROM "            \
    "stack_frame f LEFT JOIN module m ON m.id = f.module_id WHERE f.trace_id = ?1 ORDER BY f.id"
#define SQL_CALLSITES                                                                          \
    "SELECT id, parent_id, frame_id FROM callsite WHERE trace_id = ?1 ORDER BY id"
/* no_thread: analyze stores perf's samples without a thread (tid -1) on a process of unknown
 * pid after the trace's own (its first) */
#define SQL_THREADS                                                                            \
    "SELECT t.utid, t.tid, t.name, t.is_main_thread, p.pid, t.tid = -1 AND p.pid IS NULL AND " \
    "p.upid > (SELECT MIN(upid) FROM process WHERE trace_id = ?1), t.tid_bits FROM thread t "  \
    "LEFT JOIN process p ON p.upid = t.upid WHERE t.trace_id = ?1 ORDER BY t.utid"
#define SQL_SAMPLES                                                                            \
    "SELECT id, utid, ts, dur, callsite_id, count, weight, type, event, msg_id, is_interval, "  \
    "is_blocking, thread_ts, thread_dur FROM sample WHERE trace_id = ?1 ORDER BY utid, ts, id"
/* the CPU clock at a slice's start is not stored: analyze's slices start at the first
 * sample of a run, whose thread_ts is */
#define SQL_SLICES                                                                             \
    "SELECT s.id, s.utid, s.ts, s.dur, s.depth, s.parent_id, s.name, s.category, s.frame_id, " \
    "s.callsite_id, s.end_kind, s.thread_dur, s.self_dur, s.self_thread_dur, s.block_dur, "    \
    "s.sample_count, s.gap_before, s.gap_after, s.msg_id, s.type, s.is_recursive, "            \
    "(SELECT r.thread_ts FROM sample r WHERE r.trace_id = s.trace_id AND r.utid = s.utid "     \
    "AND r.ts = s.ts ORDER BY r.id LIMIT 1), s.wakeup_utid, s.alloc_objects, s.alloc_bytes, "  \
    "s.maj_flt, s.nv_csw, s.niv_csw, EXISTS (SELECT 1 FROM args a WHERE a.arg_set_id = "       \
    "s.arg_set_id AND a.key = 'unwound' AND a.int_value = 1) "                                 \
    "FROM slice s WHERE s.trace_id = ?1 ORDER BY s.utid, s.id"
#define SQL_WAKEUPS                                                                            \
    "SELECT wakee_slice_id, waker_ts FROM wakeup WHERE trace_id = ?1 "                         \
    "ORDER BY wakee_slice_id, id"

int tdb_trace_list(tdb_trace_info **out, size_t *n, tdb_db *db, tt_error *err)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, SQL_TRACES, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "reading traces");
    tt_vec v;
    tt_vec_init(&v, sizeof(tdb_trace_info));
    int rc = 0, r;
    while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
        tdb_trace_info t;
        memset(&t, 0, sizeof t);
        t.id = sqlite3_column_int64(st, 0);
        const char *sf = (const char *)sqlite3_column_text(st, 1);
        snprintf(t.source_format, sizeof t.source_format, "%s", sf ? sf : "");
        t.has_samples = sqlite3_column_int(st, 2);
        t.has_slices = sqlite3_column_int(st, 3);
        if (!tt_vec_push(&v, &t))
            rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    }
    if (!rc && r != SQLITE_DONE)
        rc = tdb__sqlerr(db, err, "reading traces");
    sqlite3_finalize(st);
    if (rc) {
        tt_vec_free(&v);
        return rc;
    }
    *out = v.data;
    *n = v.len;
    return 0;
}

/* ---- loading one trace ---- */

typedef struct ld {
    tdb_db *db;
    const char *name; /* the database in messages */
    int64_t trace;
    tt_stats *stats;
    tt_profile *p;
    tt_error *err;
    sqlite3_stmt *st;
    tt_vec frames;    /* int64_t database ids, ascending; the index is the frame id */
    tt_vec cs_ids;    /* int64_t database ids, ascending */
    tt_vec cs_map;    /* uint32_t callsite id per entry of cs_ids */
    tt_vec threads;   /* int64_t database utids, ascending; the index is the utid */
    tt_vec wakees;    /* int64_t wakee slice ids, ascending */
    tt_vec waker_ts;  /* int64_t per entry of wakees */
} ld;

/* Index of id in the ascending array ids, or -1. */
static int64_t find(const tt_vec *ids, int64_t id)
{
    const int64_t *a = ids->data;
    size_t lo = 0, hi = ids->len;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (a[m] < id)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < ids->len && a[lo] == id ? (int64_t)lo : -1;
}

static int bad(ld *l, const char *table, int64_t id, const char *what)
{
    return tt_error_set(l->err, TT_EFORMAT, l->name, 0, 0, "trace %lld: %s %lld: %s",
                        (long long)l->trace, table, (long long)id, what);
}

static int nomem(ld *l)
{
    return tt_error_set(l->err, TT_ENOMEM, l->name, 0, 0, "out of memory");
}

static int prepare(ld *l, const char *sql)
{
    sqlite3_finalize(l->st);
    l->st = NULL;
    if (sqlite3_prepare_v2(l->db->h, sql, -1, &l->st, NULL) != SQLITE_OK)
        return tdb__sqlerr(l->db, l->err, "reading the trace");
    sqlite3_bind_int64(l->st, 1, l->trace);
    return 0;
}

/* SQLITE_ROW, 0 at the end, or a negative error. */
static int step(ld *l)
{
    int r = sqlite3_step(l->st);
    if (r == SQLITE_ROW)
        return SQLITE_ROW;
    if (r == SQLITE_DONE)
        return 0;
    return tdb__sqlerr(l->db, l->err, "reading the trace");
}

static int is_null(ld *l, int c) { return sqlite3_column_type(l->st, c) == SQLITE_NULL; }
static int64_t i64(ld *l, int c) { return sqlite3_column_int64(l->st, c); }
static int64_t i64_or(ld *l, int c, int64_t dflt) { return is_null(l, c) ? dflt : i64(l, c); }
static const char *text(ld *l, int c) { return (const char *)sqlite3_column_text(l->st, c); }

static const char *copy(ld *l, const char *s)
{
    return s ? tt_profile_str(l->p, s, strlen(s)) : NULL;
}

static int load_trace(ld *l)
{
    int rc = prepare(l, SQL_TRACE);
    if (rc || (rc = step(l)) < 0)
        return rc;
    if (!rc)
        return tt_error_set(l->err, TT_ENOTFOUND, l->name, 0, 0, "no trace %lld",
                            (long long)l->trace);
    tt_profile_meta *m = tt_profile_meta_get(l->p);
    m->source_format = copy(l, text(l, 0));
    m->clock = copy(l, text(l, 1));
    m->process = copy(l, text(l, 2));
    if (!m->source_format || !m->clock || (!is_null(l, 2) && !m->process))
        return nomem(l);
    m->runs = 1;
    if ((rc = prepare(l, SQL_PROCESS)) || (rc = step(l)) < 0)
        return rc;
    m->pid = rc && !is_null(l, 0) ? i64(l, 0) : -1;
    if ((rc = prepare(l, SQL_INTERVAL)) || (rc = step(l)) < 0)
        return rc;
    m->interval_ns = rc && !is_null(l, 0) ? i64(l, 0) : 0;
    return 0;
}

/* Frame kind of a stored name, -1 if unknown. */
static int frame_kind(const char *s)
{
    for (int k = TT_FRAME_JAVA; s && k <= TT_FRAME_SYNTHETIC; k++)
        if (!strcmp(s, tt_frame_kind_name(k)))
            return k;
    return -1;
}

static int load_frames(ld *l)
{
    int rc = prepare(l, SQL_HAS_FILE);
    if (rc || (rc = step(l)) < 0)
        return rc;
    rc = prepare(l, rc ? SQL_FRAMES("f.file, f.line") : SQL_FRAMES("NULL, NULL"));
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0);
        tt_stack_frame f;
        memset(&f, 0, sizeof f);
        f.name = text(l, 1);
        f.raw_name = text(l, 2);
        f.kind = frame_kind(text(l, 3));
        f.has_rel_pc = !is_null(l, 4);
        f.rel_pc = (uint64_t)i64(l, 4);
        f.module = text(l, 5);
        f.file = text(l, 6);
        int64_t line = i64_or(l, 7, 0);
        f.line = line > 0 && line <= INT32_MAX ? (int32_t)line : 0;
        if (!f.name || f.kind < 0)
            return bad(l, "stack_frame", id, f.name ? "unknown kind" : "no name");
        uint32_t fid;
        rc = tt_frame_add(l->p, &fid, &f);
        if (rc)
            return rc == TT_ENOMEM ? nomem(l) : bad(l, "stack_frame", id, "too many frames");
        rc = tt_vec_push(&l->frames, &id) ? 0 : nomem(l);
    }
    return rc < 0 ? rc : 0;
}

/* The callsite id of a stored callsite id; rows arrive in id order, parents first. */
static int map_callsite(ld *l, int64_t db_id, uint32_t *out)
{
    int64_t k = find(&l->cs_ids, db_id);
    if (k < 0)
        return -1;
    *out = TT_VEC_AT(&l->cs_map, uint32_t, k);
    return 0;
}

static int load_callsites(ld *l)
{
    int rc = prepare(l, SQL_CALLSITES);
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0), f = find(&l->frames, i64_or(l, 2, 0));
        uint32_t parent = TT_NONE, cs;
        if (!is_null(l, 1) && map_callsite(l, i64(l, 1), &parent))
            return bad(l, "callsite", id, "its parent is not an earlier callsite of the trace");
        if (f < 0)
            return bad(l, "callsite", id, "its frame is not a stack_frame of the trace");
        rc = tt_callsite_child(l->p, &cs, parent, (uint32_t)f);
        if (rc)
            return rc == TT_ENOMEM ? nomem(l) : bad(l, "callsite", id, "too many callsites");
        if (!tt_vec_push(&l->cs_ids, &id) || !tt_vec_push(&l->cs_map, &cs))
            return nomem(l);
    }
    return rc < 0 ? rc : 0;
}

/* tt_thread_format's "Thread-<tid>" marks a thread without a name. */
static int formatted_name(const char *name, int64_t tid)
{
    char b[40];
    snprintf(b, sizeof b, "Thread-%lld", (long long)tid);
    return !strcmp(name, b);
}

static int load_threads(ld *l)
{
    int rc = prepare(l, SQL_THREADS);
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0), tid = i64_or(l, 1, 0);
        const char *name = text(l, 2);
        uint32_t u;
        /* the ordinal as the source: stored threads never merge */
        int64_t bits = i64_or(l, 6, 32);
        rc = tt_thread_intern(l->p, &u, (uint32_t)l->threads.len, i64_or(l, 4, -1), tid,
                              bits > 0 && bits < 32 ? (int)bits : 32);
        if (rc)
            return rc == TT_ENOMEM ? nomem(l) : bad(l, "thread", id, "too many threads");
        if (name && !formatted_name(name, tid) &&
            tt_thread_set_name(l->p, u, name, strlen(name), 1) < 0)
            return nomem(l);
        if (i64(l, 3))
            tt_thread_set_main(l->p, u);
        if (i64_or(l, 5, 0))
            tt_thread_set_no_thread(l->p, u);
        rc = tt_vec_push(&l->threads, &id) ? 0 : nomem(l);
    }
    /* a folded file's one thread (a differential file's two are its columns) */
    if (rc >= 0 && l->threads.len == 1 && !strcmp(tt_profile_meta_get(l->p)->source_format,
                                                  "folded"))
        tt_thread_set_no_root(l->p, 0);
    return rc < 0 ? rc : 0;
}

static int sample_type(const char *s)
{
    return s ? tt_sample_type_parse(s, strlen(s)) : -1;
}

/* One sample per stored run (samples.md 4.3): the profile keeps them as runs. */
static int load_samples(ld *l)
{
    tt_profile_meta *m = tt_profile_meta_get(l->p);
    int rc = prepare(l, SQL_SAMPLES);
    int64_t rows = 0;
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0), u = find(&l->threads, i64(l, 1));
        int timeless = is_null(l, 2);
        if (rows++ == 0)
            m->timeless = timeless;
        tt_sample s;
        tt_sample_init(&s);
        int64_t dur = i64(l, 3), count = i64(l, 5), cpu = i64_or(l, 12, -1);
        int type = sample_type(text(l, 7));
        if (u < 0)
            return bad(l, "sample", id, "its utid is not a thread of the trace");
        if (map_callsite(l, i64_or(l, 4, 0), &s.callsite))
            return bad(l, "sample", id, "its callsite is not a callsite of the trace");
        if (tt_profile_callsite(l->p, s.callsite)->depth >= TT_MAX_STACK_DEPTH)
            return bad(l, "sample", id, "its stack is deeper than the 4096 frames sampled "
                                        "stacks have at most");
        if (timeless != m->timeless)
            return bad(l, "sample", id, "some samples of the trace have a ts, some none");
        if (type < 0)
            return bad(l, "sample", id, "unknown type");
        if (count < 1 || count > UINT32_MAX || dur < 0 || dur > ((int64_t)1 << 62))
            return bad(l, "sample", id, "count or dur out of range");
        s.utid = (uint32_t)u;
        s.ts = timeless ? 0 : i64(l, 2);
        s.end_ts = s.ts + (timeless ? 0 : dur);
        s.count = (uint32_t)count;
        s.weight = i64(l, 6);
        s.type = (uint8_t)type;
        s.msg_id = (uint64_t)i64_or(l, 9, 0);
        s.is_interval = i64(l, 10) != 0;
        s.is_blocking = i64(l, 11) != 0;
        s.cpu = cpu >= 0 ? cpu : -1;
        s.end_cpu = cpu >= 0 && !is_null(l, 13) ? cpu + i64(l, 13) : -1;
        if (s.ts < -((int64_t)1 << 62) || s.ts > ((int64_t)1 << 62) || s.end_cpu < -1)
            return bad(l, "sample", id, "time out of range");
        if (!m->event && !is_null(l, 8) && !(m->event = copy(l, text(l, 8))))
            return nomem(l);
        rc = tt_profile_add(l->p, &s, NULL);
        if (rc)
            return rc == TT_ENOMEM ? nomem(l) : bad(l, "sample", id, "value out of range");
    }
    return rc < 0 ? rc : 0;
}

/* The waker's time per woken slice (the first wakeup row of each). */
static int load_wakeups(ld *l)
{
    int rc = prepare(l, SQL_WAKEUPS);
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0), ts = i64(l, 1);
        rc = 0;
        if (l->wakees.len && TT_VEC_AT(&l->wakees, int64_t, l->wakees.len - 1) == id)
            continue;
        if (!tt_vec_push(&l->wakees, &id) || !tt_vec_push(&l->waker_ts, &ts))
            return nomem(l);
    }
    return rc < 0 ? rc : 0;
}

static int end_kind(const char *s)
{
    for (int k = TT_ENDK_EXACT; s && k <= TT_ENDK_TRUNCATED; k++)
        if (!strcmp(s, tt_end_kind_name(k)))
            return k;
    return -1;
}

/* Per thread: the slices read so far and the open ancestors (stored id, index) by depth. */
typedef struct sl_state {
    int64_t utid_row; /* stored utid of the current thread, 0 = none yet */
    uint32_t utid;
    tt_vec slices;    /* tt_slice */
    tt_vec open;      /* struct open_at */
} sl_state;

/* An open ancestor: its stored id, ts and dur, and the index of its slice. */
typedef struct open_at {
    int64_t id, ts, dur;
    uint32_t idx;
} open_at;

static int flush_thread(ld *l, sl_state *t)
{
    if (!t->slices.len)
        return 0;
    int rc = tt_profile_set_slices(l->p, t->utid, t->slices.data, t->slices.len);
    t->slices.len = 0;
    t->open.len = 0;
    return rc ? nomem(l) : 0;
}

/* Frame and callsite of a slice: stored ones, or (method-beat slices) interned by name under
 * the parent's callsite. */
static int slice_frame(ld *l, tt_slice *s, const tt_slice *parent, int64_t id)
{
    if (!is_null(l, 8)) {
        int64_t f = find(&l->frames, i64(l, 8));
        if (f < 0)
            return bad(l, "slice", id, "its frame is not a stack_frame of the trace");
        s->frame = (uint32_t)f;
    } else {
        const char *name = text(l, 6);
        tt_stack_frame f;
        memset(&f, 0, sizeof f);
        f.name = name ? name : "";
        f.kind = s->is_synthetic ? TT_FRAME_SYNTHETIC : TT_FRAME_JAVA;
        if (tt_frame_intern(l->p, &s->frame, &f))
            return nomem(l);
    }
    if (!is_null(l, 9)) {
        if (map_callsite(l, i64(l, 9), &s->callsite))
            return bad(l, "slice", id, "its callsite is not a callsite of the trace");
        return 0;
    }
    int rc = tt_callsite_child(l->p, &s->callsite, parent ? parent->callsite : TT_NONE,
                               s->frame);
    return !rc ? 0 : rc == TT_ENOMEM ? nomem(l) : bad(l, "slice", id, "too many callsites");
}

static int read_slice(ld *l, sl_state *t, int64_t id)
{
    tt_slice s;
    memset(&s, 0, sizeof s);
    s.ts = i64(l, 2);
    s.dur = i64(l, 3);
    int64_t depth = i64(l, 4);
    /* rows come parent first (pre-order): the parent is the open slice one level up */
    if (depth < 0 || (size_t)depth > t->open.len || (depth == 0) != is_null(l, 5) ||
        (depth > 0 && TT_VEC_AT(&t->open, open_at, depth - 1).id != i64(l, 5)))
        return bad(l, "slice", id, "depth and parent_id do not follow the stored order "
                                   "(parents first, each at depth + 1 of its parent)");
    t->open.len = (size_t)depth;
    open_at *po = depth > 0 ? &TT_VEC_AT(&t->open, open_at, depth - 1) : NULL;
    if (s.dur < 0 || s.ts < -((int64_t)1 << 62) || s.ts > ((int64_t)1 << 62) ||
        s.dur > ((int64_t)1 << 62) || (po && (s.ts < po->ts || s.ts + s.dur > po->ts + po->dur)))
        return bad(l, "slice", id, "ts/dur out of range or outside its parent");
    const tt_slice *par = NULL;
    if (po) {
        s.parent = po->idx;
        par = &TT_VEC_AT(&t->slices, tt_slice, s.parent);
    } else {
        s.parent = TT_NONE;
    }
    const char *cat = text(l, 7);
    s.is_synthetic = cat && !strcmp(cat, "synthetic");
    /* ART calls, instrumented or sampled (art-trace.md 6.1), are ART calls as when exported
     * from the .trace: Chrome's cat "art" (6.2) */
    s.is_instrumented = cat && !strcmp(cat, "beat")                                  ? 1
                        : cat && (!strcmp(cat, "art") || !strcmp(cat, "art_sampled")) ? 2
                                                                                       : 0;
    int ek = end_kind(text(l, 10)), type = is_null(l, 19) ? TT_ST_CPU : sample_type(text(l, 19));
    if (ek < 0 || type < 0)
        return bad(l, "slice", id, ek < 0 ? "unknown end_kind" : "unknown type");
    s.end_kind = (uint8_t)ek;
    s.type = (uint8_t)type;
    s.depth = (uint32_t)depth;
    s.utid = t->utid;
    s.thread_dur = i64_or(l, 11, -1);
    s.self_dur = i64(l, 12);
    s.self_thread_dur = i64_or(l, 13, -1);
    s.block_dur = i64_or(l, 14, -1);
    int64_t n = i64_or(l, 15, 0);
    s.sample_count = n > 0 && n <= UINT32_MAX ? (uint32_t)n : 0;
    s.gap_before = i64_or(l, 16, -1);
    s.gap_after = i64_or(l, 17, -1);
    s.msg_id = (uint64_t)i64_or(l, 18, 0);
    s.is_recursive = i64(l, 20) != 0;
    s.thread_ts = s.thread_dur >= 0 ? i64_or(l, 21, -1) : -1;
    s.wakeup_utid = TT_NONE;
    if (!is_null(l, 22)) {
        int64_t w = find(&l->threads, i64(l, 22)), k = find(&l->wakees, id);
        if (w < 0)
            return bad(l, "slice", id, "its wakeup_utid is not a thread of the trace");
        s.wakeup_utid = (uint32_t)w;
        s.waker_ts = k >= 0 ? TT_VEC_AT(&l->waker_ts, int64_t, k) : 0;
    }
    for (int c = 0; c < TT_CTR_COUNT; c++) /* alloc_objects ... niv_csw, in TT_CTR_* order */
        if (!is_null(l, 23 + c)) {
            s.ctr[c] = (uint64_t)i64(l, 23 + c);
            s.ctr_known |= 1u << c;
        }
    /* args.unwound (ART calls an exception closed, art-trace.md 6.1) */
    s.is_unwound = s.is_instrumented == 2 && i64(l, 23 + TT_CTR_COUNT) != 0;
    int rc = slice_frame(l, &s, par, id);
    if (rc)
        return rc;
    if (t->slices.len >= TT_NONE - 1)
        return bad(l, "slice", id, "too many slices in one thread");
    open_at o = {id, s.ts, s.dur, (uint32_t)t->slices.len};
    if (!tt_vec_push(&t->slices, &s) || !tt_vec_push(&t->open, &o))
        return nomem(l);
    return 0;
}

static int load_slices(ld *l)
{
    sl_state t = {0, 0, {0}, {0}};
    tt_vec_init(&t.slices, sizeof(tt_slice));
    tt_vec_init(&t.open, sizeof(open_at));
    int rc = prepare(l, SQL_SLICES);
    while (!rc && (rc = step(l)) == SQLITE_ROW) {
        int64_t id = i64(l, 0), utid_row = i64(l, 1);
        if (utid_row != t.utid_row || !t.slices.len) {
            int64_t u = find(&l->threads, utid_row);
            if (u < 0) {
                rc = bad(l, "slice", id, "its utid is not a thread of the trace");
                break;
            }
            if ((rc = flush_thread(l, &t)))
                break;
            t.utid_row = utid_row;
            t.utid = (uint32_t)u;
        }
        rc = read_slice(l, &t, id);
    }
    if (rc >= 0)
        rc = flush_thread(l, &t);
    tt_vec_free(&t.slices);
    tt_vec_free(&t.open);
    return rc;
}

int tdb_profile_load(tt_profile **out, tdb_db *db, int64_t trace_id, const char *name,
                     tt_stats *stats, tt_error *err)
{
    *out = NULL;
    ld l;
    memset(&l, 0, sizeof l);
    l.db = db;
    l.name = name ? name : db->path;
    l.trace = trace_id;
    l.stats = stats;
    l.err = err;
    tt_vec_init(&l.frames, sizeof(int64_t));
    tt_vec_init(&l.cs_ids, sizeof(int64_t));
    tt_vec_init(&l.cs_map, sizeof(uint32_t));
    tt_vec_init(&l.threads, sizeof(int64_t));
    tt_vec_init(&l.wakees, sizeof(int64_t));
    tt_vec_init(&l.waker_ts, sizeof(int64_t));
    int rc = tt_profile_new(&l.p, TT_IDENT_NAME) ? nomem(&l) : 0;
    if (!rc)
        rc = load_trace(&l);
    if (!rc)
        rc = load_frames(&l);
    if (!rc)
        rc = load_callsites(&l);
    if (!rc)
        rc = load_threads(&l);
    if (!rc)
        rc = load_samples(&l);
    if (!rc)
        rc = load_wakeups(&l);
    if (!rc)
        rc = load_slices(&l);
    sqlite3_finalize(l.st);
    if (!rc && tt_profile_finish(l.p, err))
        rc = TT_ENOMEM;
    tt_vec_free(&l.frames);
    tt_vec_free(&l.cs_ids);
    tt_vec_free(&l.cs_map);
    tt_vec_free(&l.threads);
    tt_vec_free(&l.wakees);
    tt_vec_free(&l.waker_ts);
    if (rc) {
        tt_profile_free(l.p);
        return rc;
    }
    *out = l.p;
    return 0;
}
