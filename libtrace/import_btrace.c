/* btrace 3.x Android reader: the packed little-endian `sampling` + `sampling-mapping` pair,
 * spec/samples.md section 2.1 (layouts 2.1.1-2.1.4, type table 2.1.3, 16-bit tids 2.1.5). */
#include "tt.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"
#include "json_int.h"

#define BT_MAGIC 0x01020304u
#define BT_MAX_DEPTH 128
#define BT_CHUNK ((size_t)1 << 20) /* records are parsed in place from a window this large */

/* Per 16-bit tid: its utid and its previous usable stack. Consecutive samples of a thread share
 * most of their root-side frames, so only the pointers after the common prefix are resolved
 * and interned. */
typedef struct bthread {
    uint32_t utid;                 /* TT_NONE until the first usable record */
    uint32_t n;                    /* valid entries below */
    unsigned char raw[8 * BT_MAX_DEPTH]; /* the last stack as saved: leaf first */
    uint32_t cs[BT_MAX_DEPTH];     /* callsite after the i + 1 root frames; TT_NONE while all
                                      dropped */
    uint32_t drops[BT_MAX_DEPTH];  /* <runtime frames dropped among them */
} bthread;

typedef struct btstate {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    tt_input *in;
    uint64_t off;        /* bytes consumed */
    tt__map methods;     /* ArtMethod* -> index into names */
    tt_vec names;        /* const char * raw PrettyMethod strings */
    tt__map frame_of;    /* ArtMethod* -> frame id (memoised) */
    tt__map tnames;      /* tid16 -> index into names */
    tt__map wakers;      /* begin time of the woken wait -> sample index */
    tt__map threads;     /* tid16 -> utid */
    int64_t pid;
    uint32_t gc_frame, monitor_frame;
    uint32_t *bt_of;  /* tid16 -> index into bts + 1 (0 = none yet); 65536 entries */
    tt_vec bts;       /* bthread *, one per tid16 seen */
    unsigned char *rb; /* read window over the sampling records */
    size_t rpos, rlen;
    int reof;
    tt_buf nb;
    tt_error *err;
} btstate;

int tt_java_canonical(tt_buf *b, const char *s, size_t n)
{
    tt__trim(&s, &n);
    const char *par = memchr(s, '(', n);
    size_t start = 0;
    if (par) {
        for (size_t i = (size_t)(par - s); i > 0; i--)
            if (s[i - 1] == ' ') {
                start = i;
                break;
            }
    }
    int rc = 0;
    for (size_t i = start; i < n && !rc; i++) {
        /* PrettyMethod separates parameters with ", " */
        if (par && s + i > par && s[i] == ' ' && i > 0 && s[i - 1] == ',')
            continue;
        rc = tt_buf_put(b, s + i, 1);
    }
    return rc;
}

/* Reads exactly n bytes; *got tells how many arrived (short at end of input). */
static int rd_exact(btstate *st, tt_input *in, void *dst, size_t n, size_t *got)
{
    size_t total = 0;
    while (total < n) {
        size_t g;
        int rc = tt_input_read(in, (char *)dst + total, n - total, &g, st->err);
        if (rc)
            return rc;
        if (!g)
            break;
        total += g;
    }
    *got = total;
    return 0;
}

static int oom(btstate *st)
{
    return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
}

static void strip_name(const unsigned char *s, size_t *n)
{
    while (*n && (s[*n - 1] == '\n' || s[*n - 1] == '\r' || s[*n - 1] == 0))
        (*n)--;
}

static int add_name(btstate *st, const unsigned char *s, size_t n, uint32_t *idx)
{
    const char *c = tt_profile_str(st->p, (const char *)s, n);
    if (!c || !tt_vec_push(&st->names, &c))
        return oom(st);
    *idx = (uint32_t)(st->names.len - 1);
    return 0;
}

