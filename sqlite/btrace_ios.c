/* btrace iOS databases (spec/samples.md 2.1.6, ios.md 4): the SQLite file the btrace 3
 * recorder hands over is read from memory (sqlite3_deserialize, read-only) into a tt_profile.
 * Every count and BLOB length is checked; bad stack trees are errors naming the trace. */
#include "tdb.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

typedef struct ios_image {
    uint64_t addr, len;
    const char *path, *base; /* arena copies */
    char uuid[33];           /* lowercase hex, "" when unknown */
} ios_image;

typedef struct ios_node {
    uint32_t id, parent;
    uint64_t pc;
} ios_node;

typedef struct ios_state {
    sqlite3 *db;
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    tt_error *err;
    const char *file;
    int64_t trace_id, version, main_tid, unit_ns;
    ios_image *img;
    size_t nimg;
    ios_node *nodes;
    size_t nnodes;
    uint32_t *cs_of; /* callsite of nodes[i], TT_NONE until built */
    uint64_t samples, no_stack, no_image;
} ios_state;

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(ios_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ios_state *st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_NONE, 0, "btrace iOS database: %s",
                        msg);
}

static int sqlfail(ios_state *st)
{
    return fail(st, "%s", sqlite3_errmsg(st->db));
}

static int prep(ios_state *st, sqlite3_stmt **s, const char *sql)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
        return sqlfail(st);
    return 0;
}

static int has_table(ios_state *st, const char *name)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                           "name = ?1", -1, &s, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int r = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return r;
}

static int oom(ios_state *st)
{
    return tt_error_set(st->err, TT_ENOMEM, st->file, TT_LOC_NONE, 0, "out of memory");
}

static int read_trace(ios_state *st)
{
    sqlite3_stmt *s;
    if (prep(st, &s, "SELECT trace_id, version, main_tid, bundle_id, "
                     "(SELECT count(*) FROM BTraceModel) FROM BTraceModel ORDER BY rowid LIMIT 1"))
        return TT_EFORMAT;
    int r = sqlite3_step(s);
    if (r != SQLITE_ROW) {
        sqlite3_finalize(s);
        return r == SQLITE_DONE ? fail(st, "no row in BTraceModel")
                                : sqlfail(st);
    }
    st->trace_id = sqlite3_column_int64(s, 0);
    st->version = sqlite3_column_int64(s, 1);
    st->main_tid = sqlite3_column_type(s, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 2);
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    m->source_format = "btrace_ios";
    m->clock = st->version >= 3 ? "relative" : "unknown";
    const unsigned char *b = sqlite3_column_text(s, 3);
    if (b && *b) {
        tt_profile_meta_claim(st->p, st->o->source);
        m->process = tt_profile_str(st->p, (const char *)b, strlen((const char *)b));
    }
    int64_t ntraces = sqlite3_column_int64(s, 4);
    sqlite3_finalize(s);
    if (st->version < 1 || st->version > 3)
        return fail(st, "BTraceModel version %lld is not supported (1 to 3)",
                    (long long)st->version);
    st->unit_ns = st->version >= 3 ? 10000 : 1000;
    if (ntraces > 1) {
        char ex[256];
        snprintf(ex, sizeof ex, "%lld traces in the database: only trace_id %lld is read",
                 (long long)ntraces, (long long)st->trace_id);
        tt_stats_add(st->stats, "btrace_ios_traces_skipped", st->file, TT_SEV_WARN,
                     ntraces - 1, ex);
    }
    return 0;
}

static int by_img_addr(const void *a, const void *b)
{
    const ios_image *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void norm_uuid(char out[33], const unsigned char *u)
{
    size_t k = 0;
    out[0] = 0;
    for (; u && *u; u++) {
        unsigned char c = *u;
        if (c == '-')
            continue;
        if (c >= 'A' && c <= 'F')
            c = (unsigned char)(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) || k == 32) {
            out[0] = 0;
            return;
        }
        out[k++] = (char)c;
    }
    out[k == 32 ? k : 0] = 0;
}

