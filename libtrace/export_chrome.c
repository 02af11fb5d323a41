/* Chrome Trace Event JSON writer, spec/samples.md section 7.1: one X event (or a B/E pair)
 * per rebuilt slice in per-thread pre-order, exact microsecond decimals, M events for
 * process/thread names, wake-up flow arrows; streamed thread by thread. */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

/* Values behind the text of an X/B event from "ts" to before "name" (times; -1 = no tts). */
typedef struct head_key {
    int64_t ts, dur, tts, tdur;
} head_key;

/* Values behind the text from "cat" to the end of the event. */
typedef struct tail_key {
    int64_t self_dur, thread_dur, block_dur, gap_before, gap_after;
    uint64_t msg_id, ctr[TT_CTR_COUNT];
    uint32_t sample_count, wakeup_utid, ctr_known;
    uint8_t type, end_kind, is_synthetic, is_unwound, is_instrumented;
} tail_key;

/* One number's last value and its text (a miss of the whole part still mostly repeats). */
typedef struct num_memo {
    int64_t v;
    size_t n;
    char txt[32];
} num_memo;
enum { NM_TS, NM_DUR, NM_TTS, NM_TDUR, NM_SELF, NM_CPU, NM_BLOCK, NM_SAMPLES, NM_MSG, NM_GAPB,
       NM_GAPA, NM_CTR, NM_COUNT = NM_CTR + TT_CTR_COUNT };
enum { NK_U64, NK_DEC3, NK_DEC6 };

#define HEAD_MAX 256  /* 4 decimals of at most 28 bytes and their keys */
#define TAIL_MAX 1024 /* 16 args of at most 60 bytes and the category */
#define SLACK 64 /* copy32 and num may write up to 32 bytes past the text's end */
#define EVENT_FIXED (2 + 96 + HEAD_MAX + 8 + TAIL_MAX + SLACK)

typedef struct cx {
    tt_profile *p;
    const tt_export_opts *o;
    tt_jsonw w;
    tt_write_fn fn;
    void *ctx;
    tt_error *err;
    int64_t base;   /* subtracted from every timestamp */
    int first;      /* no event written yet */
    uint64_t flow_id;
    int64_t pid, tid;  /* of the thread being written */
    int64_t pid_off;   /* added to the pids of the current part */
    tt__map moved;     /* thread source -> 1: an input of the current part whose pids an
                        * earlier input of it used: moved by (source + 1) * 10^7 */
    tt__map pids;      /* pids (after pid_off) of the parts written so far */
    size_t parts;      /* parts added */
    char src[64], clock[32]; /* of the parts: one value, or "mixed" */
    tt_vec open;       /* B/E mode: indices of open slices */
    tt_vec flows;      /* flow_rec: the current part's wake-up arrows, written after it */
    tt_buf names;      /* JSON-escaped frame names, quoted, back to back */
    tt_vec name_end;   /* size_t per frame id: end offset in names */
    tt_buf tmp;
    char prefix[96];   /* {"ph":"X","pid":P,"tid":T,"ts": of the thread being written */
    size_t prefix_n;
    char ctr_key[TT_CTR_COUNT][32]; /* ,"alloc_objects": ... */
    size_t ctr_key_n[TT_CTR_COUNT];
    /* Neighbouring slices often share their times (a chain opened and closed together) and
     * their args: the text of the last event's two parts is reused when the values match. */
    head_key hk;
    tail_key tk;
    int head_ok, tail_ok;
    size_t head_n, tail_n;
    char head_txt[HEAD_MAX], tail_txt[TAIL_MAX];
    num_memo nm[NM_COUNT];
    /* Memo texts are copied from the output at the end of the event, not right after they were
     * written: a load of bytes just stored one by one stalls until the stores retire. */
    struct {
        char *dst;
        const char *src;
        size_t n;
    } pend[NM_COUNT + 2];
    int npend;
} cx;

/* Hot path: slice events are written as raw text straight into the buffer (no printf, one
 * room check per event) with cached escaped names. */
#define LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* Copies n bytes in whole 32-byte blocks (fixed-size copies stay inline; a library call per
 * short text costs more): dst and src both have room for n rounded up to 32. */
static inline void copy32(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i += 32)
        memcpy(dst + i, src + i, 32);
}

