/* Slices as a legacy ART method trace (spec/art-trace.md 6.2, export --format art-trace):
 * version 3, clock dual, a 32-byte binary header and 14-byte records; per thread an enter at
 * each slice's ts and an exit record (an unroll for unwound calls) at ts + dur, in begin order;
 * method ids assigned per distinct canonical name. The text header needs every method and
 * thread first, so the records are kept until tt__art_close. */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define ART_MAGIC 0x574F4C53u
#define ART_HDR_BYTES 32
#define ART_REC_BYTES 14
#define ART_MAX_TID 32767 /* dmtracedump keeps thread ids in an array of 32,768 */

typedef struct rec {
    uint32_t tid;  /* the record's thread id */
    uint32_t ma;   /* method id | action */
    int64_t wall_us, cpu_us; /* absolute wall us; thread CPU us */
} rec;

typedef struct wmethod {
    const char *line; /* the *methods line after the id (tab-separated fields) */
} wmethod;

typedef struct wthread {
    uint32_t id;
    const char *name;
} wthread;

struct tt__art {
    tt_write_fn fn;
    void *ctx;
    tt_arena *ar;
    tt_intern *names;   /* canonical name -> method index */
    tt_vec methods;     /* wmethod */
    tt_vec threads;     /* wthread */
    tt_vec recs;        /* rec, per thread in begin order */
    tt_vec sl, stack;   /* tt_slice of one thread; uint32_t open slice indices */
    unsigned char used[ART_MAX_TID + 1];
    uint32_t next_tid;
    int64_t start_ns, pid;
    tt_buf b;
};

int tt__art_open(tt__art **out, tt_write_fn fn, void *ctx)
{
    tt__art *x = calloc(1, sizeof *x);
    if (!x || !(x->ar = tt_arena_new()) || !(x->names = tt_intern_new())) {
        if (x)
            tt_arena_free(x->ar);
        free(x);
        return TT_ENOMEM;
    }
    x->fn = fn;
    x->ctx = ctx;
    x->start_ns = INT64_MAX;
    x->pid = -1;
    x->next_tid = 1;
    tt_vec_init(&x->methods, sizeof(wmethod));
    tt_vec_init(&x->threads, sizeof(wthread));
    tt_vec_init(&x->recs, sizeof(rec));
    tt_vec_init(&x->sl, sizeof(tt_slice));
    tt_vec_init(&x->stack, sizeof(uint32_t));
    *out = x;
    return 0;
}

void tt__art_free(tt__art *x)
{
    if (!x)
        return;
    tt_arena_free(x->ar);
    tt_intern_free(x->names);
    tt_vec_free(&x->methods);
    tt_vec_free(&x->threads);
    tt_vec_free(&x->recs);
    tt_vec_free(&x->sl);
    tt_vec_free(&x->stack);
    tt_buf_free(&x->b);
    free(x);
}

/* Appends s[0..n) with tabs and line ends replaced by blanks (fields split at tabs). */
static int put_field(tt_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
        if (tt_buf_put(b, &c, 1))
            return TT_ENOMEM;
    }
    return 0;
}

/* The fields of a method line: "class<TAB>method<TAB>signature<TAB>source" when the raw name
 * reads "class.method signature" (an ART frame, so the reader rebuilds the same canonical
 * name), else the canonical name alone (a 2-field line, 2.2). The signature starts at the
 * last " (": a method name may hold blanks (Kotlin `loads feed`). */
static int method_fields(tt_buf *b, const tt_stack_frame *f)
{
    const char *raw = f->raw_name, *sp = NULL;
    for (const char *q = raw ? strstr(raw, " (") : NULL; q; q = strstr(q + 1, " ("))
        sp = q;
    const char *dot = NULL;
    for (const char *q = raw; sp && q < sp; q++)
        if (*q == '.')
            dot = q;
    if (!sp || !dot || dot == raw || sp[1] != '(' || strchr(sp + 1, ' '))
        return put_field(b, f->name, strlen(f->name));
    if (put_field(b, raw, (size_t)(dot - raw)) || tt_buf_put(b, "\t", 1) ||
        put_field(b, dot + 1, (size_t)(sp - dot - 1)) || tt_buf_put(b, "\t", 1) ||
        put_field(b, sp + 1, strlen(sp + 1)) || tt_buf_put(b, "\t", 1))
        return TT_ENOMEM;
    return f->file ? put_field(b, f->file, strlen(f->file)) : 0;
}