static int read_mapping(btstate *st, tt_input *in)
{
    const char *file = tt_input_name(in);
    unsigned char h[16], e[10];
    size_t got;
    int rc = rd_exact(st, in, h, 16, &got);
    if (rc)
        return rc;
    tt_rd r;
    tt_rd_init(&r, h, got);
    uint64_t magic;
    uint32_t version, count;
    if (tt_rd_u64le(&r, &magic) || tt_rd_u32le(&r, &version) || tt_rd_u32le(&r, &count))
        return tt_error_set(st->err, TT_EFORMAT, file, TT_LOC_OFFSET, got,
                            "sampling-mapping header: expected 16 bytes, found %zu", got);
    if (magic != 0 || version != 1)
        return tt_error_set(st->err, TT_EFORMAT, file, TT_LOC_OFFSET, 0,
                            "expected a btrace sampling-mapping header (magic 0, version 1), "
                            "found magic 0x%llx version %u",
                            (unsigned long long)magic, version);
    uint64_t off = 16, dups = 0, read = 0;
    unsigned char buf[65536 + 256];
    for (uint32_t i = 0; i < count; i++) {
        if ((rc = rd_exact(st, in, e, 10, &got)))
            return rc;
        if (got < 10)
            break;
        tt_rd_init(&r, e, 10);
        uint64_t ptr;
        uint16_t len;
        tt_rd_u64le(&r, &ptr);
        tt_rd_u16le(&r, &len);
        if ((rc = rd_exact(st, in, buf, len, &got)))
            return rc;
        if (got < len)
            break;
        off += 10 + (uint64_t)len;
        read++;
        if (!len)
            continue;
        uint32_t idx;
        if (tt__map_get(&st->methods, ptr, &idx)) {
            dups++;
            continue;
        }
        if (add_name(st, buf, len, &idx) || tt__map_put(&st->methods, ptr, idx))
            return oom(st);
    }
    if (dups)
        tt_stats_add(st->stats, "btrace_mapping_duplicate", file, TT_SEV_INFO, (int64_t)dups,
                     "duplicate method pointers: the first symbol was kept");
    if (read < count) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:0x%llx: %llu of %u method entries (symbolization stopped "
                 "early on the device)", file, (unsigned long long)off,
                 (unsigned long long)read, count);
        tt_stats_add(st->stats, "btrace_mapping_truncated", file, TT_SEV_DATA_LOSS, 1, ex);
        return 0;
    }
    for (;;) { /* thread names until EOF */
        unsigned char t[3];
        if ((rc = rd_exact(st, in, t, 3, &got)))
            return rc;
        if (got < 3) {
            if (got)
                tt_stats_add(st->stats, "btrace_mapping_truncated", file, TT_SEV_DATA_LOSS, 1,
                             "thread name table ends mid-entry");
            break;
        }
        uint16_t tid = (uint16_t)(t[0] | (t[1] << 8));
        size_t len = t[2];
        if ((rc = rd_exact(st, in, buf, len, &got)))
            return rc;
        if (got < len) {
            tt_stats_add(st->stats, "btrace_mapping_truncated", file, TT_SEV_DATA_LOSS, 1,
                         "thread name table ends mid-entry");
            break;
        }
        strip_name(buf, &len);
        uint32_t idx;
        if (tt__map_get(&st->tnames, tid, &idx)) {
            tt_stats_add(st->stats, "btrace_tid16_collision", file, TT_SEV_WARN, 1,
                         "two thread names for one 16-bit tid: the first was kept");
            continue;
        }
        if (add_name(st, buf, len, &idx) || tt__map_put(&st->tnames, tid, idx))
            return oom(st);
    }
    return 0;
}

