/* Chrome Trace Event JSON writer, spec/samples.md section 7.1: one X event (or a B/E pair)
 * per rebuilt slice in per-thread pre-order, exact microsecond decimals, M events for
 * process/thread names, wake-up flow arrows; streamed thread by thread. */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

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
    tt__map pids;      /* pids (after pid_off) of the parts written so far */
    size_t parts;      /* parts added */
    char src[64], clock[32]; /* of the parts: one value, or "mixed" */
    tt_vec open;       /* B/E mode: indices of open slices */
    tt_buf names;      /* JSON-escaped frame names, quoted, back to back */
    tt_vec name_end;   /* size_t per frame id: end offset in names */
    tt_buf tmp;
} cx;

/* Hot path: slice events are written as raw text (no printf) with cached escaped names. */
static void put(cx *c, const char *s, size_t n) { tt_buf_put(&c->w.buf, s, n); }
#define PUTS(c, lit) put((c), (lit), sizeof(lit) - 1)

static void put_u64(cx *c, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(c, d + i, sizeof d - i);
}

static void put_i64(cx *c, int64_t v)
{
    if (v < 0) {
        PUTS(c, "-");
        put_u64(c, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(c, (uint64_t)v);
    }
}

/* v / 10^digits as an exact decimal with `digits` fraction digits. */
static void put_dec(cx *c, int64_t v, int digits)
{
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, div = 1;
    for (int i = 0; i < digits; i++)
        div *= 10;
    if (v < 0)
        PUTS(c, "-");
    put_u64(c, a / div);
    char f[20];
    uint64_t r = a % div;
    for (int i = digits; i-- > 0;) {
        f[i] = (char)('0' + r % 10);
        r /= 10;
    }
    PUTS(c, ".");
    put(c, f, (size_t)digits);
}

static void put_name(cx *c, uint32_t frame)
{
    while (c->name_end.len <= frame) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        tt_jsonw_str(&w, tt_profile_frame(c->p, (uint32_t)c->name_end.len)->name);
        tt_buf_put(&c->names, w.buf.data ? w.buf.data : "\"\"", w.buf.data ? w.buf.len : 2);
        tt_jsonw_free(&w);
        size_t end = c->names.len;
        if (!tt_vec_push(&c->name_end, &end))
            return;
    }
    size_t e = TT_VEC_AT(&c->name_end, size_t, frame);
    size_t b = frame ? TT_VEC_AT(&c->name_end, size_t, frame - 1) : 0;
    put(c, c->names.data + b, e - b);
}

static int64_t raw_pid(const cx *c, const tt_thread *t)
{
    if (t->pid >= 0)
        return t->pid;
    return c->p->meta.pid >= 0 ? c->p->meta.pid : 0;
}

static int64_t pid_of(const cx *c, const tt_thread *t)
{
    return raw_pid(c, t) + c->pid_off;
}

static int64_t tid_of(const tt_thread *t) { return t->tid >= 0 ? t->tid : 0; }

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

static void arg_ms(cx *c, const char *key, size_t kn, int64_t ns)
{
    put(c, key, kn);
    put_dec(c, ns, 6);
}
#define ARG_MS(c, lit, v) arg_ms((c), (lit), sizeof(lit) - 1, (v))

static void slice_args(cx *c, const tt_slice *s)
{
    ARG_MS(c, ",\"args\":{\"self_ms\":", s->self_dur);
    if (s->thread_dur >= 0)
        ARG_MS(c, ",\"cpu_ms\":", s->thread_dur);
    if (s->block_dur > 0)
        ARG_MS(c, ",\"block_ms\":", s->block_dur);
    PUTS(c, ",\"samples\":");
    put_u64(c, s->sample_count);
    if (s->msg_id) {
        PUTS(c, ",\"msg_id\":");
        put_u64(c, s->msg_id);
    }
    if (s->type != TT_ST_CPU) {
        PUTS(c, ",\"type\":\"");
        tt_buf_puts(&c->w.buf, tt_sample_type_name(s->type));
        PUTS(c, "\"");
    }
    for (int k = 0; k < TT_CTR_COUNT; k++)
        if (s->ctr_known & (1u << k)) {
            PUTS(c, ",\"");
            tt_buf_puts(&c->w.buf, tt_counter_name(k));
            PUTS(c, "\":");
            put_u64(c, s->ctr[k]);
        }
    if (s->gap_before >= 0)
        ARG_MS(c, ",\"gap_before_ms\":", s->gap_before);
    if (s->gap_after >= 0)
        ARG_MS(c, ",\"gap_after_ms\":", s->gap_after);
    if (s->wakeup_utid != TT_NONE) {
        PUTS(c, ",\"wakeup_tid\":");
        put_i64(c, tid_of(tt_profile_thread(c->p, s->wakeup_utid)));
    }
    if (s->end_kind == TT_ENDK_UNTERMINATED || s->end_kind == TT_ENDK_TRUNCATED) {
        PUTS(c, ",\"end_kind\":\"");
        tt_buf_puts(&c->w.buf, tt_end_kind_name(s->end_kind));
        PUTS(c, "\"");
    }
    PUTS(c, "}");
}

