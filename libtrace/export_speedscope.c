/* speedscope JSON writer, spec/samples.md section 7.3: shared frames, one sampled profile per
 * thread (one entry per run, time order) and one evented profile per thread from slices. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static void profile_head(tt_jsonw *w, const char *type, const char *name, const char *unit,
                         int64_t start, int64_t end)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "type");
    tt_jsonw_str(w, type);
    tt_jsonw_key(w, "name");
    tt_jsonw_str(w, name);
    tt_jsonw_key(w, "unit");
    tt_jsonw_str(w, unit);
    tt_jsonw_key(w, "startValue");
    tt_jsonw_int(w, start);
    tt_jsonw_key(w, "endValue");
    tt_jsonw_int(w, end);
}

/* perf's cpu-clock and task-clock count time: their period is in nanoseconds (samples.md
 * 2.2); other events' periods are counts (cycles, page faults). */
static int period_in_ns(tt_profile *p)
{
    const char *e = tt_profile_meta_get(p)->event;
    return tt_perf_event_is_clock(e);
}

static int sampled(tt_jsonw *w, tt_profile *p, uint32_t utid, const char *name,
                   const tt_export_opts *o, uint32_t *fr, uint32_t foff, tt_write_fn fn,
                   void *ctx, tt_error *err)
{
    tt_vec runs;
    tt_vec_init(&runs, sizeof(tt_run));
    int64_t gap = tt_profile_max_gap(p, utid, o->slice.max_gap);
    int64_t *rw = NULL;
    if (tt_profile_runs(&runs, p, utid, gap) ||
        tt__run_weights(&rw, p, utid, runs.len, o->weight, gap, o->slice.end_pad)) {
        tt_vec_free(&runs);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int64_t total = 0;
    for (size_t j = 0; j < runs.len; j++)
        total = tt__sat_add(total, rw[j]);
    const char *unit = o->weight == TT_WEIGHT_WALL || o->weight == TT_WEIGHT_CPU ||
                               (o->weight == TT_WEIGHT_PERIOD && period_in_ns(p))
                           ? "nanoseconds" : "none";
    profile_head(w, "sampled", name, unit, 0, total);
    tt_jsonw_key(w, "samples");
    tt_jsonw_arr_begin(w);
    int rc = 0;
    for (size_t j = 0; j < runs.len && !rc; j++) {
        size_t n = tt_callsite_frames(p, TT_VEC_AT(&runs, tt_run, j).callsite, fr,
                                      TT_MAX_STACK_DEPTH + 1);
        tt_jsonw_arr_begin(w);
        for (size_t k = 0; k < n; k++)
            tt_jsonw_uint(w, (uint64_t)fr[k] + foff);
        tt_jsonw_arr_end(w);
        rc = tt__flush(w, fn, ctx, 0, err);
    }
    tt_jsonw_arr_end(w);
    tt_jsonw_key(w, "weights");
    tt_jsonw_arr_begin(w);
    for (size_t j = 0; j < runs.len && !rc; j++) {
        tt_jsonw_int(w, rw[j]);
        rc = tt__flush(w, fn, ctx, 0, err);
    }
    tt_jsonw_arr_end(w);
    tt_jsonw_obj_end(w);
    tt_vec_free(&runs);
    free(rw);
    return rc;
}

static void ev(tt_jsonw *w, const char *type, int64_t at, uint32_t frame)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "type");
    tt_jsonw_str(w, type);
    tt_jsonw_key(w, "at");
    tt_jsonw_int(w, at);
    tt_jsonw_key(w, "frame");
    tt_jsonw_uint(w, frame);
    tt_jsonw_obj_end(w);
}

typedef struct evctx {
    tt_jsonw *w;
    int64_t base, end;
    uint32_t foff; /* frame index offset of the part */
    tt_vec open;
    tt_write_fn fn;
    void *ctx;
    tt_error *err;
} evctx;

/* Slice sink: open/close events of one finished depth-0 subtree (streamed, 5.7). */
static int ev_chunk(void *ctx, const tt_slice *s, size_t n)
{
    evctx *e = ctx;
    e->open.len = 0;
    for (size_t i = 0; i <= n; i++) {
        size_t depth = i < n ? s[i].depth : 0;
        while (e->open.len > depth) {
            const tt_slice *t = &s[TT_VEC_AT(&e->open, uint32_t, e->open.len - 1)];
            ev(e->w, "C", t->ts + t->dur - e->base, t->frame + e->foff);
            if (t->ts + t->dur - e->base > e->end)
                e->end = t->ts + t->dur - e->base;
            e->open.len--;
        }
        if (i == n)
            break;
        uint32_t idx = (uint32_t)i;
        if (!tt_vec_push(&e->open, &idx))
            return -1;
        ev(e->w, "O", s[i].ts - e->base, s[i].frame + e->foff);
        if (tt__flush(e->w, e->fn, e->ctx, 0, e->err))
            return -1;
    }
    return 0;
}