/* The method index of frame id (interned by canonical name). */
static int method_of(tt__art *x, const tt_profile *p, uint32_t frame, uint32_t *m)
{
    const tt_stack_frame *f = tt_profile_frame(p, frame);
    if (tt_intern_get(x->names, f->name, strlen(f->name), m))
        return TT_ENOMEM;
    if (*m < x->methods.len)
        return 0;
    x->b.len = 0;
    wmethod wm;
    if (method_fields(&x->b, f) ||
        !(wm.line = tt_arena_strndup(x->ar, x->b.data ? x->b.data : "", x->b.len)) ||
        !tt_vec_push(&x->methods, &wm))
        return TT_ENOMEM;
    return 0;
}

static int emit(tt__art *x, uint32_t tid, uint32_t m, int action, int64_t wall_ns, int64_t cpu_ns,
                int64_t *last_w, int64_t *last_c)
{
    rec r = {tid, m << 2 | (uint32_t)action, wall_ns / 1000, cpu_ns / 1000};
    /* the records of one thread never go back in time (rounding of sampled slices) */
    if (r.wall_us < *last_w)
        r.wall_us = *last_w;
    if (r.cpu_us < *last_c)
        r.cpu_us = *last_c;
    *last_w = r.wall_us;
    *last_c = r.cpu_us;
    return tt_vec_push(&x->recs, &r) ? 0 : TT_ENOMEM;
}

/* Enters and exits of one thread's slices (pre-order, parents first). */
static int thread_records(tt__art *x, const tt_profile *p, uint32_t tid)
{
    const tt_slice *s = x->sl.data;
    size_t n = x->sl.len;
    int cpu = n > 0; /* the thread CPU clock of the slices, else wall time from the start */
    for (size_t i = 0; i < n; i++)
        cpu &= s[i].thread_ts >= 0 && s[i].thread_dur >= 0;
    int64_t w0 = n ? s[0].ts : 0, lw = INT64_MIN, lc = INT64_MIN;
    x->stack.len = 0;
    for (size_t i = 0; i <= n; i++) {
        while (x->stack.len &&
               (i == n || TT_VEC_AT(&x->stack, uint32_t, x->stack.len - 1) != s[i].parent)) {
            const tt_slice *o = &s[TT_VEC_AT(&x->stack, uint32_t, --x->stack.len)];
            uint32_t m;
            if (method_of(x, p, o->frame, &m) ||
                emit(x, tid, m, o->is_unwound ? 2 : 1, o->ts + o->dur,
                     cpu ? o->thread_ts + o->thread_dur : o->ts + o->dur - w0, &lw, &lc))
                return TT_ENOMEM;
        }
        if (i == n)
            break;
        uint32_t m, k = (uint32_t)i;
        if (s[i].ts < x->start_ns)
            x->start_ns = s[i].ts;
        if (method_of(x, p, s[i].frame, &m) ||
            emit(x, tid, m, 0, s[i].ts, cpu ? s[i].thread_ts : s[i].ts - w0, &lw, &lc) ||
            !tt_vec_push(&x->stack, &k))
            return TT_ENOMEM;
    }
    return 0;
}

/* Times are u32 us: a reader repairs a wrap only when a value falls back by more than 2^31
 * (art-trace.md 3.1), so one thread's step of 2^31 us (about 35.8 minutes) or more on
 * either clock cannot be read back; refused rather than written wrong. */
#define ART_MAX_STEP_US ((int64_t)1 << 31)