static const char *cat_of(const tt_slice *s)
{
    if (s->is_synthetic)
        return "synthetic";
    return s->is_instrumented || s->end_kind == TT_ENDK_EXACT ? "beat" : "sampled";
}

static void x_event(cx *c, const tt_slice *s, int64_t pid, int64_t tid)
{
    if (!c->first)
        PUTS(c, ",\n");
    c->first = 0;
    if (c->o->be_events)
        PUTS(c, "{\"ph\":\"B\",\"pid\":");
    else
        PUTS(c, "{\"ph\":\"X\",\"pid\":");
    put_i64(c, pid);
    PUTS(c, ",\"tid\":");
    put_i64(c, tid);
    PUTS(c, ",\"ts\":");
    put_dec(c, s->ts - c->base, 3);
    if (!c->o->be_events) {
        PUTS(c, ",\"dur\":");
        put_dec(c, s->dur, 3);
    }
    if (s->thread_ts >= 0 && s->thread_dur >= 0) {
        PUTS(c, ",\"tts\":");
        put_dec(c, s->thread_ts, 3);
        if (!c->o->be_events) {
            PUTS(c, ",\"tdur\":");
            put_dec(c, s->thread_dur, 3);
        }
    }
    PUTS(c, ",\"name\":");
    put_name(c, s->frame);
    PUTS(c, ",\"cat\":\"");
    tt_buf_puts(&c->w.buf, cat_of(s));
    PUTS(c, "\"");
    slice_args(c, s);
    PUTS(c, "}");
}

static void e_event(cx *c, const tt_slice *s, int64_t pid, int64_t tid)
{
    ev_begin(c);
    tt_jsonw_key(&c->w, "ph");
    tt_jsonw_str(&c->w, "E");
    pid_tid(c, pid, tid);
    key_us(c, "ts", s->ts + s->dur - c->base);
    if (s->thread_ts >= 0 && s->thread_dur >= 0)
        key_us(c, "tts", s->thread_ts + s->thread_dur);
    tt_jsonw_obj_end(&c->w);
}