/* Sample type, interval-ness and blocking per 2.1.3; -1 for kInvalid. */
static int map_type(unsigned t, int *blocking, int *known)
{
    static const signed char tab[24] = {
        -2, -1, TT_ST_BINDER, TT_ST_OTHER, TT_ST_CUSTOM, TT_ST_OTHER, TT_ST_WAIT, TT_ST_PARK,
        TT_ST_MONITOR, TT_ST_ALLOC, TT_ST_JNI, TT_ST_GC, TT_ST_MUTEX, TT_ST_OTHER, TT_ST_OTHER,
        TT_ST_OTHER, TT_ST_OTHER, TT_ST_WAKE, TT_ST_OTHER, TT_ST_OTHER, TT_ST_LOAD_LIBRARY,
        TT_ST_OTHER, TT_ST_WAKE, TT_ST_WAKE};
    *known = t < 24 && tab[t] != -2;
    int r = *known ? tab[t] : TT_ST_OTHER;
    *blocking = r == TT_ST_BINDER || r == TT_ST_WAIT || r == TT_ST_PARK || r == TT_ST_MONITOR ||
                r == TT_ST_GC || r == TT_ST_MUTEX;
    return r;
}

static int frame_for(btstate *st, uint64_t ptr, uint32_t *id, int *drop)
{
    *drop = 0;
    if (tt__map_get(&st->frame_of, ptr, id)) {
        *drop = *id == TT_NONE - 1;
        return 0;
    }
    uint32_t idx;
    tt_stack_frame f;
    memset(&f, 0, sizeof f);
    f.kind = TT_FRAME_JAVA;
    f.has_addr = 1;
    f.addr = ptr;
    st->nb.len = 0;
    if (tt__map_get(&st->methods, ptr, &idx)) {
        const char *raw = TT_VEC_AT(&st->names, const char *, idx);
        if (!st->o->keep_runtime && !strncmp(raw, "<runtime", 8)) {
            *drop = 1;
            return tt__map_put(&st->frame_of, ptr, TT_NONE - 1) ? oom(st) : 0;
        }
        f.raw_name = raw;
        if (tt_java_canonical(&st->nb, raw, strlen(raw)))
            return oom(st);
    } else {
        tt_buf_printf(&st->nb, "0x%llx", (unsigned long long)ptr);
        f.is_unnamed = 1;
        tt_stats_add(st->stats, "btrace_unmapped_method", st->file, TT_SEV_WARN, 1,
                     "a method pointer without a mapping entry is shown as 0x<pointer>");
    }
    f.name = st->nb.data ? st->nb.data : "";
    if (tt_frame_intern(st->p, id, &f) || tt__map_put(&st->frame_of, ptr, *id))
        return oom(st);
    return 0;
}

static int thread_for(btstate *st, uint16_t tid, uint32_t *utid)
{
    if (tt__map_get(&st->threads, tid, utid))
        return 0;
    if (tt_thread_intern(st->p, utid, st->o->source, st->pid, tid, 16) ||
        tt__map_put(&st->threads, tid, *utid))
        return oom(st);
    uint32_t idx;
    if (tt__map_get(&st->tnames, tid, &idx)) {
        const char *n = TT_VEC_AT(&st->names, const char *, idx);
        tt_thread_set_name(st->p, *utid, n, strlen(n), 1);
    }
    if (st->pid >= 0 && tid == (uint16_t)(st->pid & 0xFFFF))
        tt_thread_set_main(st->p, *utid);
    return 0;
}

typedef struct brec {
    uint16_t type, tid;
    uint32_t msg_id, saved, actual;
    uint64_t nano, end_nano, cpu, end_cpu;
    tt_counters c;
} brec;

static int bthread_for(btstate *st, uint16_t tid, bthread **out)
{
    if (!st->bt_of && !(st->bt_of = calloc(65536, sizeof *st->bt_of)))
        return oom(st);
    if (!st->bt_of[tid]) {
        bthread *t = malloc(sizeof *t);
        if (!t || !tt_vec_push(&st->bts, &t)) {
            free(t);
            return oom(st);
        }
        t->utid = TT_NONE;
        t->n = 0;
        st->bt_of[tid] = (uint32_t)st->bts.len;
    }
    *out = TT_VEC_AT(&st->bts, bthread *, st->bt_of[tid] - 1);
    return 0;
}

/* Interns the record's stack (fr: saved pointers, leaf first) root first through the thread's
 * previous stack; *leaf is TT_NONE when every frame was dropped. */