/* The quoted, escaped name of a frame: *n bytes at the returned pointer (NULL: no memory). */
static const char *frame_name(cx *c, uint32_t frame, size_t *n)
{
    while (c->name_end.len <= frame) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        tt_jsonw_str(&w, tt_profile_frame(c->p, (uint32_t)c->name_end.len)->name);
        int rc = tt_buf_put(&c->names, w.buf.data ? w.buf.data : "\"\"",
                            w.buf.data ? w.buf.len : 2);
        tt_jsonw_free(&w);
        size_t end = c->names.len;
        if (rc || !tt__buf_room(&c->names, 32) || !tt_vec_push(&c->name_end, &end))
            return NULL; /* (room: copy32 reads past the last name) */
    }
    size_t e = TT_VEC_AT(&c->name_end, size_t, frame);
    size_t b = frame ? TT_VEC_AT(&c->name_end, size_t, frame - 1) : 0;
    *n = e - b;
    return c->names.data + b;
}

/* The pid and tid of the thread of samples without a thread (perf's -1): above Linux's
 * largest pid_max (2^22), so no real thread's, and below a part's pid offset (10^7). */
#define NO_THREAD_ID 4194304

static int64_t raw_pid(const cx *c, const tt_thread *t)
{
    if (t->no_thread)
        return NO_THREAD_ID;
    int64_t pid = tt_thread_pid(c->p, t->utid); /* the profile's only for its own input */
    return pid >= 0 ? pid : 0;
}

/* The offset that keeps an input's threads apart from another input's with the same pid. */
static int64_t source_off(const cx *c, const tt_thread *t)
{
    uint32_t v;
    return tt__map_get(&c->moved, t->source, &v) ? ((int64_t)t->source + 1) * 10000000 : 0;
}

static int64_t pid_of(const cx *c, const tt_thread *t)
{
    return raw_pid(c, t) + c->pid_off + source_off(c, t);
}

/* A thread without a tid of its own (perf script without the tid field, whose threads are
 * its comms; a negative tid in JSON lines) gets NO_THREAD_ID + 1 + its thread index: above any
 * real tid, one track per thread, the same for the same input. */
static int64_t tid_of(const tt_thread *t)
{
    if (t->no_thread)
        return NO_THREAD_ID;
    return t->tid >= 0 ? t->tid : NO_THREAD_ID + 1 + (int64_t)t->utid;
}

static void ev_begin(cx *c)
{
    if (!c->first)
        tt_buf_puts(&c->w.buf, ",\n");
    c->first = 0;
    tt_jsonw_obj_begin(&c->w);
}

static void key_us(cx *c, const char *k, int64_t ns)
{
    char tmp[48];
    tt_format_us(tmp, sizeof tmp, ns);
    tt_jsonw_key(&c->w, k);
    tt_jsonw_raw(&c->w, tmp, strlen(tmp));
}

static void pid_tid(cx *c, int64_t pid, int64_t tid)
{
    tt_jsonw_key(&c->w, "pid");
    tt_jsonw_int(&c->w, pid);
    tt_jsonw_key(&c->w, "tid");
    tt_jsonw_int(&c->w, tid);
}

static void meta_ev(cx *c, int64_t pid, int64_t tid, const char *name, const char *argk,
                    const char *sval, int64_t ival)
{
    ev_begin(c);
    tt_jsonw_key(&c->w, "ph");
    tt_jsonw_str(&c->w, "M");
    pid_tid(c, pid, tid);
    tt_jsonw_key(&c->w, "name");
    tt_jsonw_str(&c->w, name);
    tt_jsonw_key(&c->w, "args");
    tt_jsonw_obj_begin(&c->w);
    tt_jsonw_key(&c->w, argk);
    if (sval)
        tt_jsonw_str(&c->w, sval);
    else
        tt_jsonw_int(&c->w, ival);
    tt_jsonw_obj_end(&c->w);
    tt_jsonw_obj_end(&c->w);
}

#define ARG_MS(p, lit, which, v) num(c, LIT(p, lit), (which), NK_DEC6, (v))

/* art-trace.md 6.2: every ART call is "art", instrumented or sampled (end kind inferred; the
 * database's category art_sampled is loaded as an ART call too). */
static const char *cat_of(const tt_slice *s)
{
    if (s->is_synthetic)
        return "synthetic";
    if (s->is_instrumented == 2)
        return "art";
    return s->is_instrumented || s->end_kind == TT_ENDK_EXACT ? "beat" : "sampled";
}

static void defer_copy(cx *c, char *dst, const char *src, size_t n)
{
    c->pend[c->npend].dst = dst;
    c->pend[c->npend].src = src;
    c->pend[c->npend++].n = n;
}

static void run_copies(cx *c)
{
    for (int i = 0; i < c->npend; i++)
        copy32(c->pend[i].dst, c->pend[i].src, c->pend[i].n);
    c->npend = 0;
}