static int read_images(ios_state *st)
{
    if (!has_table(st, "ImageInfoModel"))
        return 0;
    sqlite3_stmt *s;
    if (prep(st, &s, "SELECT address, len, name, uuid FROM ImageInfoModel WHERE trace_id = ?1"))
        return TT_EFORMAT;
    sqlite3_bind_int64(s, 1, st->trace_id);
    size_t cap = 0;
    int r, rc = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        sqlite3_int64 a = sqlite3_column_int64(s, 0), l = sqlite3_column_int64(s, 1);
        const char *name = (const char *)sqlite3_column_text(s, 2);
        if (l <= 0 || (uint64_t)a + (uint64_t)l < (uint64_t)a || !name || !*name) {
            tt_stats_add(st->stats, "btrace_ios_bad_image", st->file, TT_SEV_WARN, 1,
                         "ImageInfoModel row without a name or a positive length: ignored");
            continue;
        }
        if (st->nimg == cap) {
            size_t nc = cap ? cap * 2 : 64;
            ios_image *ni = realloc(st->img, nc * sizeof *ni);
            if (!ni) {
                rc = oom(st);
                break;
            }
            st->img = ni;
            cap = nc;
        }
        ios_image *im = &st->img[st->nimg];
        im->addr = (uint64_t)a;
        im->len = (uint64_t)l;
        im->path = tt_profile_str(st->p, name, strlen(name));
        const char *slash = strrchr(name, '/');
        const char *bn = slash && slash[1] ? slash + 1 : name;
        im->base = tt_profile_str(st->p, bn, strlen(bn));
        norm_uuid(im->uuid, sqlite3_column_text(s, 3));
        if (!im->path || !im->base) {
            rc = oom(st);
            break;
        }
        st->nimg++;
    }
    if (!rc && r != SQLITE_DONE)
        rc = sqlfail(st);
    sqlite3_finalize(s);
    if (!rc && st->nimg)
        qsort(st->img, st->nimg, sizeof *st->img, by_img_addr);
    return rc;
}