static int intern_stack(btstate *st, bthread *bt, const unsigned char *fr, uint32_t n,
                        uint32_t *leaf)
{
    /* shared root frames = common tail of the two saved lists, compared 4 frames at a time */
    uint32_t k = 0, m = n < bt->n ? n : bt->n;
    const unsigned char *a = fr + 8 * (size_t)n, *b = bt->raw + 8 * (size_t)bt->n;
    while (k + 4 <= m && !memcmp(a - 8 * (size_t)(k + 4), b - 8 * (size_t)(k + 4), 32))
        k += 4;
    while (k < m && !memcmp(a - 8 * (size_t)(k + 1), b - 8 * (size_t)(k + 1), 8))
        k++;
    bt->n = 0; /* valid again only after success */
    uint32_t parent = k ? bt->cs[k - 1] : TT_NONE, drops = k ? bt->drops[k - 1] : 0;
    uint32_t depth = parent == TT_NONE ? 0 : tt_profile_callsite(st->p, parent)->depth + 1;
    if (drops) /* the shared prefix was counted when first seen: count it again */
        tt_stats_add(st->stats, "btrace_runtime_frame", st->file, TT_SEV_INFO, drops, NULL);
    for (uint32_t i = k; i < n; i++) {
        uint64_t ptr = tt__le64(fr + 8 * (size_t)(n - 1 - i));
        uint32_t id;
        int drop;
        if (frame_for(st, ptr, &id, &drop))
            return TT_ENOMEM;
        if (drop) {
            tt_stats_add(st->stats, "btrace_runtime_frame", st->file, TT_SEV_INFO, 1, NULL);
            drops++;
        } else if (tt__callsite_child(st->p, &parent, parent, id, depth++)) {
            return oom(st);
        }
        bt->cs[i] = parent;
        bt->drops[i] = drops;
    }
    memcpy(bt->raw, fr, 8 * (size_t)n);
    bt->n = n;
    *leaf = parent;
    return 0;
}

static int add_record(btstate *st, const brec *b, const unsigned char *fr)
{
    int blocking, known;
    int type = map_type(b->type, &blocking, &known);
    if (type < 0) {
        tt_stats_add(st->stats, "btrace_invalid_type", st->file, TT_SEV_INFO, 1, NULL);
        return 0;
    }
    if (!known) {
        char ex[64];
        snprintf(ex, sizeof ex, "type %u imported as a point sample of type other", b->type);
        tt_stats_add(st->stats, "btrace_unknown_type", st->file, TT_SEV_WARN, 1, ex);
    }
    bthread *bt = NULL;
    tt_sample s;
    tt_sample_init(&s);
    if (bthread_for(st, b->tid, &bt) || intern_stack(st, bt, fr, b->saved, &s.callsite))
        return TT_ENOMEM;
    uint32_t syn = type == TT_ST_GC ? st->gc_frame : type == TT_ST_MONITOR ? st->monitor_frame
                                                                           : TT_NONE;
    if (syn != TT_NONE) {
        uint32_t depth = s.callsite == TT_NONE
                             ? 0 : tt_profile_callsite(st->p, s.callsite)->depth + 1;
        if (tt__callsite_child(st->p, &s.callsite, s.callsite, syn, depth))
            return oom(st);
    }
    if (s.callsite == TT_NONE) {
        tt_stats_add(st->stats, "btrace_empty_stack", st->file, TT_SEV_WARN, 1, NULL);
        return 0;
    }
    s.type = (uint8_t)type;
    s.msg_id = b->msg_id;
    int wake = b->type == 17 || b->type == 22 || b->type == 23;
    if (bt->utid == TT_NONE && thread_for(st, b->tid, &bt->utid))
        return TT_ENOMEM;
    s.utid = bt->utid;
    if (wake) {
        s.ts = (int64_t)b->end_nano;
        s.cpu = (int64_t)b->end_cpu;
    } else {
        s.ts = (int64_t)b->nano;
        s.cpu = (int64_t)b->cpu;
        if (b->end_nano > b->nano && known) {
            s.is_interval = 1;
            s.end_ts = (int64_t)b->end_nano;
            s.end_cpu = (int64_t)b->end_cpu;
            s.is_blocking = (uint8_t)blocking;
            /* weight stays 1: btrace has no period, and the interval's time is what the
             * wall and cpu weights attribute (one unit a weight column, samples.md 1) */
        } else if (b->end_nano && b->end_nano < b->nano) {
            tt_stats_add(st->stats, "btrace_negative_interval", st->file, TT_SEV_WARN, 1,
                         "end_nano < nano: imported as a point sample");
        }
    }
    int rc = tt_profile_add(st->p, &s, &b->c);
    if (rc == TT_ELIMIT) {
        tt_stats_add(st->stats, "btrace_time_out_of_range", st->file, TT_SEV_DATA_LOSS, 1,
                     "a record with a time beyond 2^62 ns was skipped");
        return 0;
    }
    if (rc)
        return oom(st);
    if (wake) {
        uint32_t prev;
        if (tt__map_get(&st->wakers, b->nano, &prev))
            tt_stats_add(st->stats, "btrace_waker_duplicate", st->file, TT_SEV_INFO, 1,
                         "several wake-ups for one wait: the first was kept");
        else if (tt__map_put(&st->wakers, b->nano, (uint32_t)(tt_profile_nsamples(st->p) - 1)))
            return oom(st);
    }
    return 0;
}