/* Writes v at p through its memo (room for 32 bytes at p). */
static inline char *num(cx *c, char *p, int which, int kind, int64_t v)
{
    num_memo *m = &c->nm[which];
    if (m->n && m->v == v) {
        memcpy(p, m->txt, sizeof m->txt);
        return p + m->n;
    }
    char *e = kind == NK_DEC3   ? tt__fmt_dec3(p, v)
              : kind == NK_DEC6 ? tt__fmt_dec6(p, v)
                                : tt__fmt_u64(p, (uint64_t)v);
    m->n = (size_t)(e - p);
    m->v = v;
    defer_copy(c, m->txt, p, sizeof m->txt);
    return e;
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* "ts" (already keyed by the prefix) to before ",\"name\"". */
static char *head_text(cx *c, char *p, const tt_slice *s)
{
    int be = c->o->be_events, thr = s->thread_ts >= 0 && s->thread_dur >= 0;
    head_key k = {s->ts - c->base, be ? 0 : s->dur, thr ? s->thread_ts : -1,
                  thr && !be ? s->thread_dur : -1};
    /* fields compared one by one: a wide load of a key just stored field by field stalls */
    if (c->head_ok && k.ts == c->hk.ts && k.dur == c->hk.dur && k.tts == c->hk.tts &&
        k.tdur == c->hk.tdur) {
        copy32(p, c->head_txt, c->head_n);
        return p + c->head_n;
    }
    char *b = p;
    p = num(c, p, NM_TS, NK_DEC3, k.ts);
    if (!be) {
        p = LIT(p, ",\"dur\":");
        p = num(c, p, NM_DUR, NK_DEC3, s->dur);
    }
    if (thr) {
        p = LIT(p, ",\"tts\":");
        p = num(c, p, NM_TTS, NK_DEC3, s->thread_ts);
        if (!be) {
            p = LIT(p, ",\"tdur\":");
            p = num(c, p, NM_TDUR, NK_DEC3, s->thread_dur);
        }
    }
    c->head_n = (size_t)(p - b);
    defer_copy(c, c->head_txt, b, c->head_n);
    c->hk = k;
    c->head_ok = 1;
    return p;
}

/* The previous event's tail values equal those of s (field by field, see head_text). */
static int tail_same(const tail_key *t, const tt_slice *s, unsigned known)
{
    if (t->self_dur != s->self_dur || t->thread_dur != s->thread_dur ||
        t->block_dur != s->block_dur || t->gap_before != s->gap_before ||
        t->gap_after != s->gap_after || t->msg_id != s->msg_id || t->ctr_known != known ||
        t->sample_count != s->sample_count || t->wakeup_utid != s->wakeup_utid ||
        t->type != s->type || t->end_kind != s->end_kind || t->is_synthetic != s->is_synthetic ||
        t->is_unwound != s->is_unwound || t->is_instrumented != s->is_instrumented)
        return 0;
    for (int i = 0; i < TT_CTR_COUNT; i++)
        if (t->ctr[i] != (known & (1u << i) ? s->ctr[i] : 0))
            return 0;
    return 1;
}

/* ",\"cat\"" to the end of the event. */
static char *tail_text(cx *c, char *p, const tt_slice *s)
{
    unsigned known = s->ctr_known & ((1u << TT_CTR_COUNT) - 1);
    if (c->tail_ok && tail_same(&c->tk, s, known)) {
        copy32(p, c->tail_txt, c->tail_n);
        return p + c->tail_n;
    }
    tail_key *k = &c->tk;
    k->self_dur = s->self_dur;
    k->thread_dur = s->thread_dur;
    k->block_dur = s->block_dur;
    k->gap_before = s->gap_before;
    k->gap_after = s->gap_after;
    k->msg_id = s->msg_id;
    k->ctr_known = known;
    for (int i = 0; i < TT_CTR_COUNT; i++)
        k->ctr[i] = known & (1u << i) ? s->ctr[i] : 0;
    k->sample_count = s->sample_count;
    k->wakeup_utid = s->wakeup_utid;
    k->type = s->type;
    k->end_kind = s->end_kind;
    k->is_synthetic = s->is_synthetic;
    k->is_unwound = s->is_unwound;
    k->is_instrumented = s->is_instrumented;
    char *b = p;
    p = LIT(p, ",\"cat\":\"");
    p = put_str(p, cat_of(s));
    p = ARG_MS(p, "\",\"args\":{\"self_ms\":", NM_SELF, s->self_dur);
    if (s->thread_dur >= 0)
        p = ARG_MS(p, ",\"cpu_ms\":", NM_CPU, s->thread_dur);
    if (s->block_dur > 0)
        p = ARG_MS(p, ",\"block_ms\":", NM_BLOCK, s->block_dur);
    /* an instrumented ART call has no sample count (NULL in the database): no field */
    if (s->sample_count || s->is_instrumented != 2) {
        p = LIT(p, ",\"samples\":");
        p = num(c, p, NM_SAMPLES, NK_U64, s->sample_count);
    }
    if (s->msg_id) {
        p = LIT(p, ",\"msg_id\":");
        p = num(c, p, NM_MSG, NK_U64, (int64_t)s->msg_id);
    }
    if (s->type != TT_ST_CPU) {
        p = LIT(p, ",\"type\":\"");
        p = put_str(p, tt_sample_type_name(s->type));
        *p++ = '"';
    }
    for (int i = 0; i < TT_CTR_COUNT; i++)
        if (known & (1u << i)) {
            memcpy(p, c->ctr_key[i], sizeof c->ctr_key[i]);
            p = num(c, p + c->ctr_key_n[i], NM_CTR + i, NK_U64, (int64_t)s->ctr[i]);
        }
    if (s->gap_before >= 0)
        p = ARG_MS(p, ",\"gap_before_ms\":", NM_GAPB, s->gap_before);
    if (s->gap_after >= 0)
        p = ARG_MS(p, ",\"gap_after_ms\":", NM_GAPA, s->gap_after);
    if (s->wakeup_utid != TT_NONE) {
        p = LIT(p, ",\"wakeup_tid\":");
        p = tt__fmt_i64(p, tid_of(tt_profile_thread(c->p, s->wakeup_utid)));
    }
    if (s->is_unwound)
        p = LIT(p, ",\"unwound\":1");
    if (s->end_kind == TT_ENDK_UNTERMINATED || s->end_kind == TT_ENDK_TRUNCATED) {
        p = LIT(p, ",\"end_kind\":\"");
        p = put_str(p, tt_end_kind_name(s->end_kind));
        *p++ = '"';
    }
    p = LIT(p, "}}");
    c->tail_n = (size_t)(p - b);
    defer_copy(c, c->tail_txt, b, c->tail_n);
    c->tail_ok = 1;
    return p;
}

/* Ends an event written at p: the buffer length follows. */
static void done(cx *c, char *p)
{
    c->w.buf.len = (size_t)(p - c->w.buf.data);
    c->w.buf.data[c->w.buf.len] = 0;
}

static int x_event(cx *c, const tt_slice *s)
{
    size_t nn;
    const char *name = frame_name(c, s->frame, &nn);
    char *p = name ? tt__buf_room(&c->w.buf, EVENT_FIXED + nn) : NULL;
    if (!p)
        return -1;
    if (!c->first)
        p = LIT(p, ",\n");
    c->first = 0;
    copy32(p, c->prefix, c->prefix_n);
    p = head_text(c, p + c->prefix_n, s);
    p = LIT(p, ",\"name\":");
    copy32(p, name, nn);
    done(c, tail_text(c, p + nn, s));
    run_copies(c);
    return 0;
}

static int e_event(cx *c, const tt_slice *s)
{
    char *p = tt__buf_room(&c->w.buf, 256);
    if (!p)
        return -1;
    if (!c->first)
        p = LIT(p, ",\n");
    c->first = 0;
    p = LIT(p, "{\"ph\":\"E\",\"pid\":");
    p = tt__fmt_i64(p, c->pid);
    p = LIT(p, ",\"tid\":");
    p = tt__fmt_i64(p, c->tid);
    p = LIT(p, ",\"ts\":");
    p = tt__fmt_dec3(p, s->ts + s->dur - c->base);
    if (s->thread_ts >= 0 && s->thread_dur >= 0) {
        p = LIT(p, ",\"tts\":");
        p = tt__fmt_dec3(p, s->thread_ts + s->thread_dur);
    }
    done(c, LIT(p, "}"));
    return 0;
}

/* A wake-up arrow waiting for its start: the woken leaf slice's [lo, hi) on (pid, tid) and the
 * waker's sample time; s_ts/f_ts are set once the waker's slice around it is found. */
typedef struct flow_rec {
    int64_t pid, tid, lo, hi, waker_ts, s_ts, f_ts;
    uint32_t waker_utid;
    int state; /* 0 pending, 1 placed, 2 no room or no waker slice */
} flow_rec;

static void flow_ev(cx *c, const char *ph, uint64_t id, int64_t pid, int64_t tid, int64_t ts)
{
    ev_begin(c);
    tt_jsonw_key(&c->w, "ph");
    tt_jsonw_str(&c->w, ph);
    if (ph[0] == 'f') {
        tt_jsonw_key(&c->w, "bp");
        tt_jsonw_str(&c->w, "e");
    }
    tt_jsonw_key(&c->w, "id");
    tt_jsonw_uint(&c->w, id);
    tt_jsonw_key(&c->w, "cat");
    tt_jsonw_str(&c->w, "wakeup");
    tt_jsonw_key(&c->w, "name");
    tt_jsonw_str(&c->w, "wakeup");
    pid_tid(c, pid, tid);
    key_us(c, "ts", ts - c->base);
    tt_jsonw_obj_end(&c->w);
}

/* Places one arrow given the waker's slice [a, b) around its sample: s strictly inside it, f
 * strictly inside the woken slice and strictly after s (7.1: both consumers order flow
 * events by time); 0 when the two slices leave no room. */
static int flow_place(flow_rec *f, int64_t a, int64_t b)
{
    int64_t hi = b < f->hi ? b : f->hi;
    if (hi - a < 2)
        return 0;
    int64_t s = a + (hi - a) / 2;
    int64_t lo = s > f->lo ? s : f->lo;
    if (f->hi - lo < 2)
        return 0;
    f->s_ts = s;
    f->f_ts = lo + (f->hi - lo) / 2;
    f->state = 1;
    return 1;
}

/* A pending arrow's place in the part's arrows sorted by waker thread, then waker time. */
typedef struct flow_key {
    uint32_t utid;
    int64_t ts;
    size_t k;
} flow_key;

static int flow_key_cmp(const void *a, const void *b)
{
    const flow_key *x = a, *y = b;
    if (x->utid != y->utid)
        return x->utid < y->utid ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Sink of a waker thread's second build: the deepest slice holding each pending waker time.
 * key[0..n) are that thread's arrows by waker time, so each subtree finds its own by binary
 * search, and each arrow its slice by binary search over the pre-order (starts ascend) and
 * a walk up to the first slice holding the time: no pass over every arrow or slice. */
typedef struct flow_find {
    flow_rec *f;
    const flow_key *key;
    size_t n;
} flow_find;

static int flow_sink(void *ctx, const tt_slice *s, size_t n)
{
    flow_find *ff = ctx;
    if (!n)
        return 0;
    int64_t r0 = s[0].ts, r1 = s[0].ts + s[0].dur;
    size_t lo = 0, hi = ff->n;
    while (lo < hi) { /* the first arrow at or after r0 */
        size_t mid = lo + (hi - lo) / 2;
        if (ff->key[mid].ts < r0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < ff->n && ff->key[k].ts < r1; k++) {
        flow_rec *f = &ff->f[ff->key[k].k];
        if (f->state)
            continue;
        int64_t t = f->waker_ts;
        size_t a = 0, b = n; /* the last slice starting at or before t */
        while (b - a > 1) {
            size_t mid = a + (b - a) / 2;
            if (s[mid].ts <= t)
                a = mid;
            else
                b = mid;
        }
        size_t best = a;
        while (best && !(s[best].ts <= t && t < s[best].ts + s[best].dur)) {
            uint32_t up = s[best].parent;
            best = up < best ? up : 0;
        }
        if (!flow_place(f, s[best].ts, s[best].ts + s[best].dur))
            f->state = 2;
    }
    return 0;
}

/* Writes the part's arrows whose waker thread is exported too (under --thread the start
 * would otherwise point at a thread the file does not show), in the order they were met. */
static int flows_write(cx *c, tt_vec *sl, tt_vec *fl)
{
    flow_rec *f = fl->data;
    size_t n = fl->len;
    flow_key *key = malloc(n * sizeof *key);
    if (!key)
        return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t k = 0; k < n; k++)
        key[k] = (flow_key){f[k].waker_utid, f[k].waker_ts, k};
    qsort(key, n, sizeof *key, flow_key_cmp);
    int rc = 0;
    for (size_t k = 0, end; k < n && !rc; k = end) {
        uint32_t u = key[k].utid;
        for (end = k + 1; end < n && key[end].utid == u;)
            end++;
        if (!tt__export_wants(c->o, u))
            continue;
        flow_find ff = {f, key + k, end - k};
        tt_slice_opts so = c->o->slice;
        so.sink = flow_sink;
        so.sink_ctx = &ff;
        tt_slice_info info;
        rc = tt_slice_build(sl, &info, c->p, u, &so, c->err);
    }
    free(key);
    for (size_t k = 0; k < n && !rc; k++) {
        if (f[k].state != 1)
            continue;
        const tt_thread *wk = tt_profile_thread(c->p, f[k].waker_utid);
        uint64_t id = ++c->flow_id;
        flow_ev(c, "s", id, pid_of(c, wk), tid_of(wk), f[k].s_ts);
        flow_ev(c, "f", id, f[k].pid, f[k].tid, f[k].f_ts);
        if (tt__flush(&c->w, c->fn, c->ctx, 0, c->err))
            rc = TT_EIO;
    }
    return rc;
}

/* Slice sink: one finished depth-0 subtree in pre-order (5.7: streamed, never the whole
 * thread in memory). */
static int chunk(void *ctx, const tt_slice *s, size_t n)
{
    cx *c = ctx;
    c->open.len = 0;
    for (size_t i = 0; i < n; i++) {
        if (c->o->be_events) { /* close everything at or below this depth first */
            while (c->open.len > s[i].depth) {
                if (e_event(c, &s[TT_VEC_AT(&c->open, uint32_t, c->open.len - 1)]))
                    return -1;
                c->open.len--;
            }
            uint32_t idx = (uint32_t)i;
            if (!tt_vec_push(&c->open, &idx))
                return -1;
        }
        if (x_event(c, &s[i]))
            return -1;
        /* the arrow goes to the leaf of the slices opened by the woken wait */
        if (s[i].wakeup_utid != TT_NONE && s[i].waker_ts &&
            !(i + 1 < n && s[i + 1].parent == i && s[i + 1].wakeup_utid != TT_NONE)) {
            flow_rec f = {c->pid, c->tid, s[i].ts, s[i].ts + s[i].dur, s[i].waker_ts, 0, 0,
                          s[i].wakeup_utid, 0};
            if (!tt_vec_push(&c->flows, &f))
                return -1;
        }
        if (tt__flush(&c->w, c->fn, c->ctx, 0, c->err))
            return -1;
    }
    while (c->open.len) {
        if (e_event(c, &s[TT_VEC_AT(&c->open, uint32_t, c->open.len - 1)]))
            return -1;
        c->open.len--;
    }
    return tt__flush(&c->w, c->fn, c->ctx, 0, c->err) ? -1 : 0;
}

static int write_thread(cx *c, uint32_t utid, tt_vec *sl)
{
    const tt_thread *t = tt_profile_thread(c->p, utid);
    int64_t pid = pid_of(c, t), tid = tid_of(t);
    c->pid = pid;
    c->tid = tid;
    char *q = c->o->be_events ? LIT(c->prefix, "{\"ph\":\"B\",\"pid\":")
                              : LIT(c->prefix, "{\"ph\":\"X\",\"pid\":");
    q = LIT(tt__fmt_i64(q, pid), ",\"tid\":");
    q = LIT(tt__fmt_i64(q, tid), ",\"ts\":");
    c->prefix_n = (size_t)(q - c->prefix);
    c->tmp.len = 0;
    tt_thread_format(&c->tmp, c->p, utid);
    meta_ev(c, pid, tid, "thread_name", "name", c->tmp.data, 0);
    meta_ev(c, pid, tid, "thread_sort_index", "sort_index", NULL, t->is_main ? 0 : utid + 1);
    tt_slice_opts so = c->o->slice;
    so.sink = chunk;
    so.sink_ctx = c;
    tt_slice_info info;
    int rc = tt_slice_build(sl, &info, c->p, utid, &so, c->err);
    if (rc)
        return rc;
    if (info.negative_counter_deltas) /* the args leave the counter out (samples.md 5.6) */
        tt_stats_add(c->o->stats, "slice_negative_counter_delta", tt__thread_input(t, c->o),
                     TT_SEV_WARN, (int64_t)info.negative_counter_deltas, NULL);
    if (c->o->chrome_samples) {
        size_t n;
        const uint32_t *ord = tt_profile_thread_order(c->p, utid, &n);
        for (size_t i = 0; i < n; i++) {
            ev_begin(c);
            tt_jsonw_key(&c->w, "ph");
            tt_jsonw_str(&c->w, "i");
            tt_jsonw_key(&c->w, "s");
            tt_jsonw_str(&c->w, "t");
            pid_tid(c, pid, tid);
            key_us(c, "ts", tt_profile_sample(c->p, ord[i])->ts - c->base);
            tt_jsonw_key(&c->w, "name");
            tt_jsonw_str(&c->w, "sample");
            tt_jsonw_key(&c->w, "cat");
            tt_jsonw_str(&c->w, "sample");
            tt_jsonw_obj_end(&c->w);
            if (tt__flush(&c->w, c->fn, c->ctx, 0, c->err))
                return TT_EIO;
        }
    }
    return tt__flush(&c->w, c->fn, c->ctx, 0, c->err);
}

/* One process_name per distinct pid, in thread order: the name an input gave the pid
 * (tt_profile_pid_name), else
 * the name of the first thread whose tid is the pid, else "[pid N]" for a known pid and
 * unknown for pid 0 and samples without a thread; a label is appended. */
static int process_names(cx *c, const char *label)
{
    size_t nt = tt_profile_nthreads(c->p);
    tt__map idx = {0}; /* pid -> index into order */
    tt_vec order;      /* uint32_t: a thread of each distinct pid, first seen first */
    tt_vec_init(&order, sizeof(uint32_t));
    uint32_t *namer = malloc((nt ? nt : 1) * sizeof *namer); /* per order entry */
    int rc = namer ? 0 : TT_ENOMEM;
    for (uint32_t i = 0; i < nt && !rc; i++) {
        const tt_thread *t = tt_profile_thread(c->p, i);
        uint64_t pid = (uint64_t)pid_of(c, t);
        uint32_t k;
        if (!tt__map_get(&idx, pid, &k)) {
            k = (uint32_t)order.len;
            namer[k] = TT_NONE;
            if (!tt_vec_push(&order, &i) || tt__map_put(&idx, pid, k))
                rc = TT_ENOMEM;
        }
        if (!rc && namer[k] == TT_NONE && !t->no_thread && t->tid == raw_pid(c, t) && t->name)
            namer[k] = i;
    }
    for (size_t k = 0; k < order.len && !rc; k++) {
        const tt_thread *t = tt_profile_thread(c->p, TT_VEC_AT(&order, uint32_t, k));
        int64_t pid = raw_pid(c, t);
        const char *name = NULL;
        if (t->no_thread)
            ;
        else if (c->o->n_inputs > 1 && /* several inputs: the name the process's own input
                                        * gave it first (choose_pids splits them) */
                 (name = tt__profile_source_pid_name(c->p, t->source, pid)))
            ;
        else
            name = tt_profile_pid_name(c->p, pid);
        if (name)
            ;
        else if (namer[k] != TT_NONE)
            name = tt_profile_thread(c->p, namer[k])->name;
        c->tmp.len = 0;
        int known = tt_thread_pid(c->p, t->utid) >= 0;
        if (name)
            tt_buf_puts(&c->tmp, name);
        else if (known) /* as folded's process root names it (7.1 keeps unknown for pid 0) */
            tt_buf_printf(&c->tmp, "[pid %lld]", (long long)pid);
        else
            tt_buf_puts(&c->tmp, "unknown");
        if (label)
            tt_buf_printf(&c->tmp, " (%s)", label);
        if (source_off(c, t) && c->o->inputs && t->source < c->o->n_inputs &&
            c->o->inputs[t->source].name) /* which input the moved process is of */
            tt_buf_printf(&c->tmp, " (%s)", c->o->inputs[t->source].name);
        meta_ev(c, pid_of(c, t), pid_of(c, t), "process_name", "name", c->tmp.data, 0);
    }
    free(namer);
    tt_vec_free(&order);
    tt__map_free(&idx);
    return rc;
}

/* A part whose pids an earlier part used moves to id * 10^7 + pid (its own process); inside a
 * part, an input (thread source) with a pid an earlier input used moves to
 * (source + 1) * 10^7 + pid, so that recordings of one pid and tid from two files never
 * share a track. */
static int choose_pids(cx *c, int64_t id)
{
    c->pid_off = 0;
    tt__map_free(&c->moved);
    memset(&c->moved, 0, sizeof c->moved);
    size_t nt = tt_profile_nthreads(c->p);
    int clash = 0;
    for (uint32_t i = 0; i < nt && !clash; i++) {
        uint32_t v;
        clash = tt__map_get(&c->pids, (uint64_t)raw_pid(c, tt_profile_thread(c->p, i)), &v);
    }
    if (clash)
        c->pid_off = id * 10000000;
    tt__map owner = {0}; /* pid -> source + 1 of the first input using it */
    int rc = 0;
    /* a raw export of several inputs (a profile loaded from a database numbers its threads
     * as sources instead, one per thread) */
    for (uint32_t i = 0; i < nt && !rc && c->o->n_inputs > 1; i++) {
        const tt_thread *t = tt_profile_thread(c->p, i);
        uint64_t pid = (uint64_t)(raw_pid(c, t) + c->pid_off);
        uint32_t v;
        if (tt__map_get(&c->moved, t->source, &v))
            continue;
        if (!tt__map_get(&owner, pid, &v))
            rc = tt__map_put(&owner, pid, t->source + 1);
        else if (v != t->source + 1)
            rc = tt__map_put(&c->moved, t->source, 1);
    }
    tt__map_free(&owner);
    if (rc)
        return TT_ENOMEM;
    for (uint32_t i = 0; i < nt; i++)
        if (tt__map_put(&c->pids, (uint64_t)pid_of(c, tt_profile_thread(c->p, i)), 1))
            return TT_ENOMEM;
    return 0;
}

static void same_or_mixed(char *dst, size_t cap, const char *v, int first)
{
    if (first)
        snprintf(dst, cap, "%s", v);
    else if (strcmp(dst, v))
        snprintf(dst, cap, "mixed");
}

struct tt__chrome {
    cx c;
};

int tt__chrome_open(tt__chrome **out, const tt_export_opts *o, tt_write_fn fn, void *ctx)
{
    tt__chrome *x = calloc(1, sizeof *x);
    if (!x)
        return TT_ENOMEM;
    cx *c = &x->c;
    c->o = o;
    c->fn = fn;
    c->ctx = ctx;
    c->first = 1;
    tt_jsonw_init(&c->w, 0);
    tt_vec_init(&c->open, sizeof(uint32_t));
    tt_vec_init(&c->flows, sizeof(flow_rec));
    tt_vec_init(&c->name_end, sizeof(size_t));
    for (int k = 0; k < TT_CTR_COUNT; k++)
        c->ctr_key_n[k] = (size_t)snprintf(c->ctr_key[k], sizeof c->ctr_key[k], ",\"%s\":",
                                           tt_counter_name(k));
    tt_buf_puts(&c->w.buf, "{\"traceEvents\":[\n");
    *out = x;
    return 0;
}

void tt__chrome_free(tt__chrome *x)
{
    if (!x)
        return;
    tt_jsonw_free(&x->c.w);
    tt_vec_free(&x->c.open);
    tt_vec_free(&x->c.flows);
    tt_vec_free(&x->c.name_end);
    tt_buf_free(&x->c.names);
    tt_buf_free(&x->c.tmp);
    tt__map_free(&x->c.pids);
    tt__map_free(&x->c.moved);
    free(x);
}

int tt__chrome_add(tt__chrome *x, tt_profile *p, const tt_export_opts *o,
                   const tt_export_part *part, tt_error *err)
{
    if (p->meta.timeless)
        return tt_error_set(err, TT_EUNSUPPORTED, tt__timeless_input(p, o), 0, 0,
                            "the input has no timestamps (folded stacks, or perf script "
                            "without the time field or with ambiguous times): Chrome JSON "
                            "needs slices; use --format folded or speedscope");
    cx *c = &x->c;
    const tt_export_opts *doc = c->o;
    c->p = p;
    c->o = o;
    c->err = err;
    c->base = o->relative_time ? tt__profile_start(p) : 0;
    c->names.len = 0; /* frame ids are the profile's own */
    c->name_end.len = 0;
    if (o->inputs && o->n_inputs > 1) { /* a profile of several inputs: each one's own */
        int any = 0;
        for (size_t i = 0; i < o->n_inputs; i++) {
            if (!o->inputs[i].format) /* a sampling-mapping file */
                continue;
            const char *ck = o->inputs[i].clock ? o->inputs[i].clock : "unknown";
            same_or_mixed(c->src, sizeof c->src, o->inputs[i].format, !c->parts && !any);
            same_or_mixed(c->clock, sizeof c->clock, ck, !c->parts && !any);
            any = 1;
        }
        if (!any)
            same_or_mixed(c->src, sizeof c->src, p->meta.source_format, !c->parts);
        if (!any)
            same_or_mixed(c->clock, sizeof c->clock, p->meta.clock, !c->parts);
    } else {
        same_or_mixed(c->src, sizeof c->src, p->meta.source_format, !c->parts);
        same_or_mixed(c->clock, sizeof c->clock, p->meta.clock, !c->parts);
    }
    c->parts++;
    int rc = choose_pids(c, part->id);
    if (!rc)
        rc = process_names(c, part->label);
    if (rc)
        tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    tt_vec sl;
    tt_vec_init(&sl, sizeof(tt_slice));
    for (size_t t = 0; t < tt_profile_nthreads(p) && !rc; t++)
        if (tt__export_wants(o, (uint32_t)t))
            rc = write_thread(c, (uint32_t)t, &sl);
    if (!rc && c->flows.len)
        rc = flows_write(c, &sl, &c->flows);
    c->flows.len = 0;
    tt_vec_free(&sl);
    c->o = doc;
    c->p = NULL;
    return rc;
}

int tt__chrome_close(tt__chrome *x, tt_error *err)
{
    cx *c = &x->c;
    tt_buf_puts(&c->w.buf, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":");
    tt_jsonw_obj_begin(&c->w);
    tt_jsonw_key(&c->w, "exporter");
    c->tmp.len = 0;
    tt_buf_printf(&c->tmp, "tracetool %s", c->o->version ? c->o->version : "");
    tt_jsonw_str(&c->w, c->tmp.data);
    tt_jsonw_key(&c->w, "source_format");
    tt_jsonw_str(&c->w, c->parts ? c->src : "unknown");
    tt_jsonw_key(&c->w, "clock");
    tt_jsonw_str(&c->w, c->o->relative_time ? "relative" : c->parts ? c->clock : "unknown");
    tt_jsonw_obj_end(&c->w);
    tt_buf_puts(&c->w.buf, "}\n");
    return tt__flush(&c->w, c->fn, c->ctx, 1, err);
}