static int evented(tt_jsonw *w, tt_profile *p, uint32_t utid, const char *name,
                   const tt_export_opts *o, int64_t base, uint32_t foff, tt_vec *sl,
                   tt_write_fn fn, void *ctx, tt_error *err)
{
    /* endValue is only known at the end: it follows the events (key order is free) */
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "type");
    tt_jsonw_str(w, "evented");
    tt_jsonw_key(w, "name");
    tt_jsonw_str(w, name);
    tt_jsonw_key(w, "unit");
    tt_jsonw_str(w, "nanoseconds");
    tt_jsonw_key(w, "startValue");
    tt_jsonw_int(w, 0);
    tt_jsonw_key(w, "events");
    tt_jsonw_arr_begin(w);
    evctx e = {w, base, 0, foff, {0}, fn, ctx, err};
    tt_vec_init(&e.open, sizeof(uint32_t));
    tt_slice_opts so = o->slice;
    so.sink = ev_chunk;
    so.sink_ctx = &e;
    tt_slice_info info;
    int rc = tt_slice_build(sl, &info, p, utid, &so, err);
    tt_vec_free(&e.open);
    if (rc)
        return rc;
    tt_jsonw_arr_end(w);
    tt_jsonw_key(w, "endValue");
    tt_jsonw_int(w, e.end);
    tt_jsonw_obj_end(w);
    return tt__flush(w, fn, ctx, 0, err);
}

static void put_frames(tt_jsonw *w, const tt_profile *p)
{
    for (size_t i = 0; i < tt_profile_nframes(p); i++) {
        const tt_stack_frame *f = tt_profile_frame(p, (uint32_t)i);
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "name");
        tt_jsonw_str(w, f->name);
        if (f->file) {
            tt_jsonw_key(w, "file");
            tt_jsonw_str(w, f->file);
        }
        if (f->line > 0) {
            tt_jsonw_key(w, "line");
            tt_jsonw_int(w, f->line);
        }
        tt_jsonw_obj_end(w);
    }
}

/* One part: its frames go first (a single part) or to the shared list written at the end
 * (several parts: "shared" follows "profiles", key order is free); frame indices are offset
 * by the frames of the earlier parts. */
struct tt__speedscope {
    const tt_export_opts *o;
    tt_write_fn fn;
    void *ctx;
    size_t n_parts, parts;
    tt_jsonw w;
    tt_jsonw frames;   /* several parts: the shared frames array */
    uint32_t foff;
    int64_t active, nprof;
    uint32_t *fr;
    tt_vec sl;
    tt_buf name, doc_name;
};

int tt__speedscope_open(tt__speedscope **out, const tt_export_opts *o, size_t n_parts,
                        const char *doc_name, tt_write_fn fn, void *ctx)
{
    tt__speedscope *x = calloc(1, sizeof *x);
    if (!x || !(x->fr = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *x->fr))) {
        free(x);
        return TT_ENOMEM;
    }
    x->o = o;
    x->fn = fn;
    x->ctx = ctx;
    x->n_parts = n_parts;
    x->active = -1;
    tt_vec_init(&x->sl, sizeof(tt_slice));
    tt_jsonw_init(&x->w, 0);
    tt_jsonw_init(&x->frames, 0);
    tt_jsonw_arr_begin(&x->frames);
    if (doc_name)
        tt_buf_puts(&x->doc_name, doc_name);
    tt_jsonw_obj_begin(&x->w);
    tt_jsonw_key(&x->w, "$schema");
    tt_jsonw_str(&x->w, "https://www.speedscope.app/file-format-schema.json");
    *out = x;
    return 0;
}

void tt__speedscope_free(tt__speedscope *x)
{
    if (!x)
        return;
    free(x->fr);
    tt_vec_free(&x->sl);
    tt_buf_free(&x->name);
    tt_buf_free(&x->doc_name);
    tt_jsonw_free(&x->w);
    tt_jsonw_free(&x->frames);
    free(x);
}