static int time_steps(tt__art *x, size_t r0, const tt_thread *th, tt_error *err)
{
    const rec *r = x->recs.data;
    for (size_t i = r0 + 1; i < x->recs.len; i++) {
        int64_t dw = r[i].wall_us - r[i - 1].wall_us, dc = r[i].cpu_us - r[i - 1].cpu_us;
        if (dw >= ART_MAX_STEP_US || dc >= ART_MAX_STEP_US)
            return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                                "art-trace: thread %lld (%s) goes %lld s without an event on "
                                "its %s clock; the format's u32 microsecond times cannot "
                                "carry a step of 2^31 us (35.8 min) or more: export fewer "
                                "threads or another format",
                                (long long)th->tid, th->name ? th->name : "unnamed",
                                (long long)((dw >= ART_MAX_STEP_US ? dw : dc) / 1000000),
                                dw >= ART_MAX_STEP_US ? "wall" : "thread CPU");
    }
    return 0;
}

/* A record thread id: the thread's tid when it reserved it (own), else the next free one. */
static int thread_id(tt__art *x, const tt_thread *th, int own, uint32_t *id)
{
    if (own) {
        *id = (uint32_t)th->tid;
    } else {
        while (x->next_tid <= ART_MAX_TID && x->used[x->next_tid])
            x->next_tid++;
        if (x->next_tid > ART_MAX_TID)
            return TT_ELIMIT;
        *id = x->next_tid;
    }
    x->used[*id] = 1;
    return 0;
}

/* Every thread's tid that fits and is free is reserved first (own[t] = 1), so that a thread
 * numbered later (a tid above the limit, or one an earlier thread took) never takes the tid
 * of a thread listed after it. */
static void reserve_tids(tt__art *x, tt_profile *p, const tt_export_opts *o, unsigned char *own)
{
    for (size_t t = 0; t < tt_profile_nthreads(p); t++) {
        const tt_thread *th = tt_profile_thread(p, (uint32_t)t);
        own[t] = tt__export_wants(o, (uint32_t)t) && th->tid > 0 && th->tid <= ART_MAX_TID &&
                 !x->used[th->tid];
        if (own[t])
            x->used[th->tid] = 1;
    }
}

int tt__art_add(tt__art *x, tt_profile *p, const tt_export_opts *o, tt_error *err)
{
    if (p->meta.timeless)
        return tt_error_set(err, TT_EUNSUPPORTED, tt__timeless_input(p, o), 0, 0,
                            "the input has no timestamps: an ART trace needs times");
    int rc = 0;
    size_t nt = tt_profile_nthreads(p);
    unsigned char *own = malloc(nt ? nt : 1);
    if (!own)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    reserve_tids(x, p, o, own);
    for (size_t t = 0; t < nt && !rc; t++) {
        uint32_t utid = (uint32_t)t;
        if (!tt__export_wants(o, utid))
            continue;
        tt_slice_info info;
        if ((rc = tt_slice_build(&x->sl, &info, p, utid, &o->slice, err)))
            break;
        if (!x->sl.len)
            continue;
        const tt_thread *th = tt_profile_thread(p, utid);
        wthread wt;
        if ((rc = thread_id(x, th, own[t], &wt.id))) {
            rc = tt_error_set(err, rc, NULL, 0, 0, "more than %d threads", ART_MAX_TID);
            break;
        }
        x->b.len = 0;
        if (tt_thread_format(&x->b, p, utid) ||
            !(wt.name = tt_arena_strndup(x->ar, x->b.data ? x->b.data : "", x->b.len)))
            rc = TT_ENOMEM;
        for (char *q = (char *)wt.name; !rc && *q; q++) /* one line per thread */
            if (*q == '\n' || *q == '\r')
                *q = ' ';
        if (!rc && x->pid < 0 && th->pid >= 0)
            x->pid = th->pid;
        size_t r0 = x->recs.len;
        if (!rc && (!tt_vec_push(&x->threads, &wt) || thread_records(x, p, wt.id)))
            rc = TT_ENOMEM;
        if (!rc && (rc = time_steps(x, r0, th, err))) {
            free(own);
            return rc;
        }
    }
    free(own);
    if (rc == TT_ENOMEM)
        return tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    return rc;
}