static int read_header(btstate *st, uint32_t *version, uint32_t *count)
{
    unsigned char h[28];
    size_t got;
    int rc = rd_exact(st, st->in, h, 28, &got);
    if (rc)
        return rc;
    tt_rd r;
    tt_rd_init(&r, h, got);
    uint32_t magic = 0, type = 0;
    uint64_t dump;
    int32_t extra;
    if (tt_rd_u32le(&r, &magic) || magic != BT_MAGIC)
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, 0,
                            "expected btrace magic 0x01020304, found 0x%08x", magic);
    if (tt_rd_u32le(&r, &type) || tt_rd_u32le(&r, version) || tt_rd_u64le(&r, &dump) ||
        tt_rd_u32le(&r, count) || tt_rd_i32le(&r, &extra))
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, got,
                            "truncated header: expected 28 bytes, found %zu", got);
    if (type != 0)
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, 4,
                            "expected type 0 (sampling), found %u", type);
    if (*version < 3 || *version > 5)
        return tt_error_set(st->err, TT_EUNSUPPORTED, st->file, TT_LOC_OFFSET, 8,
                            "unsupported btrace version %u (expected 3, 4 or 5)", *version);
    if (extra < 0 || extra > (1 << 20))
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, 24,
                            "extra_len %d out of range", (int)extra);
    char *blob = extra ? tt_arena_alloc(st->p->arena, (size_t)extra + 1) : NULL;
    if (extra && !blob)
        return oom(st);
    if (extra && (rc = rd_exact(st, st->in, blob, (size_t)extra, &got)))
        return rc;
    if (extra && got < (size_t)extra)
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, 28 + got,
                            "extra_len %d exceeds the %zu bytes left", (int)extra, got);
    st->off = 28 + (uint64_t)extra;
    if (*count == 0)
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_OFFSET, 20,
                            "the file holds no samples (count 0): btrace writes nothing for "
                            "32-bit apps or non-arm64 devices, or tracing never started");
    json_error_t je;
    uint64_t nul;
    json_t *j = extra ? tt__json_loadb(blob, (size_t)extra, 0, &nul, &je) : NULL;
    if (j)
        tt__json_nul_note(st->stats, st->file, nul);
    json_t *pid = json_object_get(j, "processId");
    if (json_is_integer(pid)) {
        st->pid = (int64_t)json_integer_value(pid);
        if (tt_profile_meta_claim(st->p, st->o->source)) {
            json_decref(j);
            return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        }
        tt_profile_meta_get(st->p)->pid = st->pid;
    } else {
        tt_stats_add(st->stats, "btrace_no_process_id", st->file, TT_SEV_WARN, 1,
                     "the header's extra JSON has no processId: no main thread");
    }
    json_decref(j);
    if (*version < 5)
        tt_stats_add(st->stats, "btrace_old_version", st->file, TT_SEV_INFO, 1,
                     "version 3/4 layout (never produced by btrace 3.0): low confidence");
    return 0;
}