static const ios_image *image_of(const ios_state *st, uint64_t pc)
{
    size_t lo = 0, hi = st->nimg;
    while (lo < hi) { /* first image with addr > pc */
        size_t mid = lo + (hi - lo) / 2;
        if (st->img[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const ios_image *im = &st->img[lo - 1];
    return pc - im->addr < im->len ? im : NULL; /* half-open (ios.md 4.1) */
}

static int read_threads(ios_state *st)
{
    if (!has_table(st, "ThreadInfoModel"))
        return 0;
    sqlite3_stmt *s;
    if (prep(st, &s, "SELECT tid, name FROM ThreadInfoModel WHERE trace_id = ?1 ORDER BY rowid"))
        return TT_EFORMAT;
    sqlite3_bind_int64(s, 1, st->trace_id);
    int r, rc = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t tid = sqlite3_column_int64(s, 0);
        const char *name = (const char *)sqlite3_column_text(s, 1);
        uint32_t utid;
        if (tt_thread_intern(st->p, &utid, st->o->source, -1, tid, 32)) {
            rc = oom(st);
            break;
        }
        if (name && *name && tt_thread_set_name(st->p, utid, name, strlen(name), 0) < 0) {
            rc = oom(st);
            break;
        }
        if (tid == st->main_tid)
            tt_thread_set_main(st->p, utid);
    }
    if (!rc && r != SQLITE_DONE)
        rc = sqlfail(st);
    sqlite3_finalize(s);
    return rc;
}

static int by_node_id(const void *a, const void *b)
{
    const ios_node *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int read_nodes(ios_state *st)
{
    sqlite3_stmt *s;
    if (prep(st, &s, "SELECT nodes FROM CallStackTableModel WHERE trace_id = ?1 ORDER BY rowid"))
        return TT_EFORMAT;
    sqlite3_bind_int64(s, 1, st->trace_id);
    int r, rc = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *b = sqlite3_column_blob(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        if (n % 16) {
            rc = fail(st, "trace_id %lld: CallStackTableModel nodes BLOB of %lld bytes is not a "
                      "multiple of 16", (long long)st->trace_id, (long long)n);
            break;
        }
        if (n / 16 > (size_t)UINT32_MAX - 1 - st->nnodes) {
            rc = fail(st, "trace_id %lld: too many stack nodes", (long long)st->trace_id);
            break;
        }
        ios_node *nn = realloc(st->nodes, (st->nnodes + n / 16 + 1) * sizeof *nn);
        if (!nn) {
            rc = oom(st);
            break;
        }
        st->nodes = nn;
        for (size_t i = 0; i < n; i += 16) {
            ios_node *d = &st->nodes[st->nnodes++];
            d->id = le32(b + i);
            d->parent = le32(b + i + 4);
            d->pc = (uint64_t)le32(b + i + 8) | (uint64_t)le32(b + i + 12) << 32;
        }
    }
    if (!rc && r != SQLITE_DONE)
        rc = sqlfail(st);
    sqlite3_finalize(s);
    if (rc)
        return rc;
    if (st->nnodes)
        qsort(st->nodes, st->nnodes, sizeof *st->nodes, by_node_id);
    for (size_t i = 0; i + 1 < st->nnodes; i++)
        if (st->nodes[i].id == st->nodes[i + 1].id)
            return fail(st, "trace_id %lld: stack id %lld appears twice in CallStackTableModel",
                        (long long)st->trace_id, (long long)st->nodes[i].id);
    st->cs_of = malloc((st->nnodes ? st->nnodes : 1) * sizeof *st->cs_of);
    if (!st->cs_of)
        return oom(st);
    for (size_t i = 0; i < st->nnodes; i++)
        st->cs_of[i] = TT_NONE;
    return 0;
}

static size_t node_index(const ios_state *st, uint32_t id)
{
    size_t lo = 0, hi = st->nnodes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->nodes[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < st->nnodes && st->nodes[lo].id == id ? lo : SIZE_MAX;
}

/* The frame of one address: image+0xoffset with the image's UUID, else the bare address. */
static int frame_of(ios_state *st, uint32_t *fid, uint64_t pc)
{
    const ios_image *im = image_of(st, pc);
    if (!im && (im = image_of(st, pc & 0x0000000FFFFFFFFFull))) /* PAC bits (ios.md 4.1) */
        pc &= 0x0000000FFFFFFFFFull;
    char name[512];
    tt_stack_frame f = {0};
    f.kind = TT_FRAME_NATIVE;
    f.is_unnamed = 1;
    f.has_addr = 1;
    if (im) {
        f.addr = pc - im->addr;
        snprintf(name, sizeof name, "%s+0x%llx", im->base, (unsigned long long)f.addr);
        f.module = im->base;
        f.module_path = im->path;
        f.build_id = im->uuid[0] ? im->uuid : NULL;
        f.addr_is_offset = 1;
    } else {
        f.addr = pc;
        snprintf(name, sizeof name, "0x%llx", (unsigned long long)pc);
        st->no_image++;
    }
    f.name = name;
    return tt_frame_intern(st->p, fid, &f) ? oom(st) : 0;
}

/* The leaf callsite of stack id: parents are followed to 0, cycles and missing ids fail. */
static int callsite_of(ios_state *st, uint32_t *out, uint32_t id)
{
    size_t chain[TT_MAX_STACK_DEPTH + 1];
    size_t n = 0;
    uint32_t cur = id;
    uint32_t parent_cs = TT_NONE;
    while (cur != 0) {
        size_t i = node_index(st, cur);
        if (i == SIZE_MAX)
            return cur == id ? fail(st, "trace_id %lld: stack id %lld does not exist in "
                                    "CallStackTableModel", (long long)st->trace_id, (long long)cur)
                             : fail(st, "trace_id %lld: stack id %lld: parent stack id %lld "
                                    "does not exist", (long long)st->trace_id, (long long)id,
                                    (long long)cur);
        if (st->cs_of[i] != TT_NONE) {
            parent_cs = st->cs_of[i];
            break;
        }
        if (n == TT_MAX_STACK_DEPTH || n >= st->nnodes)
            return fail(st, n >= st->nnodes ? "trace_id %lld: stack id %lld: parent cycle"
                                            : "trace_id %lld: stack id %lld: deeper than 4096 "
                                              "frames (or a parent cycle)",
                        (long long)st->trace_id, (long long)id);
        chain[n++] = i;
        cur = st->nodes[i].parent;
    }
    while (n > 0) {
        size_t i = chain[--n];
        uint32_t fid;
        if (frame_of(st, &fid, st->nodes[i].pc))
            return TT_ENOMEM;
        if (tt_callsite_child(st->p, &parent_cs, parent_cs, fid))
            return oom(st);
        st->cs_of[i] = parent_cs;
    }
    *out = parent_cs;
    return 0;
}

/* One sample: times in the trace's units; interval samples have end times. */
static int add_sample(ios_state *st, int64_t tid, uint64_t t0, uint64_t c0, uint32_t stack,
                      int interval, uint64_t t1, uint64_t c1, int have_alloc, uint64_t mib,
                      uint64_t count)
{
    if (stack == 0) {
        st->no_stack++;
        return 0;
    }
    tt_sample s;
    tt_sample_init(&s);
    uint32_t utid;
    if (tt_thread_intern(st->p, &utid, st->o->source, -1, tid, 32))
        return oom(st);
    if (tid == st->main_tid)
        tt_thread_set_main(st->p, utid);
    int rc = callsite_of(st, &s.callsite, stack);
    if (rc)
        return rc;
    uint64_t lim = (uint64_t)1 << 40; /* far beyond u32 ticks; rejects garbage rows */
    if (t0 >= lim || c0 >= lim || t1 >= lim || c1 >= lim || (interval && t1 < t0))
        return fail(st, "trace_id %lld: sample of thread %lld with an impossible time",
                    (long long)st->trace_id, (long long)tid);
    interval = interval && t1 > t0; /* an end at the start is a point (samples.md 1) */
    s.utid = utid;
    s.type = TT_ST_CPU;
    s.ts = (int64_t)t0 * st->unit_ns;
    s.cpu = (int64_t)c0 * st->unit_ns;
    s.end_ts = interval ? (int64_t)t1 * st->unit_ns : s.ts;
    s.end_cpu = interval ? (int64_t)(c1 < c0 ? c0 : c1) * st->unit_ns : s.cpu;
    s.is_interval = (uint8_t)interval;
    tt_counters c = {{0}, 0};
    if (have_alloc && mib < lim && count < lim) {
        c.v[TT_CTR_ALLOC_BYTES] = mib << 20;
        c.v[TT_CTR_ALLOC_OBJECTS] = count;
        c.known = 1u << TT_CTR_ALLOC_BYTES | 1u << TT_CTR_ALLOC_OBJECTS;
    }
    rc = tt_profile_add(st->p, &s, c.known ? &c : NULL);
    if (rc == TT_ELIMIT)
        return fail(st, "trace_id %lld: sample of thread %lld out of range",
                    (long long)st->trace_id, (long long)tid);
    if (rc)
        return oom(st);
    st->samples++;
    return 0;
}

static uint64_t u64col(sqlite3_stmt *s, int i)
{
    sqlite3_int64 v = sqlite3_column_int64(s, i);
    return v < 0 ? UINT64_MAX : (uint64_t)v;
}

static int read_rows(ios_state *st, const char *table, int interval)
{
    if (!has_table(st, table))
        return 0;
    char sql[512];
    snprintf(sql, sizeof sql, interval
             ? "SELECT tid, start_time, start_cpu_time, stack_id, end_time, end_cpu_time, "
               "alloc_size, alloc_count FROM %s WHERE trace_id = ?1 ORDER BY rowid"
             : "SELECT tid, start_time, start_cpu_time, stack_id, 0, 0, alloc_size, alloc_count "
               "FROM %s WHERE trace_id = ?1 ORDER BY rowid", table);
    sqlite3_stmt *s;
    if (prep(st, &s, sql))
        return TT_EFORMAT;
    sqlite3_bind_int64(s, 1, st->trace_id);
    int r, rc = 0;
    while (!rc && (r = sqlite3_step(s)) == SQLITE_ROW) {
        sqlite3_int64 sid = sqlite3_column_int64(s, 3);
        if (sid < 0 || sid > UINT32_MAX) {
            rc = fail(st, "trace_id %lld: stack id %lld out of range",
                      (long long)st->trace_id, (long long)sid);
            break;
        }
        rc = add_sample(st, sqlite3_column_int64(s, 0), u64col(s, 1), u64col(s, 2),
                        (uint32_t)sid, interval, u64col(s, 4), u64col(s, 5),
                        sqlite3_column_type(s, 6) != SQLITE_NULL, u64col(s, 6), u64col(s, 7));
    }
    if (!rc && r != SQLITE_DONE)
        rc = sqlfail(st);
    sqlite3_finalize(s);
    return rc;
}

/* *BatchSampleModel: one row per thread, a tid column and a BLOB of packed records. */
static int read_batch(ios_state *st, const char *table, int interval)
{
    if (!has_table(st, table))
        return 0;
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE trace_id = ?1 ORDER BY rowid", table);
    sqlite3_stmt *s;
    if (prep(st, &s, sql))
        return TT_EFORMAT;
    sqlite3_bind_int64(s, 1, st->trace_id);
    int ncol = sqlite3_column_count(s), tidc = -1;
    for (int i = 0; i < ncol; i++)
        if (!sqlite3_stricmp(sqlite3_column_name(s, i), "tid"))
            tidc = i;
    if (tidc < 0) {
        sqlite3_finalize(s);
        return fail(st, "%s has no tid column", table);
    }
    size_t rec = interval ? 28 : 20;
    int r, rc = 0;
    while (!rc && (r = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t tid = sqlite3_column_int64(s, tidc);
        int bc = -1;
        for (int i = 0; i < ncol; i++)
            if (sqlite3_column_type(s, i) == SQLITE_BLOB)
                bc = i;
        if (bc < 0)
            continue; /* an empty thread */
        const unsigned char *b = sqlite3_column_blob(s, bc);
        size_t n = (size_t)sqlite3_column_bytes(s, bc);
        if (n % rec) {
            rc = fail(st, "%s: BLOB of thread %lld has %lld bytes, not a multiple of the record size",
                      table, (long long)tid, (long long)n);
            break;
        }
        for (size_t i = 0; i < n && !rc; i += rec) {
            const unsigned char *q = b + i;
            if (interval) /* start, start_cpu, stack, end, end_cpu, alloc_size, alloc_count */
                rc = add_sample(st, tid, le32(q), le32(q + 4), le32(q + 8), 1,
                                le32(q + 12), le32(q + 16), 1, le32(q + 20),
                                le32(q + 24));
            else
                rc = add_sample(st, tid, le32(q), le32(q + 4), le32(q + 8), 0, 0, 0,
                                1, le32(q + 12), le32(q + 16));
        }
    }
    if (!rc && r != SQLITE_DONE)
        rc = sqlfail(st);
    sqlite3_finalize(s);
    return rc;
}

int tdb_btrace_ios_import(tt_profile *p, const void *data, size_t n, const char *file,
                          const tt_import_opts *o, tt_stats *stats, tt_error *err)
{
    ios_state st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.stats = stats;
    st.err = err;
    st.file = file;
    if (sqlite3_open_v2(":memory:", &st.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(st.db);
        return oom(&st);
    }
    /* read-only, not copied: data outlives the connection. A WAL-mode file (header bytes
     * 18-19, the file format versions, are 2) cannot be opened in memory, where there is no
     * log to read: its pages are all in the file once the log was checkpointed, so a private
     * copy marked as a rollback-journal file (1) is read instead (SQLite file format 1.3.4) */
    unsigned char *copy = NULL;
    if (n >= 100 && (((const unsigned char *)data)[18] == 2 ||
                     ((const unsigned char *)data)[19] == 2)) {
        if (!(copy = malloc(n))) {
            sqlite3_close(st.db);
            return oom(&st);
        }
        memcpy(copy, data, n);
        copy[18] = copy[18] == 2 ? 1 : copy[18];
        copy[19] = copy[19] == 2 ? 1 : copy[19];
        data = copy;
    }
    int rc = 0;
    if (sqlite3_deserialize(st.db, "main", (unsigned char *)(uintptr_t)data, (sqlite3_int64)n,
                            (sqlite3_int64)n, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
        rc = sqlfail(&st);
    if (!rc) { /* a damaged schema fails here with SQLite's message */
        sqlite3_stmt *s = NULL;
        if (!(rc = prep(&st, &s, "SELECT count(*) FROM sqlite_master")))
            rc = sqlite3_step(s) == SQLITE_ROW ? 0 : sqlfail(&st);
        sqlite3_finalize(s);
    }
    if (!rc && (!has_table(&st, "BTraceModel") || !has_table(&st, "CallStackTableModel")))
        rc = fail(&st, "no BTraceModel or CallStackTableModel table");
    if (!rc)
        rc = read_trace(&st);
    if (!rc)
        rc = read_images(&st);
    if (!rc)
        rc = read_threads(&st);
    if (!rc)
        rc = read_nodes(&st);
    if (!rc)
        rc = read_rows(&st, "CPUSampleModel", 0);
    if (!rc)
        rc = read_rows(&st, "CPUIntervalSampleModel", 1);
    if (!rc)
        rc = read_batch(&st, "CPUBatchSampleModel", 0);
    if (!rc)
        rc = read_batch(&st, "CPUIntervalBatchSampleModel", 1);
    if (!rc && !st.samples)
        rc = fail(&st, "trace_id %lld: no CPU samples", (long long)st.trace_id);
    if (!rc && st.no_stack)
        tt_stats_add(stats, "btrace_ios_no_stack", file, TT_SEV_WARN, (int64_t)st.no_stack,
                     "samples with stack id 0 (no stack) were skipped");
    if (!rc && st.no_image)
        tt_stats_add(stats, "btrace_ios_no_image", file, TT_SEV_INFO, (int64_t)st.no_image,
                     "addresses in no ImageInfoModel image are shown as bare addresses");
    sqlite3_close(st.db);
    free(copy);
    free(st.img);
    free(st.nodes);
    free(st.cs_of);
    return rc;
}

int tdb_btrace_ios_wal_check(const char *path, tt_error *err)
{
    int frames = tdb__wal_frames(path);
    if (frames < 0)
        return tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
    if (!frames)
        return 0;
    return tt_error_set(err, TT_EUNSUPPORTED, path, TT_LOC_NONE, 0,
                        "btrace iOS database: its write-ahead log %s-wal holds changes not yet "
                        "in the file: checkpoint them first (sqlite3 %s 'PRAGMA "
                        "wal_checkpoint(TRUNCATE)')",
                        path, path);
}