static int flush(tt__art *x, int force, tt_error *err)
{
    if (!force && x->b.len < 65536)
        return 0;
    int rc = x->b.len ? x->fn(x->ctx, x->b.data, x->b.len) : 0;
    x->b.len = 0;
    return rc ? tt_error_set(err, TT_EIO, NULL, 0, 0, "write error") : 0;
}

static void put_le(unsigned char *q, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        q[i] = (unsigned char)(v >> (8 * i));
}

static int text_header(tt__art *x)
{
    const rec *r = x->recs.data;
    int64_t start_us = x->start_ns == INT64_MAX ? 0 : x->start_ns / 1000, end = 0;
    for (size_t i = 0; i < x->recs.len; i++)
        if (r[i].wall_us - start_us > end)
            end = r[i].wall_us - start_us;
    int rc = tt_buf_printf(&x->b,
                           "*version\n3\ndata-file-overflow=false\nclock=dual\n"
                           "elapsed-time-usec=%lld\nnum-method-calls=%zu\n"
                           "clock-call-overhead-nsec=0\nvm=art\n",
                           (long long)end, x->recs.len);
    if (x->pid >= 0)
        rc |= tt_buf_printf(&x->b, "pid=%lld\n", (long long)x->pid);
    rc |= tt_buf_puts(&x->b, "*threads\n");
    for (size_t i = 0; i < x->threads.len; i++) {
        const wthread *t = &TT_VEC_AT(&x->threads, wthread, i);
        rc |= tt_buf_printf(&x->b, "%u\t%s\n", t->id, t->name);
    }
    rc |= tt_buf_puts(&x->b, "*methods\n");
    for (size_t i = 0; i < x->methods.len; i++)
        rc |= tt_buf_printf(&x->b, "%#x\t%s\n", (unsigned)i << 2,
                            TT_VEC_AT(&x->methods, wmethod, i).line);
    rc |= tt_buf_puts(&x->b, "*end\n");
    unsigned char h[ART_HDR_BYTES] = {0};
    put_le(h, ART_MAGIC, 4);
    put_le(h + 4, 3, 2);
    put_le(h + 6, ART_HDR_BYTES, 2);
    put_le(h + 8, (uint64_t)start_us, 8);
    put_le(h + 16, ART_REC_BYTES, 2);
    rc |= tt_buf_put(&x->b, (const char *)h, sizeof h);
    return rc ? TT_ENOMEM : 0;
}

int tt__art_close(tt__art *x, tt_error *err)
{
    int64_t start_us0 = x->start_ns == INT64_MAX ? 0 : x->start_ns / 1000;
    for (size_t i = 0; i < x->recs.len; i++) { /* a thread's first wall time, from the start */
        const rec *r = &TT_VEC_AT(&x->recs, rec, i);
        if ((!i || r[-1].tid != r->tid) && r->wall_us - start_us0 >= ((int64_t)1 << 32))
            return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                                "art-trace: record thread %u starts %lld s after the trace; "
                                "the format's u32 microsecond times stop at 2^32 us (71.6 "
                                "min): export fewer threads or another format",
                                (unsigned)r->tid, (long long)((r->wall_us - start_us0) / 1000000));
    }
    x->b.len = 0;
    if (text_header(x))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t start_us = x->start_ns == INT64_MAX ? 0 : x->start_ns / 1000;
    const rec *r = x->recs.data;
    for (size_t i = 0; i < x->recs.len; i++) {
        unsigned char q[ART_REC_BYTES];
        put_le(q, r[i].tid, 2);
        put_le(q + 2, r[i].ma, 4);
        put_le(q + 6, (uint64_t)r[i].cpu_us, 4); /* u32 us: readers repair the wrap (3.1) */
        put_le(q + 10, (uint64_t)(r[i].wall_us - start_us), 4);
        if (tt_buf_put(&x->b, (const char *)q, sizeof q))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        if (flush(x, 0, err))
            return TT_EIO;
    }
    return flush(x, 1, err) ? TT_EIO : 0;
}