static void shared(tt_jsonw *w, const tt_jsonw *frames)
{
    tt_jsonw_key(w, "shared");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "frames");
    tt_jsonw_raw(w, frames->buf.data, frames->buf.len);
    tt_jsonw_obj_end(w);
}

/* Starts the profiles before the first part, or at the end when there is none (a single
 * part's document then gets its empty shared list first). */
static void body(tt__speedscope *x, int none)
{
    if (none && x->n_parts <= 1) {
        tt_jsonw_arr_end(&x->frames);
        shared(&x->w, &x->frames);
    }
    tt_jsonw_key(&x->w, "profiles");
    tt_jsonw_arr_begin(&x->w);
}

int tt__speedscope_add(tt__speedscope *x, tt_profile *p, const tt_export_opts *o,
                       const tt_export_part *part, tt_error *err)
{
    if (p->meta.timeless && (o->weight == TT_WEIGHT_WALL || o->weight == TT_WEIGHT_CPU))
        return tt_error_set(err, TT_EUNSUPPORTED, tt__timeless_input(p, o), 0, 0,
                            "the input has no timestamps: --weight %s needs times",
                            o->weight == TT_WEIGHT_WALL ? "wall" : "cpu");
    if (o->slice.mark_gaps && !p->meta.timeless) { /* its frame must be in the shared list */
        uint32_t f;
        if (tt__frame_simple(p, &f, "[no samples]", 12, TT_FRAME_SYNTHETIC, NULL))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    tt_jsonw *w = &x->w;
    if (x->n_parts <= 1 && !x->parts) {
        tt_jsonw_key(w, "shared");
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "frames");
        tt_jsonw_arr_begin(w);
        put_frames(w, p);
        tt_jsonw_arr_end(w);
        tt_jsonw_obj_end(w);
    } else {
        put_frames(&x->frames, p);
    }
    if (!x->parts)
        body(x, 0);
    int rc = 0;
    int64_t base = tt__profile_start(p);
    for (size_t t = 0; t < tt_profile_nthreads(p) && !rc; t++) {
        uint32_t utid = (uint32_t)t;
        if (!tt__export_wants(o, utid))
            continue;
        const tt_thread *th = tt_profile_thread(p, utid);
        x->name.len = 0;
        if (part->label)
            tt_buf_printf(&x->name, "%s: ", part->label);
        tt_thread_format(&x->name, p, utid);
        if (th->tid >= 0)
            tt_buf_printf(&x->name, " (%lld)", (long long)th->tid);
        if (th->is_main && x->active < 0)
            x->active = x->nprof;
        size_t ns;
        tt_profile_thread_order(p, utid, &ns);
        if (ns) {
            rc = sampled(w, p, utid, x->name.data, o, x->fr, x->foff, x->fn, x->ctx, err);
            x->nprof++;
        }
        if (!rc && !p->meta.timeless) {
            tt_buf_puts(&x->name, " slices");
            rc = evented(w, p, utid, x->name.data, o, base, x->foff, &x->sl, x->fn, x->ctx,
                         err);
            x->nprof++;
        }
    }
    if (x->n_parts <= 1 && !x->parts) {
        x->doc_name.len = 0;
        /* of several inputs: the same name whatever their order (tracetool-export(1)) */
        const char *proc = tt__export_process(p);
        tt_buf_printf(&x->doc_name, "%s %s", proc ? proc : "unknown", tt__export_format(p, o));
    }
    x->foff += (uint32_t)tt_profile_nframes(p);
    x->parts++;
    return rc;
}

int tt__speedscope_close(tt__speedscope *x, tt_error *err)
{
    tt_jsonw *w = &x->w;
    if (!x->parts)
        body(x, 1);
    tt_jsonw_arr_end(w);
    if (x->n_parts > 1) {
        tt_jsonw_arr_end(&x->frames);
        shared(w, &x->frames);
    }
    tt_jsonw_key(w, "name");
    tt_jsonw_str(w, x->doc_name.data ? x->doc_name.data : "");
    tt_jsonw_key(w, "activeProfileIndex");
    tt_jsonw_int(w, x->active < 0 ? 0 : x->active);
    tt_jsonw_key(w, "exporter");
    x->name.len = 0;
    tt_buf_printf(&x->name, "tracetool@%s", x->o->version ? x->o->version : "");
    tt_jsonw_str(w, x->name.data);
    tt_jsonw_obj_end(w);
    tt_buf_puts(&w->buf, "\n");
    return tt__flush(w, x->fn, x->ctx, 1, err);
}