/* Makes n bytes available at rb + rpos unless the input ends first; *have says how many are. */
static int window(btstate *st, size_t n, size_t *have)
{
    if (st->rlen - st->rpos < n && !st->reof) {
        if (!st->rb && !(st->rb = malloc(BT_CHUNK)))
            return oom(st);
        memmove(st->rb, st->rb + st->rpos, st->rlen - st->rpos);
        st->rlen -= st->rpos;
        st->rpos = 0;
        while (st->rlen < BT_CHUNK) {
            size_t g;
            int rc = tt_input_read(st->in, st->rb + st->rlen, BT_CHUNK - st->rlen, &g, st->err);
            if (rc)
                return rc;
            if (!g) {
                st->reof = 1;
                break;
            }
            st->rlen += g;
        }
    }
    *have = st->rlen - st->rpos;
    return 0;
}

/* Takes up to n bytes from the window: *p points at them, valid until the next call. */
static int take(btstate *st, size_t n, const unsigned char **p, size_t *got)
{
    int rc = window(st, n, got);
    if (rc)
        return rc;
    if (*got > n)
        *got = n;
    *p = st->rb + st->rpos;
    st->rpos += *got;
    return 0;
}

/* Reads one record; 1 at a clean or truncated end, 2 at a corrupt depth. *fr points at the
 * saved frame words (leaf first), valid until the next read. */
static int read_record(btstate *st, uint32_t version, brec *b, const unsigned char **fr,
                       uint32_t idx)
{
    const unsigned char *h;
    size_t got;
    int rc = take(st, 40, &h, &got);
    if (rc)
        return rc;
    if (got < 40)
        return 1;
    memset(b, 0, sizeof *b);
    b->type = tt__le16(h);
    b->tid = tt__le16(h + 2);
    b->msg_id = tt__le32(h + 4);
    b->nano = tt__le64(h + 8);
    b->end_nano = tt__le64(h + 16);
    b->cpu = tt__le64(h + 24);
    b->end_cpu = tt__le64(h + 32);
    size_t more = (b->type == 15 ? 8 : 0) + (version >= 4 ? 16 : 0) + (version >= 5 ? 12 : 0) + 8;
    if ((rc = take(st, more, &h, &got)))
        return rc;
    if (got < more)
        return 1;
    if (b->type == 15)
        h += 8;
    if (version >= 4) {
        b->c.v[TT_CTR_ALLOC_OBJECTS] = tt__le64(h);
        b->c.v[TT_CTR_ALLOC_BYTES] = tt__le64(h + 8);
        b->c.known |= 3u;
        h += 16;
    }
    if (version >= 5) {
        for (int k = TT_CTR_MAJ_FLT; k <= TT_CTR_NIV_CSW; k++, h += 4) {
            b->c.v[k] = tt__le32(h);
            b->c.known |= 1u << k;
        }
    }
    b->saved = tt__le32(h);
    b->actual = tt__le32(h + 4);
    uint64_t at = st->off + 40 + more - 8;
    st->off += 40 + more;
    if (b->saved > BT_MAX_DEPTH) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:0x%llx: record %u: saved_depth %u > 128; the rest of the "
                 "file was not read", st->file, (unsigned long long)at, idx, b->saved);
        tt_stats_add(st->stats, "btrace_corrupt_record", st->file, TT_SEV_DATA_LOSS, 1, ex);
        return 2;
    }
    if ((rc = take(st, 8 * (size_t)b->saved, fr, &got)))
        return rc;
    if (got < 8 * (size_t)b->saved)
        return 1;
    st->off += got;
    return 0;
}