static void flow(cx *c, const tt_slice *s, int64_t pid, int64_t tid)
{
    const tt_thread *wk = tt_profile_thread(c->p, s->wakeup_utid);
    uint64_t id = ++c->flow_id;
    ev_begin(c);
    tt_jsonw_key(&c->w, "ph");
    tt_jsonw_str(&c->w, "s");
    tt_jsonw_key(&c->w, "id");
    tt_jsonw_uint(&c->w, id);
    tt_jsonw_key(&c->w, "cat");
    tt_jsonw_str(&c->w, "wakeup");
    tt_jsonw_key(&c->w, "name");
    tt_jsonw_str(&c->w, "wakeup");
    pid_tid(c, pid_of(c, wk), tid_of(wk));
    key_us(c, "ts", s->waker_ts - c->base);
    tt_jsonw_obj_end(&c->w);
    ev_begin(c);
    tt_jsonw_key(&c->w, "ph");
    tt_jsonw_str(&c->w, "f");
    tt_jsonw_key(&c->w, "bp");
    tt_jsonw_str(&c->w, "e");
    tt_jsonw_key(&c->w, "id");
    tt_jsonw_uint(&c->w, id);
    tt_jsonw_key(&c->w, "cat");
    tt_jsonw_str(&c->w, "wakeup");
    tt_jsonw_key(&c->w, "name");
    tt_jsonw_str(&c->w, "wakeup");
    pid_tid(c, pid, tid);
    key_us(c, "ts", s->ts + s->dur / 2 - c->base);
    tt_jsonw_obj_end(&c->w);
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
                e_event(c, &s[TT_VEC_AT(&c->open, uint32_t, c->open.len - 1)], c->pid, c->tid);
                c->open.len--;
            }
            uint32_t idx = (uint32_t)i;
            if (!tt_vec_push(&c->open, &idx))
                return -1;
        }
        x_event(c, &s[i], c->pid, c->tid);
        /* the arrow goes to the leaf of the slices opened by the woken wait */
        if (s[i].wakeup_utid != TT_NONE && s[i].waker_ts &&
            !(i + 1 < n && s[i + 1].parent == i && s[i + 1].wakeup_utid != TT_NONE))
            flow(c, &s[i], c->pid, c->tid);
        if (tt__flush(&c->w, c->fn, c->ctx, 0, c->err))
            return -1;
    }
    while (c->open.len) {
        e_event(c, &s[TT_VEC_AT(&c->open, uint32_t, c->open.len - 1)], c->pid, c->tid);
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

/* One process_name per distinct pid, in thread order: the meta name for the meta pid, else
 * the name of the first thread whose tid is the pid, else unknown; a label is appended. */
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
        uint64_t pid = (uint64_t)raw_pid(c, t);
        uint32_t k;
        if (!tt__map_get(&idx, pid, &k)) {
            k = (uint32_t)order.len;
            namer[k] = TT_NONE;
            if (!tt_vec_push(&order, &i) || tt__map_put(&idx, pid, k))
                rc = TT_ENOMEM;
        }
        if (!rc && namer[k] == TT_NONE && t->tid == raw_pid(c, t) && t->name)
            namer[k] = i;
    }
    for (size_t k = 0; k < order.len && !rc; k++) {
        const tt_thread *t = tt_profile_thread(c->p, TT_VEC_AT(&order, uint32_t, k));
        int64_t pid = raw_pid(c, t);
        const char *name = NULL;
        if (pid == c->p->meta.pid && c->p->meta.process)
            name = c->p->meta.process;
        else if (namer[k] != TT_NONE)
            name = tt_profile_thread(c->p, namer[k])->name;
        c->tmp.len = 0;
        tt_buf_puts(&c->tmp, name ? name : "unknown");
        if (label)
            tt_buf_printf(&c->tmp, " (%s)", label);
        meta_ev(c, pid + c->pid_off, pid + c->pid_off, "process_name", "name", c->tmp.data, 0);
    }
    free(namer);
    tt_vec_free(&order);
    tt__map_free(&idx);
    return rc;
}

/* A part whose pids an earlier part used moves to id * 10^7 + pid (its own process). */
static int choose_pids(cx *c, int64_t id)
{
    c->pid_off = 0;
    size_t nt = tt_profile_nthreads(c->p);
    int clash = 0;
    for (uint32_t i = 0; i < nt && !clash; i++) {
        uint32_t v;
        clash = tt__map_get(&c->pids, (uint64_t)raw_pid(c, tt_profile_thread(c->p, i)), &v);
    }
    if (clash)
        c->pid_off = id * 10000000;
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
    tt_vec_init(&c->name_end, sizeof(size_t));
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
    tt_vec_free(&x->c.name_end);
    tt_buf_free(&x->c.names);
    tt_buf_free(&x->c.tmp);
    tt__map_free(&x->c.pids);
    free(x);
}

int tt__chrome_add(tt__chrome *x, tt_profile *p, const tt_export_opts *o,
                   const tt_export_part *part, tt_error *err)
{
    if (p->meta.timeless)
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "the input has no timestamps (folded stacks): Chrome JSON needs "
                            "slices; use --format folded or speedscope");
    cx *c = &x->c;
    const tt_export_opts *doc = c->o;
    c->p = p;
    c->o = o;
    c->err = err;
    c->base = o->relative_time ? tt__profile_start(p) : 0;
    c->names.len = 0; /* frame ids are the profile's own */
    c->name_end.len = 0;
    same_or_mixed(c->src, sizeof c->src, p->meta.source_format, !c->parts);
    same_or_mixed(c->clock, sizeof c->clock, p->meta.clock, !c->parts);
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