static int link_wakers(btstate *st)
{
    /* blocking samples on the main thread whose begin equals a wake-up key (2.1.3) */
    size_t n = tt_profile_nsamples(st->p);
    for (size_t i = 0; i < n; i++) {
        tt_sample *s = tt_profile_sample(st->p, (uint32_t)i);
        uint32_t w;
        if (!s->is_interval || !tt_profile_thread(st->p, s->utid)->is_main ||
            (s->type != TT_ST_MONITOR && s->type != TT_ST_PARK && s->type != TT_ST_WAIT) ||
            !tt__map_get(&st->wakers, (uint64_t)s->ts, &w))
            continue;
        s->waker_seq = w;
        s->waker_utid = tt_profile_sample(st->p, w)->utid;
    }
    return 0;
}

static int read_sampling(btstate *st)
{
    uint32_t version, count;
    int rc = read_header(st, &version, &count);
    if (rc)
        return rc;
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (tt__frame_simple(st->p, &st->gc_frame, "[gc wait]", 9, TT_FRAME_SYNTHETIC, NULL) ||
        tt__frame_simple(st->p, &st->monitor_frame, "[monitor contention]", 20,
                         TT_FRAME_SYNTHETIC, NULL))
        return oom(st);
    uint64_t size; /* room for every record that fits in the file: the arrays grow once */
    if (!tt_input_size(st->in, &size)) {
        uint64_t minrec = version >= 5 ? 84 : version == 4 ? 72 : 56;
        uint64_t fit = size > st->off ? (size - st->off) / minrec : 0;
        if (tt_profile_reserve(st->p, (size_t)(fit < count ? fit : count), version >= 4))
            return oom(st);
    }
    uint64_t partial = 0, empty = 0;
    uint32_t i;
    for (i = 0; i < count; i++) {
        brec b;
        const unsigned char *fr = NULL;
        rc = read_record(st, version, &b, &fr, i);
        if (rc < 0)
            return rc;
        if (rc == 2) {
            m->truncated = 1;
            return 0;
        }
        if (rc == 1) {
            char ex[200];
            snprintf(ex, sizeof ex, "%s:0x%llx: %u of %u records complete", st->file,
                     (unsigned long long)st->off, i, count);
            tt_stats_add(st->stats, "btrace_truncated", st->file, TT_SEV_DATA_LOSS, 1, ex);
            m->truncated = 1;
            return 0;
        }
        if (b.saved == 0) {
            empty++;
            continue;
        }
        if (b.saved != b.actual) {
            partial++;
            continue;
        }
        if ((rc = add_record(st, &b, fr)))
            return rc;
    }
    if (partial)
        tt_stats_add(st->stats, "btrace_partial_stack", st->file, TT_SEV_WARN, (int64_t)partial,
                     "records whose saved_depth differs from actual_depth were skipped");
    if (empty)
        tt_stats_add(st->stats, "btrace_empty_stack", st->file, TT_SEV_WARN, (int64_t)empty,
                     "records with depth 0 were skipped");
    size_t got;
    if (!window(st, 1, &got) && got)
        tt_stats_add(st->stats, "btrace_trailing_bytes", st->file, TT_SEV_INFO, 1,
                     "bytes after the last record were ignored");
    return 0;
}

int tt_btrace_import(tt_profile *p, tt_input *sampling, tt_input *mapping,
                     const tt_import_opts *o, tt_stats *stats, tt_error *err)
{
    btstate st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.stats = stats;
    st.err = err;
    st.in = sampling;
    st.file = tt_input_name(sampling);
    st.pid = -1;
    tt_vec_init(&st.names, sizeof(const char *));
    tt_vec_init(&st.bts, sizeof(bthread *));
    tt_profile_meta *m = tt_profile_meta_get(p);
    m->source_format = "btrace";
    m->clock = "boottime";
    int rc = mapping ? read_mapping(&st, mapping) : 0;
    if (!mapping)
        tt_stats_add(stats, "btrace_no_mapping", st.file, TT_SEV_WARN, 1,
                     "no sampling-mapping file: frames are method pointers");
    if (!rc)
        rc = read_sampling(&st);
    if (!rc)
        rc = link_wakers(&st);
    tt__map_free(&st.methods);
    tt__map_free(&st.frame_of);
    tt__map_free(&st.tnames);
    tt__map_free(&st.wakers);
    tt__map_free(&st.threads);
    for (size_t i = 0; i < st.bts.len; i++)
        free(TT_VEC_AT(&st.bts, bthread *, i));
    tt_vec_free(&st.bts);
    free(st.bt_of);
    free(st.rb);
    tt_vec_free(&st.names);
    tt_buf_free(&st.nb);
    return rc;
}

int tt_btrace_mapping_name(char *dst, size_t cap, const char *path)
{
    size_t n = strlen(path);
    size_t ext = n > 4 && !strcmp(path + n - 4, ".bin") ? 4 : 0;
    size_t stem = n - ext;
    if (stem + 8 + ext + 1 > cap)
        return TT_ELIMIT;
    memcpy(dst, path, stem);
    memcpy(dst + stem, "-mapping", 8);
    memcpy(dst + stem + 8, path + stem, ext);
    dst[stem + 8 + ext] = 0;
    return 0;
}

/* pair[] of the mappings: TT_BTRACE_UNUSED unless a sampling file took it. */
static void mark_unused(long *pair, const int *role, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (role[i] == TT_BTRACE_MAPPING)
            pair[i] = TT_BTRACE_UNUSED;
    for (size_t i = 0; i < n; i++)
        if (role[i] == TT_BTRACE_SAMPLING && pair[i] >= 0)
            pair[pair[i]] = -1;
}

int tt_btrace_pair(long *pair, const int *role, const char *const *paths, size_t n)
{
    size_t nmap = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        pair[i] = -1;
        if (role[i] == TT_BTRACE_MAPPING) {
            nmap++;
            last = i;
        }
    }
    if (nmap <= 1) { /* rule 1 */
        for (size_t i = 0; i < n && nmap; i++)
            if (role[i] == TT_BTRACE_SAMPLING)
                pair[i] = (long)last;
        mark_unused(pair, role, n);
        return 0;
    }
    /* the mappings by path: head[id] is the first one not taken, next[j] the next with j's
     * path (the paths once each, so pairing by name stays linear in the inputs) */
    unsigned char *taken = calloc(n, 1);
    uint32_t *head = malloc(n * sizeof *head), *next = malloc(n * sizeof *next);
    tt_intern *byname = tt_intern_new();
    int rc = taken && head && next && byname ? 0 : TT_ENOMEM;
    for (size_t k = n; k-- > 0 && !rc;) {
        uint32_t id;
        size_t before = tt_intern_count(byname);
        if (role[k] != TT_BTRACE_MAPPING ||
            (rc = tt_intern_get(byname, paths[k], strlen(paths[k]), &id)))
            continue;
        if (tt_intern_count(byname) > before)
            head[id] = UINT32_MAX;
        next[k] = head[id];
        head[id] = (uint32_t)k;
    }
    char name[4096];
    for (size_t i = 0; i < n && !rc; i++) { /* rule 2: by name first */
        uint32_t id;
        if (role[i] != TT_BTRACE_SAMPLING ||
            tt_btrace_mapping_name(name, sizeof name, paths[i]) ||
            tt_intern_find(byname, name, strlen(name), &id) || head[id] == UINT32_MAX)
            continue;
        uint32_t j = head[id];
        pair[i] = (long)j;
        taken[j] = 1;
        head[id] = next[j];
    }
    tt_intern_free(byname);
    free(head);
    free(next);
    if (rc) {
        free(taken);
        return rc;
    }
    size_t j = 0; /* then in input order */
    for (size_t i = 0; i < n; i++) {
        if (role[i] != TT_BTRACE_SAMPLING || pair[i] >= 0)
            continue;
        while (j < n && (role[j] != TT_BTRACE_MAPPING || taken[j]))
            j++;
        if (j == n)
            break;
        pair[i] = (long)j;
        taken[j] = 1;
    }
    free(taken);
    mark_unused(pair, role, n);
    return 0;
}
